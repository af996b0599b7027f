// Half precision: .f16 (IEEE binary16) and .f16x2 (two halves in 32 bits, low half first)
// arithmetic, and the conversions of .f16 and .bf16 to and from .f32/.f64. Values are held
// as their bit patterns in the low bits of a register slot. Arithmetic is done in double,
// where the sum, difference and product of halves are exact, then rounded to nearest even
// (fma rounds once from the double result). Only the default rounding (.rn) is supported.
#include <bit>
#include <cmath>

#include "sim/isa/semantics_internal.hpp"

namespace warpsim::isa::detail {

using exec::ExecCtx;
using exec::for_lanes;

namespace {

// Round-to-nearest-even of a double to binary16 bits.
uint16_t to_half(double d) {
  const uint64_t x = std::bit_cast<uint64_t>(d);
  const uint16_t sign = static_cast<uint16_t>((x >> 48) & 0x8000);
  const int exp = static_cast<int>((x >> 52) & 0x7FF);
  uint64_t mant = x & ((uint64_t(1) << 52) - 1);
  if (exp == 0x7FF) return sign | 0x7C00 | (mant ? 0x200 : 0);  // inf, or a quiet NaN
  int e = exp - 1023 + 15;                                        // biased half exponent
  if (e >= 31) return sign | 0x7C00;
  int shift = 42;  // 52 - 10 mantissa bits
  if (e <= 0) {    // subnormal half (or zero)
    if (e < -10) return sign;
    mant |= uint64_t(1) << 52;
    shift = 42 + 1 - e;
    e = 0;
  }
  uint64_t h = mant >> shift;
  const uint64_t rem = mant & ((uint64_t(1) << shift) - 1), halfway = uint64_t(1) << (shift - 1);
  uint32_t bits = (uint32_t(e) << 10) + static_cast<uint32_t>(h & (e ? 0x3FF : 0x7FF));
  if (rem > halfway || (rem == halfway && (bits & 1))) ++bits;  // a carry moves into the exponent
  return sign | static_cast<uint16_t>(bits);
}

double from_half(uint16_t h) {
  const int exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  double v;
  if (exp == 0) v = std::ldexp(double(mant), -24);
  else if (exp == 31) v = mant ? std::nan("") : INFINITY;
  else v = std::ldexp(double(mant | 0x400), exp - 25);
  return (h & 0x8000) ? -v : v;
}

uint16_t to_bf16(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  if (std::isnan(f)) return static_cast<uint16_t>((x >> 16) | 0x40);
  return static_cast<uint16_t>((x + 0x7FFF + ((x >> 16) & 1)) >> 16);
}
float from_bf16(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }

bool is_subnormal_half(uint16_t h) { return ((h >> 10) & 0x1F) == 0 && (h & 0x3FF); }

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
  uint16_t h = to_half(r);
  if (in.ftz && is_subnormal_half(h)) h &= 0x8000;
  return h;
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
void hmin(ExecCtx& c, const Instr& in, uint32_t m) { run_half(c, in, m, [](double a, double b, double) { return std::fmin(a, b); }); }
void hmax(ExecCtx& c, const Instr& in, uint32_t m) { run_half(c, in, m, [](double a, double b, double) { return std::fmax(a, b); }); }

// neg and abs flip or clear the sign bit of each half (NaNs included), as the hardware does.
template <bool Abs>
void hsign(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  const uint64_t sign = in.type == DType::F16x2 ? 0x80008000u : 0x8000u;
  const uint64_t width = in.type == DType::F16x2 ? 0xFFFFFFFFu : 0xFFFFu;
  for_lanes(m, [&](int l) { d[l] = (Abs ? a[l] & ~sign : a[l] ^ sign) & width; });
}

// cvt between .f16/.bf16 and .f32/.f64.
void hcvt(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  for_lanes(m, [&](int l) {
    const uint64_t v = a[l];
    double x;
    switch (in.stype) {
      case DType::F16: x = from_half(static_cast<uint16_t>(v)); break;
      case DType::BF16: x = from_bf16(static_cast<uint16_t>(v)); break;
      case DType::F32: x = std::bit_cast<float>(static_cast<uint32_t>(v)); break;
      default: x = std::bit_cast<double>(v); break;
    }
    switch (in.type) {
      case DType::F16: d[l] = to_half(x); break;
      case DType::BF16: d[l] = to_bf16(static_cast<float>(x)); break;
      case DType::F32: d[l] = std::bit_cast<uint32_t>(static_cast<float>(x)); break;
      default: d[l] = std::bit_cast<uint64_t>(x); break;
    }
  });
}

}  // namespace

ExecFn half_semantics(const Instr& in) {
  if (in.round != Round::None && in.round != Round::Rn) return nullptr;
  if (in.op == Op::Cvt) {
    auto wide = [](DType t) { return t == DType::F32 || t == DType::F64; };
    const bool to = (in.type == DType::F16 || in.type == DType::BF16) && wide(in.stype);
    const bool from = (in.stype == DType::F16 || in.stype == DType::BF16) && wide(in.type);
    if (in.sat || (!to && !from)) return nullptr;
    if (in.type == DType::BF16 && in.stype == DType::F64) return nullptr;  // sm_90's; not from f64 here
    return &hcvt;
  }
  if (in.type != DType::F16 && in.type != DType::F16x2) return nullptr;
  switch (in.op) {
    case Op::Add: return &hadd;
    case Op::Sub: return &hsub;
    case Op::Mul: return &hmul;
    case Op::Fma: return &hfma;
    case Op::Min: return in.sat ? nullptr : &hmin;
    case Op::Max: return in.sat ? nullptr : &hmax;
    case Op::Neg: return &hsign<false>;
    case Op::Abs: return &hsign<true>;
    default: return nullptr;
  }
}

}  // namespace warpsim::isa::detail
