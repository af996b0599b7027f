// Thread block clusters in the warp executor: the cluster barrier (barrier.cluster.arrive
// and .wait, in phases: a wait returns once every live thread of the cluster has arrived in
// the phase the waiting thread arrived in) and distributed shared memory (a shared address
// with a rank names that block's shared memory: isa::kClusterRankShift).
#include <fmt/format.h>

#include <bit>

#include "sim/sm/warp_executor.hpp"

namespace warpsim::sm {

void WarpExecutor::cluster_arrive(Warp& w, uint32_t pc, uint32_t active) {
  BlockState& b = *w.block;
  ClusterState* c = b.cluster;
  if (!c) return;  // (the table exists whenever the kernel has a cluster instruction)
  if (w.cluster_phase != c->phase) {  // its arrivals were in a phase that completed
    w.cluster_arrived = 0;
    w.cluster_phase = c->phase;
  }
  const uint32_t arriving = active & w.live_mask;
  if (const uint32_t twice = arriving & w.cluster_arrived)
    fault(w, std::countr_zero(twice), pc,
          "barrier.cluster.arrive a second time before barrier.cluster.wait (the PTX ISA leaves this undefined)",
          KernelFault::Kind::Deadlock);
  w.cluster_arrived |= arriving;
  c->arrived += std::popcount(arriving);
  complete_cluster_phase_if_done(*c);
}

void WarpExecutor::cluster_wait(Warp& w, uint32_t pc, uint32_t active, StepResult& r) {
  BlockState& b = *w.block;
  ClusterState* c = b.cluster;
  if (!c) {
    w.stack.top().pc = static_cast<int32_t>(pc + 1);
    return;
  }
  const bool passed = w.cluster_phase != c->phase;  // the phase it arrived in has completed
  const uint32_t missing = active & w.live_mask & ~w.cluster_arrived;
  if (missing && !passed)
    fault(w, std::countr_zero(missing), pc,
          "barrier.cluster.wait without a barrier.cluster.arrive before it (it would wait forever)",
          KernelFault::Kind::Deadlock);
  if (passed) {
    if (w.cluster_arrived & active) {
      w.cluster_arrived &= ~active;
    } else if (active & w.live_mask) {
      fault(w, std::countr_zero(active & w.live_mask), pc,
            "barrier.cluster.wait without a barrier.cluster.arrive before it (it would wait forever)",
            KernelFault::Kind::Deadlock);
    }
    w.stack.top().pc = static_cast<int32_t>(pc + 1);
    return;
  }
  w.at_barrier = true;
  w.cluster_waiting = true;
  w.barrier_pc = pc;
  c->waiting.push_back(&w);
  r.kind = StepResult::Kind::WaitingAtBarrier;
}

void WarpExecutor::cluster_threads_exit(Warp& w, uint32_t exiting) {
  ClusterState& c = *w.block->cluster;
  c.live_threads -= std::popcount(exiting);
  if (w.cluster_phase == c.phase) {  // threads that arrived in this phase and exit
    c.arrived -= std::popcount(exiting & w.cluster_arrived);
    w.cluster_arrived &= ~exiting;
  }
  complete_cluster_phase_if_done(c);
}

void WarpExecutor::complete_cluster_phase_if_done(ClusterState& c) {
  if (c.arrived == 0 || c.arrived < c.live_threads) return;
  ++c.phase;
  c.arrived = 0;
  for (Warp* o : c.waiting) {
    o->at_barrier = false;
    o->cluster_waiting = false;
    o->cluster_arrived = 0;
    o->stack.top().pc = static_cast<int32_t>(o->barrier_pc + 1);
    ctx_.clusters->released.push_back(o);
  }
  c.waiting.clear();
}

uint8_t* WarpExecutor::cluster_shared_ptr(const Warp& w, uint32_t lane, uint32_t pc, uint64_t a, uint32_t n,
                                          const char* what) const {
  const BlockState& own = *w.block;
  const uint64_t off = a & isa::kSharedOffsetMask;
  const BlockState* b = cluster_block(w, a);
  if (!b) {
    const uint64_t rank = ((a & 0xFFFFFFFFu) >> isa::kClusterRankShift) - 1;
    const uint64_t size = ctx_.cluster.count();
    if (rank >= size || !own.cluster)
      fault(w, lane, pc,
            fmt::format("distributed shared {} at {:#x}: block rank {} of a cluster of {} block(s)", what, a, rank,
                        own.cluster ? size : 1));
    const uint64_t linear = ctx_.clusters->block_of(own.cluster_id, static_cast<uint32_t>(rank));
    const Dim3 g = ctx_.grid;
    fault(w, lane, pc,
          fmt::format("distributed shared {} at {:#x}: block ({},{},{}), rank {} of the cluster, has exited (a "
                      "block's shared memory lasts only while it runs: a cluster.sync() before it exits keeps it)",
                      what, a, linear % g.x, (linear / g.x) % g.y, linear / (uint64_t(g.x) * g.y), rank));
  }
  if (off + n > b->shared_bytes)
    fault(w, lane, pc,
          fmt::format("out-of-bounds {}shared {} of {} bytes at offset {} (the block{} has {} bytes of shared memory)",
                      b != &own ? "distributed " : "", what, n, off,
                      b != &own ? fmt::format(" of rank {}", b->cluster_rank) : std::string(), b->shared_bytes));
  return const_cast<uint8_t*>(b->shared.data()) + off;
}

}  // namespace warpsim::sm
