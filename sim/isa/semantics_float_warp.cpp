// Vectorised lane loops of float instructions in round-to-nearest, in a file of their own:
// semantics_float.cpp is compiled with -frounding-math (its directed-rounding
// instructions change the FPU's mode), which keeps GCC from vectorising these loops. They
// run only while the mode is round-to-nearest.
//
// Each computes every one of the 32 lanes from its sources and then stores the lanes of the
// mask: an inactive lane's value is computed and dropped (floating-point exceptions are
// never unmasked or read), so a divergent warp takes the same vector path. Each computes
// exactly what the lane loop of semantics_float.cpp would, operation for operation, and
// returns the NaNs it would (the GPU's: nan_result there).
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "sim/isa/semantics_internal.hpp"

namespace warpsim::isa::detail {

namespace {

#define WARPSIM_ALWAYS_INLINE inline __attribute__((always_inline))

// The lanes of `mask` from r (32-bit results widened as put<float> does, a NaN made the
// canonical NaN of every f32 instruction), the rest kept.
WARPSIM_ALWAYS_INLINE void store_lanes(uint64_t* d, const float* r, uint32_t mask) {
  uint32_t bits[kWarpLanes];
  for (int l = 0; l < kWarpLanes; ++l) bits[l] = std::bit_cast<uint32_t>(f32_canonical(r[l]));
  if (mask == 0xFFFFFFFFu) {
    for (int l = 0; l < kWarpLanes; ++l) d[l] = bits[l];
  } else {
    for (int l = 0; l < kWarpLanes; ++l) d[l] = ((mask >> l) & 1u) ? uint64_t(bits[l]) : d[l];
  }
}
WARPSIM_ALWAYS_INLINE void store_lanes(uint64_t* d, const double* r, uint32_t mask) {
  if (mask == 0xFFFFFFFFu) {
    for (int l = 0; l < kWarpLanes; ++l) d[l] = std::bit_cast<uint64_t>(r[l]);
  } else {
    for (int l = 0; l < kWarpLanes; ++l) d[l] = ((mask >> l) & 1u) ? std::bit_cast<uint64_t>(r[l]) : d[l];
  }
}
// The low 32 bits of every lane as floats: narrowed first, so that every loop vectorises
// (narrowing and computing in one loop does not). Eight lanes at a time as one shuffle of
// two vectors of four: in lane order the x86-64-v3 clone's two vpermd and a blend (GCC's own
// vectorisation of the lane loop took five instructions); in "pair order" (of every eight
// lanes, lanes 0 1 4 5 2 3 6 7) one in-lane vshufps with its load folded in. Pair order
// serves lane-wise arithmetic of a full warp, whose results store_full_pair_order puts back
// in order (two in-lane unpacks with zero per eight lanes).
typedef uint32_t U32x8 __attribute__((vector_size(32)));
typedef uint64_t U64x4 __attribute__((vector_size(32)));
typedef float F32x8 __attribute__((vector_size(32)));
template <bool kPairOrder = false>
WARPSIM_ALWAYS_INLINE void narrow(float* x, const uint64_t* a) {
  for (int g = 0; g < kWarpLanes / 8; ++g) {
    U64x4 lo, hi;
    std::memcpy(&lo, a + 8 * g, sizeof lo);
    std::memcpy(&hi, a + 8 * g + 4, sizeof hi);
    if constexpr (kPairOrder) {
      const F32x8 v = __builtin_shufflevector((F32x8)lo, (F32x8)hi, 0, 2, 8, 10, 4, 6, 12, 14);
      std::memcpy(x + 8 * g, &v, sizeof v);
    } else {
      const U32x8 v = __builtin_shufflevector((U32x8)lo, (U32x8)hi, 0, 2, 4, 6, 8, 10, 12, 14);
      std::memcpy(x + 8 * g, &v, sizeof v);
    }
  }
}
// Every lane of d from r in pair order, as store_lanes with a full mask.
WARPSIM_ALWAYS_INLINE void store_full_pair_order(uint64_t* d, const float* r) {
  uint32_t bits[kWarpLanes];
  for (int l = 0; l < kWarpLanes; ++l) bits[l] = std::bit_cast<uint32_t>(f32_canonical(r[l]));
  const U32x8 zero = {};
  for (int g = 0; g < kWarpLanes / 8; ++g) {
    U32x8 v;
    std::memcpy(&v, bits + 8 * g, sizeof v);
    const U32x8 lo = __builtin_shufflevector(v, zero, 0, 8, 1, 9, 4, 12, 5, 13);  // lanes 0-3
    const U32x8 hi = __builtin_shufflevector(v, zero, 2, 10, 3, 11, 6, 14, 7, 15);  // lanes 4-7
    std::memcpy(d + 8 * g, &lo, sizeof lo);
    std::memcpy(d + 8 * g + 4, &hi, sizeof hi);
  }
}
WARPSIM_ALWAYS_INLINE void widen(double* x, const uint64_t* a) {
  for (int l = 0; l < kWarpLanes; ++l) x[l] = std::bit_cast<double>(a[l]);
}

template <class T>
WARPSIM_ALWAYS_INLINE void load(T* x, const uint64_t* a) {
  if constexpr (sizeof(T) == 4) narrow(x, a);
  else widen(x, a);
}

template <class T>
WARPSIM_ALWAYS_INLINE void binary(WarpFloatOp op, uint64_t* d, const uint64_t* a, const uint64_t* b, uint32_t mask) {
  T x[kWarpLanes], y[kWarpLanes], r[kWarpLanes];
  load(x, a);
  load(y, b);
  // d may alias a source: every lane is computed before any is stored.
  switch (op) {
    case WarpFloatOp::Add: for (int l = 0; l < kWarpLanes; ++l) r[l] = x[l] + y[l]; break;
    case WarpFloatOp::Sub: for (int l = 0; l < kWarpLanes; ++l) r[l] = x[l] - y[l]; break;
    case WarpFloatOp::Mul: for (int l = 0; l < kWarpLanes; ++l) r[l] = x[l] * y[l]; break;
    case WarpFloatOp::Div: for (int l = 0; l < kWarpLanes; ++l) r[l] = x[l] / y[l]; break;
  }
  if constexpr (sizeof(T) == 8) {
    // f64 with two NaN sources (nan_result; f32 NaNs are made canonical as they are stored).
    if (op != WarpFloatOp::Div)
      for (int l = 0; l < kWarpLanes; ++l) r[l] = nan_result<T, true>(r[l], x[l], y[l]);
  }
  store_lanes(d, r, mask);
}

template <class T>
WARPSIM_ALWAYS_INLINE void fused(uint64_t* d, const uint64_t* a, const uint64_t* b, const uint64_t* c, T pa, T pc,
                                 uint32_t mask) {
  T x[kWarpLanes], y[kWarpLanes], z[kWarpLanes], r[kWarpLanes];
  load(x, a);
  load(y, b);
  load(z, c);
  for (int l = 0; l < kWarpLanes; ++l) r[l] = std::fma(pa * x[l], y[l], pc * z[l]);
  if constexpr (sizeof(T) == 8)  // f64 NaN sources (f32 NaNs are made canonical as they are stored)
    for (int l = 0; l < kWarpLanes; ++l) r[l] = fma_nan_result(r[l], x[l], y[l], z[l]);
  store_lanes(d, r, mask);
}

// One bit per lane: PTX's comparison of x and y (float_compare in semantics_internal.hpp).
template <class T>
WARPSIM_ALWAYS_INLINE uint32_t compare(Cmp cmp, const uint64_t* a, const uint64_t* b) {
  T x[kWarpLanes], y[kWarpLanes];
  load(x, a);
  load(y, b);
  uint32_t un[kWarpLanes], r[kWarpLanes];
  for (int l = 0; l < kWarpLanes; ++l) un[l] = std::isnan(x[l]) || std::isnan(y[l]);
  switch (cmp) {
#define WARPSIM_CMP(NAME, EXPR) \
  case Cmp::NAME: for (int l = 0; l < kWarpLanes; ++l) r[l] = (EXPR); break;
    WARPSIM_CMP(Eq, !un[l] && x[l] == y[l])
    WARPSIM_CMP(Ne, !un[l] && x[l] != y[l])
    WARPSIM_CMP(Lt, !un[l] && x[l] < y[l])
    WARPSIM_CMP(Le, !un[l] && x[l] <= y[l])
    WARPSIM_CMP(Gt, !un[l] && x[l] > y[l])
    WARPSIM_CMP(Ge, !un[l] && x[l] >= y[l])
    WARPSIM_CMP(Equ, un[l] || x[l] == y[l])
    WARPSIM_CMP(Neu, un[l] || x[l] != y[l])
    WARPSIM_CMP(Ltu, un[l] || x[l] < y[l])
    WARPSIM_CMP(Leu, un[l] || x[l] <= y[l])
    WARPSIM_CMP(Gtu, un[l] || x[l] > y[l])
    WARPSIM_CMP(Geu, un[l] || x[l] >= y[l])
    WARPSIM_CMP(Num, !un[l])
    WARPSIM_CMP(Nan, un[l])
#undef WARPSIM_CMP
    default: return 0;
  }
  uint32_t bits = 0;
  for (int l = 0; l < kWarpLanes; ++l) bits |= r[l] << l;
  return bits;
}

}  // namespace

// On CPUs with FMA3 the x86-64-v3 clones (eight f32 lanes an instruction) are chosen when
// the program loads.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define WARPSIM_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define WARPSIM_VECTOR_CLONES
#endif

WARPSIM_VECTOR_CLONES
void fma_f32_full_warp(uint64_t* d, const uint64_t* a, const uint64_t* b, const uint64_t* c) {
  float x[kWarpLanes], y[kWarpLanes], z[kWarpLanes], r[kWarpLanes];
  narrow<true>(x, a);
  narrow<true>(y, b);
  narrow<true>(z, c);
  for (int l = 0; l < kWarpLanes; ++l) r[l] = std::fma(x[l], y[l], z[l]);
  store_full_pair_order(d, r);
}

WARPSIM_VECTOR_CLONES
void f32_binary_warp(WarpFloatOp op, uint64_t* d, const uint64_t* a, const uint64_t* b, uint32_t mask) {
  binary<float>(op, d, a, b, mask);
}
WARPSIM_VECTOR_CLONES
void f64_binary_warp(WarpFloatOp op, uint64_t* d, const uint64_t* a, const uint64_t* b, uint32_t mask) {
  binary<double>(op, d, a, b, mask);
}
WARPSIM_VECTOR_CLONES
void f32_fma_warp(uint64_t* d, const uint64_t* a, const uint64_t* b, const uint64_t* c, float pa, float pc,
                  uint32_t mask) {
  fused<float>(d, a, b, c, pa, pc, mask);
}
WARPSIM_VECTOR_CLONES
void f64_fma_warp(uint64_t* d, const uint64_t* a, const uint64_t* b, const uint64_t* c, double pa, double pc,
                  uint32_t mask) {
  fused<double>(d, a, b, c, pa, pc, mask);
}

WARPSIM_VECTOR_CLONES
uint32_t f32_compare_warp(Cmp cmp, const uint64_t* a, const uint64_t* b) { return compare<float>(cmp, a, b); }
WARPSIM_VECTOR_CLONES
uint32_t f64_compare_warp(Cmp cmp, const uint64_t* a, const uint64_t* b) { return compare<double>(cmp, a, b); }

}  // namespace warpsim::isa::detail
