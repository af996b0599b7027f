// Carry arithmetic (ptx_decode_carry.cpp): d = a + b + CF, d = a - (b + CF),
// d = (a * b).lo/hi + c + CF, with CF (0 or 1 in the hidden carry register, Instr::e) only
// for addc/subc/madc, and the carry (or borrow) out of the final addition written to the
// carry register (Instr::d[1]) only with .cc. Signedness matters only to mad.hi's product.
#include <type_traits>

#include "sim/isa/semantics_internal.hpp"

namespace warpsim::isa::detail {

using exec::ExecCtx;
using exec::for_lanes;

namespace {

template <class T>
using U = std::make_unsigned_t<T>;

// The high half of a * b, signed or not.
template <class T>
U<T> mul_hi(T a, T b) {
  if constexpr (sizeof(T) == 4) {
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    return static_cast<U<T>>(static_cast<uint64_t>(W(a) * W(b)) >> 32);
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
    return static_cast<U<T>>(static_cast<unsigned __int128>(W(a) * W(b)) >> 64);
  }
}

template <class T>
struct CarryK {
  static void run(ExecCtx& c, const Instr& in, uint32_t mask) {
    const uint64_t* a = exec::src(c, in.a);
    const uint64_t* b = exec::src(c, in.b);
    const uint64_t* z = in.op == Op::MadCarry ? exec::src(c, in.c) : nullptr;
    const uint64_t* cf = in.e.kind == Operand::Kind::Reg ? exec::src(c, in.e) : nullptr;
    uint64_t* d = exec::dst(c, in.d[0]);
    uint64_t* out = in.cc ? exec::dst(c, in.d[1]) : nullptr;
    for_lanes(mask, [&](int l) {
      const U<T> x = static_cast<U<T>>(a[l]), y = static_cast<U<T>>(b[l]);
      const U<T> carry_in = cf ? U<T>(cf[l] & 1) : U<T>(0);
      U<T> r;
      bool carry;
      if (in.op == Op::SubCarry) {
        const U<T> t = U<T>(x - y);
        r = U<T>(t - carry_in);
        carry = x < y || t < carry_in;  // borrow out
      } else {
        U<T> p = y;
        U<T> q = carry_in;
        if (in.op == Op::MadCarry) {
          p = in.width == Width::Hi ? mul_hi<T>(static_cast<T>(x), static_cast<T>(y)) : U<T>(x * y);
          q = static_cast<U<T>>(z[l]);
          const U<T> s = U<T>(p + q);
          r = U<T>(s + carry_in);
          carry = s < p || r < s;
        } else {
          const U<T> s = U<T>(x + p);
          r = U<T>(s + q);
          carry = s < x || r < s;
        }
      }
      d[l] = r;
      if (out) out[l] = carry ? 1 : 0;
    });
  }
};

}  // namespace

ExecFn carry_semantics(const Instr& in) {
  if (in.op != Op::AddCarry && in.op != Op::SubCarry && in.op != Op::MadCarry) return nullptr;
  switch (in.type) {
    case DType::U32: return &CarryK<uint32_t>::run;
    case DType::S32: return &CarryK<int32_t>::run;
    case DType::U64: return &CarryK<uint64_t>::run;
    case DType::S64: return &CarryK<int64_t>::run;
    default: return nullptr;
  }
}

}  // namespace warpsim::isa::detail
