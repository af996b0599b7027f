// Runs a checked-in launch spec on a device config in timing (or functional) mode.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "sim/spec/device_spec.hpp"
#include "sim/launch/launch_spec.hpp"

namespace warpsim::test {

inline std::string repo(const std::string& rel) { return std::string(WARPSIM_SOURCE_DIR) + "/" + rel; }

struct Run {
  LaunchStats stats;
  bool correct = false;
  std::vector<std::string> text;  // the kernel's instructions
};

inline Run run_spec(const std::string& spec_rel, const std::string& config, const std::map<std::string, int64_t>& vars = {},
                    const std::vector<std::string>& sets = {}, SimMode mode = SimMode::Timing,
                    LaunchOptions base = {}) {
  DeviceSpec dev_spec = load_device_spec(repo("configs/" + config + ".json"), sets);
  Device dev(dev_spec);
  LaunchSpec spec = load_launch_spec(repo(spec_rel), vars);
  PreparedLaunch p = prepare(dev, spec);
  base.mode = mode;
  Run r;
  r.stats = launch(dev, p, base);
  r.correct = check_outputs(dev, p).passed;
  r.text = p.kernel->text;
  return r;
}

}  // namespace warpsim::test
