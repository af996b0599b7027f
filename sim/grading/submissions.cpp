// Submission discovery: single files, .cu/.ptx pairs, one folder per student.
#include "sim/grading/submissions.hpp"
#include "sim/foundation/file_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "sim/foundation/error.hpp"

namespace warpsim::grading {
namespace {

namespace fs = std::filesystem;

bool is_module(const fs::path& p) { return p.extension() == ".cu" || p.extension() == ".ptx"; }

// True when `p` is a symbolic link whose target (all links resolved, nothing opened) is not
// inside `root`. A link that cannot be resolved counts as leading out.
bool link_leads_out(const fs::path& p, const fs::path& root) {
  std::error_code ec;
  if (!fs::is_symlink(p, ec)) return false;
  fs::path target = fs::weakly_canonical(p, ec);
  if (ec) return true;
  fs::path base = fs::canonical(root, ec);
  if (ec) return true;
  auto [b, t] = std::mismatch(base.begin(), base.end(), target.begin(), target.end());
  return b != base.end() || t == target.end();  // not below base (base itself is not inside)
}

std::string refusal(const fs::path& link, const fs::path& root, bool folder) {
  return fmt::format("{}: a symbolic link leading out of {}; it was not followed (submit the {} itself)",
                     link.string(), root.string(), folder ? "folder" : "file");
}

// The modules of a folder grouped by stem: stem -> {".cu" path, ".ptx" path}. Links that
// lead out of `dir` go to `refused` instead (stem -> the refusal), their targets untouched.
std::map<std::string, std::vector<fs::path>> modules_by_stem(const fs::path& dir,
                                                            std::map<std::string, std::string>* refused) {
  std::map<std::string, std::vector<fs::path>> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!is_module(e.path())) continue;
    if (link_leads_out(e.path(), dir)) {
      refused->emplace(e.path().stem().string(), refusal(e.path(), dir, false));
      continue;
    }
    if (e.is_regular_file()) out[e.path().stem().string()].push_back(e.path());
  }
  for (auto& [stem, paths] : out) std::sort(paths.begin(), paths.end());  // .cu before .ptx
  return out;
}

}  // namespace

Submission submission_from_file(const std::string& path) {
  return Submission{fs::path(path).filename().string(), path, {}, {}};
}

std::string pick_module(const std::string& path, bool have_nvcc, std::string* note) {
  fs::path p(path);
  if (p.extension() != ".cu" || have_nvcc) return path;
  fs::path ptx = fs::path(p).replace_extension(".ptx");
  fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!is_regular_file_noexcept(ptx) || link_leads_out(ptx, dir)) return path;
  if (note) *note = fmt::format("nvcc not found: graded {} instead of {}", ptx.filename().string(), p.filename().string());
  return ptx.string();
}

std::vector<Submission> list_submissions(const std::string& dir, bool have_nvcc) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Error(fmt::format("{}: not a folder of submissions", dir));
  std::vector<Submission> out;
  std::map<std::string, std::string> refused;
  auto modules = modules_by_stem(dir, &refused);
  for (const auto& [stem, why] : refused) {
    if (modules.count(stem)) continue;  // x.cu is a file and x.ptx a link: x.cu is graded
    Submission s{stem, (fs::path(dir) / stem).string(), {}, {}};
    s.refused = why;
    out.push_back(std::move(s));
  }
  for (const auto& [stem, paths] : modules) {
    Submission s{stem, paths.front().string(), {}, {}};
    std::string note;
    s.path = pick_module(s.path, have_nvcc, &note);
    if (!note.empty()) s.notes.push_back(note);
    out.push_back(std::move(s));
  }
  std::set<std::string> taken;
  for (const auto& s : out) taken.insert(s.name);
  std::vector<fs::path> folders;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory() && e.path().filename().string()[0] != '.') folders.push_back(e.path());
  std::sort(folders.begin(), folders.end());
  for (const auto& f : folders) {
    std::string name = f.filename().string();
    if (taken.count(name)) name += "/";
    Submission s{name, f.string(), {}, {}};
    if (link_leads_out(f, dir)) {
      s.refused = refusal(f, dir, true);
      out.push_back(std::move(s));
      continue;
    }
    std::map<std::string, std::string> refused_inside;
    auto modules = modules_by_stem(f, &refused_inside);
    if (!refused_inside.empty()) {
      s.refused = refused_inside.begin()->second;
      out.push_back(std::move(s));
      continue;
    }
    if (modules.size() == 1) {
      std::string note;
      s.path = pick_module(modules.begin()->second.front().string(), have_nvcc, &note);
      if (!note.empty()) s.notes.push_back(note);
    } else {
      s.notes.push_back(modules.empty() ? "the folder holds no .cu or .ptx file"
                                        : fmt::format("the folder holds {} modules; expected one", modules.size()));
    }
    out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end(), [](const Submission& a, const Submission& b) { return a.name < b.name; });
  return out;
}

}  // namespace warpsim::grading
