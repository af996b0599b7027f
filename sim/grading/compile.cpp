// nvcc for submissions, and private temporary folders.
#include "sim/grading/compile.hpp"

#include <fmt/format.h>
#include <stdlib.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

#include "sim/foundation/error.hpp"
#include "sim/grading/includes.hpp"
#include "sim/launch/launch_spec.hpp"

namespace warpsim::grading {
namespace {

namespace fs = std::filesystem;

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs nvcc on `cu` with the PTX flags and `extra`, in folder `cwd` ("" = here).
CompileResult run_nvcc(const std::string& nvcc, const std::string& cu, const fs::path& out,
                       const std::vector<std::string>& extra, const std::string& cwd, bool ptx = true) {
  CompileResult r;
  std::string command = cwd.empty() ? "" : "cd " + shell_quote(cwd) + " && ";
  command += shell_quote(nvcc);
  if (ptx)
    for (const auto& f : nvcc_ptx_flags()) command += " " + f;
  for (const auto& f : extra) command += " " + shell_quote(f);
  command += " " + shell_quote(cu) + " -o " + shell_quote(out.string()) + " 2>&1 </dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) {
    r.log = fmt::format("cannot run {}", nvcc);
    return r;
  }
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.log.append(buf.data(), n);
  int status = pclose(pipe);
  r.ok = status == 0 && fs::is_regular_file(out);
  if (r.ok) r.ptx_path = out.string();
  else if (r.log.empty()) r.log = fmt::format("nvcc exited with status {}", status);
  return r;
}

CompileResult refused(std::string message) {
  CompileResult r;
  r.refused = true;
  r.log = std::move(message);
  return r;
}

}  // namespace

CompileResult compile_cu(const std::string& nvcc, const std::string& cu, const std::string& out_dir) {
  fs::path out = fs::path(out_dir) / (fs::path(cu).stem().string() + ".ptx");
  return run_nvcc(nvcc, fs::absolute(cu).string(), out, {}, "");
}

namespace {

// Checks a submitted .cu and copies it, with the assignment's headers, into a fresh scratch
// folder OUT_DIR/src. Returns the refusal ("" when the copy is ready); `name` is the copy's
// file name.
std::string prepare_copy(const std::string& nvcc, const std::string& cu, const std::string& out_dir,
                         const std::vector<std::string>& headers, fs::path* scratch, std::string* name) {
  constexpr uint64_t kMaxSourceBytes = uint64_t(4) << 20;
  *name = fs::path(cu).filename().string();
  std::error_code ec;
  if (!fs::is_regular_file(cu, ec)) return fmt::format("{}: not a regular file", *name);
  if (fs::file_size(cu, ec) > kMaxSourceBytes) return fmt::format("{}: larger than {} bytes; not compiled", *name, kMaxSourceBytes);
  std::string source;
  {
    std::ifstream in(cu, std::ios::binary);
    if (!in) return fmt::format("{}: cannot be read", *name);
    std::ostringstream ss;
    ss << in.rdbuf();
    source = ss.str();
  }
  IncludePolicy policy;
  policy.toolkit_include_dir = toolkit_include_dir(nvcc);
  for (const auto& h : headers) policy.assignment_headers.push_back(fs::path(h).filename().string());
  std::string why = check_includes(source, *name, policy);
  if (!why.empty()) return why;

  // A fresh scratch folder: only the submission and the assignment's headers.
  *scratch = fs::path(out_dir) / "src";
  fs::remove_all(*scratch, ec);
  fs::create_directories(*scratch);
  {
    std::ofstream copy(*scratch / *name, std::ios::binary);
    copy << source;
    if (!copy) return fmt::format("{}: cannot write the scratch copy in {}", *name, scratch->string());
  }
  for (const auto& h : headers) fs::copy_file(h, *scratch / fs::path(h).filename(), fs::copy_options::overwrite_existing);
  // "./" keeps a file name that starts with '-' from being read as an option.
  if (name->starts_with("-")) *name = "./" + *name;
  return "";
}

}  // namespace

CompileResult compile_submission(const std::string& nvcc, const std::string& cu, const std::string& out_dir,
                                 const std::vector<std::string>& headers) {
  fs::path scratch;
  std::string name;
  if (std::string why = prepare_copy(nvcc, cu, out_dir, headers, &scratch, &name); !why.empty()) return refused(why);
  fs::path out = fs::absolute(fs::path(out_dir) / (fs::path(cu).stem().string() + ".ptx"));
  return run_nvcc(nvcc, name, out, {"--brief-diagnostics=true"}, scratch.string());
}

const std::vector<std::string>& nvcc_program_flags() {
  static const std::vector<std::string> flags = {"-cudart", "shared", "-arch=sm_75", "-lineinfo",
                                                 "--brief-diagnostics=true"};
  return flags;
}

CompileResult compile_program(const std::string& nvcc, const std::string& cu, const std::string& out_dir,
                              const std::vector<std::string>& headers) {
  fs::path scratch;
  std::string name;
  if (std::string why = prepare_copy(nvcc, cu, out_dir, headers, &scratch, &name); !why.empty()) return refused(why);
  fs::path out = fs::absolute(fs::path(out_dir) / "program");
  CompileResult r = run_nvcc(nvcc, name, out, nvcc_program_flags(), scratch.string(), /*ptx=*/false);
  if (r.ok) r.program_path = out.string();
  return r;
}

std::string summarize_nvcc_log(const std::string& log, size_t max_lines) {
  // "/long/path/x.cu(12): error: ..." -> "x.cu(12): error: ..."
  static const std::regex path_prefix(R"((^|\s)(/[^\s:()]*/)([^/\s:()]+\.(cu|cuh|h|hpp)))");
  std::istringstream in(log);
  std::string line;
  std::vector<std::string> errors, all;
  while (std::getline(in, line)) {
    // std::regex recurses per character: very long lines (a diagnostic quoting a long source
    // line) are cut first, which the feedback would do anyway.
    constexpr size_t kMaxLine = 1000;
    if (line.size() > kMaxLine) line = line.substr(0, kMaxLine) + " [...]";
    line = std::regex_replace(line, path_prefix, "$1$3");
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    all.push_back(line);
    if (line.find("error") != std::string::npos) errors.push_back(line);
  }
  const std::vector<std::string>& shown = errors.empty() ? all : errors;
  std::string out;
  for (size_t i = 0; i < shown.size() && i < max_lines; ++i) out += (out.empty() ? "" : "\n") + shown[i];
  if (shown.size() > max_lines) out += fmt::format("\n... and {} more", shown.size() - max_lines);
  return out;
}

TempDir::TempDir(const std::string& prefix) {
  std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) throw Error(fmt::format("cannot create a temporary folder {}", pattern));
  path_ = buf.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

}  // namespace warpsim::grading
