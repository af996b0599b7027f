// Adds the counts of one share of a launch into the launch's statistics: what the SMs of
// one worker thread counted in a parallel timing run (engine/sm_phase.hpp). Every field
// summed is an integer, so the result does not depend on how the work was shared out.
#pragma once
#include "sim/foundation/launch_stats.hpp"

namespace warpsim {

// Adds `part`'s ExecStats and MemStats counters, per-pc counters and per-branch instance
// counts into `into` (per_pc and branches grow to `part`'s sizes). Everything else of
// `into` (identity, occupancy, timing, DRAM, traces, warp_size) is left as it is.
void add_counts(LaunchStats& into, const LaunchStats& part);

}  // namespace warpsim
