// Moves (with vector packing), integer comparisons (setp), selects (selp, slct), predicate
// logic and address-space conversion (cvta, and mapa/getctarank for clusters).
#include "sim/isa/semantics_internal.hpp"

namespace warpsim::isa::detail {

using exec::ExecCtx;
using exec::for_lanes;
using exec::get;
using exec::put;

namespace {

template <class T>
using U = std::make_unsigned_t<T>;

// ---- setp / selp / slct ------------------------------------------------------------
// (combine: semantics_internal.hpp)

// One tight loop per comparison (the switch is outside the lane loop).
template <class T, class C>
inline uint32_t compare_lanes(const uint64_t* a, const uint64_t* b, uint32_t m, C cmp) {
  uint32_t r = 0;
  if (m == 0xFFFFFFFFu) {
    for (int l = 0; l < kWarpLanes; ++l) r |= uint32_t(cmp(get<T>(a[l]), get<T>(b[l]))) << l;
    return r;
  }
  for_lanes(m, [&](int l) { r |= uint32_t(cmp(get<T>(a[l]), get<T>(b[l]))) << l; });
  return r;
}

template <class T>
struct SetpIntK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    const uint64_t* b = exec::src(c, in.b);
    using UT = U<T>;
    uint32_t r = 0;
    switch (in.cmp) {
      case Cmp::Eq: r = compare_lanes<T>(a, b, m, [](T x, T y) { return x == y; }); break;
      case Cmp::Ne: r = compare_lanes<T>(a, b, m, [](T x, T y) { return x != y; }); break;
      case Cmp::Lt: r = compare_lanes<T>(a, b, m, [](T x, T y) { return x < y; }); break;
      case Cmp::Le: r = compare_lanes<T>(a, b, m, [](T x, T y) { return x <= y; }); break;
      case Cmp::Gt: r = compare_lanes<T>(a, b, m, [](T x, T y) { return x > y; }); break;
      case Cmp::Ge: r = compare_lanes<T>(a, b, m, [](T x, T y) { return x >= y; }); break;
      case Cmp::Lo: r = compare_lanes<T>(a, b, m, [](T x, T y) { return UT(x) < UT(y); }); break;
      case Cmp::Ls: r = compare_lanes<T>(a, b, m, [](T x, T y) { return UT(x) <= UT(y); }); break;
      case Cmp::Hi: r = compare_lanes<T>(a, b, m, [](T x, T y) { return UT(x) > UT(y); }); break;
      case Cmp::Hs: r = compare_lanes<T>(a, b, m, [](T x, T y) { return UT(x) >= UT(y); }); break;
      default: break;
    }
    uint32_t cpred = in.boolop != BoolOp::None ? exec::pred_src(c, in.c) : 0;
    exec::pred_write(c, in.d[0], combine(in.boolop, r, cpred), m);
    if (in.d[1].kind == Operand::Kind::Pred) exec::pred_write(c, in.d[1], combine(in.boolop, ~r, cpred), m);
  }
};

template <class T>
struct SelpK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    const uint64_t* b = exec::src(c, in.b);
    uint64_t* d = exec::dst(c, in.d[0]);
    uint32_t p = exec::pred_src(c, in.c);
    if (m == 0xFFFFFFFFu) {
      // Without a branch per lane (a data-dependent predicate mispredicts half of them).
      for (int l = 0; l < isa::kWarpLanes; ++l) {
        const uint64_t take_a = uint64_t(0) - uint64_t((p >> l) & 1u);
        d[l] = put<T>(get<T>((a[l] & take_a) | (b[l] & ~take_a)));
      }
      return;
    }
    for_lanes(m, [&](int l) { d[l] = put<T>(get<T>(((p >> l) & 1) ? a[l] : b[l])); });
  }
};

template <class T>
struct SlctK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    const uint64_t* b = exec::src(c, in.b);
    const uint64_t* s = exec::src(c, in.c);
    uint64_t* d = exec::dst(c, in.d[0]);
    bool fsel = in.stype == DType::F32;
    bool ftz = in.ftz;
    for_lanes(m, [&](int l) {
      // .ftz: a subnormal selector (exponent bits all zero) counts as zero, so it selects a.
      bool flushed = ftz && (uint32_t(s[l]) & 0x7F800000u) == 0;
      bool take_a = fsel ? (flushed || !(get<float>(s[l]) < 0.0f)) : get<int32_t>(s[l]) >= 0;
      d[l] = take_a ? a[l] : b[l];
    });
  }
};

// ---- moves ---------------------------------------------------------------------------
template <class T>
struct MovK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    uint64_t* d = exec::dst(c, in.d[0]);
    for_lanes(m, [&](int l) { d[l] = put<T>(get<T>(a[l])); });
  }
};

void mov_pred(ExecCtx& c, const Instr& in, uint32_t m) { exec::pred_write(c, in.d[0], exec::pred_src(c, in.a), m); }

void mov_pack(ExecCtx& c, const Instr& in, uint32_t m) {
  const Operand& v = in.a;
  int n = v.nvec;
  int ebits = dtype_bytes(in.type) * 8 / n;
  uint64_t emask = ebits == 64 ? ~uint64_t(0) : ((uint64_t(1) << ebits) - 1);
  uint64_t* d = exec::dst(c, in.d[0]);
  for_lanes(m, [&](int l) {
    uint64_t r = 0;
    for (int i = 0; i < n; ++i) {
      const uint64_t* s = (v.vec_const[i] ? c.consts : c.regs) + size_t(v.vec[i]) * kWarpLanes;
      r |= (s[l] & emask) << (i * ebits);
    }
    d[l] = r;
  });
}

