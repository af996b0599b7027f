#include "sim/isa/semantics_matrix.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <limits>
#include <vector>

#include "sim/isa/half_bits.hpp"
#include "sim/isa/wmma_layout.hpp"

namespace warpsim::isa {

namespace {

// One element's bits as a number.
double element_value(DType t, uint64_t bits) {
  switch (t) {
    case DType::F16: return detail::from_half(static_cast<uint16_t>(bits));
    case DType::BF16: return detail::from_bf16(static_cast<uint16_t>(bits));
    case DType::TF32: return std::bit_cast<float>(static_cast<uint32_t>(bits) & 0xFFFFE000u);
    case DType::F32: return std::bit_cast<float>(static_cast<uint32_t>(bits));
    case DType::F64: return std::bit_cast<double>(bits);
    case DType::S8: return static_cast<int8_t>(bits);
    case DType::U8: return static_cast<uint8_t>(bits);
    case DType::S32: return static_cast<int32_t>(bits);
    default: return 0;
  }
}

// The largest fragment matrix: a of m32n8k16 and b of m8n32k16 (32 x 16).
constexpr size_t kMaxMatrix = 512;
using Dense = std::array<double, kMaxMatrix>;

// The fragment `o` of the warp as a dense rows x cols matrix (its first `unique` elements).
void gather(const exec::ExecCtx& c, const Operand& o, const FragmentMap& map, DType t, Dense& m) {
  const FragmentGeometry& g = map.g;
  std::fill(m.begin(), m.begin() + size_t(g.rows) * g.cols, 0.0);
  auto fill = [&](auto value_of) {
    for (uint32_t e = 0; e < g.unique; ++e) {
      const uint32_t r = g.reg_of(e), shift = g.shift_of(e);
      const uint64_t mask = g.elem_mask();
      const uint64_t* reg = (o.vec_const[r] ? c.consts : c.regs) + size_t(o.vec[r]) * kWarpLanes;
      for (uint32_t lane = 0; lane < 32; ++lane) m[map.dense_index(lane, e)] = value_of((reg[lane] >> shift) & mask);
    }
  };
  switch (t) {  // one loop per type: element_value's switch stays out of it
    case DType::F16: fill([](uint64_t b) { return element_value(DType::F16, b); }); break;
    case DType::BF16: fill([](uint64_t b) { return element_value(DType::BF16, b); }); break;
    case DType::TF32: fill([](uint64_t b) { return element_value(DType::TF32, b); }); break;
    case DType::F32: fill([](uint64_t b) { return element_value(DType::F32, b); }); break;
    default: fill([t](uint64_t b) { return element_value(t, b); }); break;
  }
}

uint64_t float_bits(DType t, double v, bool satfinite) {
  if (t == DType::F16) {
    if (satfinite && std::isinf(v)) v = std::copysign(65504.0, v);
    uint16_t h = detail::to_half(v);
    if (satfinite && (h & 0x7FFF) == 0x7C00) h = static_cast<uint16_t>((h & 0x8000) | 0x7BFF);  // rounded up to inf
    return h;
  }
  float f = static_cast<float>(v);
  if (satfinite && std::isinf(f)) f = std::copysign(FLT_MAX, f);
  return std::bit_cast<uint32_t>(f);
}

}  // namespace

void wmma_mma(const exec::ExecCtx& c, const Instr& in) {
  const MmaShape shape = in.mma.shape;
  const MmaDims dims = mma_dims(shape);
  const DType at = in.mma.atype, dt = in.type, ct = in.stype;
  const FragmentMap& amap = *fragment_map(shape, MmaFrag::A, at);
  const FragmentMap& bmap = *fragment_map(shape, MmaFrag::B, at);
  const FragmentMap& cmap = *fragment_map(shape, MmaFrag::C, ct);
  const FragmentMap& dmap = *fragment_map(shape, MmaFrag::C, dt);
  Dense a, b, acc, bt;
  gather(c, in.a, amap, at, a);
  gather(c, in.b, bmap, at, b);
  gather(c, in.c, cmap, ct, acc);
  // b transposed (n x k), so that both factors of a dot product are read in order.
  for (uint32_t k = 0; k < dims.k; ++k)
    for (uint32_t j = 0; j < dims.n; ++j) bt[size_t(j) * dims.k + k] = b[size_t(k) * dims.n + j];
  const bool integer = at == DType::S8 || at == DType::U8;
  std::array<uint64_t, kMaxMatrix> d;
  for (uint32_t i = 0; i < dims.m; ++i) {
    const double* ai = a.data() + size_t(i) * dims.k;
    for (uint32_t j = 0; j < dims.n; ++j) {
      const double* bj = bt.data() + size_t(j) * dims.k;
      const double cij = acc[size_t(i) * dims.n + j];
      uint64_t bits;
      if (integer) {
        int64_t s = static_cast<int64_t>(cij);
        for (uint32_t k = 0; k < dims.k; ++k) s += static_cast<int64_t>(ai[k]) * static_cast<int64_t>(bj[k]);
        if (in.mma.satfinite)
          s = std::clamp<int64_t>(s, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
        bits = static_cast<uint32_t>(static_cast<int32_t>(static_cast<uint32_t>(s)));
      } else if (at == DType::F64) {
        double s = cij;
        for (uint32_t k = 0; k < dims.k; ++k) s = std::fma(ai[k], bj[k], s);
        bits = std::bit_cast<uint64_t>(s);
      } else {
        // Products of f16/bf16/tf32 are exact in double, and so is the sum of 16 of them
        // unless their exponents lie more than ~30 apart.
        double s = 0;
        for (uint32_t k = 0; k < dims.k; ++k) s += ai[k] * bj[k];
        bits = float_bits(dt, s + cij, in.mma.satfinite);
      }
      d[size_t(i) * dims.n + j] = bits;
    }
  }
  // Scatter D into the lanes' registers (a register's elements are all written: clear first).
  const FragmentGeometry& g = dmap.g;
  for (uint32_t r = 0; r < g.regs; ++r) {
    if (in.d[0].vec[r] == kSinkSlot) continue;
    uint64_t* reg = c.regs + size_t(in.d[0].vec[r]) * kWarpLanes;
    for (uint32_t lane = 0; lane < 32; ++lane) reg[lane] = 0;
  }
  for (uint32_t e = 0; e < g.elements; ++e) {
    const uint32_t r = g.reg_of(e), shift = g.shift_of(e);
    if (in.d[0].vec[r] == kSinkSlot) continue;
    uint64_t* reg = c.regs + size_t(in.d[0].vec[r]) * kWarpLanes;
    for (uint32_t lane = 0; lane < 32; ++lane) reg[lane] |= (d[dmap.dense_index(lane, e)] & g.elem_mask()) << shift;
  }
}

}  // namespace warpsim::isa
