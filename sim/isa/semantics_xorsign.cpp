// min/max.xorsign.abs on .f32, .f16, .f16x2, .bf16 and .bf16x2 (cc 8.6): the smaller or
// larger of |a| and |b|, with the sign bit a's XOR b's. The magnitudes are compared as
// their bits (the formats' order); a NaN source gives the other source's magnitude, two
// NaNs (or one with .NaN) the canonical NaN; .ftz flushes f32 and f16 subnormal sources.
// NaN results and signs are as an H200 gives them (relu_fp8_results.cu in
// tests/750_runtime/programs).
#include "sim/isa/semantics_internal.hpp"

namespace warpsim::isa::detail {

using exec::ExecCtx;
using exec::for_lanes;

namespace {

struct Format {
  uint32_t sign, inf, canonical_nan;
  uint32_t exp_mask;  // 0: no flushing (bf16, or no .ftz)
};

uint32_t xorsign_one(uint32_t x, uint32_t y, const Format& f, bool is_max, bool nan_wins) {
  const uint32_t mag = f.sign - 1;
  if (f.exp_mask) {
    if ((x & f.exp_mask) == 0) x &= f.sign;
    if ((y & f.exp_mask) == 0) y &= f.sign;
  }
  const uint32_t mx = x & mag, my = y & mag;
  const bool nx = mx > f.inf, ny = my > f.inf;
  if ((nx && ny) || ((nx || ny) && nan_wins)) return f.canonical_nan;
  const uint32_t sign = (x ^ y) & f.sign;
  if (nx) return my | sign;
  if (ny) return mx | sign;
  return (is_max ? (mx > my ? mx : my) : (mx < my ? mx : my)) | sign;
}

template <bool IsMax>
void xorsign_abs(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  uint64_t* d = exec::dst(c, in.d[0]);
  const bool bf = in.type == DType::BF16 || in.type == DType::BF16x2;
  Format f;
  int parts = 1, width = 16;
  if (in.type == DType::F32) {
    f = {0x80000000u, 0x7F800000u, kCanonicalNanF32, in.ftz ? 0x7F800000u : 0};
    width = 32;
  } else {
    f = {0x8000u, bf ? 0x7F80u : 0x7C00u, kCanonicalNanF16, in.ftz && !bf ? 0x7C00u : 0};
    parts = in.type == DType::F16x2 || in.type == DType::BF16x2 ? 2 : 1;
  }
  const uint64_t part_mask = width == 32 ? 0xFFFFFFFFull : 0xFFFFull;
  for_lanes(m, [&](int l) {
    uint64_t r = 0;
    for (int p = 0; p < parts; ++p) {
      const uint32_t x = static_cast<uint32_t>((a[l] >> (width * p)) & part_mask);
      const uint32_t y = static_cast<uint32_t>((b[l] >> (width * p)) & part_mask);
      r |= uint64_t(xorsign_one(x, y, f, IsMax, in.nan_min_max)) << (width * p);
    }
    d[l] = r;
  });
}

}  // namespace

ExecFn xorsign_semantics(const Instr& in) {
  if (!in.xorsign_abs) return nullptr;
  const DType t = in.type;
  if (!(t == DType::F32 || is_half(t))) return nullptr;
  if (in.op == Op::Min) return &xorsign_abs<false>;
  if (in.op == Op::Max) return &xorsign_abs<true>;
  return nullptr;
}

}  // namespace warpsim::isa::detail
