// A full warp's addresses of an explicit-space access from a base register: computed in one
// vectorised pass with what the access checks need of them.
#pragma once
#include <cstdint>

namespace warpsim::sm {

// addr[l] = (base[l] + off) & narrow for the 32 lanes; returns their OR (misalignment) and
// sets `lo` and `hi` to their least and greatest (the pages and allocation they span).
// The arrays do not overlap.
uint64_t full_warp_addresses(const uint64_t* base, uint64_t off, uint64_t narrow, uint64_t* addr, uint64_t& lo,
                             uint64_t& hi);

}  // namespace warpsim::sm
