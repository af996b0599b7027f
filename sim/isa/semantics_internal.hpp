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

// d = fma(a, b, c) for the 32 lanes of f32 operands, rounding to nearest (the fast path of
// fma.rn.f32 on a full warp; semantics_float_warp.cpp). d may be one of the sources.
void fma_f32_full_warp(uint64_t* d, const uint64_t* a, const uint64_t* b, const uint64_t* c);

}  // namespace warpsim::isa::detail
