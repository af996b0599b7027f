// Integer and bitwise semantics (moves, selects, comparisons, predicate logic and address
// conversion: semantics_move.cpp).
#include <algorithm>
#include <bit>
#include <limits>

#include "sim/isa/semantics_internal.hpp"

namespace warpsim::isa::detail {

using exec::ExecCtx;
using exec::for_lanes;
using exec::get;
using exec::put;

namespace {

template <class T>
using U = std::make_unsigned_t<T>;
template <class T>
constexpr int bits_of = sizeof(T) * 8;

// ---- binary ops --------------------------------------------------------------------
template <class T, class F>
inline void binary(ExecCtx& c, const Instr& in, uint32_t mask, F f) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  uint64_t* d = exec::dst(c, in.d[0]);
  for_lanes(mask, [&](int l) { d[l] = put<T>(f(get<T>(a[l]), get<T>(b[l]))); });
}

template <class T>
struct AddK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    if constexpr (std::is_same_v<T, int32_t>) {
      if (in.sat) {
        binary<T>(c, in, m, [](T x, T y) {
          int64_t r = int64_t(x) + y;
          return T(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
        });
        return;
      }
    }
    binary<T>(c, in, m, [](T x, T y) { return T(U<T>(x) + U<T>(y)); });
  }
};
template <class T>
struct SubK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    if constexpr (std::is_same_v<T, int32_t>) {
      if (in.sat) {
        binary<T>(c, in, m, [](T x, T y) {
          int64_t r = int64_t(x) - y;
          return T(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
        });
        return;
      }
    }
    binary<T>(c, in, m, [](T x, T y) { return T(U<T>(x) - U<T>(y)); });
  }
};
template <class T>
struct MinK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    binary<T>(c, in, m, [](T x, T y) { return x < y ? x : y; });
  }
};
template <class T>
struct MaxK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    binary<T>(c, in, m, [](T x, T y) { return x > y ? x : y; });
  }
};
template <class T>
struct AndK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) { binary<T>(c, in, m, [](T x, T y) { return T(x & y); }); }
};
template <class T>
struct OrK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) { binary<T>(c, in, m, [](T x, T y) { return T(x | y); }); }
};
template <class T>
struct XorK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) { binary<T>(c, in, m, [](T x, T y) { return T(x ^ y); }); }
};

// High half of the full product of two T values.
template <class T>
inline T mul_hi(T x, T y) {
  if constexpr (sizeof(T) <= 4) {
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    return T((W(x) * W(y)) >> bits_of<T>);
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
    return T((W(x) * W(y)) >> 64);
  }
}
template <class T>
struct Wide {
  using type = std::conditional_t<std::is_signed_v<T>,
                                  std::conditional_t<sizeof(T) == 2, int32_t, int64_t>,
                                  std::conditional_t<sizeof(T) == 2, uint32_t, uint64_t>>;
};

template <class T>
struct MulK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    const uint64_t* b = exec::src(c, in.b);
    uint64_t* d = exec::dst(c, in.d[0]);
    switch (in.width) {
      case Width::Hi:
        for_lanes(m, [&](int l) { d[l] = put<T>(mul_hi<T>(get<T>(a[l]), get<T>(b[l]))); });
        break;
      case Width::Wide:
        if constexpr (sizeof(T) <= 4) {
          using W = typename Wide<T>::type;
          for_lanes(m, [&](int l) { d[l] = put<W>(W(get<T>(a[l])) * W(get<T>(b[l]))); });
        }
        break;
      default:
        for_lanes(m, [&](int l) { d[l] = put<T>(T(U<T>(get<T>(a[l])) * U<T>(get<T>(b[l])))); });
    }
  }
};

