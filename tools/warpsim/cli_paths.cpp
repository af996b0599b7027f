#include "tools/warpsim/cli_paths.hpp"

#include <filesystem>

namespace warpsim::cli {

namespace fs = std::filesystem;

std::string resolve_input(const std::string& path) {
  if (fs::exists(path) || fs::path(path).is_absolute()) return path;
  fs::path in_source = fs::path(WARPSIM_SOURCE_DIR) / path;
  return fs::exists(in_source) ? in_source.string() : path;
}

std::string resolve_config(const std::string& name_or_path) {
  if (fs::exists(name_or_path)) return name_or_path;
  bool bare = name_or_path.find('/') == std::string::npos && fs::path(name_or_path).extension() != ".json";
  if (bare) {
    std::string candidate = resolve_input("configs/" + name_or_path + ".json");
    if (fs::exists(candidate)) return candidate;
  }
  return resolve_input(name_or_path);
}

std::string cudart_dir() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path beside = self.parent_path().parent_path() / "lib";
    if (fs::exists(beside / "libcudart.so.13")) return beside.string();
  }
  if (fs::exists(fs::path(WARPSIM_CUDART_DIR) / "libcudart.so.13")) return WARPSIM_CUDART_DIR;
  return "";
}

}  // namespace warpsim::cli
