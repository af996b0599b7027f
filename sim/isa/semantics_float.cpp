// Floating-point and conversion semantics. Directed rounding (.rz .rm .rp) is done with
// the host FPU's rounding mode, which is why this file is compiled with -frounding-math.
#include <cfenv>
#include <cmath>
#include <limits>

#include "sim/isa/contraction.hpp"
#include "sim/isa/semantics_internal.hpp"

namespace warpsim::isa::detail {

using exec::ExecCtx;
using exec::for_lanes;
using exec::get;
using exec::put;

namespace {

// Sets the host rounding mode for directed-rounding instructions, restores it after.
class RoundingScope {
 public:
  explicit RoundingScope(Round r) {
    int mode = -1;
    switch (r) {
      case Round::Rz: case Round::Rzi: mode = FE_TOWARDZERO; break;
      case Round::Rm: case Round::Rmi: mode = FE_DOWNWARD; break;
      case Round::Rp: case Round::Rpi: mode = FE_UPWARD; break;
      default: break;
    }
    if (mode >= 0) {
      saved_ = std::fegetround();
      std::fesetround(mode);
      active_ = true;
    }
  }
  ~RoundingScope() {
    if (active_) std::fesetround(saved_);
  }
  RoundingScope(const RoundingScope&) = delete;
  RoundingScope& operator=(const RoundingScope&) = delete;

 private:
  int saved_ = 0;
  bool active_ = false;
};

template <class T>
inline T saturate(T x, bool on) {
  if (!on) return x;
  if (std::isnan(x)) return T(0);
  return x < T(0) ? T(0) : (x > T(1) ? T(1) : x);
}
// The GPU's NaNs (quiet, f32_canonical, nan_result, fma_nan_result): semantics_internal.hpp.

template <class T, bool kSecondNanWins, class F>
inline void fbinary(ExecCtx& c, const Instr& in, uint32_t mask, F f) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  uint64_t* d = exec::dst(c, in.d[0]);
  RoundingScope rs(in.round);
  bool z = in.ftz, s = in.sat;
  for_lanes(mask, [&](int l) {
    const T x = ftz(get<T>(a[l]), z), y = ftz(get<T>(b[l]), z);
    T r = nan_result<T, kSecondNanWins>(f(x, y), x, y);
    d[l] = put<T>(saturate(ftz(r, z), s));
  });
}

template <class T>
struct FAddK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    fbinary<T, true>(c, in, m, [](T x, T y) { return x + y; });
  }
};
template <class T>
struct FSubK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    fbinary<T, true>(c, in, m, [](T x, T y) { return x - y; });
  }
};
template <class T>
struct FMulK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    fbinary<T, true>(c, in, m, [](T x, T y) { return x * y; });
  }
};
template <class T>
struct FDivK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    fbinary<T, false>(c, in, m, [](T x, T y) { return x / y; });
  }
};
// min/max: a NaN loses to a number; two NaNs give NaN (nan_result picks which).
template <class T>
inline T fmin_ptx(T x, T y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (x == y) return std::signbit(x) ? x : y;  // min(-0, +0) = -0
  return x < y ? x : y;
}
template <class T>
inline T fmax_ptx(T x, T y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (x == y) return std::signbit(x) ? y : x;  // max(-0, +0) = +0
  return x > y ? x : y;
}
template <class T>
struct FMinK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) { fbinary<T, true>(c, in, m, fmin_ptx<T>); }
};
template <class T>
struct FMaxK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) { fbinary<T, true>(c, in, m, fmax_ptx<T>); }
};
// min/max.NaN (f32): a NaN source gives NaN (the canonical one, nan_result).
template <class T, bool Max>
struct FMinMaxNanK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    fbinary<T, true>(c, in, m, [](T x, T y) {
      if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<T>::quiet_NaN();
      return Max ? fmax_ptx(x, y) : fmin_ptx(x, y);
    });
  }
};
template <class T>
struct CopysignK {
  // copysign d, a, b: the value of b with the sign of a.
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    const uint64_t* b = exec::src(c, in.b);
    uint64_t* d = exec::dst(c, in.d[0]);
    for_lanes(m, [&](int l) { d[l] = put<T>(std::copysign(get<T>(b[l]), get<T>(a[l]))); });
  }
};

