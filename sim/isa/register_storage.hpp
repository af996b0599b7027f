// Register storage compaction: the simulator keeps every data register of a warp as 32
// 64-bit lanes, and nvcc's PTX names a fresh virtual register for almost every value (an
// unrolled loop of 16 steps uses 48 %f registers that are each live for a few
// instructions). Giving every virtual register its own storage makes the per-warp state
// several times larger than the values live at once, which costs cache misses, not
// correctness. This pass assigns storage slots by liveness (interference-graph colouring),
// the way a register allocator would, and rewrites a copy of the kernel to use them.
//
// Contract: every thread computes exactly what it computes with one slot per virtual
// register. Writes are masked per lane, so each lane's slots evolve as in the scalar
// program of that thread, for which interference-based allocation is exact. In addition:
//  - the destinations of one instruction never share a slot with each other or with its
//    sources (semantics may write one lane before reading another);
//  - special registers (%tid ...), registers read before any definition on some path
//    (their initial contents) and shfl sources (which read other, possibly inactive,
//    lanes) keep a slot of their own.
// Predicates are a separate file and are not touched. The scoreboard keeps using the
// virtual numbering of the original kernel, so timing is unchanged.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/isa/ir.hpp"

namespace warpsim::isa {

struct StoragePlan {
  std::vector<uint16_t> slot_of;  // per virtual register (kernel data slot): its storage slot
  uint32_t slots = 0;             // storage slots used
};

StoragePlan plan_register_storage(const Kernel& k);

// A copy of `k` whose instructions, specials and register table use the plan's slots.
Kernel with_register_storage(const Kernel& k, const StoragePlan& plan);

}  // namespace warpsim::isa
