// Runs a whole grid functionally: blocks one after another in linear order, the warps
// of a block round-robin, each until it blocks at a barrier or exits. No timing.
#pragma once
#include "sim/engine/device.hpp"
#include "sim/memory/memory_observer.hpp"
#include "sim/sm/warp_executor.hpp"

namespace warpsim {

class LimitGuard;

// `first_block` > 0 runs only the blocks from there on (the rest of a sampled timing run,
// which had executed `instructions_before` warp instructions, counted against the limits).
void run_functional(sm::WarpExecutor& executor, LimitGuard& limits, MemoryObserver* observer,
                    uint64_t first_block = 0, uint64_t instructions_before = 0);
// Blocks [first_block, end_block) in that order; `total` counts the warp instructions
// executed so far in the launch (what %clock reads and the limits are checked against).
void run_functional_blocks(sm::WarpExecutor& executor, LimitGuard& limits, MemoryObserver* observer,
                           uint64_t first_block, uint64_t end_block, uint64_t& total);

// The most instructions one WarpExecutor::run_plain call executes between a runner's own
// checks (limits, host clock).
inline constexpr uint64_t kPlainRun = 4096;

// A cooperative launch's turns (below), and a block's where a warp may spin on another's
// write (WarpExecutor::may_spin).
inline constexpr uint32_t kCooperativeQuantum = 64;

// Runs block `linear` (prepared in `b`) to its end: its warps round-robin, each until it
// waits at a barrier or exits (in turns of at most kCooperativeQuantum steps where the
// kernel may spin: a warp waiting in a loop for another's store lets the others run);
// step(warp) executes one instruction. Where none can go on,
// warps parked at mbarrier waits execute them again (release_mbarrier_waits); a block whose
// warps all wait where no thread can arrive is a deadlock (KernelFault, report_deadlock).
template <class Step>
void run_block(sm::WarpExecutor& executor, sm::BlockState& b, uint64_t linear, Step&& step) {
  const sm::LaunchContext& ctx = executor.context();
  executor.set_timed(false);  // (a sampled launch's executor may have timed blocks before)
  executor.init_block(b, static_cast<uint32_t>(linear), ctx.sm_of_block(linear));
  const bool turns = executor.may_spin();
  while (!b.finished()) {
    bool progress = false;
    for (sm::Warp& w : b.warps) {
      if (turns) {
        for (uint32_t n = 0; n < kCooperativeQuantum && !w.done && !w.at_barrier; ++n) {
          step(w);
          progress = true;
        }
        continue;
      }
      while (!w.done && !w.at_barrier) {
        step(w);
        progress = true;
      }
    }
    if (!progress && !executor.release_mbarrier_waits(b)) executor.report_deadlock(b);
    if (ctx.clusters) ctx.clusters->released.clear();  // (clusters of one: nobody to wake)
  }
}

// A cooperative launch: every block is resident at once and the warps of all blocks take
// turns of at most kCooperativeQuantum instructions (in block, then warp order), so that a
// block spinning at a grid-wide barrier lets the others reach it. The same order every run.
void run_functional_cooperative(sm::WarpExecutor& executor, LimitGuard& limits, MemoryObserver* observer);

// A launch in thread block clusters (LaunchContext::clusters): cluster after cluster, in
// the order of their linear index; the blocks of one are resident together and their
// warps take turns as a cooperative launch's do, so that they meet at the cluster barrier
// and see each other's shared memory.
void run_functional_clusters(sm::WarpExecutor& executor, LimitGuard& limits, MemoryObserver* observer);

}  // namespace warpsim
