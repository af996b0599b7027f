// Cross-lane semantics: shfl, vote, match, activemask (and bmsk, a bit mask). A shfl whose
// source lane does not execute it reads 0: undefined in CUDA, but what Hopper returns
// (tests/750_runtime/programs/shfl_inactive.cu, measured on an H200), and what tuned
// reductions that shuffle down by 16 with only their first lanes active rely on.
#include <bit>

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

// vabsdiff4.add d, a, b, c: c + sum over the four bytes of |a_i - b_i| (32-bit wrap).
void vabsdiff4_add(ExecCtx& c, const Instr& in, uint32_t m) {
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
    uint32_t sum = uint32_t(cc[l]);
    for (int i = 0; i < 4; ++i) {
      const int32_t diff = byte(a[l], i, sa) - byte(b[l], i, sb);
      sum += uint32_t(diff < 0 ? -diff : diff);
    }
    d[l] = sum;
  });
}

}  // namespace

ExecFn warp_semantics(const Instr& in) {
  if (in.op == Op::VAbsDiff4Add) return &vabsdiff4_add;
  if (in.op == Op::BmskClamp) return &bmsk<false>;
  if (in.op == Op::BmskWrap) return &bmsk<true>;
  if (in.op == Op::Shfl) return &shfl;
  if (in.op == Op::Vote) return &vote;
  if (in.op == Op::Activemask) return &activemask;
  if (in.op == Op::MatchAny || in.op == Op::MatchAll) return &match;
  return nullptr;
}

}  // namespace warpsim::isa::detail