void mov_unpack(ExecCtx& c, const Instr& in, uint32_t m) {
  const Operand& v = in.d[0];
  int n = v.nvec;
  int ebits = dtype_bytes(in.type) * 8 / n;
  uint64_t emask = ebits == 64 ? ~uint64_t(0) : ((uint64_t(1) << ebits) - 1);
  const uint64_t* a = exec::src(c, in.a);
  uint64_t tmp[kWarpLanes];
  for_lanes(m, [&](int l) { tmp[l] = a[l]; });
  for (int i = 0; i < n; ++i) {
    if (v.vec[i] == kSinkSlot) continue;
    uint64_t* d = c.regs + size_t(v.vec[i]) * kWarpLanes;
    for_lanes(m, [&](int l) { d[l] = (tmp[l] >> (i * ebits)) & emask; });
  }
}

// ---- predicate logic ----------------------------------------------------------------
void pred_and(ExecCtx& c, const Instr& in, uint32_t m) {
  exec::pred_write(c, in.d[0], exec::pred_src(c, in.a) & exec::pred_src(c, in.b), m);
}
void pred_or(ExecCtx& c, const Instr& in, uint32_t m) {
  exec::pred_write(c, in.d[0], exec::pred_src(c, in.a) | exec::pred_src(c, in.b), m);
}
void pred_xor(ExecCtx& c, const Instr& in, uint32_t m) {
  exec::pred_write(c, in.d[0], exec::pred_src(c, in.a) ^ exec::pred_src(c, in.b), m);
}
void pred_not(ExecCtx& c, const Instr& in, uint32_t m) { exec::pred_write(c, in.d[0], ~exec::pred_src(c, in.a), m); }

// ---- address-space conversion -------------------------------------------------------
template <bool To>
void cvta(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  uint64_t base = in.space == Space::Shared ? kSharedWindow : in.space == Space::Local ? kLocalWindow : 0;
  bool narrow = dtype_bytes(in.type) == 4;
  for_lanes(m, [&](int l) {
    uint64_t v = a[l];
    if (narrow) v &= 0xFFFFFFFFu;
    uint64_t r = base == 0 ? v : (To ? v - base : base + (v & 0xFFFFFFFFu));
    d[l] = narrow ? (r & 0xFFFFFFFFu) : r;
  });
}

// ---- distributed shared memory (ir.hpp kClusterRankShift) ------------------------------
// mapa: the address of a's shared variable in block b of the cluster. Instr::space Shared:
// 32-bit shared::cluster addresses; Generic: addresses in the shared window (others, which
// name no shared memory, are left as they are).
void mapa(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  uint64_t* d = exec::dst(c, in.d[0]);
  const bool generic = in.space != Space::Shared;
  for_lanes(m, [&](int l) {
    const uint64_t v = a[l];
    const uint64_t rank_bits = (uint64_t(uint32_t(b[l])) + 1) << kClusterRankShift;
    if (!generic) d[l] = ((v & kSharedOffsetMask) | rank_bits) & 0xFFFFFFFFu;
    else if (v - kSharedWindow < kWindowSize) d[l] = kSharedWindow + (((v - kSharedWindow) & kSharedOffsetMask) | rank_bits);
    else d[l] = v;
  });
}
// getctarank: the rank of the block whose shared memory a is in (c: %cluster_ctarank, the
// executing block's own rank, for addresses without a rank).
void getctarank(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* own = exec::src(c, in.c);
  uint64_t* d = exec::dst(c, in.d[0]);
  const bool generic = in.space != Space::Shared;
  for_lanes(m, [&](int l) {
    uint64_t v = a[l];
    if (generic) v = v - kSharedWindow < kWindowSize ? v - kSharedWindow : 0;
    const uint64_t bits = (v & 0xFFFFFFFFu) >> kClusterRankShift;
    d[l] = bits ? bits - 1 : own[l];
  });
}

}  // namespace

ExecFn move_select_semantics(const Instr& in) {
  const DType t = in.type;
  if (t == DType::Pred) {
    switch (in.op) {
      case Op::Mov: return &mov_pred;
      case Op::And: return &pred_and;
      case Op::Or: return &pred_or;
      case Op::Xor: return &pred_xor;
      case Op::Not: return &pred_not;
      default: return nullptr;
    }
  }
  if (is_float(t) && in.op != Op::Mov && in.op != Op::Selp && in.op != Op::Slct) return nullptr;
  switch (in.op) {
    case Op::Mov:
      if (in.a.kind == Operand::Kind::Vec) return &mov_pack;
      if (in.d[0].kind == Operand::Kind::Vec) return &mov_unpack;
      if (t == DType::F32 || t == DType::F16x2 || t == DType::BF16x2) return &MovK<uint32_t>::run;
      if (t == DType::F64) return &MovK<uint64_t>::run;
      if (t == DType::F16 || t == DType::BF16) return &MovK<uint16_t>::run;
      return by_int_type<MovK>(t);
    case Op::Setp: return by_int_type<SetpIntK>(t);
    case Op::Selp:
      if (t == DType::F32 || t == DType::F16x2 || t == DType::BF16x2) return &SelpK<uint32_t>::run;
      if (t == DType::F64) return &SelpK<uint64_t>::run;
      if (t == DType::F16 || t == DType::BF16) return &SelpK<uint16_t>::run;
      return by_int_type<SelpK>(t);
    case Op::Slct:
      if (t == DType::F32) return &SlctK<uint32_t>::run;
      if (t == DType::F64) return &SlctK<uint64_t>::run;
      return by_int_type<SlctK>(t);
    case Op::Cvta: return &cvta<false>;
    case Op::CvtaTo: return &cvta<true>;
    case Op::Mapa: return &mapa;
    case Op::GetCtaRank: return &getctarank;
    default: return nullptr;
  }
}

}  // namespace warpsim::isa::detail
