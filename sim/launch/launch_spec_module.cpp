// The module of a launch spec: a .ptx file as is, or a .cu compiled with nvcc into a cache
// folder (keyed by the source's path, contents and the flags).
#include <fmt/format.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "sim/foundation/error.hpp"
#include "sim/foundation/file_checks.hpp"
#include "sim/launch/launch_spec.hpp"

namespace warpsim {
namespace {

namespace fs = std::filesystem;

// The flags of tools/regen_ptx.sh's NVCC_PTX_FLAGS (tests/150_launch_spec checks they agree).
const std::vector<std::string> kNvccPtxFlags = {"-ptx", "-lineinfo", "-O3", "-arch=sm_75"};
// Where nvcc is looked for after $NVCC and PATH.
const std::vector<std::string> kNvccFallbackDirs = {"/usr/local/cuda/bin"};

bool is_executable(const fs::path& p) {
  std::error_code ec;
  auto st = fs::status(p, ec);
  return !ec && fs::is_regular_file(st) && (st.permissions() & fs::perms::owner_exec) != fs::perms::none;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

uint64_t fnv1a(const std::string& data, uint64_t h = 0xcbf29ce484222325ull) {
  for (unsigned char c : data) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

// Runs a shell command, returning its exit status and combined output.
int run_command(const std::string& command, std::string& output) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return -1;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) output.append(buf.data(), n);
  return pclose(pipe);
}

std::string compile_cu(const LaunchSpec& spec) {
  std::string nvcc = find_nvcc();
  if (nvcc.empty()) throw ConfigError(nvcc_missing_message(spec));
  std::string flags;
  for (const auto& f : kNvccPtxFlags) flags += " " + f;
  std::string source = fs::absolute(spec.module_path).string();
  uint64_t key = fnv1a(read_file(source), fnv1a(source + "\n" + nvcc + flags));
  fs::path dir = fs::temp_directory_path() / "warpsim-nvcc";
  fs::path out = dir / fmt::format("{}-{:016x}.ptx", fs::path(source).stem().string(), key);
  if (is_regular_file_noexcept(out)) return out.string();
  fs::create_directories(dir);
  fs::path tmp = out;
  tmp += fmt::format(".tmp{}", static_cast<long>(::getpid()));
  std::string command = shell_quote(nvcc) + flags + " " + shell_quote(source) + " -o " + shell_quote(tmp.string());
  std::string output;
  int status = run_command(command, output);
  if (status != 0) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw ConfigError(fmt::format("{}: cu: nvcc failed on {}:\n{}", spec.path, spec.module_path, output));
  }
  fs::rename(tmp, out);
  return out.string();
}

}  // namespace

const std::vector<std::string>& nvcc_ptx_flags() { return kNvccPtxFlags; }

std::string nvcc_missing_message(const LaunchSpec& spec) {
  std::string places = "$NVCC, PATH";
  for (const auto& d : kNvccFallbackDirs) places += ", " + d;
  return fmt::format("{}: cu: compiling {} needs nvcc, which was not found (looked in {}); install the CUDA toolkit, "
                     "set NVCC, or point the spec at a .ptx",
                     spec.path, spec.module_path, places);
}

std::string find_nvcc() { return find_nvcc_in(std::getenv("NVCC"), std::getenv("PATH"), kNvccFallbackDirs); }

std::string find_nvcc_in(const char* nvcc_env, const char* path_env, const std::vector<std::string>& fallback_dirs) {
  if (nvcc_env && *nvcc_env && is_executable(nvcc_env)) return nvcc_env;
  if (path_env) {
    std::stringstream ss(path_env);
    std::string dir;
    while (std::getline(ss, dir, ':')) {
      if (dir.empty()) continue;
      fs::path candidate = fs::path(dir) / "nvcc";
      if (is_executable(candidate)) return candidate.string();
    }
  }
  for (const auto& dir : fallback_dirs)
    if (is_executable(fs::path(dir) / "nvcc")) return (fs::path(dir) / "nvcc").string();
  return "";
}

const isa::Module& load_spec_module(Device& device, const LaunchSpec& spec) {
  return device.load_ptx_file(spec.module_is_cu ? compile_cu(spec) : spec.module_path);
}

}  // namespace warpsim
