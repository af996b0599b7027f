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
  ClusterState* cluster = nullptr;  // its cluster (launches whose kernel uses cluster instructions)
  uint64_t cluster_id = 0;
  uint32_t cluster_rank = 0;
  bool finished() const { return warps_done == warps.size(); }
};

}  // namespace warpsim::sm
