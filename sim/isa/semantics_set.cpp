// set: setp's comparison written to a register instead of a predicate. Where it holds, an
// integer destination gets all ones and a float destination 1.0; elsewhere 0. On .f16x2 and
// .bf16x2 sources each half is compared and written apart (0xFFFF or 1.0 per half). With
// .and/.or/.xor the comparison is first combined with the predicate source, as setp's is.
// .ftz flushes subnormal .f32 and .f16 sources to zero of the same sign.
#include <bit>
#include <cmath>

#include "sim/isa/half_bits.hpp"
#include "sim/isa/semantics_internal.hpp"

namespace warpsim::isa::detail {

using exec::ExecCtx;
using exec::for_lanes;

namespace {

// The compared value of one (already extracted) source: integers as they are, signed ones
// sign-extended; floats as the double they are exactly.
struct Value {
  bool is_float = false;
  int64_t s = 0;
  uint64_t u = 0;
  double f = 0;
};

Value value_of(DType t, uint64_t v, bool flush) {
  Value r;
  switch (t) {
    case DType::F16:
    case DType::BF16:
      r.is_float = true;
      r.f = compared_half(static_cast<uint16_t>(v), t == DType::BF16, flush);
      return r;
    case DType::F32: r.is_float = true; r.f = ftz(std::bit_cast<float>(static_cast<uint32_t>(v)), flush); return r;
    case DType::F64: r.is_float = true; r.f = std::bit_cast<double>(v); return r;
    default: break;
  }
  const unsigned bits = 8u * static_cast<unsigned>(dtype_bytes(t));
  r.u = bits == 64 ? v : v & ((uint64_t(1) << bits) - 1);
  r.s = bits == 64 ? static_cast<int64_t>(v)
                   : static_cast<int64_t>(r.u << (64 - bits)) >> (64 - bits);  // sign-extended
  if (!is_signed(t)) r.s = static_cast<int64_t>(r.u);
  return r;
}

bool compare(Cmp cmp, DType t, const Value& x, const Value& y) {
  if (x.is_float) return float_compare<double>(cmp, x.f, y.f);
  const bool sgn = is_signed(t);
  switch (cmp) {
    case Cmp::Eq: return x.u == y.u;
    case Cmp::Ne: return x.u != y.u;
    case Cmp::Lt: return sgn ? x.s < y.s : x.u < y.u;
    case Cmp::Le: return sgn ? x.s <= y.s : x.u <= y.u;
    case Cmp::Gt: return sgn ? x.s > y.s : x.u > y.u;
    case Cmp::Ge: return sgn ? x.s >= y.s : x.u >= y.u;
    case Cmp::Lo: return x.u < y.u;
    case Cmp::Ls: return x.u <= y.u;
    case Cmp::Hi: return x.u > y.u;
    case Cmp::Hs: return x.u >= y.u;
    default: return false;
  }
}

// What a true comparison writes into a destination of type t (a false one writes 0).
uint64_t true_value(DType t) {
  switch (t) {
    case DType::F32: return 0x3F800000u;
    case DType::F16: return 0x3C00u;
    case DType::BF16: return 0x3F80u;
    case DType::U16: case DType::S16: return 0xFFFFu;
    default: return 0xFFFFFFFFu;  // .u32, .s32
  }
}

void set_scalar(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  uint64_t* d = exec::dst(c, in.d[0]);
  const uint32_t cpred = in.boolop != BoolOp::None ? exec::pred_src(c, in.c) : 0;
  const uint64_t one = true_value(in.type);
  for_lanes(m, [&](int l) {
    const bool r = compare(in.cmp, in.stype, value_of(in.stype, a[l], in.ftz), value_of(in.stype, b[l], in.ftz));
    d[l] = (combine(in.boolop, uint32_t(r), (cpred >> l) & 1) & 1) ? one : 0;
  });
}

// .f16x2 and .bf16x2 sources: each half apart, into a destination of the same pair type
// (1.0 per half) or .u32/.s32 (0xFFFF per half).
void set_pairs(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  uint64_t* d = exec::dst(c, in.d[0]);
  const uint32_t cpred = in.boolop != BoolOp::None ? exec::pred_src(c, in.c) : 0;
  const DType half = in.stype == DType::BF16x2 ? DType::BF16 : DType::F16;
  const uint64_t one = in.type == DType::F16x2 ? 0x3C00u : in.type == DType::BF16x2 ? 0x3F80u : 0xFFFFu;
  for_lanes(m, [&](int l) {
    uint64_t r = 0;
    for (int h = 0; h < 2; ++h) {
      const uint64_t x = (a[l] >> (16 * h)) & 0xFFFF, y = (b[l] >> (16 * h)) & 0xFFFF;
      const bool t = compare(in.cmp, half, value_of(half, x, in.ftz), value_of(half, y, in.ftz));
      if (combine(in.boolop, uint32_t(t), (cpred >> l) & 1) & 1) r |= one << (16 * h);
    }
    d[l] = r;
  });
}

}  // namespace

ExecFn set_semantics(const Instr& in) {
  if (in.op != Op::Set) return nullptr;
  const bool pairs = in.stype == DType::F16x2 || in.stype == DType::BF16x2;
  return pairs ? &set_pairs : &set_scalar;  // the type combinations: Decoder::set_compare
}

}  // namespace warpsim::isa::detail
