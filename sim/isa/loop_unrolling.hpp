// Counted loops unrolled further, as the code generator does. nvcc's PTX unrolls a simple
// loop 4 times; ptxas for sm_90 unrolls that loop 4 times more behind a guard that enough
// iterations are left, keeping the loop for the rest (docs/measurements/
// h100_shared_sass.txt: per_thread_sum issues 16 LDGs before its first FADD, matmul_simple
// 32), so a warp has 4 times as many loads in flight and waits for memory a quarter as often.
// A device config opts in with issue.unroll_loops (the factor).
//
// Contract: every thread computes exactly what it computes in PTX order. A loop qualifies
// when it is one basic block of at most kUnrollMaxBody instructions outside device
// functions, ending in `setp.<cmp> %p, %x, %b; @%p bra head`, where %x's only definition in
// the body is `add %x, %x, c` (c a constant), %b is not written in the body, %p is read by
// the branch only, and the body has no barrier, call, fence, warp-collective instruction
// (vote, shfl, match, activemask), clock read or exit, and its head is not marked
// `.pragma "nounroll"` (nor the module: PTX ISA, "Descriptions of .pragma Strings"; nvcc
// marks the remainder loops of the loops it unrolled, and `#pragma unroll N` loops). It becomes
//   head': %p = true; t = x + (U-1)*c; q = t <cmp> b, and t moved from x without
//          wrapping; @!q bra join
//   body:  body 1 .. body U, without their test (all pass); the guard again; @q bra body;
//          setp (the loop's own test of x)
//   join:  for m = U/2, U/4 .. 2 (the largest power of two below U, halved): the guard
//          for m (t = x + (m-1)*c, and %p); @!q bra past; body 1 .. body m; setp; past:
//          @!%p bra exit      (lanes that skipped the bodies have %p true: the loop is a
//   rest:  the loop as it was  do-while and runs at least once)
// with cmp lt/le (c > 0), gt/ge (c < 0) or ne (either sign: t stays on x's side of b). As in
// ptxas's code, lanes that leave the unrolled bodies wait for each other, and the rest runs
// in blocks of m iterations for the lanes with at least m left, each block joined before
// the next, then one iteration (ptxas's remainder after a 4x unrolled loop is a 2- and a
// 1-iteration block: docs/calibration.md, "Counts"). Registers written in the body,
// unguarded, and not read before they are
// written are given new names in bodies 1 .. U-1, so that the load scheduler can move later
// bodies' loads ahead; body U keeps the PTX's names, so values read after the loop are the
// same. Branches that entered the loop at its head enter head'.
#pragma once
#include <cstdint>

#include "sim/isa/ir.hpp"

namespace warpsim::isa {

constexpr uint32_t kUnrollMaxBody = 64;

// Unrolls every qualifying loop `factor` times (factor >= 2); returns how many loops.
uint32_t unroll_loops(Kernel& k, uint32_t factor);

}  // namespace warpsim::isa
