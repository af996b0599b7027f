// libFuzzer target: the device-config reader (parse_device_spec) on arbitrary JSON. A
// ConfigError naming the key is the expected answer to a bad config; anything else is a
// finding. Configs that parse are also used to build a Device (memory capacity).
#include "sim/engine/device.hpp"
#include "sim/spec/device_spec.hpp"
#include "sim/foundation/error.hpp"
#include "tests/fuzz/fuzz_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto doc = warpsim::fuzz::parse_json(data, size);
  if (!doc) return 0;
  try {
    warpsim::DeviceSpec spec = warpsim::parse_device_spec(*doc, "fuzz.json");
    warpsim::Device device(spec);
  } catch (const warpsim::Error&) {
  }
  return 0;
}
