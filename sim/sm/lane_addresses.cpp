#include "sim/sm/lane_addresses.hpp"

#include "sim/sm/lane_elements.hpp"

namespace warpsim::sm {

// Called for every global access of a full warp; the x86-64-v3 clone does four lanes an
// instruction.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
uint64_t full_warp_addresses(const uint64_t* __restrict base, uint64_t off, uint64_t narrow,
                             uint64_t* __restrict addr, uint64_t& lo, uint64_t& hi) {
  uint64_t any = 0, least = ~uint64_t(0), greatest = 0;
  for (int l = 0; l < 32; ++l) {
    const uint64_t a = (base[l] + off) & narrow;
    addr[l] = a;
    any |= a;
    least = a < least ? a : least;
    greatest = a > greatest ? a : greatest;
  }
  lo = least;
  hi = greatest;
  return any;
}

// A tiled kernel's global loads (about 3 % of its warp instructions) copied by vector
// widening instead of one load and store a lane.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
bool load_u32_half_warp_runs(const uint64_t* __restrict addr, const uint8_t* __restrict p, uint64_t lo,
                             uint64_t* __restrict d) {
  const uint64_t a0 = addr[0], a16 = addr[16];
  uint64_t diff = 0;
  for (int l = 0; l < 16; ++l) diff |= (addr[l] - a0) ^ uint64_t(4 * l);
  for (int l = 0; l < 16; ++l) diff |= (addr[16 + l] - a16) ^ uint64_t(4 * l);
  if (diff != 0) return false;
  detail::widen_u32(d, p + (a0 - lo), 16);
  detail::widen_u32(d + 16, p + (a16 - lo), 16);
  return true;
}

}  // namespace warpsim::sm
