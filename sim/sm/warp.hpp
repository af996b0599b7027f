// Mutable state of one warp and one resident thread block.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/foundation/dim3.hpp"
#include "sim/sm/simt_stack.hpp"

namespace warpsim::sm {

struct BlockState;
struct ClusterState;

// One activation of a device function, per warp: all its threads are at the same call
// depth, so they share one stack pointer (their frames are at the same local offset).
struct CallFrame {
  uint32_t call_pc = 0;
  uint32_t callsite = 0;     // Kernel::calls index
  int32_t callee = 0;        // Kernel::functions index (the call site's, or an indirect call's target)
  uint32_t mask = 0;         // threads that made the call
  uint32_t sp = 0;           // the frame's local-memory offset (its .local variables first)
  uint32_t sp_end = 0;       // the next frame's
  size_t simt_depth = 0;     // reconvergence-stack depth below the callee's entry
};

struct Warp {
  BlockState* block = nullptr;
  uint32_t index = 0;          // warp index within its block
  uint32_t exists_mask = 0;    // lanes that are threads of the block (partial last warp)
  uint32_t live_mask = 0;      // lanes not exited
  SimtStack stack;
  bool at_barrier = false;
  bool done = false;
  uint32_t barrier_pc = 0;     // where it waits (for deadlock reports)
  bool cluster_waiting = false;  // at_barrier at barrier.cluster.wait (not the block's barrier)
  // at_barrier at an mbarrier test_wait/try_wait whose phase has not completed (parked in
  // BlockState::mbar_parked until a phase of the block's mbarriers completes); mbar_give_up:
  // released without its phase, the wait executes again and returns what it finds.
  bool mbar_waiting = false;
  bool mbar_give_up = false;
  // Where and at which BlockState::mbar_changes it was last released without its phase: a
  // warp parked there again with nothing changed is not released again (it would spin).
  uint32_t mbar_given_up_pc = UINT32_MAX;
  uint64_t mbar_given_up_changes = 0;
  uint32_t cluster_arrived = 0;  // lanes that arrived at the cluster barrier in phase cluster_phase
  uint32_t cluster_phase = 0;
  uint64_t* regs = nullptr;    // [slot * 32 + lane]
  uint32_t* preds = nullptr;
  uint8_t* local = nullptr;    // lane l's local memory at local + l * local_bytes
  std::vector<uint32_t> branch_executions;  // per conditional branch id: times this warp executed it
  std::vector<CallFrame> frames;  // device-function activations, innermost last
  uint32_t printf_calls = 0;      // printf calls executed (orders its output)
  uint64_t instructions = 0;
};

struct BlockState {
  Dim3 idx;
  uint32_t linear = 0;
  uint32_t sm = 0;
  std::vector<Warp> warps;
  std::vector<uint64_t> regs;
  std::vector<uint32_t> preds;
  std::vector<uint8_t> shared;
  std::vector<uint8_t> local;
  uint32_t shared_bytes = 0;   // static + dynamic
  uint32_t live_threads = 0;   // not exited
  uint32_t arrived = 0;        // threads waiting at the barrier
  uint32_t red_true = 0;       // of them, threads whose bar.red predicate held
  uint32_t warps_done = 0;
  uint32_t device_calls = 0;   // device-runtime work asked for so far (orders it)
  // mbarrier objects: warps parked at a wait, and changes to any of the block's mbarriers
  // (sm/warp_mbarrier_ops.cpp).
  std::vector<Warp*> mbar_parked;
  uint64_t mbar_changes = 0;
  ClusterState* cluster = nullptr;  // its cluster (launches whose kernel uses cluster instructions)
  uint64_t cluster_id = 0;
  uint32_t cluster_rank = 0;
  bool finished() const { return warps_done == warps.size(); }
  // At the block's own barrier (bar.sync), not the cluster's or an mbarrier wait.
  static bool at_block_barrier(const Warp& w) { return w.at_barrier && !w.cluster_waiting && !w.mbar_waiting; }
};

}  // namespace warpsim::sm
