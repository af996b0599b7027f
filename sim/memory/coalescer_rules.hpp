// Internal to the coalescer: one function per named rule set, and the shared helpers they
// are built from. Only coalescer*.cpp include this header.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/memory/coalescer.hpp"

namespace warpsim::mem::detail {

// Each rule appends the transactions for the whole warp to `out` (already empty).
void coalesce_cc10(const CoalescerSpec& spec, const WarpMemAccess& a, std::vector<Transaction>& out);
void coalesce_cc13(const CoalescerSpec& spec, const WarpMemAccess& a, std::vector<Transaction>& out);
void coalesce_cc20(const CoalescerSpec& spec, const WarpMemAccess& a, std::vector<Transaction>& out);
void coalesce_sector32(const CoalescerSpec& spec, const WarpMemAccess& a, std::vector<Transaction>& out);
void coalesce_segments(const CoalescerSpec& spec, const WarpMemAccess& a, std::vector<Transaction>& out);

// Sectors (bit i = bytes [32i, 32i+32) of the 128-byte line) covered by [addr, addr+size);
// 0 when the range does not lie within one 128-byte line.
uint8_t sectors_of(uint64_t addr, uint32_t size);

// The part of one lane's access that falls in one aligned unit (segment, line, sector).
struct Piece {
  uint64_t unit;  // aligned base of the unit
  uint32_t lo;    // byte offsets [lo, hi) within the unit
  uint32_t hi;
  uint32_t lane;
};

// The pieces of the active lanes in [first, first + count), lane by lane, each lane's
// pieces in address order. `unit_bytes` is a power of two.
void split_lanes(const WarpMemAccess& a, uint32_t first, uint32_t count, uint32_t unit_bytes,
                 std::vector<Piece>& pieces);

// How emit_units sizes the transaction for a unit.
enum class UnitSize : uint8_t {
  Whole,        // the whole unit
  UsedSectors,  // only the 32-byte sectors the lanes touch (unit must be 128 bytes)
};

// One transaction per distinct aligned unit touched by the active lanes of
// [first, first + count), in ascending address order. With `split_overlaps` (atomics), a
// lane whose bytes overlap those of a lane already in the unit's transaction goes into a
// further transaction for the same unit: the k-th access to a location is in the k-th one.
void emit_units(const WarpMemAccess& a, uint32_t first, uint32_t count, uint32_t unit_bytes,
                UnitSize sizing, bool split_overlaps, std::vector<Transaction>& out);

// Active lanes of [first, first + count) as a mask.
inline uint32_t lanes_in(uint32_t mask, uint32_t first, uint32_t count) {
  uint32_t range = count >= 32 ? 0xFFFFFFFFu : ((1u << count) - 1u) << first;
  return mask & range;
}

}  // namespace warpsim::mem::detail
