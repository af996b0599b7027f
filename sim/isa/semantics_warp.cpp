// Cross-lane semantics: shfl, vote, match, activemask, redux (and bmsk, a bit mask, and
// the byte-wise vabsdiff4, dp4a and dp2a). A shfl whose source lane does not execute it
// reads 0: undefined in CUDA, but what Hopper returns
// (tests/750_runtime/programs/shfl_inactive.cu, measured on an H200), and what tuned
// reductions that shuffle down by 16 with only their first lanes active rely on.
#include <algorithm>
#include <bit>
#include <type_traits>

#include "sim/isa/semantics_internal.hpp"

namespace warpsim::isa::detail {

using exec::ExecCtx;
using exec::for_lanes;

namespace {

void shfl(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  const uint64_t* cc = exec::src(c, in.c);
  uint64_t* d = exec::dst(c, in.d[0]);
  uint32_t old[kWarpLanes];
  for (int l = 0; l < kWarpLanes; ++l) old[l] = uint32_t(a[l]);
  uint32_t pmask = 0;
  for_lanes(m, [&](int lane) {
    uint32_t bval = uint32_t(b[lane]) & 0x1F;
    uint32_t cval = uint32_t(cc[lane]) & 0x1F;
    uint32_t seg = (uint32_t(cc[lane]) >> 8) & 0x1F;
    int max_lane = int((uint32_t(lane) & seg) | (cval & ~seg));
    int min_lane = int(uint32_t(lane) & seg);
    int j = lane;
    bool pval = false;
    switch (in.shfl) {
      case ShflMode::Up: j = lane - int(bval); pval = j >= max_lane; break;
      case ShflMode::Down: j = lane + int(bval); pval = j <= max_lane; break;
      case ShflMode::Bfly: j = lane ^ int(bval); pval = j <= max_lane; break;
      case ShflMode::Idx: j = min_lane | int(bval & ~seg); pval = j <= max_lane; break;
    }
    if (!pval) j = lane;
    d[lane] = (m >> j) & 1u ? old[j] : 0;
    if (pval) pmask |= 1u << lane;
  });
  if (in.d[1].kind == Operand::Kind::Pred) exec::pred_write(c, in.d[1], pmask, m);
}

void vote(ExecCtx& c, const Instr& in, uint32_t m) {
  uint32_t p = exec::pred_src(c, in.a) & m;
  switch (in.vote) {
    case VoteMode::Ballot: {
      uint64_t* d = exec::dst(c, in.d[0]);
      for_lanes(m, [&](int l) { d[l] = p; });
      return;
    }
    case VoteMode::All: exec::pred_write(c, in.d[0], p == m ? ~0u : 0u, m); return;
    case VoteMode::Any: exec::pred_write(c, in.d[0], p != 0 ? ~0u : 0u, m); return;
    case VoteMode::Uni: exec::pred_write(c, in.d[0], (p == m || p == 0) ? ~0u : 0u, m); return;
  }
}

// activemask: the threads executing it.
void activemask(ExecCtx& c, const Instr& in, uint32_t m) {
  uint64_t* d = exec::dst(c, in.d[0]);
  for_lanes(m, [&](int l) { d[l] = m; });
}

// match.any: each thread gets the mask of the executing threads whose a equals its own.
// match.all: the mask of all executing threads if they all agree (and p true), else 0.
void match(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  const uint64_t vmask = in.type == DType::B32 ? 0xFFFFFFFFull : ~0ull;
  uint64_t val[kWarpLanes];
  for_lanes(m, [&](int l) { val[l] = a[l] & vmask; });
  if (in.op == Op::MatchAny) {
    uint32_t same[kWarpLanes];
    for_lanes(m, [&](int l) {
      uint32_t s = 0;
      for_lanes(m, [&](int j) { s |= uint32_t(val[j] == val[l]) << j; });
      same[l] = s;
    });
    for_lanes(m, [&](int l) { d[l] = same[l]; });
    return;
  }
  bool all = true;
  if (m) {
    const uint64_t first = val[std::countr_zero(m)];
    for_lanes(m, [&](int l) { all &= val[l] == first; });
  }
  for_lanes(m, [&](int l) { d[l] = all ? m : 0; });
  if (in.d[1].kind == Operand::Kind::Pred) exec::pred_write(c, in.d[1], all ? ~0u : 0u, m);
}

}  // namespace

namespace {

// bmsk.{clamp,wrap}.b32 d, a, b: b one-bits from bit a (bits past 31 are dropped).
template <bool Wrap>
void bmsk(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  uint64_t* d = exec::dst(c, in.d[0]);
  for_lanes(m, [&](int l) {
    uint64_t pos = uint32_t(a[l]), len = uint32_t(b[l]);
    if (Wrap) {
      pos &= 31;
      len &= 31;
    } else {
      pos = pos > 32 ? 32 : pos;
      len = len > 32 ? 32 : len;
    }
    d[l] = ((((uint64_t(1) << len) - 1) << pos)) & 0xFFFFFFFFu;
  });
}

// vabsdiff4.add d, a, b, c: c + sum over the four bytes of |a_i - b_i| (32-bit wrap); without
// .add, d's bytes are the four |a_i - b_i| (each at most 255: its low byte).
template <bool Add>
void vabsdiff4(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  const uint64_t* cc = exec::src(c, in.c);
  uint64_t* d = exec::dst(c, in.d[0]);
  const bool sa = in.type == DType::S32, sb = in.stype == DType::S32;
  auto byte = [](uint64_t v, int i, bool s) -> int32_t {
    const uint32_t u = uint32_t(v >> (8 * i)) & 0xFF;
    return s ? int32_t(int8_t(uint8_t(u))) : int32_t(u);
  };
  for_lanes(m, [&](int l) {
    uint32_t sum = uint32_t(cc[l]), bytes = 0;
    for (int i = 0; i < 4; ++i) {
      const int32_t diff = byte(a[l], i, sa) - byte(b[l], i, sb);
      const uint32_t abs = uint32_t(diff < 0 ? -diff : diff);
      sum += abs;
      bytes |= (abs & 0xFF) << (8 * i);  // |diff| <= 255: its low byte (the H200's)
    }
    d[l] = Add ? sum : bytes;
  });
}

// lop3.b32: bit i of d is bit (a_i << 2 | b_i << 1 | c_i) of the table e: the OR of the
// table's minterms.
void lop3(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  const uint64_t* cc = exec::src(c, in.c);
  const uint32_t lut = uint32_t(exec::src(c, in.e)[0]);
  uint64_t* d = exec::dst(c, in.d[0]);
  for_lanes(m, [&](int l) {
    const uint32_t x = uint32_t(a[l]), y = uint32_t(b[l]), z = uint32_t(cc[l]);
    uint32_t r = 0;
    for (int i = 0; i < 8; ++i)
      if ((lut >> i) & 1) r |= ((i & 4) ? x : ~x) & ((i & 2) ? y : ~y) & ((i & 1) ? z : ~z);
    d[l] = r;
  });
}

// sad: c + |a - b|, compared signed or unsigned by the type, wrapping at its width.
template <class T>
struct SadK {
  static void run(ExecCtx& c, const Instr& in, uint32_t m) {
    const uint64_t* a = exec::src(c, in.a);
    const uint64_t* b = exec::src(c, in.b);
    const uint64_t* cc = exec::src(c, in.c);
    uint64_t* d = exec::dst(c, in.d[0]);
    using U = std::make_unsigned_t<T>;
    for_lanes(m, [&](int l) {
      const T x = T(a[l]), y = T(b[l]);
      const U diff = x < y ? U(U(y) - U(x)) : U(U(x) - U(y));
      d[l] = uint64_t(U(U(cc[l]) + diff));
    });
  }
};

// redux.sync: the executing lanes' sources reduced, the result to each of them (add wraps;
// min/max signed or unsigned by the type).
void redux(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  uint64_t* d = exec::dst(c, in.d[0]);
  const bool sgn = in.type == DType::S32;
  uint32_t r = 0;
  bool first = true;
  for_lanes(m, [&](int l) {
    const uint32_t v = uint32_t(a[l]);
    if (first) {
      r = v;
      first = false;
      return;
    }
    switch (in.atom) {
      case AtomOp::Add: r += v; break;
      case AtomOp::Min: r = sgn ? uint32_t(std::min(int32_t(r), int32_t(v))) : std::min(r, v); break;
      case AtomOp::Max: r = sgn ? uint32_t(std::max(int32_t(r), int32_t(v))) : std::max(r, v); break;
      case AtomOp::And: r &= v; break;
      case AtomOp::Or: r |= v; break;
      default: r ^= v; break;
    }
  });
  for_lanes(m, [&](int l) { d[l] = r; });
}

// dp4a: c + the four products of a's and b's bytes; dp2a.lo/.hi: c + the two products of
// a's 16-bit halves and b's bytes 0-1 (.lo) or 2-3 (.hi). Bytes and halves are signed or
// unsigned by a's and b's types; the sum wraps at 32 bits.
template <int Pairs, int FirstByte>
void dot(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  const uint64_t* cc = exec::src(c, in.c);
  uint64_t* d = exec::dst(c, in.d[0]);
  const bool sa = in.type == DType::S32, sb = in.stype == DType::S32;
  constexpr int kABits = Pairs == 4 ? 8 : 16;
  auto part = [](uint64_t v, int i, int bits, bool s) -> int64_t {
    const uint32_t u = uint32_t(v >> (bits * i)) & ((1u << bits) - 1);
    return s && (u >> (bits - 1)) ? int64_t(u) - (int64_t(1) << bits) : int64_t(u);
  };
  for_lanes(m, [&](int l) {
    uint32_t sum = uint32_t(cc[l]);
    for (int i = 0; i < Pairs; ++i) sum += uint32_t(part(a[l], i, kABits, sa) * part(b[l], FirstByte + i, 8, sb));
    d[l] = sum;
  });
}

}  // namespace

ExecFn warp_semantics(const Instr& in) {
  if (in.op == Op::Redux) return &redux;
  if (in.op == Op::Dp4a) return &dot<4, 0>;
  if (in.op == Op::Dp2aLo) return &dot<2, 0>;
  if (in.op == Op::Dp2aHi) return &dot<2, 2>;
  if (in.op == Op::VAbsDiff4Add) return &vabsdiff4<true>;
  if (in.op == Op::VAbsDiff4) return &vabsdiff4<false>;
  if (in.op == Op::Lop3) return &lop3;
  if (in.op == Op::Sad) return by_int_type<SadK>(in.type);
  if (in.op == Op::BmskClamp) return &bmsk<false>;
  if (in.op == Op::BmskWrap) return &bmsk<true>;
  if (in.op == Op::Shfl) return &shfl;
  if (in.op == Op::Vote) return &vote;
  if (in.op == Op::Activemask) return &activemask;
  if (in.op == Op::MatchAny || in.op == Op::MatchAll) return &match;
  return nullptr;
}

}  // namespace warpsim::isa::detail
