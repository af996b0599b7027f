#include "sim/sm/shared_access_plan.hpp"

#include <algorithm>
#include <cstring>

#include "sim/sm/lane_elements.hpp"

namespace warpsim::sm {

using detail::widen_u32;

void make_shared_plan(const uint64_t* addr, uint32_t elem_bytes, SharedAccessPlan& plan) {
  plan.min_delta = plan.max_delta = 0;
  for (int l = 0; l < 32; ++l) {
    plan.delta[l] = int64_t(addr[l] - addr[0]);
    plan.min_delta = std::min(plan.min_delta, plan.delta[l]);
    plan.max_delta = std::max(plan.max_delta, plan.delta[l]);
  }
  int n = 0;
  plan.halves = 0;
  for (int l = 0; l < 32;) {
    if (n == SharedAccessPlan::kMaxRuns) {
      plan.nruns = 0;
      return;
    }
    const bool same = l + 1 < 32 && addr[l + 1] == addr[l];
    const uint64_t step = same ? 0 : elem_bytes;
    int count = 1;
    while (l + count < 32 && addr[l + count] == addr[l] + step * uint64_t(count)) ++count;
    plan.runs[n++] = {uint8_t(l), uint8_t(count), same};
    l += count;
  }
  plan.nruns = uint8_t(n);
  if (n == 2 && plan.runs[0].count == 16)
    plan.halves = uint8_t(SharedAccessPlan::kHalves | (plan.runs[0].same_address ? SharedAccessPlan::kFirstSame : 0) |
                          (plan.runs[1].same_address ? SharedAccessPlan::kSecondSame : 0));
}

// Called for most shared accesses; the x86-64-v3 clone handles four lanes per instruction.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
uint64_t full_warp_offsets_against(const uint64_t* __restrict base, uint64_t off, const int64_t* __restrict delta,
                                   uint64_t* __restrict addr, uint64_t& differs) {
  const uint64_t a0 = (base[0] + off) & 0xFFFFFFFFull;
  uint64_t any = 0, diff = 0;
  for (int l = 0; l < 32; ++l) {
    const uint64_t a = (base[l] + off) & 0xFFFFFFFFull;
    addr[l] = a;
    any |= a;
    diff |= (a - a0) ^ uint64_t(delta[l]);
  }
  differs = diff;
  return any;
}

namespace {

// The run loops apart from the plan, with pointers that alias nothing, so that they
// vectorise (in the x86-64-v3 clone: four lanes a store).
[[gnu::always_inline]] inline void fill_lanes(uint64_t* __restrict out, uint64_t v, int n) {
  for (int k = 0; k < n; ++k) out[k] = v;
}

// The runs one by one (any plan with runs).
[[gnu::always_inline]] inline void each_run_u32(const SharedAccessPlan& plan, const uint8_t* lane0, uint64_t* d) {
  for (int i = 0; i < plan.nruns; ++i) {
    const SharedRun r = plan.runs[i];
    const uint8_t* src = lane0 + plan.delta[r.first];
    // Half-warps and whole warps (the commonest runs) with a fixed count: no loop tails.
    if (r.same_address) {
      uint32_t x;
      std::memcpy(&x, src, 4);
      if (r.count == 16) fill_lanes(d + r.first, x, 16);
      else if (r.count == 32) fill_lanes(d, x, 32);
      else fill_lanes(d + r.first, x, r.count);
    } else {
      if (r.count == 16) widen_u32(d + r.first, src, 16);
      else if (r.count == 32) widen_u32(d, src, 32);
      else widen_u32(d + r.first, src, r.count);
    }
  }
}

}  // namespace

// Out of the loads' line, so that their commonest case (two halves) needs no registers
// saved.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
__attribute__((noinline)) void load_each_run_u32(const SharedAccessPlan& plan, const uint8_t* lane0, uint64_t* d) {
  each_run_u32(plan, lane0, d);
}

namespace {

// Inlined into each caller, so that the callers' x86-64-v3 clones vectorise it too.
[[gnu::always_inline]] inline void runs_u32(const SharedAccessPlan& plan, const uint8_t* lane0, uint64_t* d) {
  const uint8_t h = plan.halves;
  if (!h) {
    load_each_run_u32(plan, lane0, d);
    return;
  }
  // Lane 0 starts the first half (delta[0] is 0), lane 16 the second.
  const uint8_t* second = lane0 + plan.delta[16];
  uint32_t x;
  if (h & SharedAccessPlan::kFirstSame) {
    std::memcpy(&x, lane0, 4);
    fill_lanes(d, x, 16);
  } else {
    widen_u32(d, lane0, 16);
  }
  if (h & SharedAccessPlan::kSecondSame) {
    std::memcpy(&x, second, 4);
    fill_lanes(d + 16, x, 16);
  } else {
    widen_u32(d + 16, second, 16);
  }
}

// Every lane's 4-byte element, lane 0's at a0 and lane l's at a0 + delta[l], aligned and
// in [0, limit).
[[gnu::always_inline]] inline bool lanes_in_bounds(const SharedAccessPlan& plan, uint64_t a0, uint64_t limit) {
  return (a0 & 3) == 0 && int64_t(a0) + plan.min_delta >= 0 && a0 + uint64_t(plan.max_delta) + 4 <= limit;
}

}  // namespace

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void load_runs_u32(const SharedAccessPlan& plan, const uint8_t* lane0, uint64_t* d) {
  runs_u32(plan, lane0, d);
}

// Exact without the lanes' addresses: lane l's wrapped offset minus lane 0's equals
// delta[l] modulo 2^32 when the low 32 bits of base[l] - base[0] and delta[l] agree, and
// then equals delta[l] itself when lane 0's offset plus every delta lies in [0, limit)
// (limit <= 2^32), which min_delta and max_delta bound. `base` and `d` may be one register
// (ld.shared.u32 %r1, [%r1]): every lane of base is read before the first store to d.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
uint64_t load_u32_by_plan(const SharedAccessPlan& plan, const uint64_t* base, uint64_t off, const uint8_t* sh,
                          uint64_t limit, uint64_t* d) {
  const uint64_t b0 = base[0];
  const uint64_t* __restrict delta = reinterpret_cast<const uint64_t*>(plan.delta.data());
  uint64_t diff = 0;
  for (int l = 0; l < 32; ++l) diff |= (base[l] - b0) ^ delta[l];
  const uint64_t a0 = (b0 + off) & 0xFFFFFFFFull;
  if ((diff & 0xFFFFFFFFull) != 0 || !lanes_in_bounds(plan, a0, limit)) return kNotByPlan;
  runs_u32(plan, sh + a0, d);
  return a0;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
uint64_t load_u32_by_known_plan(const SharedAccessPlan& plan, uint64_t base0, uint64_t off, const uint8_t* sh,
                                uint64_t limit, uint64_t* d) {
  const uint64_t a0 = (base0 + off) & 0xFFFFFFFFull;
  if (!lanes_in_bounds(plan, a0, limit)) return kNotByPlan;
  runs_u32(plan, sh + a0, d);
  return a0;
}

}  // namespace warpsim::sm
