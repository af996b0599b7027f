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

// A buffer of pieces that stays on the stack up to its inline capacity (a warp's lanes of
// at most 16 bytes touch at most 64 units of 32 bytes or more), so coalescing a warp
// access allocates nothing.
class PieceBuffer {
 public:
  static constexpr size_t kInline = 128;
  void push_back(const Piece& p) {
    if (n_ < kInline) inline_[n_] = p;
    else {
      if (heap_.empty()) heap_.assign(inline_, inline_ + kInline);
      heap_.push_back(p);
    }
    ++n_;
  }
  void clear() {
    n_ = 0;
    heap_.clear();
  }
  size_t size() const { return n_; }
  Piece& operator[](size_t i) { return n_ <= kInline ? inline_[i] : heap_[i]; }
  const Piece& operator[](size_t i) const { return n_ <= kInline ? inline_[i] : heap_[i]; }
  const Piece* data() const { return n_ <= kInline ? inline_ : heap_.data(); }

 private:
  Piece inline_[kInline];
  std::vector<Piece> heap_;
  size_t n_ = 0;
};

// The pieces of the active lanes in [first, first + count), lane by lane, each lane's
// pieces in address order. `unit_bytes` is a power of two.
void split_lanes(const WarpMemAccess& a, uint32_t first, uint32_t count, uint32_t unit_bytes, PieceBuffer& pieces);

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
