// Half precision: .f16 (IEEE binary16), .f16x2 (two halves in 32 bits, low half first),
// .bf16 and .bf16x2 arithmetic, setp on all four, and the conversions of .f16 and .bf16 to
// and from .f32/.f64. Values are held as their bit patterns in the low bits of a register
// slot. Arithmetic is done in double, where the sum, difference and product of halves are
// exact, then rounded to nearest even (fma rounds once from the exact result). Only the
// default rounding (.rn) is supported, and .rz for conversions from f32. NaN results, bf16's
// min/max and conversion from f64, .relu and .satfinite are as an H200 gives them
// (nan_results_half.cu, bf16_results.cu, relu_fp8_results.cu in tests/750_runtime/programs).
#include <bit>
#include <cmath>

#include "sim/isa/half_bits.hpp"
#include "sim/isa/semantics_internal.hpp"
#include "sim/isa/small_float_bits.hpp"

namespace warpsim::isa::detail {

using exec::ExecCtx;
using exec::for_lanes;

namespace {

// .relu on a result whose NaN is already the canonical (positive) one: a negative value or
// -0 becomes +0.
uint16_t relu_half(uint16_t h) { return (h & 0x8000) ? 0 : h; }

// One half lane: flush-to-zero of subnormal inputs and results, saturation to [0, 1].
template <class F>
uint16_t half_op(const Instr& in, uint16_t a, uint16_t b, uint16_t c, F f) {
  if (in.ftz) {
    if (is_subnormal_half(a)) a &= 0x8000;
    if (is_subnormal_half(b)) b &= 0x8000;
    if (is_subnormal_half(c)) c &= 0x8000;
  }
  double r = f(from_half(a), from_half(b), from_half(c));
  if (in.sat) r = std::isnan(r) ? 0.0 : std::fmin(std::fmax(r, 0.0), 1.0);
  if (std::isnan(r)) return kCanonicalNanF16;
  uint16_t h = to_half(r);
  if (in.ftz && is_subnormal_half(h)) h &= 0x8000;
  return in.relu ? relu_half(h) : h;
}

template <class F>
void run_half(ExecCtx& c, const Instr& in, uint32_t m, F f) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = in.b.kind != Operand::Kind::None ? exec::src(c, in.b) : a;
  const uint64_t* cc = in.c.kind != Operand::Kind::None ? exec::src(c, in.c) : a;
  uint64_t* d = exec::dst(c, in.d[0]);
  const int lanes = in.type == DType::F16x2 ? 2 : 1;
  for_lanes(m, [&](int l) {
    uint64_t r = 0;
    for (int h = 0; h < lanes; ++h) {
      auto part = [&](uint64_t v) { return static_cast<uint16_t>(v >> (16 * h)); };
      r |= uint64_t(half_op(in, part(a[l]), part(b[l]), part(cc[l]), f)) << (16 * h);
    }
    d[l] = r;
  });
}

void hadd(ExecCtx& c, const Instr& in, uint32_t m) { run_half(c, in, m, [](double a, double b, double) { return a + b; }); }
void hsub(ExecCtx& c, const Instr& in, uint32_t m) { run_half(c, in, m, [](double a, double b, double) { return a - b; }); }
void hmul(ExecCtx& c, const Instr& in, uint32_t m) { run_half(c, in, m, [](double a, double b, double) { return a * b; }); }
void hfma(ExecCtx& c, const Instr& in, uint32_t m) {
  run_half(c, in, m, [](double a, double b, double x) { return std::fma(a, b, x); });
}
// min and max order -0 below +0 (as the H200 does: pairs_and_set_results.cu); with .NaN a
// NaN source gives the canonical NaN (half_op), without, the other source.
double half_min(double a, double b) { return a == b ? (std::signbit(a) ? a : b) : std::fmin(a, b); }
double half_max(double a, double b) { return a == b ? (std::signbit(a) ? b : a) : std::fmax(a, b); }
void hmin(ExecCtx& c, const Instr& in, uint32_t m) { run_half(c, in, m, [](double a, double b, double) { return half_min(a, b); }); }
void hmax(ExecCtx& c, const Instr& in, uint32_t m) { run_half(c, in, m, [](double a, double b, double) { return half_max(a, b); }); }
void hmin_nan(ExecCtx& c, const Instr& in, uint32_t m) {
  run_half(c, in, m, [](double a, double b, double) { return std::isnan(a) || std::isnan(b) ? NAN : half_min(a, b); });
}
void hmax_nan(ExecCtx& c, const Instr& in, uint32_t m) {
  run_half(c, in, m, [](double a, double b, double) { return std::isnan(a) || std::isnan(b) ? NAN : half_max(a, b); });
}

// ---- bf16 ------------------------------------------------------------------------

// a * b + c for bf16 sources: the product is exact in double; the sum is made round-to-odd
// with its exact error (TwoSum), so that rounding it to bf16 is rounding the exact result.
double bf16_fma_exact_enough(double a, double b, double c) {
  const double p = a * b;
  const double s = p + c;
  if (!std::isfinite(s)) return s;
  const double bb = s - p;
  const double e = (p - (s - bb)) + (c - bb);
  if (e == 0 || (std::bit_cast<uint64_t>(s) & 1)) return s;
  return std::nextafter(s, e > 0 ? INFINITY : -INFINITY);
}

// An integer (its sign and magnitude) to bf16, rounded to nearest even once. Up to 2^53 a
// double holds it exactly; beyond, its top 53 bits with the rest folded into the lowest
// (round to odd) keep the rounding bits bf16 needs. Through a float it would round twice:
// 2^24 + 2^16 + 1 becomes the float 2^24 + 2^16, a bf16 tie that goes down.
uint16_t bf16_from_int(bool negative, uint64_t magnitude) {
  double x;
  if (magnitude < (uint64_t(1) << 53)) {
    x = static_cast<double>(magnitude);
  } else {
    const int shift = 64 - std::countl_zero(magnitude) - 53;
    uint64_t top = magnitude >> shift;
    if (magnitude & ((uint64_t(1) << shift) - 1)) top |= 1;
    x = std::ldexp(static_cast<double>(top), shift);
  }
  return bf16_from_double(negative ? -x : x);
}

bool bf16_is_nan(uint16_t h) { return (h & 0x7F80) == 0x7F80 && (h & 0x7F); }

// .bf16 or .bf16x2 (each half apart, low half first).
template <class F>
void run_bf16(ExecCtx& c, const Instr& in, uint32_t m, F f) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = in.b.kind != Operand::Kind::None ? exec::src(c, in.b) : a;
  const uint64_t* cc = in.c.kind != Operand::Kind::None ? exec::src(c, in.c) : a;
  uint64_t* d = exec::dst(c, in.d[0]);
  const int halves = in.type == DType::BF16x2 ? 2 : 1;
  for_lanes(m, [&](int l) {
    uint64_t out = 0;
    for (int h = 0; h < halves; ++h) {
      auto part = [&](uint64_t v) { return from_bf16(static_cast<uint16_t>(v >> (16 * h))); };
      const double r = f(part(a[l]), part(b[l]), part(cc[l]));
      const uint16_t bits = std::isnan(r) ? kCanonicalNanF16 : bf16_from_double(r);
      out |= uint64_t(in.relu ? relu_half(bits) : bits) << (16 * h);
    }
    d[l] = out;
  });
}

