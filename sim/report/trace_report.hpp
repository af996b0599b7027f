// Printers for per-warp memory traces (--trace-warp): each memory instruction a chosen
// warp executed, the addresses of its active lanes, the segments/lines/sectors they fell
// into, the transactions issued, bank-conflict passes, and (timing mode) its cycles.
#pragma once
#include <string>

#include "sim/foundation/config_reader.hpp"
#include "sim/foundation/launch_stats.hpp"
#include "sim/isa/ir.hpp"

namespace warpsim {

std::string format_traces(const LaunchStats& s, const isa::Kernel& kernel);
Json traces_to_json(const LaunchStats& s, const isa::Kernel& kernel);

// "0x1000..0x107c step 4 (32 lanes)"-style compression of a list of lane addresses.
std::string describe_addresses(const std::vector<uint64_t>& addrs);

}  // namespace warpsim
