// Short skipped blocks turned into predicated code, as the code generator does. nvcc's PTX
// guards a bounds-checked load with a branch around it (`@%p bra L; address; ld.global;
// L:`); ptxas for sm_90 predicates such a block instead (docs/measurements/
// h100_shared_sass.txt: matmul_tiled_bounds has no branch around its two tile loads), so
// the two loads of a phase sit in one basic block and are in flight together. A device
// config opts in with issue.if_convert.
//
// Contract: every thread computes exactly what it computes in PTX order. A forward branch
// `@p bra L` (or `@!p`), not .uni, over at most kIfConvertMax instructions is removed and
// each skipped instruction gets the guard `@!p` (`@p`) when the skipped instructions
//  - include a global, local, generic or texture load (the latency ptxas hides this way),
//  - are unguarded, write no predicate the guard reads, and are no store, atomic, barrier,
//    fence, call, branch, return, exit or trap,
//  - and none of them is a branch target or a function's entry.
// The warp then issues the block with no lane active where before it jumped over it, as
// the GPU does; the branch's own instruction and its divergence go away.
#pragma once
#include <cstdint>

#include "sim/isa/ir.hpp"

namespace warpsim::isa {

constexpr uint32_t kIfConvertMax = 8;

// Converts in place; returns how many branches were removed.
uint32_t if_convert_skips(Kernel& k);

}  // namespace warpsim::isa