void badd(ExecCtx& c, const Instr& in, uint32_t m) {
  run_bf16(c, in, m, [](double a, double b, double) { return a + b; });
}
void bsub(ExecCtx& c, const Instr& in, uint32_t m) {
  run_bf16(c, in, m, [](double a, double b, double) { return a - b; });
}
void bmul(ExecCtx& c, const Instr& in, uint32_t m) {
  run_bf16(c, in, m, [](double a, double b, double) { return a * b; });
}
void bfma(ExecCtx& c, const Instr& in, uint32_t m) { run_bf16(c, in, m, bf16_fma_exact_enough); }

// min and max of bf16: a NaN source gives the other source, two give the canonical NaN (with
// .NaN: one does), and -0 is below +0 (bf16_results.cu).
template <bool Max, bool NanWins>
void bminmax(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  uint64_t* d = exec::dst(c, in.d[0]);
  const int halves = in.type == DType::BF16x2 ? 2 : 1;
  auto one = [](uint16_t x, uint16_t y) -> uint16_t {
    const bool nx = bf16_is_nan(x), ny = bf16_is_nan(y);
    if (nx || ny) return (nx && ny) || NanWins ? kCanonicalNanF16 : nx ? y : x;
    const float fx = from_bf16(x), fy = from_bf16(y);
    if (fx == fy) return Max ? (x & y) : (x | y);  // equal: the same bits, or zeros of both signs
    return (fx < fy) != Max ? x : y;
  };
  for_lanes(m, [&](int l) {
    uint64_t out = 0;
    for (int h = 0; h < halves; ++h)
      out |= uint64_t(one(static_cast<uint16_t>(a[l] >> (16 * h)), static_cast<uint16_t>(b[l] >> (16 * h))))
             << (16 * h);
    d[l] = out;
  });
}