// fma and mad, and an add/sub contracted with the mul that fed it (contraction.hpp), which
// computes fma(±a, b, ±c): the signs come from Instr::fused (none for a plain fma). Those in
// round-to-nearest without .ftz or .sat run in WarpFmaK (below) instead.
template <class T>
struct FmaK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    const uint64_t* b = exec::src(c, in.b);
    const uint64_t* cc = exec::src(c, in.c);
    uint64_t* d = exec::dst(c, in.d[0]);
    RoundingScope rs(in.round);
    bool z = in.ftz, s = in.sat;
    const T pa = (in.fused & kFusedNegProduct) ? T(-1) : T(1);
    const T pc = (in.fused & kFusedNegAddend) ? T(-1) : T(1);
    for_lanes(m, [&](int l) {
      const T x = ftz(get<T>(a[l]), z), y = ftz(get<T>(b[l]), z), w = ftz(get<T>(cc[l]), z);
      T r = fma_nan_result(std::fma(pa * x, y, pc * w), x, y, w);
      d[l] = put<T>(saturate(ftz(r, z), s));
    });
  }
};

// The instruction's lane loop computes exactly the IEEE operation in round-to-nearest: no
// flush to zero, no saturation, no directed rounding. Such instructions take the vectorised
// loops of semantics_float_warp.cpp (the same results, lane for lane).
inline bool nearest_plain(const Instr& in) {
  return !in.ftz && !in.sat && (in.round == Round::None || in.round == Round::Rn);
}

template <WarpFloatOp kOp>
struct WarpBinary {
  template <class T>
  struct K {
    static void run(ExecCtx& c, const Instr& in, uint32_t m) {
      uint64_t* d = exec::dst(c, in.d[0]);
      if constexpr (std::is_same_v<T, float>) f32_binary_warp(kOp, d, exec::src(c, in.a), exec::src(c, in.b), m);
      else f64_binary_warp(kOp, d, exec::src(c, in.a), exec::src(c, in.b), m);
    }
  };
};
template <class T>
struct WarpFmaK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    const uint64_t* b = exec::src(c, in.b);
    const uint64_t* cc = exec::src(c, in.c);
    uint64_t* d = exec::dst(c, in.d[0]);
    const T pa = (in.fused & kFusedNegProduct) ? T(-1) : T(1);
    const T pc = (in.fused & kFusedNegAddend) ? T(-1) : T(1);
    if constexpr (std::is_same_v<T, float>) {
      if (m == 0xFFFFFFFFu && !in.fused) fma_f32_full_warp(d, a, b, cc);
      else f32_fma_warp(d, a, b, cc, pa, pc, m);
    } else {
      f64_fma_warp(d, a, b, cc, pa, pc, m);
    }
  }
};

template <class T, class F>
inline void funary(ExecCtx& c, const Instr& in, uint32_t mask, F f) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  RoundingScope rs(in.round);
  bool z = in.ftz;
  for_lanes(mask, [&](int l) { d[l] = put<T>(ftz(f32_canonical(T(f(ftz(get<T>(a[l]), z)))), z)); });
}
// abs and neg of an f64 NaN: the source made quiet, its sign kept (as the H200 returns it).
template <class T>
struct FAbsK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    funary<T>(c, in, m, [](T x) { return std::isnan(x) ? quiet(x) : std::fabs(x); });
  }
};
template <class T>
struct FNegK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    funary<T>(c, in, m, [](T x) { return std::isnan(x) ? quiet(x) : -x; });
  }
};
template <class T>
struct RcpK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) { funary<T>(c, in, m, [](T x) { return T(1) / x; }); }
};
template <class T>
struct SqrtK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) { funary<T>(c, in, m, [](T x) { return std::sqrt(x); }); }
};
template <class T>
struct RsqrtK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    funary<T>(c, in, m, [](T x) { return T(1) / std::sqrt(x); });
  }
};
template <class T>
struct Ex2K {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) { funary<T>(c, in, m, [](T x) { return std::exp2(x); }); }
};
template <class T>
struct Lg2K {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) { funary<T>(c, in, m, [](T x) { return std::log2(x); }); }
};
template <class T>
struct SinK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) { funary<T>(c, in, m, [](T x) { return std::sin(x); }); }
};
template <class T>
struct CosK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) { funary<T>(c, in, m, [](T x) { return std::cos(x); }); }
};
template <class T>
struct TanhK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) { funary<T>(c, in, m, [](T x) { return std::tanh(x); }); }
};

template <class T>
struct SetpFloatK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    const uint64_t* b = exec::src(c, in.b);
    uint32_t r = 0;
    bool z = in.ftz;
    if (!z) {
      // Every lane compared (vectorised); the lanes outside m are not written below.
      if constexpr (std::is_same_v<T, float>) r = f32_compare_warp(in.cmp, a, b);
      else r = f64_compare_warp(in.cmp, a, b);
    } else {
      for_lanes(m, [&](int l) {
        r |= uint32_t(float_compare<T>(in.cmp, ftz(get<T>(a[l]), z), ftz(get<T>(b[l]), z))) << l;
      });
    }
    uint32_t cpred = in.boolop != BoolOp::None ? exec::pred_src(c, in.c) : 0;
    exec::pred_write(c, in.d[0], combine(in.boolop, r, cpred), m);
    if (in.d[1].kind == Operand::Kind::Pred) exec::pred_write(c, in.d[1], combine(in.boolop, ~r, cpred), m);
  }
};

