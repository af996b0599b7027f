// Device printf formatting: CUDA's vprintf takes the format string and a buffer holding the
// arguments, each at the next offset aligned to its own size (ints and chars 4 bytes;
// long, long long, pointers and doubles 8; floats arrive promoted to double). This turns
// them into text by the C library's rules for each conversion.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace warpsim::sm {

struct PrintfArgs {
  // The next argument of `bytes` (4 or 8) bytes, zero-extended.
  std::function<uint64_t(uint32_t bytes)> next;
  // The NUL-terminated string at a device address (%s).
  std::function<std::string(uint64_t address)> string_at;
};

// The text of one printf; `consumed` is set to the number of arguments it used (what
// CUDA's printf returns). Unknown conversions are copied as written.
std::string format_device_printf(std::string_view format, const PrintfArgs& args, int& consumed);

}  // namespace warpsim::sm
