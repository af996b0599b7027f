// Shared-memory loads merged into vector loads, as the code generator does. nvcc's PTX
// loads a row of a shared tile one 32-bit element at a time (ld.shared.f32 [%r7],
// [%r7+4], [%r7+8], [%r7+12]); ptxas for sm_90 emits one LDS.128 for such a row when it can
// prove the address 16-byte aligned (docs/measurements/h100_shared_sass.txt: the tiled
// matmuls' Mds rows), so the GPU issues a quarter of the instructions and makes fewer shared
// wavefronts. A device config opts in with issue.merge_shared_loads.
//
// Contract: every thread computes exactly what it computes in PTX order. Within a basic
// block, n = 4 (or 2) unguarded, non-volatile ld.shared of one 4-byte type (or 2 of one
// 8-byte type) from one base register at consecutive offsets become one ld.shared.v4 (v2)
// at the place of the first, when
//  - the first address is provably aligned to the vector's size: the offset is, and a
//    known-divisor analysis of the base register (over every definition of it in the
//    kernel, with the symbols' actual shared offsets) shows it is;
//  - between the first load and each later one nothing writes the base register, nothing
//    reads or writes that load's destination, and there is no store, atomic, barrier,
//    fence, call or branch;
//  - the destinations are distinct and none is the base register.
// The later loads are removed; branch targets, reconvergence points and function entries
// are renumbered. Instruction counts and shared wavefronts become those of the vector loads.
#pragma once
#include <cstdint>

#include "sim/isa/ir.hpp"

namespace warpsim::isa {

// Merges in place; returns how many scalar loads were removed.
uint32_t merge_shared_loads(Kernel& k);

}  // namespace warpsim::isa