// ---- cvt -----------------------------------------------------------------------------
// Reads a source value of any PTX type as a long double-free "number": integers exactly
// (int64/uint64), floats as double.
struct Num {
  bool is_f = false;
  bool neg_int = false;
  int64_t i = 0;
  uint64_t u = 0;
  double f = 0;
};

inline Num read_num(DType t, uint64_t bits) {
  Num n;
  switch (t) {
    case DType::F32: n.is_f = true; n.f = get<float>(bits); break;
    case DType::F64: n.is_f = true; n.f = get<double>(bits); break;
    case DType::S8: n.i = int8_t(bits); break;
    case DType::S16: n.i = int16_t(bits); break;
    case DType::S32: n.i = int32_t(bits); break;
    case DType::S64: n.i = int64_t(bits); break;
    case DType::U8: case DType::B8: n.u = uint8_t(bits); break;
    case DType::U16: case DType::B16: n.u = uint16_t(bits); break;
    case DType::U32: case DType::B32: n.u = uint32_t(bits); break;
    default: n.u = bits; break;
  }
  if (!n.is_f && is_signed(t)) {
    n.neg_int = n.i < 0;
    n.u = uint64_t(n.i);
  } else if (!n.is_f) {
    n.i = int64_t(n.u);
  }
  return n;
}

inline double round_integral(double x, Round r) {
  switch (r) {
    case Round::Rni: return std::nearbyint(x);  // ties to even in the default mode
    case Round::Rzi: return std::trunc(x);
    case Round::Rmi: return std::floor(x);
    case Round::Rpi: return std::ceil(x);
    default: return x;
  }
}

// Float -> integer of the destination type: saturating, NaN -> 0 (PTX cvt semantics).
template <class D>
inline uint64_t float_to_int(double x, Round r) {
  if (std::isnan(x)) return 0;
  x = round_integral(x, r == Round::None ? Round::Rzi : r);
  constexpr double lo = double(std::numeric_limits<D>::min());
  constexpr double hi = double(std::numeric_limits<D>::max());
  if (x <= lo) return put<D>(std::numeric_limits<D>::min());
  if (x >= hi) return put<D>(std::numeric_limits<D>::max());
  return put<D>(D(x));
}

// Integer -> integer with optional saturation to the destination range.
template <class D>
inline uint64_t int_to_int(const Num& n, bool sat) {
  if (!sat) return put<D>(D(n.u));
  if constexpr (std::is_signed_v<D>) {
    if (n.neg_int) return put<D>(n.i < int64_t(std::numeric_limits<D>::min()) ? std::numeric_limits<D>::min() : D(n.i));
    return put<D>(n.u > uint64_t(std::numeric_limits<D>::max()) ? std::numeric_limits<D>::max() : D(n.u));
  } else {
    if (n.neg_int) return 0;
    return put<D>(n.u > uint64_t(std::numeric_limits<D>::max()) ? std::numeric_limits<D>::max() : D(n.u));
  }
}

template <class D>
inline uint64_t to_int_dst(const Num& n, const Instr& in) {
  if (n.is_f) return float_to_int<D>(n.f, in.round);
  return int_to_int<D>(n, in.sat);
}