template <class T>
struct MadK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    const uint64_t* b = exec::src(c, in.b);
    const uint64_t* cc = exec::src(c, in.c);
    uint64_t* d = exec::dst(c, in.d[0]);
    switch (in.width) {
      case Width::Hi:
        if constexpr (std::is_same_v<T, int32_t>) {
          if (in.sat) {
            for_lanes(m, [&](int l) {
              int64_t r = int64_t(mul_hi<T>(get<T>(a[l]), get<T>(b[l]))) + get<T>(cc[l]);
              d[l] = put<T>(T(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r));
            });
            break;
          }
        }
        for_lanes(m, [&](int l) {
          d[l] = put<T>(T(U<T>(mul_hi<T>(get<T>(a[l]), get<T>(b[l]))) + U<T>(get<T>(cc[l]))));
        });
        break;
      case Width::Wide:
        if constexpr (sizeof(T) <= 4) {
          using W = typename Wide<T>::type;
          using UW = std::make_unsigned_t<W>;
          for_lanes(m, [&](int l) {
            d[l] = put<W>(W(UW(W(get<T>(a[l])) * W(get<T>(b[l]))) + UW(get<W>(cc[l]))));
          });
        }
        break;
      default:
        for_lanes(m, [&](int l) {
          d[l] = put<T>(T(U<T>(get<T>(a[l])) * U<T>(get<T>(b[l])) + U<T>(get<T>(cc[l]))));
        });
    }
  }
};

// 24-bit multiply: operands are the low 24 bits (sign-extended for .s32).
template <class T>
inline int64_t low24(T x) {
  if constexpr (std::is_signed_v<T>) return int64_t(int32_t(uint32_t(x) << 8) >> 8);
  else return int64_t(uint32_t(x) & 0xFFFFFFu);
}
template <class T>
struct Mul24K {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    const uint64_t* b = exec::src(c, in.b);
    const uint64_t* cc = in.op == Op::Mad24 ? exec::src(c, in.c) : nullptr;
    uint64_t* d = exec::dst(c, in.d[0]);
    bool hi = in.width == Width::Hi;
    // mad24.hi.sat.s32 clamps the sum to the s32 range instead of wrapping.
    bool sat = cc && in.sat && std::is_signed_v<T>;
    for_lanes(m, [&](int l) {
      int64_t p = low24(get<T>(a[l])) * low24(get<T>(b[l]));
      uint32_t r = hi ? uint32_t(uint64_t(p) >> 16) : uint32_t(p);
      if (sat) {
        int64_t s = int64_t(int32_t(r)) + int64_t(int32_t(uint32_t(cc[l])));
        r = uint32_t(int32_t(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s));
      } else if (cc) {
        r += uint32_t(cc[l]);
      }
      d[l] = put<T>(T(r));
    });
  }
};

template <class T>
struct DivK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    binary<T>(c, in, m, [](T x, T y) -> T {
      if (y == 0) return T(~U<T>(0));  // what the hardware's sequence yields for x/0
      if constexpr (std::is_signed_v<T>)
        if (x == std::numeric_limits<T>::min() && y == T(-1)) return x;
      return T(x / y);
    });
  }
};
template <class T>
struct RemK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    binary<T>(c, in, m, [](T x, T y) -> T {
      if (y == 0) return x;
      if constexpr (std::is_signed_v<T>)
        if (y == T(-1)) return 0;
      return T(x % y);
    });
  }
};

// ---- unary ops ----------------------------------------------------------------------
template <class T, class F>
inline void unary(ExecCtx& c, const Instr& in, uint32_t mask, F f) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  for_lanes(mask, [&](int l) { d[l] = f(get<T>(a[l])); });
}
template <class T>
struct AbsK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    unary<T>(c, in, m, [](T x) { return put<T>(x < 0 ? T(U<T>(0) - U<T>(x)) : x); });
  }
};
template <class T>
struct NegK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    unary<T>(c, in, m, [](T x) { return put<T>(T(U<T>(0) - U<T>(x))); });
  }
};
template <class T>
struct NotK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) { unary<T>(c, in, m, [](T x) { return put<T>(T(~x)); }); }
};
template <class T>
struct CnotK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    unary<T>(c, in, m, [](T x) { return put<T>(T(x == 0 ? 1 : 0)); });
  }
};
template <class T>
struct PopcK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    unary<T>(c, in, m, [](T x) { return uint64_t(std::popcount(U<T>(x))); });
  }
};
template <class T>
struct ClzK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    unary<T>(c, in, m, [](T x) { return uint64_t(std::countl_zero(U<T>(x))); });
  }
};
template <class T>
struct BrevK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    unary<T>(c, in, m, [](T x) {
      U<T> v = U<T>(x), r = 0;
      for (int i = 0; i < bits_of<T>; ++i) r |= U<T>((v >> i) & 1) << (bits_of<T> - 1 - i);
      return put<T>(T(r));
    });
  }
};

