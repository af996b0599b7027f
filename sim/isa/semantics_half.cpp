// Half precision: .f16 (IEEE binary16) and .f16x2 (two halves in 32 bits, low half first)
// arithmetic, and the conversions of .f16 and .bf16 to and from .f32/.f64. Values are held
// as their bit patterns in the low bits of a register slot. Arithmetic is done in double,
// where the sum, difference and product of halves are exact, then rounded to nearest even
// (fma rounds once from the double result). Only the default rounding (.rn) is supported.
#include <bit>
#include <cmath>

#include "sim/isa/half_bits.hpp"
#include "sim/isa/semantics_internal.hpp"

namespace warpsim::isa::detail {

using exec::ExecCtx;
using exec::for_lanes;

namespace {

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
  if (std::isnan(r)) return kCanonicalNanF16;
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

// neg and abs flip or clear the sign bit of each half; a NaN half gives the canonical NaN
// (as an H200 does: nan_results_half.cu).
template <bool Abs>
void hsign(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  const int halves = in.type == DType::F16x2 ? 2 : 1;
  for_lanes(m, [&](int l) {
    uint64_t r = 0;
    for (int i = 0; i < halves; ++i) {
      const uint16_t h = static_cast<uint16_t>(a[l] >> (16 * i));
      const uint16_t v = (h & 0x7C00) == 0x7C00 && (h & 0x3FF) ? kCanonicalNanF16 : Abs ? h & 0x7FFF : h ^ 0x8000;
      r |= uint64_t(v) << (16 * i);
    }
    d[l] = r;
  });
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
    if (in.stype == DType::BF16 && in.type == DType::F32) {
      d[l] = (v & 0xFFFF) << 16;
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


// cvt.rna.tf32.f32: to the nearest TensorFloat-32 (10 mantissa bits), ties away from zero,
// in a 32-bit register whose low 13 bits are 0 (what wmma::__float_to_tf32 compiles to).
void cvt_tf32(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  for_lanes(m, [&](int l) {
    const uint32_t x = static_cast<uint32_t>(a[l]);
    if ((x & 0x7F800000u) == 0x7F800000u) d[l] = (x & 0x007FFFFFu) ? (x | 0x00400000u) & 0xFFFFE000u : x;  // NaN, inf
    else d[l] = (x + 0x1000u) & 0xFFFFE000u;  // magnitude + half an ulp, truncated: ties away
  });
}

}  // namespace

ExecFn half_semantics(const Instr& in) {
  if (in.op == Op::Cvt && in.type == DType::TF32)
    return in.stype == DType::F32 && in.round == Round::Rna && !in.sat && !in.ftz ? &cvt_tf32 : nullptr;
  if (in.round != Round::None && in.round != Round::Rn) return nullptr;
  if (in.op == Op::Cvt) {
    auto wide = [](DType t) { return t == DType::F32 || t == DType::F64; };
    const bool to = (in.type == DType::F16 || in.type == DType::BF16) && wide(in.stype);
    const bool from = (in.stype == DType::F16 || in.stype == DType::BF16) && wide(in.type);
    // cvt.rn.{f16,bf16}.{s,u}{8,16,32,64}: an integer to the nearest half.
    const bool from_int = (in.type == DType::F16 || in.type == DType::BF16) && is_int(in.stype) &&
                          in.round == Round::Rn;
    if (in.sat || (!to && !from && !from_int)) return nullptr;
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