inline uint64_t convert(const Instr& in, uint64_t bits) {
  Num n = read_num(in.stype, bits);
  const DType t = in.type;
  if (n.is_f && in.stype == DType::F32 && in.ftz && std::fpclassify(float(n.f)) == FP_SUBNORMAL)
    n.f = std::copysign(0.0, n.f);
  switch (t) {
    case DType::F32: {
      float r;
      if (n.is_f) {
        bool integral = in.round == Round::Rni || in.round == Round::Rzi || in.round == Round::Rmi ||
                        in.round == Round::Rpi;
        if (integral) r = float(round_integral(n.f, in.round));
        else r = float(n.f);  // f64 -> f32 in the current (scoped) rounding mode
        // f32 -> f32 (rounding to an integer) is an f32 instruction: its NaN is canonical.
        // f64 -> f32 keeps the NaN's sign and the payload's high bits, as the host does.
        if (in.stype == DType::F32) r = f32_canonical(r);
      } else {
        r = is_signed(in.stype) ? float(n.i) : float(n.u);
      }
      r = ftz(r, in.ftz);
      return put<float>(saturate(r, in.sat));
    }
    case DType::F64: {
      double r;
      if (n.is_f) {
        bool integral = in.round == Round::Rni || in.round == Round::Rzi || in.round == Round::Rmi ||
                        in.round == Round::Rpi;
        r = integral ? round_integral(n.f, in.round) : n.f;
      } else {
        r = is_signed(in.stype) ? double(n.i) : double(n.u);
      }
      return put<double>(saturate(r, in.sat));
    }
    case DType::S8: return to_int_dst<int8_t>(n, in);
    case DType::S16: return to_int_dst<int16_t>(n, in);
    case DType::S32: return to_int_dst<int32_t>(n, in);
    case DType::S64: return to_int_dst<int64_t>(n, in);
    case DType::U8: case DType::B8: return to_int_dst<uint8_t>(n, in);
    case DType::U16: case DType::B16: return to_int_dst<uint16_t>(n, in);
    case DType::U32: case DType::B32: return to_int_dst<uint32_t>(n, in);
    default: return to_int_dst<uint64_t>(n, in);
  }
}

void cvt(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  // Directed rounding matters for int->float and f64->f32; integral rounding is explicit.
  bool scoped = in.round == Round::Rz || in.round == Round::Rm || in.round == Round::Rp;
  RoundingScope rs(scoped ? in.round : Round::None);
  for_lanes(m, [&](int l) { d[l] = convert(in, a[l]); });
}

}  // namespace

ExecFn float_semantics(const Instr& in) {
  if (in.op == Op::Cvt) {
    if (is_half(in.type) || is_half(in.stype)) return nullptr;  // semantics_half.cpp
    bool f_dst = is_float(in.type), f_src = is_float(in.stype);
    bool integral_round = in.round == Round::Rni || in.round == Round::Rzi || in.round == Round::Rmi ||
                          in.round == Round::Rpi;
    // PTX requires an integer rounding mode for float -> int, and forbids rounding modifiers
    // on int -> int; accept the forms nvcc emits and reject clearly wrong ones.
    if (f_src && !f_dst && !integral_round) return nullptr;
    if (!f_src && !f_dst && in.round != Round::None) return nullptr;
    return &cvt;
  }
  const DType t = in.type;
  if (!is_float(t)) return nullptr;
  const bool plain = nearest_plain(in);
  switch (in.op) {
    case Op::Add:
      if (in.fused) return plain ? by_float_type<WarpFmaK>(t) : by_float_type<FmaK>(t);
      return plain ? by_float_type<WarpBinary<WarpFloatOp::Add>::K>(t) : by_float_type<FAddK>(t);
    case Op::Sub:
      if (in.fused) return plain ? by_float_type<WarpFmaK>(t) : by_float_type<FmaK>(t);
      return plain ? by_float_type<WarpBinary<WarpFloatOp::Sub>::K>(t) : by_float_type<FSubK>(t);
    case Op::Mul: return plain ? by_float_type<WarpBinary<WarpFloatOp::Mul>::K>(t) : by_float_type<FMulK>(t);
    case Op::Div: return plain ? by_float_type<WarpBinary<WarpFloatOp::Div>::K>(t) : by_float_type<FDivK>(t);
    case Op::Min:
      if (in.nan_min_max) return t == DType::F32 ? &FMinMaxNanK<float, false>::run : nullptr;
      return by_float_type<FMinK>(t);
    case Op::Max:
      if (in.nan_min_max) return t == DType::F32 ? &FMinMaxNanK<float, true>::run : nullptr;
      return by_float_type<FMaxK>(t);
    case Op::Copysign: return by_float_type<CopysignK>(t);
    case Op::Fma:
    case Op::Mad: return plain ? by_float_type<WarpFmaK>(t) : by_float_type<FmaK>(t);
    case Op::Abs: return by_float_type<FAbsK>(t);
    case Op::Neg: return by_float_type<FNegK>(t);
    case Op::Rcp: return by_float_type<RcpK>(t);
    case Op::Sqrt: return by_float_type<SqrtK>(t);
    case Op::Rsqrt: return by_float_type<RsqrtK>(t);
    case Op::Ex2: return by_float_type<Ex2K>(t);
    case Op::Lg2: return by_float_type<Lg2K>(t);
    case Op::Sin: return by_float_type<SinK>(t);
    case Op::Cos: return by_float_type<CosK>(t);
    case Op::Tanh: return by_float_type<TanhK>(t);
    case Op::Setp: return by_float_type<SetpFloatK>(t);
    default: return nullptr;
  }
}

}  // namespace warpsim::isa::detail
