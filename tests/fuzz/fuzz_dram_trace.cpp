// libFuzzer target: the DRAM trace reader and the DRAM model behind `warpsim dram`, on
// arbitrary text, with the C2070's DRAM. An Error naming "fuzz.trace:LINE" is the expected
// answer to a bad trace; anything else (or a hang) is a finding.
#include <sstream>
#include <string>

#include "sim/spec/device_spec.hpp"
#include "sim/foundation/error.hpp"
#include "sim/memory/dram_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const warpsim::mem::DramSpec dram =
      warpsim::load_device_spec(WARPSIM_SOURCE_DIR "/configs/c2070.json").dram;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    warpsim::mem::run_dram_trace(dram, in, "fuzz.trace");
  } catch (const warpsim::Error&) {
  }
  return 0;
}