// neg and abs flip or clear the sign bit of each half; a NaN half gives the canonical NaN
// (as an H200 does: nan_results_half.cu, bf16_results.cu).
template <bool Abs>
void hsign(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  const int halves = in.type == DType::F16x2 || in.type == DType::BF16x2 ? 2 : 1;
  const bool bf = in.type == DType::BF16 || in.type == DType::BF16x2;
  for_lanes(m, [&](int l) {
    uint64_t r = 0;
    for (int i = 0; i < halves; ++i) {
      const uint16_t h = static_cast<uint16_t>(a[l] >> (16 * i));
      const bool nan = bf ? bf16_is_nan(h) : (h & 0x7C00) == 0x7C00 && (h & 0x3FF);
      const uint16_t v = nan ? kCanonicalNanF16 : Abs ? h & 0x7FFF : h ^ 0x8000;
      r |= uint64_t(v) << (16 * i);
    }
    d[l] = r;
  });
}

// tanh.approx and ex2.approx (bf16: ex2.approx.ftz) on each half: the function of the half's
// exact value, rounded to nearest even (NaN: the canonical NaN; .ftz flushes bf16 subnormal
// sources and results). The H200's approximations differ from that by at most one unit in
// the last place, on 3-30 % of the inputs (docs/ptx-programs.md, "Half precision").
template <bool Tanh>
void happrox(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  const bool bf = in.type == DType::BF16 || in.type == DType::BF16x2;
  const int halves = in.type == DType::F16x2 || in.type == DType::BF16x2 ? 2 : 1;
  auto bf16_subnormal = [](uint16_t h) { return (h & 0x7F80) == 0 && (h & 0x7F); };
  auto one = [&](uint16_t h) -> uint16_t {
    if (bf && in.ftz && bf16_subnormal(h)) h &= 0x8000;
    const double x = bf ? double(from_bf16(h)) : from_half(h);
    if (std::isnan(x)) return kCanonicalNanF16;
    const double y = Tanh ? std::tanh(x) : std::exp2(x);
    uint16_t r = bf ? bf16_from_double(y) : to_half(y);
    if (bf && in.ftz && bf16_subnormal(r)) r &= 0x8000;
    return r;
  };
  for_lanes(m, [&](int l) {
    uint64_t r = 0;
    for (int i = 0; i < halves; ++i) r |= uint64_t(one(static_cast<uint16_t>(a[l] >> (16 * i)))) << (16 * i);
    d[l] = r;
  });
}

// setp on .f16 and .bf16: the halves compared as doubles (exact), .ftz flushing f16
// subnormals; NaNs are unordered.
void hsetp(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  const bool bf = in.type == DType::BF16;
  auto value = [&](uint64_t v) { return compared_half(static_cast<uint16_t>(v), bf, in.ftz); };
  uint32_t r = 0;
  for_lanes(m, [&](int l) { r |= uint32_t(float_compare<double>(in.cmp, value(a[l]), value(b[l]))) << l; });
  const uint32_t cpred = in.boolop != BoolOp::None ? exec::pred_src(c, in.c) : 0;
  exec::pred_write(c, in.d[0], combine(in.boolop, r, cpred), m);
  if (in.d[1].kind == Operand::Kind::Pred) exec::pred_write(c, in.d[1], combine(in.boolop, ~r, cpred), m);
}

// setp on .f16x2 and .bf16x2, p|q: p is the lower halves' comparison, q the upper halves'
// (each combined with the predicate source by .and/.or/.xor).
void hsetp2(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  const bool bf = in.type == DType::BF16x2;
  auto value = [&](uint64_t v, int h) { return compared_half(static_cast<uint16_t>(v >> (16 * h)), bf, in.ftz); };
  uint32_t lo = 0, hi = 0;
  for_lanes(m, [&](int l) {
    lo |= uint32_t(float_compare<double>(in.cmp, value(a[l], 0), value(b[l], 0))) << l;
    hi |= uint32_t(float_compare<double>(in.cmp, value(a[l], 1), value(b[l], 1))) << l;
  });
  const uint32_t cpred = in.boolop != BoolOp::None ? exec::pred_src(c, in.c) : 0;
  exec::pred_write(c, in.d[0], combine(in.boolop, lo, cpred), m);
  if (in.d[1].kind == Operand::Kind::Pred) exec::pred_write(c, in.d[1], combine(in.boolop, hi, cpred), m);
}

