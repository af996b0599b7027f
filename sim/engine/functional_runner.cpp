#include "sim/engine/functional_runner.hpp"

#include "sim/engine/limit_guard.hpp"

#include <algorithm>
#include <vector>

namespace warpsim {

namespace {
// One warp instruction: counted against the limits, its accesses shown to the observer.
inline void step_one(sm::WarpExecutor& ex, sm::Warp& w, uint32_t block, uint64_t& total, LimitGuard& limits,
                     MemoryObserver* observer) {
  sm::StepResult r = ex.step(w, total);
  limits.on_instructions(++total);
  if (observer)
    for (uint8_t i = 0; i < r.n_accesses; ++i) observer->on_access(r.accesses[i], *r.instr, r.pc, block, w.index);
}

// The warp's run of arithmetic and shared accesses in one call (none of them reads the
// clock), then one instruction as step_one: what that many step_one calls would do, where
// nothing else runs between the warp's instructions (not where warps take turns).
inline void run_then_step(sm::WarpExecutor& ex, sm::Warp& w, uint32_t block, uint64_t& total, LimitGuard& limits,
                          MemoryObserver* observer) {
  const uint64_t max = limits.max_instructions();
  const uint64_t budget = max ? std::min(kPlainRun, max - std::min(max, total)) : kPlainRun;
  if (const uint64_t n = ex.run_plain(w, budget, observer)) {
    total += n;
    limits.on_instructions_run(n);
  }
  step_one(ex, w, block, total, limits, observer);
}
}  // namespace

void run_functional(sm::WarpExecutor& ex, LimitGuard& limits, MemoryObserver* observer, uint64_t first_block,
                    uint64_t instructions_before) {
  uint64_t total = instructions_before;
  run_functional_blocks(ex, limits, observer, first_block, ex.context().grid.count(), total);
}

void run_functional_blocks(sm::WarpExecutor& ex, LimitGuard& limits, MemoryObserver* observer, uint64_t first_block,
                           uint64_t end_block, uint64_t& total) {
  const sm::LaunchContext& ctx = ex.context();
  const uint64_t nblocks = std::min<uint64_t>(ctx.grid.count(), end_block);
  sm::BlockState b;
  for (uint64_t linear = first_block; linear < nblocks; ++linear)
    run_block(ex, b, linear, [&](sm::Warp& w) { run_then_step(ex, w, b.linear, total, limits, observer); });
}

namespace {
// Runs resident `blocks` to their ends, their warps taking turns of at most
// kCooperativeQuantum instructions (block, then warp order); a round in which no warp can
// step is a deadlock.
void interleave(sm::WarpExecutor& ex, std::vector<sm::BlockState>& blocks, uint64_t& total, LimitGuard& limits,
                MemoryObserver* observer) {
  sm::ClusterTable* clusters = ex.context().clusters;
  ex.set_timed(false);
  for (bool left = true; left;) {
    left = false;
    bool progress = false;
    for (sm::BlockState& b : blocks) {
      if (b.finished()) continue;
      for (sm::Warp& w : b.warps)
        for (uint32_t n = 0; n < kCooperativeQuantum && !w.done && !w.at_barrier; ++n) {
          step_one(ex, w, b.linear, total, limits, observer);
          progress = true;
        }
      left |= !b.finished();
    }
    if (clusters) clusters->released.clear();  // (released warps step in the next round)
    if (left && !progress) {
      bool released = false;
      for (sm::BlockState& b : blocks) released |= !b.finished() && ex.release_mbarrier_waits(b);
      if (!released)
        for (sm::BlockState& b : blocks)
          if (!b.finished()) ex.report_deadlock(b);
    }
  }
}
}  // namespace

void run_functional_cooperative(sm::WarpExecutor& ex, LimitGuard& limits, MemoryObserver* observer) {
  const sm::LaunchContext& ctx = ex.context();
  const uint64_t nblocks = ctx.grid.count();
  std::vector<sm::BlockState> blocks(nblocks);  // sized first: init_block points into each
  for (uint64_t linear = 0; linear < nblocks; ++linear)
    ex.init_block(blocks[linear], static_cast<uint32_t>(linear), ctx.sm_of_block(linear));
  uint64_t total = 0;
  interleave(ex, blocks, total, limits, observer);
}

void run_functional_clusters(sm::WarpExecutor& ex, LimitGuard& limits, MemoryObserver* observer) {
  const sm::LaunchContext& ctx = ex.context();
  const sm::ClusterTable& table = *ctx.clusters;
  std::vector<sm::BlockState> blocks(table.size());  // sized first: init_block points into each
  uint64_t total = 0;
  for (uint64_t c = 0; c < table.count(); ++c) {
    for (uint32_t rank = 0; rank < table.size(); ++rank) {
      const uint64_t linear = table.block_of(c, rank);
      ex.init_block(blocks[rank], static_cast<uint32_t>(linear), ctx.sm_of_block(linear));
    }
    interleave(ex, blocks, total, limits, observer);
  }
}

}  // namespace warpsim
