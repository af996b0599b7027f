// Questions about paths that come from users (specs, assignments, submissions) answered
// without throwing: std::filesystem's throwing forms raise filesystem_error for names the OS
// refuses (too long, bad encoding), which would escape as an internal error. Such a path is
// simply not a file here, and the caller reports "no such file" naming its key.
#pragma once
#include <filesystem>
#include <system_error>

namespace warpsim {

inline bool is_regular_file_noexcept(const std::filesystem::path& p) noexcept {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec) && !ec;
}

inline bool exists_noexcept(const std::filesystem::path& p) noexcept {
  std::error_code ec;
  return std::filesystem::exists(p, ec) && !ec;
}

}  // namespace warpsim