// cvt between .f16/.bf16 and .f32/.f64.
void hcvt(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  for_lanes(m, [&](int l) {
    const uint64_t v = a[l];
    // NaNs as an H200 converts them (nan_results_half.cu): f16 -> f32 and f32 -> f16/bf16 give
    // the canonical NaN; bf16 -> f32 moves the bits as they are; f16 <-> f64 keep the payload
    // (half_bits.hpp).
    const bool f16_nan = in.stype == DType::F16 && (v & 0x7C00) == 0x7C00 && (v & 0x3FF);
    const bool f32_nan = in.stype == DType::F32 && std::isnan(std::bit_cast<float>(static_cast<uint32_t>(v)));
    if (f16_nan && in.type == DType::F32) {
      d[l] = kCanonicalNanF32;
      return;
    }
    if (f32_nan && (in.type == DType::F16 || in.type == DType::BF16)) {
      d[l] = kCanonicalNanF16;
      return;
    }
    // f64 -> bf16: a NaN keeps only its sign (0x7FC0 or 0xFFC0); numbers round once.
    if (in.stype == DType::F64 && in.type == DType::BF16) {
      const double x = std::bit_cast<double>(v);
      d[l] = std::isnan(x) ? ((v >> 48) & 0x8000) | 0x7FC0 : bf16_from_double(x);
      return;
    }
    if (in.stype == DType::BF16 && in.type == DType::F32) {
      d[l] = (v & 0xFFFF) << 16;
      return;
    }
    if (in.type == DType::BF16 && is_int(in.stype)) {
      const unsigned bits = 8u * static_cast<unsigned>(dtype_bytes(in.stype));
      const uint64_t u = bits == 64 ? v : v & ((uint64_t(1) << bits) - 1);
      const bool negative = is_signed(in.stype) && ((u >> (bits - 1)) & 1);
      // The two's complement magnitude (of INT64_MIN too: 2^63).
      const uint64_t magnitude = negative ? (bits == 64 ? 0 - u : (uint64_t(1) << bits) - u) : u;
      d[l] = bf16_from_int(negative, magnitude);
      return;
    }
    double x;
    switch (in.stype) {
      case DType::F16: x = from_half(static_cast<uint16_t>(v)); break;
      case DType::BF16: x = from_bf16(static_cast<uint16_t>(v)); break;
      case DType::F32: x = std::bit_cast<float>(static_cast<uint32_t>(v)); break;
      case DType::F64: x = std::bit_cast<double>(v); break;
      // Integers: exact in double up to 2^53 (rounded twice beyond, far outside the halves' range).
      case DType::S8: x = static_cast<int8_t>(v); break;
      case DType::S16: x = static_cast<int16_t>(v); break;
      case DType::S32: x = static_cast<int32_t>(v); break;
      case DType::S64: x = static_cast<double>(static_cast<int64_t>(v)); break;
      case DType::U8: x = static_cast<uint8_t>(v); break;
      case DType::U16: x = static_cast<uint16_t>(v); break;
      case DType::U32: x = static_cast<uint32_t>(v); break;
      default: x = static_cast<double>(v); break;  // u64
    }
    switch (in.type) {
      case DType::F16: d[l] = to_half(x); break;
      case DType::BF16: d[l] = to_bf16(static_cast<float>(x)); break;
      case DType::F32: d[l] = std::bit_cast<uint32_t>(static_cast<float>(x)); break;
      default: d[l] = std::bit_cast<uint64_t>(x); break;
    }
  });
}


// An f32 to f16 or bf16 bits with cvt's .rz, .relu and .satfinite: NaN gives the canonical
// NaN; .relu makes a negative value (and -0) +0; past the largest finite value .rn gives
// infinity, .rz and .satfinite the largest finite value (.satfinite: infinities too).
uint16_t narrow_f32(float x, bool bf, const Instr& in) {
  return static_cast<uint16_t>(
      narrow_to_format(x, bf ? kBF16Format : kF16Format, in.round == Round::Rz, in.relu, in.satfinite));
}

