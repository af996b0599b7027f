// Lookup of semantics functions by instruction, split by family. Each returns nullptr
// when the instruction is not of its family or the type combination is unsupported.
#pragma once
#include <cstdint>

#include "sim/isa/semantics.hpp"

namespace warpsim::isa::detail {

ExecFn int_semantics(const Instr& in);
// Moves, setp on integers, selp/slct, predicate logic, cvta (semantics_move.cpp).
ExecFn move_select_semantics(const Instr& in);
ExecFn float_semantics(const Instr& in);
ExecFn warp_semantics(const Instr& in);
ExecFn half_semantics(const Instr& in);
// add.cc, addc, sub.cc, subc, mad.cc, madc (semantics_carry.cpp).
ExecFn carry_semantics(const Instr& in);

// Typed dispatch over the integer types of PTX (b-types behave as unsigned).
template <template <class> class K>
ExecFn by_int_type(DType t) {
  switch (t) {
    case DType::U8: case DType::B8: return &K<uint8_t>::run;
    case DType::S8: return &K<int8_t>::run;
    case DType::U16: case DType::B16: return &K<uint16_t>::run;
    case DType::S16: return &K<int16_t>::run;
    case DType::U32: case DType::B32: return &K<uint32_t>::run;
    case DType::S32: return &K<int32_t>::run;
    case DType::U64: case DType::B64: return &K<uint64_t>::run;
    case DType::S64: return &K<int64_t>::run;
    default: return nullptr;
  }
}

template <template <class> class K>
ExecFn by_float_type(DType t) {
  switch (t) {
    case DType::F32: return &K<float>::run;
    case DType::F64: return &K<double>::run;
    default: return nullptr;
  }
}

// The NaN every f32 instruction of the GPU returns (semantics_float.cpp says which NaNs).
constexpr uint32_t kCanonicalNanF32 = 0x7FFFFFFFu;
// And every f16/bf16 instruction's (.f16x2: in each half), and a conversion's to f16 or bf16.
constexpr uint16_t kCanonicalNanF16 = 0x7FFF;

// Vectorised lane loops of float instructions in round-to-nearest without .ftz or .sat
// (semantics_float_warp.cpp). Each writes the lanes of `mask` (fma_f32_full_warp: all 32)
// with exactly what semantics_float.cpp's lane loop would, NaNs included; d may be one of
// the sources.
enum class WarpFloatOp : uint8_t { Add, Sub, Mul, Div };
void fma_f32_full_warp(uint64_t* d, const uint64_t* a, const uint64_t* b, const uint64_t* c);
void f32_binary_warp(WarpFloatOp op, uint64_t* d, const uint64_t* a, const uint64_t* b, uint32_t mask);
void f64_binary_warp(WarpFloatOp op, uint64_t* d, const uint64_t* a, const uint64_t* b, uint32_t mask);
// d = fma(pa * a, b, pc * c): pa and pc are +1 or -1 (an fma, or a contracted add/sub).
void f32_fma_warp(uint64_t* d, const uint64_t* a, const uint64_t* b, const uint64_t* c, float pa, float pc,
                  uint32_t mask);
void f64_fma_warp(uint64_t* d, const uint64_t* a, const uint64_t* b, const uint64_t* c, double pa, double pc,
                  uint32_t mask);
// One bit per lane, all 32 lanes: setp's comparison of a and b.
uint32_t f32_compare_warp(Cmp cmp, const uint64_t* a, const uint64_t* b);
uint32_t f64_compare_warp(Cmp cmp, const uint64_t* a, const uint64_t* b);

}  // namespace warpsim::isa::detail
