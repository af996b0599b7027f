// The layers of sim/ point one way (docs/architecture.md): foundation, then the components
// (isa, memory, sm, spec), then the engine, then the applications (launch, report, sweep,
// grading, runtime). Each folder's README says what it may include on a line starting
// "May include:"; this test holds every #include to that list, and every list to the
// layer order, so a lower layer including a higher one fails here with file:line.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const std::map<std::string, int>& layers() {
  static const std::map<std::string, int> l = {
      {"foundation", 0}, {"isa", 1},    {"memory", 1}, {"sm", 1},      {"spec", 1},    {"engine", 2},
      {"launch", 3},     {"report", 3}, {"sweep", 3},  {"grading", 3}, {"runtime", 3},
  };
  return l;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The folder names in backticks of the README's "May include:" paragraph (to a blank line).
std::set<std::string> may_include(const std::string& readme) {
  auto at = readme.find("May include:");
  if (at == std::string::npos) return {"<no May include: line>"};
  auto end = readme.find("\n\n", at);
  std::string para = readme.substr(at, end == std::string::npos ? std::string::npos : end - at);
  std::set<std::string> out;
  static const std::regex name("`([a-z_]+)`");
  for (std::sregex_iterator it(para.begin(), para.end(), name), e; it != e; ++it) out.insert((*it)[1]);
  return out;
}

// "file:line: includes sim/X/..., which FOLDER may not include" for each offending line.
std::vector<std::string> violations(const std::string& folder, const std::string& file, const std::string& text,
                                    const std::set<std::string>& allowed) {
  std::vector<std::string> out;
  static const std::regex include(R"(^\s*#\s*include\s*"sim/([a-z_]+)/([^"]+)\")");
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::smatch m;
    if (!std::regex_search(line, m, include)) continue;
    const std::string to = m[1];
    if (to != folder && !allowed.count(to))
      out.push_back(file + ":" + std::to_string(n) + ": includes sim/" + to + "/" + std::string(m[2]) + ", which " +
                    folder + " may not include");
  }
  return out;
}

}  // namespace

TEST_CASE("layout: the checker catches an include its folder may not make", "[layout]") {
  const std::string text = "#include <vector>\n#include \"sim/isa/ir.hpp\"\n  #  include \"sim/engine/device.hpp\"\n";
  CHECK(violations("sm", "x.cpp", text, {"foundation", "isa"}) ==
        std::vector<std::string>{"x.cpp:3: includes sim/engine/device.hpp, which sm may not include"});
  CHECK(violations("engine", "x.cpp", text, {"isa"}).empty());
  CHECK(may_include("# t\n\nMay include: `foundation`, `isa` (types),\n`sm`.\n\nNot `engine`.\n") ==
        std::set<std::string>{"foundation", "isa", "sm"});
}

TEST_CASE("layout: every folder of sim/ has a README placing it in a layer", "[layout]") {
  const fs::path sim = fs::path(WARPSIM_SOURCE_DIR) / "sim";
  for (const auto& e : fs::directory_iterator(sim)) {
    if (!e.is_directory()) continue;
    const std::string folder = e.path().filename().string();
    INFO("sim/" << folder);
    CHECK(layers().count(folder) == 1);
    CHECK(fs::is_regular_file(e.path() / "README.md"));
  }
}

TEST_CASE("layout: no layer includes a higher one", "[layout]") {
  const fs::path sim = fs::path(WARPSIM_SOURCE_DIR) / "sim";
  std::vector<std::string> problems;
  for (const auto& [folder, layer] : layers()) {
    const fs::path dir = sim / folder;
    REQUIRE(fs::is_directory(dir));
    const std::set<std::string> allowed = may_include(read(dir / "README.md"));
    for (const auto& a : allowed) {
      auto it = layers().find(a);
      if (it == layers().end())
        problems.push_back("sim/" + folder + "/README.md: may include `" + a + "`, which is not a folder of sim/");
      else if (it->second > layer)
        problems.push_back("sim/" + folder + "/README.md: may include `" + a + "`, a higher layer");
    }
    for (const auto& f : fs::recursive_directory_iterator(dir)) {
      const std::string ext = f.path().extension().string();
      if (!f.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".inc")) continue;
      for (auto& v : violations(folder, fs::relative(f.path(), WARPSIM_SOURCE_DIR).string(), read(f.path()), allowed))
        problems.push_back(std::move(v));
    }
  }
  for (const auto& p : problems) UNSCOPED_INFO(p);
  CHECK(problems.empty());
}