bool plain_narrowing(const Instr& in) { return !in.relu && !in.satfinite && in.round != Round::Rz; }

// cvt{.rz}{.relu}{.satfinite}.{f16,bf16}.f32.
void hcvt_narrow(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  const bool bf = in.type == DType::BF16;
  for_lanes(m, [&](int l) { d[l] = narrow_f32(std::bit_cast<float>(static_cast<uint32_t>(a[l])), bf, in); });
}

// cvt.rn.f16x2.f32 and cvt.rn.bf16x2.f32 d, a, b: a to the upper half, b to the lower,
// each rounded as cvt.rn.{f16,bf16}.f32 rounds it (NaN: the canonical NaN); with .rz,
// .relu or .satfinite as narrow_f32 rounds it.
void hcvt_pack(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  uint64_t* d = exec::dst(c, in.d[0]);
  const bool bf = in.type == DType::BF16x2;
  const bool plain = plain_narrowing(in);
  auto half = [&](uint64_t v) -> uint64_t {
    const float x = std::bit_cast<float>(static_cast<uint32_t>(v));
    if (!plain) return narrow_f32(x, bf, in);
    if (std::isnan(x)) return kCanonicalNanF16;
    return bf ? bf16_from_double(x) : to_half(x);
  };
  for_lanes(m, [&](int l) { d[l] = (half(a[l]) << 16) | half(b[l]); });
}

// cvt.rna.tf32.f32: to the nearest TensorFloat-32 (10 mantissa bits), ties away from zero,
// in a 32-bit register whose low 13 bits are 0 (what wmma::__float_to_tf32 compiles to).
// Infinities and NaNs lose their low 13 bits and nothing else, as on an H200
// (pairs_and_set_results.cu): a NaN stays as quiet or signalling as it was, and one whose
// payload was only in those bits becomes infinity.
void cvt_tf32(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  for_lanes(m, [&](int l) {
    const uint32_t x = static_cast<uint32_t>(a[l]);
    if ((x & 0x7F800000u) == 0x7F800000u) d[l] = x & 0xFFFFE000u;  // NaN, inf
    else d[l] = (x + 0x1000u) & 0xFFFFE000u;  // magnitude + half an ulp, truncated: ties away
  });
}

// cvt.rna.satfinite.tf32.f32 and cvt.{rn,rz}.tf32.f32, as an H200 computes them
// (relu_fp8_results.cu): .rn ties to even, .rz truncates, and both turn a NaN into
// 0x7FFFE000 (the canonical NaN without its low 13 bits); past the largest finite TF32
// (0x7F7FE000) .rn gives infinity and .rz that largest value. .rna.satfinite rounds as .rna
// (a NaN loses its low 13 bits), then steps anything with the top exponent down one TF32
// unit: infinity and what rounds to it become the largest finite value of their sign, a NaN
// keeps its sign and its payload less one unit (0x7FC00123 -> 0x7FBFE000).
void cvt_tf32_modes(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  constexpr uint32_t kMaxFinite = 0x7F7FE000u, kInf = 0x7F800000u, kLow = 0x1FFFu;
  for_lanes(m, [&](int l) {
    const uint32_t x = static_cast<uint32_t>(a[l]);
    const uint32_t sign = x & 0x80000000u, mag = x & 0x7FFFFFFFu;
    if (in.round == Round::Rna) {  // .satfinite
      uint32_t r = mag > kInf ? mag & ~kLow : (mag + 0x1000u) & ~kLow;
      if (r >= kInf) r -= 0x2000u;
      d[l] = sign | r;
      return;
    }
    if (mag > kInf) {
      d[l] = kCanonicalNanF32 & ~kLow;
      return;
    }
    uint32_t r = mag;
    if (mag < kInf) {
      r = in.round == Round::Rn ? (mag + 0xFFFu + ((mag >> 13) & 1)) & ~kLow : mag & ~kLow;
      if (r > kMaxFinite) r = in.round == Round::Rz ? kMaxFinite : kInf;
    }
    d[l] = sign | r;
  });
}

}  // namespace

