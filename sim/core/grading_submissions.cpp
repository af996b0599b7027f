// Submission discovery: single files, .cu/.ptx pairs, one folder per student.
#include "sim/core/grading_submissions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "sim/core/error.hpp"

namespace warpsim::grading {
namespace {

namespace fs = std::filesystem;

bool is_module(const fs::path& p) { return p.extension() == ".cu" || p.extension() == ".ptx"; }

// The modules of a folder grouped by stem: stem -> {".cu" path, ".ptx" path}.
std::map<std::string, std::vector<fs::path>> modules_by_stem(const fs::path& dir) {
  std::map<std::string, std::vector<fs::path>> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.is_regular_file() && is_module(e.path())) out[e.path().stem().string()].push_back(e.path());
  }
  for (auto& [stem, paths] : out) std::sort(paths.begin(), paths.end());  // .cu before .ptx
  return out;
}

}  // namespace

Submission submission_from_file(const std::string& path) {
  return Submission{fs::path(path).filename().string(), path, {}};
}

std::string pick_module(const std::string& path, bool have_nvcc, std::string* note) {
  fs::path p(path);
  if (p.extension() != ".cu" || have_nvcc) return path;
  fs::path ptx = fs::path(p).replace_extension(".ptx");
  if (!fs::is_regular_file(ptx)) return path;
  if (note) *note = fmt::format("nvcc not found: graded {} instead of {}", ptx.filename().string(), p.filename().string());
  return ptx.string();
}

std::vector<Submission> list_submissions(const std::string& dir, bool have_nvcc) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Error(fmt::format("{}: not a folder of submissions", dir));
  std::vector<Submission> out;
  for (const auto& [stem, paths] : modules_by_stem(dir)) {
    Submission s{stem, paths.front().string(), {}};
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
    auto modules = modules_by_stem(f);
    Submission s{name, f.string(), {}};
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
