// libFuzzer target: the fatbinary reader of the CUDA runtime (sim/runtime/fatbin.cpp) on
// arbitrary bytes, as __cudaRegisterFatBinary would hand it a program's image. A
// FatbinError is the expected answer to a malformed, truncated or corrupt image (bad
// sizes, corrupt zstd/LZ4 data); a crash, a read outside the input or a leak is a finding.
#include <span>

#include "sim/runtime/fatbin.hpp"
#include "sim/runtime/runtime_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    warpsim::runtime::Fatbin fb = warpsim::runtime::read_fatbin(std::span<const uint8_t>(data, size));
    (void)fb.describe();
    (void)fb.best_ptx("fuzz");
  } catch (const warpsim::Error&) {
  }
  return 0;
}
