// Lookup of semantics functions by instruction, split by family. Each returns nullptr
// when the instruction is not of its family or the type combination is unsupported.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

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
// set: a comparison written as a value (semantics_set.cpp).
ExecFn set_semantics(const Instr& in);
// cvt to and from the fp8 pairs .e4m3x2 and .e5m2x2 (semantics_fp8.cpp).
ExecFn fp8_semantics(const Instr& in);
// min/max.xorsign.abs on .f32 and the halves (semantics_xorsign.cpp).
ExecFn xorsign_semantics(const Instr& in);
// add, min, max on .u16x2/.s16x2 and min/max.relu on .s32 and .s16x2 (semantics_int_pairs.cpp).
ExecFn int_pair_semantics(const Instr& in);

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

// NaN results as an H200 gives them (measured: tests/750_runtime/programs/nan_results.cu).
// Every f32 instruction returns the canonical NaN 0x7FFFFFFF, whatever its sources. f64
// instructions return a NaN source made quiet, or the default NaN 0xFFF8... for an invalid
// operation, as the host's do; with two NaN sources add, sub, mul, min and max return the
// second one's (the host's, and div's, the first one's), and fma b's, else c's, else a's.
template <class T>
inline T quiet(T x) {
  if constexpr (std::is_same_v<T, float>) return std::bit_cast<float>(std::bit_cast<uint32_t>(x) | 0x00400000u);
  else return std::bit_cast<double>(std::bit_cast<uint64_t>(x) | 0x0008000000000000ull);
}
template <class T>
inline T f32_canonical(T r) {
  if constexpr (std::is_same_v<T, float>)
    if (std::isnan(r)) return std::bit_cast<float>(kCanonicalNanF32);
  return r;
}
// r = fma(a, b, c): f64 with NaN sources returns b's, else c's, else a's, made quiet.
template <class T>
inline T fma_nan_result(T r, T a, T b, T c) {
  if constexpr (std::is_same_v<T, float>) {
    return f32_canonical(r);
  } else {
    if (std::isnan(b)) return quiet(b);
    if (std::isnan(c)) return quiet(c);
    return std::isnan(a) ? quiet(a) : r;
  }
}
// r = x op y: the NaN the GPU returns instead of the host's.
template <class T, bool kSecondNanWins>
inline T nan_result(T r, T x, T y) {
  if constexpr (std::is_same_v<T, float>) return f32_canonical(r);
  else if constexpr (kSecondNanWins) return std::isnan(x) && std::isnan(y) ? quiet(y) : r;
  else return r;
}

// .ftz on a float source or result: an f32 subnormal becomes zero of its sign (f64 is
// never flushed).
template <class T>
inline T ftz(T x, bool on) {
  if constexpr (std::is_same_v<T, float>)
    if (on && std::fpclassify(x) == FP_SUBNORMAL) return std::copysign(0.0f, x);
  return x;
}

// setp's comparison of two floats (f16 and bf16 compared as the doubles they are), and
// its combination with a predicate source (.and/.or/.xor).
template <class T>
inline bool float_compare(Cmp cmp, T x, T y) {
  bool un = std::isnan(x) || std::isnan(y);
  switch (cmp) {
    case Cmp::Eq: return !un && x == y;
    case Cmp::Ne: return !un && x != y;
    case Cmp::Lt: return !un && x < y;
    case Cmp::Le: return !un && x <= y;
    case Cmp::Gt: return !un && x > y;
    case Cmp::Ge: return !un && x >= y;
    case Cmp::Equ: return un || x == y;
    case Cmp::Neu: return un || x != y;
    case Cmp::Ltu: return un || x < y;
    case Cmp::Leu: return un || x <= y;
    case Cmp::Gtu: return un || x > y;
    case Cmp::Geu: return un || x >= y;
    case Cmp::Num: return !un;
    case Cmp::Nan: return un;
    default: return false;
  }
}
inline uint32_t combine(BoolOp op, uint32_t x, uint32_t y) {
  switch (op) {
    case BoolOp::And: return x & y;
    case BoolOp::Or: return x | y;
    case BoolOp::Xor: return x ^ y;
    default: return x;
  }
}

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
