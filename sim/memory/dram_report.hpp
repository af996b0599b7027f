// DRAM statistics as JSON (nvprof-style metric names) and as a readable summary.
#pragma once
#include <string>

#include "sim/foundation/config_reader.hpp"
#include "sim/foundation/launch_stats.hpp"

namespace warpsim::mem {

// {"dram_read_transactions": .., ..., "achieved_dram_bandwidth_gbps": .., "dram_cycles": N}
// dram_utilization is a fraction in [0, 1] (nvprof reports a 0-10 level instead).
Json dram_metrics_json(const DramStats& s);
// {"channels": [{per-channel counts..., "banks": [{per-bank counts}, ...]}, ...]}
Json dram_section_json(const DramStats& s);
// Multi-line summary: totals, bandwidth, row outcomes, BLP and a per-channel table.
std::string dram_summary_text(const DramStats& s);

}  // namespace warpsim::mem
