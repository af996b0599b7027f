// Printers for occupancy figures: the JSON object `warpsim occupancy --json` prints and a
// readable text block. Plain functions of the computed figures; nothing is recomputed.
#pragma once
#include <string>

#include "sim/foundation/config_reader.hpp"
#include "sim/foundation/launch_stats.hpp"
#include "sim/sm/occupancy.hpp"

namespace warpsim::sm {

// The OccupancyStats fields, one JSON key each, named as the struct's fields.
Json occupancy_json(const OccupancyStats& s);

// Several lines: the block's resources and their allocations, each limit in blocks per
// SM, the result (blocks, warps, threads per SM, occupancy) and the limiter.
std::string occupancy_text(const OccupancyDetail& d);

}  // namespace warpsim::sm
