// Printers of a launch's statistics: readable text and JSON. Both print collect_metrics()
// and the plain stats structs; neither computes anything the simulator did not count.
#pragma once
#include <string>

#include "sim/foundation/config_reader.hpp"
#include "sim/foundation/launch_stats.hpp"
#include "sim/isa/ir.hpp"

namespace warpsim {

// {"kernel", "device", "mode", "grid", "block", "metrics": {...}, "occupancy": {...},
//  "dram": {...}, "branches": [...]}. `kernel` (may be null) adds PTX/source lines.
Json stats_to_json(const LaunchStats& s, const isa::Kernel* kernel);

// The detailed metric tables, one "name  value  description" line per metric.
std::string format_metric_tables(const LaunchStats& s);

// "file:line" of an instruction's CUDA source (from .loc) or "" when it has none.
std::string source_location(const isa::Kernel& k, uint32_t pc);

}  // namespace warpsim
