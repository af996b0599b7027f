// Builds the test programs in programs/ with nvcc (`-cudart shared`, as a user would) and
// runs them under `warpsim exec`, capturing exit status, stdout and stderr. Without nvcc
// the tests that need it are skipped and say so.
#pragma once
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace rttest {

inline const std::string kNvcc = WARPSIM_CUDA_HOME "/bin/nvcc";

inline bool have_nvcc() { return std::filesystem::exists(kNvcc); }

inline std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

struct Run {
  int status = -1;
  std::string out, err;
};

inline Run shell(const std::string& cmd) {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path dir = fs::path(WARPSIM_BINARY_DIR) / "runtime_programs";
  fs::create_directories(dir);
  const std::string base = (dir / ("run" + std::to_string(::getpid()) + "_" + std::to_string(counter++))).string();
  int rc = std::system((cmd + " >" + base + ".out 2>" + base + ".err").c_str());
  Run r;
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  r.out = slurp(base + ".out");
  r.err = slurp(base + ".err");
  fs::remove(base + ".out");
  fs::remove(base + ".err");
  return r;
}

// programs/NAME.cu built into the build tree (again only when the source is newer); other
// nvcc flags (e.g. "-cudart static") build into a folder of their own.
// When a program's source or one of the headers it includes from its own folder
// (#include "x.h") last changed.
inline std::filesystem::file_time_type newest_source(const std::filesystem::path& src) {
  auto newest = std::filesystem::last_write_time(src);
  std::ifstream in(src);
  for (std::string line; std::getline(in, line);) {
    const size_t q = line.find('"');
    if (line.rfind("#include \"", 0) != 0 || q == std::string::npos) continue;
    const size_t e = line.find('"', q + 1);
    const auto header = src.parent_path() / line.substr(q + 1, e - q - 1);
    std::error_code ec;
    const auto t = std::filesystem::last_write_time(header, ec);
    if (!ec && t > newest) newest = t;
  }
  return newest;
}

inline std::string build_program(const std::string& name, const std::string& flags = "-cudart shared") {
  namespace fs = std::filesystem;
  const fs::path src = fs::path(WARPSIM_SOURCE_DIR) / "tests/750_runtime/programs" / (name + ".cu");
  std::string tag = flags;
  for (char& c : tag)
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  const fs::path bin = fs::path(WARPSIM_BINARY_DIR) / "runtime_programs" / tag / name;
  fs::create_directories(bin.parent_path());
  if (!fs::exists(bin) || fs::last_write_time(bin) < newest_source(src)) {
    // ctest runs test cases in parallel processes: build under a private name, then
    // rename (atomic), so no test ever runs a half-written program.
    const std::string tmp = bin.string() + ".tmp" + std::to_string(::getpid());
    Run r = shell(kNvcc + " -arch=sm_75 -lineinfo " + flags + " -o " + tmp + " " + src.string());
    INFO(r.err);
    REQUIRE(r.status == 0);
    fs::rename(tmp, bin);
  }
  return bin.string();
}

// programs/NAME.cu compiled alone into NAME.ptx, NAME.fatbin and NAME.cubin (sm_75), for a
// program that loads them through the driver API; returns their folder.
inline std::string build_modules(const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path src = fs::path(WARPSIM_SOURCE_DIR) / "tests/750_runtime/programs" / (name + ".cu");
  const fs::path dir = fs::path(WARPSIM_BINARY_DIR) / "runtime_programs" / "modules";
  fs::create_directories(dir);
  for (const char* kind : {"ptx", "fatbin", "cubin"}) {
    const fs::path out = dir / (name + "." + kind);
    if (fs::exists(out) && fs::last_write_time(out) >= fs::last_write_time(src)) continue;
    const std::string tmp = out.string() + ".tmp" + std::to_string(::getpid());
    Run r = shell(kNvcc + " -" + kind + " -arch=sm_75 -lineinfo -o " + tmp + " " + src.string());
    INFO(r.err);
    REQUIRE(r.status == 0);
    fs::rename(tmp, out);
  }
  return dir.string();
}

// A program whose sources a test writes itself: `files` (name, text) go into
// runtime_programs/NAME, the .cu ones are built with nvcc -arch=sm_75 and `flags` into
// NAME/app, whose path is returned.
inline std::string build_sources(const std::string& name, const std::vector<std::pair<std::string, std::string>>& files,
                                 const std::string& flags) {
  const std::string dir = std::string(WARPSIM_BINARY_DIR) + "/runtime_programs/" + name;
  std::filesystem::create_directories(dir);
  std::string units;
  for (const auto& [file, text] : files) {
    std::ofstream(dir + "/" + file) << text;
    if (file.size() > 3 && file.compare(file.size() - 3, 3, ".cu") == 0) units += " " + dir + "/" + file;
  }
  Run b = shell(kNvcc + " -arch=sm_75 " + flags + " -o " + dir + "/app" + units);
  INFO(b.err);
  REQUIRE(b.status == 0);
  return dir + "/app";
}

inline std::string warpsim_bin() { return std::string(WARPSIM_BINARY_DIR) + "/tools/warpsim"; }

inline Run exec(const std::string& options, const std::string& program, const std::string& args = "") {
  return shell(warpsim_bin() + " exec " + options + " -- " + program + " " + args);
}

// Runs `app ARGS` under `warpsim exec` in each of `modes` and checks that it exits with
// `status` having printed exactly `want`; returns the runs, in the order of `modes` (their
// stderr, for further checks).
inline std::vector<Run> check_prints(const std::string& app, const std::vector<std::string>& modes,
                                     const std::string& want, const std::string& args = "", int status = 0) {
  std::vector<Run> runs;
  for (const std::string& mode : modes) {
    runs.push_back(exec(mode, app, args));
    INFO(mode << "\n" << runs.back().err);
    CHECK(runs.back().status == status);
    CHECK(runs.back().out == want);
  }
  return runs;
}

// Builds programs/NAME.cu with `flags`, runs it under each of `modes` (by default functional
// and timed on the H100 config) and requires its stdout to equal programs/NAME.expected (what
// a GPU printed) in each; returns the runs (their stderr, for further checks).
inline std::vector<Run> check_prints_expected(const std::string& name, const std::string& flags = "-cudart shared",
                                              const std::vector<std::string>& modes = {
                                                  "--functional --no-summary", "--no-summary --config h100"}) {
  return check_prints(build_program(name, flags), modes,
                      slurp(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/" + name + ".expected"));
}

}  // namespace rttest

#define REQUIRE_NVCC()                                                        \
  if (!rttest::have_nvcc()) {                                                 \
    WARN("skipped: needs nvcc (" + rttest::kNvcc + " not found) to build it"); \
    return;                                                                   \
  }
