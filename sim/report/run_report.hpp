// The summary that leads `warpsim run`'s output: what ran where, whether the result is
// right, the time, and what limits the kernel.
#pragma once
#include <string>

#include "sim/spec/device_spec.hpp"
#include "sim/launch/launch_spec.hpp"
#include "sim/foundation/launch_stats.hpp"

namespace warpsim {

std::string format_run_summary(const LaunchStats& s, const isa::Kernel& kernel, const DeviceSpec& device,
                               const LaunchSpec& spec, const CheckResult& check);

}  // namespace warpsim