// ---- shifts (amounts beyond the width clamp, as PTX specifies) ---------------------
template <class T>
struct ShlK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    const uint64_t* b = exec::src(c, in.b);
    uint64_t* d = exec::dst(c, in.d[0]);
    for_lanes(m, [&](int l) {
      uint32_t s = uint32_t(b[l]);
      d[l] = put<T>(s >= bits_of<T> ? T(0) : T(U<T>(get<T>(a[l])) << s));
    });
  }
};
template <class T>
struct ShrK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    const uint64_t* b = exec::src(c, in.b);
    uint64_t* d = exec::dst(c, in.d[0]);
    for_lanes(m, [&](int l) {
      uint32_t s = uint32_t(b[l]);
      T x = get<T>(a[l]);
      if constexpr (std::is_signed_v<T>) {
        d[l] = put<T>(T(x >> (s >= bits_of<T> ? bits_of<T> - 1 : s)));
      } else {
        d[l] = put<T>(s >= bits_of<T> ? T(0) : T(x >> s));
      }
    });
  }
};

// ---- bit fields ----------------------------------------------------------------------
template <class T>
struct BfeK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    const uint64_t* b = exec::src(c, in.b);
    const uint64_t* cc = exec::src(c, in.c);
    uint64_t* d = exec::dst(c, in.d[0]);
    constexpr int msb = bits_of<T> - 1;
    for_lanes(m, [&](int l) {
      U<T> x = U<T>(get<T>(a[l]));
      int pos = int(b[l] & 0xFF), len = int(cc[l] & 0xFF);
      U<T> sbit = 0;
      if (std::is_signed_v<T> && len != 0) sbit = (x >> std::min(pos + len - 1, msb)) & 1;
      U<T> r = 0;
      for (int i = 0; i <= msb; ++i) {
        U<T> bit = (i < len && pos + i <= msb) ? ((x >> (pos + i)) & 1) : sbit;
        r |= bit << i;
      }
      d[l] = put<T>(T(r));
    });
  }
};
template <class T>
struct BfiK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    const uint64_t* b = exec::src(c, in.b);
    const uint64_t* cc = exec::src(c, in.c);
    const uint64_t* ee = exec::src(c, in.e);
    uint64_t* d = exec::dst(c, in.d[0]);
    constexpr int msb = bits_of<T> - 1;
    for_lanes(m, [&](int l) {
      U<T> f = U<T>(get<T>(b[l])), x = U<T>(get<T>(a[l]));
      int pos = int(cc[l] & 0xFF), len = int(ee[l] & 0xFF);
      for (int i = 0; i < len && pos + i <= msb; ++i) {
        U<T> bit = (x >> i) & 1;
        f = (f & ~(U<T>(1) << (pos + i))) | (bit << (pos + i));
      }
      d[l] = put<T>(T(f));
    });
  }
};

// bfind: the position of the most significant bit that differs from the sign (signed
// types) or is set (unsigned); .shiftamt returns width - 1 - position instead, the left
// shift that moves that bit to the top. 0xFFFFFFFF when there is no such bit.
template <class T>
struct BfindK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    uint64_t* d = exec::dst(c, in.d[0]);
    const bool shift = in.op == Op::BfindShift;
    for_lanes(m, [&](int l) {
      U<T> x = U<T>(get<T>(a[l]));
      if (std::is_signed_v<T> && (x >> (bits_of<T> - 1)) & 1) x = U<T>(~x);
      uint32_t r = 0xFFFFFFFFu;
      if (x != 0) {
        uint32_t pos = uint32_t(bits_of<T> - 1 - std::countl_zero(x));
        r = shift ? uint32_t(bits_of<T> - 1) - pos : pos;
      }
      d[l] = r;
    });
  }
};

