// cvt to and from the fp8 pairs (cc 8.9; cuda_fp8.hpp's __nv_fp8_e4m3, __nv_fp8x2_e5m2 ...):
//   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32   d, a, b   a to the upper byte, b to the lower
//   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2 d, a      the upper half to the upper byte
//   cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}           d, a      the upper byte to the upper half
// Each value is rounded once, to nearest even, from its exact value (small_float_bits.hpp);
// .satfinite makes infinities and values past the largest finite one (448 for E4M3, 57344
// for E5M2) that largest value of their sign. Every fp8 value is an f16 exactly. NaNs,
// signed zeros and .relu are as an H200 gives them (relu_fp8_results.cu in
// tests/750_runtime/programs).
#include "sim/isa/half_bits.hpp"
#include "sim/isa/semantics_internal.hpp"
#include "sim/isa/small_float_bits.hpp"

namespace warpsim::isa::detail {

using exec::ExecCtx;
using exec::for_lanes;

namespace {

// One number (an f32's or f16's exact value) to fp8 bits (.satfinite is always there).
uint8_t to_fp8(double x, const SmallFloatFormat& f, bool relu) {
  return static_cast<uint8_t>(narrow_to_format(x, f, false, relu, true));
}

// One fp8 number to f16 bits.
uint16_t fp8_to_half(uint8_t v, const SmallFloatFormat& f, bool relu) {
  const double x = fp8_value(v, f);
  if (std::isnan(x)) return kCanonicalNanF16;
  if (relu && std::signbit(x)) return 0;
  return to_half(x);
}

const SmallFloatFormat& format_of(DType t) { return t == DType::E4M3x2 ? kE4M3Format : kE5M2Format; }

void cvt_fp8_from_f32(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  uint64_t* d = exec::dst(c, in.d[0]);
  const SmallFloatFormat& f = format_of(in.type);
  auto one = [&](uint64_t v) -> uint64_t { return to_fp8(std::bit_cast<float>(static_cast<uint32_t>(v)), f, in.relu); };
  for_lanes(m, [&](int l) { d[l] = one(a[l]) << 8 | one(b[l]); });
}

void cvt_fp8_from_f16x2(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  const SmallFloatFormat& f = format_of(in.type);
  auto one = [&](uint64_t v) -> uint64_t { return to_fp8(from_half(static_cast<uint16_t>(v)), f, in.relu); };
  for_lanes(m, [&](int l) { d[l] = one(a[l] >> 16) << 8 | one(a[l]); });
}

void cvt_f16x2_from_fp8(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  const SmallFloatFormat& f = format_of(in.stype);
  auto one = [&](uint64_t v) -> uint64_t { return fp8_to_half(static_cast<uint8_t>(v), f, in.relu); };
  for_lanes(m, [&](int l) { d[l] = one(a[l] >> 8) << 16 | one(a[l]); });
}

}  // namespace

ExecFn fp8_semantics(const Instr& in) {
  if (in.op != Op::Cvt || in.round != Round::Rn || in.ftz || in.sat) return nullptr;
  if (is_fp8_pair(in.type) && in.satfinite) {
    if (in.stype == DType::F32) return &cvt_fp8_from_f32;
    if (in.stype == DType::F16x2) return &cvt_fp8_from_f16x2;
    return nullptr;
  }
  if (is_fp8_pair(in.stype) && in.type == DType::F16x2 && !in.satfinite) return &cvt_f16x2_from_fp8;
  return nullptr;
}

}  // namespace warpsim::isa::detail
