// What wmma.mma computes for a warp (the tensor cores): D = A * B + C over the fragments
// the 32 lanes hold in their registers (sim/isa/wmma_layout.hpp says which element is where).
#pragma once
#include "sim/isa/semantics.hpp"

namespace warpsim::isa {

// Runs wmma.mma `in` for all 32 lanes of the warp whose registers `c` holds.
//   f16, bf16 and tf32 inputs: the products are exact and the sum of the K products and C
//   is rounded once to d's type (to nearest even); tf32 inputs use the top 19 bits of their
//   registers (the low 13 mantissa bits are ignored, as the tensor cores do);
//   f64: one fused multiply-add per k, in k order; s8/u8: exact, wrapping to 32 bits;
//   .satfinite clamps to d's largest finite value (floats; NaN stays NaN) or to the s32 range.
void wmma_mma(const exec::ExecCtx& c, const Instr& in);

}  // namespace warpsim::isa
