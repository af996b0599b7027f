// Sampled timing (`warpsim run --sample N`): the first N waves of blocks run in the timing
// model and the rest functionally, so every count that execution produces (instructions,
// requests, transactions, bank conflicts, divergence) is exact, while the time and the
// counters only the timing model produces (cache hits, DRAM, stalls, issue) are the timed
// blocks' extrapolated to the whole grid.
//
// The time: the timed run of K blocks shows the steady state between half and seven
// eighths of its blocks finishing (by count): late enough that the launch's synchronised
// start has spread out, early enough to leave the final drain out (docs/performance.md
// measured earlier windows: worse). Blocks finish in bursts, a wave at a time, so the
// cycles per block are taken between the window's first wave of finishes and its last: the
// difference of their mean finishing cycles over the counts between them. Whatever repeats
// every wave cancels; a line fitted through every finish (the twenty-eighth session's) is
// pulled flat by the bursts, 1 - 1/m^2 of the slope for m waves of a pure staircase, and
// underestimated 8-wave samples by 1.3 % on average (docs/performance.md). With T the
// timed run's cycles, the grid of n blocks takes T + (n - K) x that: the start-up and the
// final drain once, the steady state per block for the rest.
#pragma once
#include <cstdint>

#include "sim/foundation/launch_stats.hpp"
#include "sim/spec/device_spec.hpp"

namespace warpsim {

// How many of the grid's first blocks to time: `waves` waves of `blocks_per_wave` blocks,
// or every block (returns `nblocks`) when that would time at least half the grid anyway,
// or when waves is 0.
uint64_t blocks_to_time(uint64_t nblocks, uint64_t blocks_per_wave, uint32_t waves);

// The steady-state window of a timed run of `timed_blocks`: the counts j (the j-th block
// to finish) in [lo, hi], half to seven eighths of them, and its two groups of `group`
// counts, [lo, lo + group) and (hi - group, hi]: a wave of blocks, or half the window when
// that is shorter. group 0: no window (too few blocks).
struct SteadyWindow {
  uint64_t lo = 0, hi = 0, group = 0;
};
SteadyWindow steady_window(uint64_t timed_blocks, uint64_t blocks_per_wave);

// Notes in `s` that the blocks counted before+1 .. after had finished by cycle `now`: the
// window's ends (lo/hi_cycle and _blocks) and its two groups' sums.
void note_finishes(TimingStats::Sample& s, const SteadyWindow& w, uint64_t before, uint64_t after, uint64_t now);

// Counts at the end of the timed part, to scale the timing-only counters by the work that
// followed it.
struct TimedWork {
  uint64_t instructions = 0;  // warp instructions
  uint64_t transactions = 0;  // global, local and atomic transactions
};
TimedWork timed_work(const LaunchStats& stats);

// Extrapolates stats.timing, stats.mem's cache counters and stats.dram from the timed
// blocks (stats.timing.sample, `at_end_of_timing`) to the whole grid of `nblocks` blocks,
// after the rest ran functionally.
void extrapolate_timing(LaunchStats& stats, const DeviceSpec& spec, const TimedWork& at_end_of_timing,
                        uint64_t nblocks);

// Scales the timing-only counters of `stats`, whose elapsed cycles are already set: what
// integrates over time (active cycles, issue slots, stalls) by time_scale, the issued
// instructions by inst_scale, the cache and DRAM counters by mem_scale; the ratios (IPC,
// utilisations, bandwidth) are recomputed from the scaled parts.
void scale_timing_counters(LaunchStats& stats, const DeviceSpec& spec, double time_scale, double inst_scale,
                           double mem_scale);

}  // namespace warpsim