ExecFn half_semantics(const Instr& in) {
  if (in.op == Op::Cvt && in.type == DType::TF32) {
    if (in.stype != DType::F32 || in.sat || in.ftz) return nullptr;
    if (in.relu) return nullptr;
    if (in.round == Round::Rna) return in.satfinite ? &cvt_tf32_modes : &cvt_tf32;
    return (in.round == Round::Rn || in.round == Round::Rz) && !in.satfinite ? &cvt_tf32_modes : nullptr;
  }
  // cvt from f32 to the halves also rounds toward zero.
  const bool from_f32 = in.op == Op::Cvt && in.stype == DType::F32;
  const bool rn = in.round == Round::Rn || (from_f32 && in.round == Round::Rz);
  if (in.round != Round::None && !rn) return nullptr;
  if (in.op == Op::Cvt && (in.type == DType::F16x2 || in.type == DType::BF16x2))
    return from_f32 && rn && !in.sat && !in.ftz && in.b.kind != Operand::Kind::None ? &hcvt_pack : nullptr;
  if (in.op == Op::Cvt && (in.type == DType::F16 || in.type == DType::BF16) && from_f32 && !plain_narrowing(in))
    return rn && !in.sat && !in.ftz ? &hcvt_narrow : nullptr;
  // .relu and .satfinite: fma.relu is left (cvt's forms are above).
  if (in.relu || in.satfinite) {
    if (in.op != Op::Fma || in.satfinite || in.sat) return nullptr;
    if (in.type == DType::BF16 || in.type == DType::BF16x2) return in.ftz ? nullptr : &bfma;
    return in.type == DType::F16 || in.type == DType::F16x2 ? &hfma : nullptr;
  }
  if (in.op == Op::Cvt) {
    auto wide = [](DType t) { return t == DType::F32 || t == DType::F64; };
    const bool to = (in.type == DType::F16 || in.type == DType::BF16) && wide(in.stype);
    const bool from = (in.stype == DType::F16 || in.stype == DType::BF16) && wide(in.type);
    // cvt.rn.{f16,bf16}.{s,u}{8,16,32,64}: an integer to the nearest half.
    const bool from_int = (in.type == DType::F16 || in.type == DType::BF16) && is_int(in.stype) &&
                          in.round == Round::Rn;
    if (in.sat || (!to && !from && !from_int)) return nullptr;
    return &hcvt;
  }
  if (in.op == Op::Setp) {
    if (in.type == DType::F16x2 || in.type == DType::BF16x2) return &hsetp2;
    return in.type == DType::F16 || in.type == DType::BF16 ? &hsetp : nullptr;
  }
  // tanh.approx.{f16,f16x2,bf16,bf16x2}, ex2.approx.{f16,f16x2}, ex2.approx.ftz.{bf16,bf16x2}.
  if ((in.op == Op::Tanh || in.op == Op::Ex2) && is_half(in.type)) {
    const bool bf = in.type == DType::BF16 || in.type == DType::BF16x2;
    if (!in.approx || in.sat || in.round != Round::None) return nullptr;
    if (in.op == Op::Tanh) return in.ftz ? nullptr : &happrox<true>;
    return in.ftz == bf ? &happrox<false> : nullptr;
  }
  if (in.type == DType::BF16 || in.type == DType::BF16x2) {
    if (in.ftz || in.sat) return nullptr;
    switch (in.op) {
      case Op::Add: return &badd;
      case Op::Sub: return &bsub;
      case Op::Mul: return &bmul;
      case Op::Fma: return &bfma;
      case Op::Min: return in.nan_min_max ? &bminmax<false, true> : &bminmax<false, false>;
      case Op::Max: return in.nan_min_max ? &bminmax<true, true> : &bminmax<true, false>;
      case Op::Neg: return &hsign<false>;
      case Op::Abs: return &hsign<true>;
      default: return nullptr;
    }
  }
  if (in.type != DType::F16 && in.type != DType::F16x2) return nullptr;
  switch (in.op) {
    case Op::Add: return &hadd;
    case Op::Sub: return &hsub;
    case Op::Mul: return &hmul;
    case Op::Fma: return &hfma;
    case Op::Min: return in.sat ? nullptr : in.nan_min_max ? &hmin_nan : &hmin;
    case Op::Max: return in.sat ? nullptr : in.nan_min_max ? &hmax_nan : &hmax;
    case Op::Neg: return &hsign<false>;
    case Op::Abs: return &hsign<true>;
    default: return nullptr;
  }
}

}  // namespace warpsim::isa::detail