// shf: funnel shift of the 64-bit b:a; the amount wraps (mod 32) or clamps (at 32).
void shf(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  const uint64_t* cc = exec::src(c, in.c);
  uint64_t* d = exec::dst(c, in.d[0]);
  const bool left = in.op == Op::ShfLWrap || in.op == Op::ShfLClamp;
  const bool wrap = in.op == Op::ShfLWrap || in.op == Op::ShfRWrap;
  for_lanes(m, [&](int l) {
    uint64_t v = (uint64_t(uint32_t(b[l])) << 32) | uint32_t(a[l]);
    uint32_t n = wrap ? uint32_t(cc[l]) & 31 : std::min<uint32_t>(uint32_t(cc[l]), 32);
    d[l] = left ? uint32_t((v << n) >> 32) : uint32_t(v >> n);
  });
}

// prmt (default mode): byte i of d is byte c[4i+2:4i] of b:a, or its sign replicated when
// c[4i+3] is set.
void prmt(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  const uint64_t* cc = exec::src(c, in.c);
  uint64_t* d = exec::dst(c, in.d[0]);
  for_lanes(m, [&](int l) {
    uint64_t v = (uint64_t(uint32_t(b[l])) << 32) | uint32_t(a[l]);
    uint32_t sel = uint32_t(cc[l]), r = 0;
    for (int i = 0; i < 4; ++i) {
      uint32_t s = (sel >> (4 * i)) & 0xF;
      uint32_t byte = uint32_t(v >> (8 * (s & 7))) & 0xFF;
      if (s & 8) byte = (byte & 0x80) ? 0xFF : 0;
      r |= byte << (8 * i);
    }
    d[l] = r;
  });
}

}  // namespace

ExecFn int_semantics(const Instr& in) {
  const DType t = in.type;
  switch (in.op) {
    case Op::Mov:
    case Op::Setp:
    case Op::Selp:
    case Op::Slct:
    case Op::Cvta:
    case Op::CvtaTo:
    case Op::Mapa:
    case Op::GetCtaRank: return move_select_semantics(in);
    default: break;
  }
  if (t == DType::Pred) return move_select_semantics(in);
  if (is_float(t)) return nullptr;
  switch (in.op) {
    case Op::Add: return by_int_type<AddK>(t);
    case Op::Sub: return by_int_type<SubK>(t);
    case Op::Min: return by_int_type<MinK>(t);
    case Op::Max: return by_int_type<MaxK>(t);
    case Op::And: return by_int_type<AndK>(t);
    case Op::Or: return by_int_type<OrK>(t);
    case Op::Xor: return by_int_type<XorK>(t);
    case Op::Mul: return dtype_bytes(t) >= 2 ? by_int_type<MulK>(t) : nullptr;
    case Op::Mad: return dtype_bytes(t) >= 2 ? by_int_type<MadK>(t) : nullptr;
    case Op::Mul24:
    case Op::Mad24:
      return t == DType::U32 ? &Mul24K<uint32_t>::run : t == DType::S32 ? &Mul24K<int32_t>::run : nullptr;
    case Op::Div: return by_int_type<DivK>(t);
    case Op::Rem: return by_int_type<RemK>(t);
    case Op::Abs: return is_signed(t) ? by_int_type<AbsK>(t) : nullptr;
    case Op::Neg: return is_signed(t) ? by_int_type<NegK>(t) : nullptr;
    case Op::Not: return by_int_type<NotK>(t);
    case Op::Cnot: return by_int_type<CnotK>(t);
    case Op::Popc: return dtype_bytes(t) >= 4 ? by_int_type<PopcK>(t) : nullptr;
    case Op::Clz: return dtype_bytes(t) >= 4 ? by_int_type<ClzK>(t) : nullptr;
    case Op::Brev: return dtype_bytes(t) >= 4 ? by_int_type<BrevK>(t) : nullptr;
    case Op::Shl: return by_int_type<ShlK>(t);
    case Op::Shr: return by_int_type<ShrK>(t);
    case Op::Bfe: return by_int_type<BfeK>(t);
    case Op::Bfi: return by_int_type<BfiK>(t);
    case Op::Bfind:
    case Op::BfindShift: return dtype_bytes(t) >= 4 ? by_int_type<BfindK>(t) : nullptr;
    case Op::ShfLWrap:
    case Op::ShfLClamp:
    case Op::ShfRWrap:
    case Op::ShfRClamp: return &shf;
    case Op::Prmt: return &prmt;
    default: return nullptr;
  }
}

}  // namespace warpsim::isa::detail
