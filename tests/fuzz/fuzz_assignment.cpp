// libFuzzer target: the grading assignment reader (grading::parse_assignment) on arbitrary
// JSON, as if it were kernels/assignments/reduction/fuzz.json (its specs, solution and
// configs resolve there). A ConfigError naming the key is the expected answer; anything
// else is a finding.
#include "sim/foundation/error.hpp"
#include "sim/grading/assignment.hpp"
#include "tests/fuzz/fuzz_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto doc = warpsim::fuzz::parse_json(data, size);
  if (!doc) return 0;
  try {
    warpsim::grading::parse_assignment(*doc, WARPSIM_SOURCE_DIR "/kernels/assignments/reduction/fuzz.json");
  } catch (const warpsim::Error&) {
  }
  return 0;
}
