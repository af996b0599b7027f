// A full warp's addresses of an explicit-space access from a base register: computed in one
// vectorised pass with what the access checks need of them; and the commonest global load's
// copy, two half-warps of consecutive words.
#pragma once
#include <cstdint>

namespace warpsim::sm {

// addr[l] = (base[l] + off) & narrow for the 32 lanes; returns their OR (misalignment) and
// sets `lo` and `hi` to their least and greatest (the pages and allocation they span).
// The arrays do not overlap.
uint64_t full_warp_addresses(const uint64_t* base, uint64_t off, uint64_t narrow, uint64_t* addr, uint64_t& lo,
                             uint64_t& hi);

// Where lanes 0-15 read 16 consecutive 4-byte words from addr[0] on, and lanes 16-31 from
// addr[16] on (a 16-wide tile's two rows, or one row of 32), writes them zero-extended to
// the register lanes `d` and returns true; `p` points at address `lo` and every lane's word
// lies in the memory from there. false: another pattern, nothing written.
bool load_u32_half_warp_runs(const uint64_t* addr, const uint8_t* p, uint64_t lo, uint64_t* d);

}  // namespace warpsim::sm
