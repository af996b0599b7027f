// libFuzzer target: the PTX loader (isa::parse_ptx) on arbitrary text. A PtxError (or any
// warpsim::Error) is the expected answer to bad input; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/foundation/error.hpp"
#include "sim/isa/ptx_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto module = warpsim::isa::parse_ptx(text, "fuzz.ptx");
  } catch (const warpsim::Error&) {
  }
  return 0;
}
