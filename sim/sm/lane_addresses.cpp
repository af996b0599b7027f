#include "sim/sm/lane_addresses.hpp"

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

}  // namespace warpsim::sm
