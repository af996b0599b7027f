// libFuzzer target: the launch-spec reader (parse_launch_spec) on arbitrary JSON, as if the
// spec were kernels/vecadd/fuzz.json (relative files resolve there). Specs that parse get
// their small buffers' initial contents computed (large ones would only test the host's
// memory). A ConfigError is the expected answer to a bad spec; anything else is a finding.
#include "sim/foundation/error.hpp"
#include "sim/launch/launch_spec.hpp"
#include "tests/fuzz/fuzz_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto doc = warpsim::fuzz::parse_json(data, size);
  if (!doc) return 0;
  try {
    warpsim::LaunchSpec spec =
        warpsim::parse_launch_spec(*doc, WARPSIM_SOURCE_DIR "/kernels/vecadd/fuzz.json");
    for (const auto& b : spec.buffers)
      if (b.bytes() <= (1u << 20)) warpsim::initial_contents(spec, b);
  } catch (const warpsim::Error&) {
  }
  return 0;
}
