// Loads issued early, as the code generator schedules them. warpsim issues PTX in order,
// and nvcc's PTX places each load right before its use: an unrolled loop alternates
// "address, load, load, fma", so in order each fma waits for its loads before the next
// address is even computed. ptxas for sm_90 list-schedules each basic block with the loads
// and the address arithmetic that feeds them first (docs/measurements/
// h100_matmul_simple_sass.txt: 17 of the 32 loads of an unrolled matmul loop issue before
// its first FFMA), so a GPU has the loads in flight together. A device config opts in with
// issue.hoist_loads.
//
// Contract: every thread computes exactly what it computes in PTX order. Each basic block
// (in windows of at most kWindow instructions) is reordered along its dependences only:
// register and predicate reads and writes (true, anti and output), the carry flag, memory
// order (every pair of memory accesses keeps its order except two loads and two accesses
// to different explicit state spaces, such as a global load and a shared store; volatile
// and call-parameter accesses keep theirs with everything), and control, barriers, fences,
// calls and clock reads, which nothing crosses. Among the instructions ready at each step
// the scheduler takes loads and the instructions that must precede a load of the window
// through a register (its address, or the default value of a predicated load; transitively)
// first, each group in PTX order. The block's first index stays its first,
// so labels, branch targets, reconvergence points and function entries are unchanged, and
// instruction counts are the same.
#pragma once
#include <cstdint>

#include "sim/isa/ir.hpp"

namespace warpsim::isa {

constexpr uint32_t kScheduleWindow = 256;

// Reorders k.code (and k.text with it); returns how many instructions changed place.
uint32_t schedule_loads_first(Kernel& k);

}  // namespace warpsim::isa
