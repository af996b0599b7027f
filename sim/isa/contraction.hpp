// Multiply-add contraction, as the code generator does it. PTX allows mul.f32/.f64 and
// add/sub without a rounding modifier to be fused into one fma (PTX ISA, "add", "mul"),
// and ptxas does fuse them, so a program's float results on a GPU depend on it. Measured on
// an H100 (tests/750_runtime/programs/contraction.cu, 4096 inputs per pattern):
//   - an add or sub whose operand is the product of a mul becomes fma(a, b, other), with
//     the product or the other operand negated for sub; of two products, the first operand's
//     is fused;
//   - a product with any other use is not fused, nor a mul.rn or an add.rn;
//   - .ftz forms fuse with each other; .f64 fuses like .f32.
// warpsim fuses within a basic block only, where the mul's operands still hold the values it
// read. The mul stays in the code (its result is dead), so instruction counts are unchanged.
#pragma once
#include "sim/isa/ir.hpp"

namespace warpsim::isa {

// Instr::fused bits of an add/sub that was contracted: it computes
// fma(±a, b, ±c) from the mul's operands a, b and its other operand c.
enum FusedBits : uint8_t { kFusedMulAdd = 1, kFusedNegProduct = 2, kFusedNegAddend = 4 };

// Rewrites the kernel's contractible add/sub instructions; returns how many. Run before
// semantics are bound.
uint32_t contract_multiply_adds(Kernel& k);

}  // namespace warpsim::isa
