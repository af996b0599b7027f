// Runs a checked-in launch spec (kernels/...) on a simulated device in functional mode
// and checks its outputs against the spec's CPU reference.
#pragma once
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "sim/engine/device.hpp"
#include "sim/spec/device_spec.hpp"
#include "sim/launch/launch_spec.hpp"

namespace kernel_test {

struct SpecRun {
  warpsim::LaunchSpec spec;
  warpsim::LaunchStats stats;
  warpsim::CheckResult check;
  bool outputs_changed = false;  // the kernel changed at least one output element
};

inline std::string kernel_spec_path(const std::string& relative) {
  return std::string(WARPSIM_SOURCE_DIR) + "/kernels/" + relative;
}

inline warpsim::DeviceSpec device_config(const std::string& name) {
  return warpsim::load_device_spec(std::string(WARPSIM_SOURCE_DIR) + "/configs/" + name + ".json");
}

inline SpecRun run_spec(const std::string& relative, const std::map<std::string, int64_t>& vars = {},
                        const std::string& config = "c2070") {
  warpsim::Device device(device_config(config));
  SpecRun run;
  run.spec = warpsim::load_launch_spec(kernel_spec_path(relative), vars);
  auto prepared = warpsim::prepare(device, run.spec);
  warpsim::LaunchOptions options;
  options.mode = warpsim::SimMode::Functional;
  run.stats = warpsim::launch(device, prepared, options);
  run.check = warpsim::check_outputs(device, prepared);
  for (const auto& name : run.spec.check.outputs) {
    const auto& buf = prepared.buffer(name);
    std::vector<uint8_t> now(buf.initial.bytes.size());
    device.copy_from_device(now.data(), buf.ptr, now.size());
    run.outputs_changed |= now != buf.initial.bytes;
  }
  return run;
}

// Runs the spec and requires its check to pass, with the check's message on failure.
inline SpecRun require_spec_passes(const std::string& relative, const std::map<std::string, int64_t>& vars = {},
                                   const std::string& config = "c2070") {
  std::string label = relative;
  for (const auto& [k, v] : vars) label += " " + k + "=" + std::to_string(v);
  INFO(label << " on " << config);
  SpecRun run = run_spec(relative, vars, config);
  INFO(run.check.message);
  REQUIRE(run.check.checked);
  CHECK(run.check.compared > 0);
  CHECK(run.outputs_changed);
  CHECK(run.check.passed);
  return run;
}

}  // namespace kernel_test
