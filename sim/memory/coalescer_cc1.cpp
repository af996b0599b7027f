// Compute capability 1.x coalescing (CUDA C Programming Guide, appendix "Compute
// Capabilities", sections "Global Memory" for 1.0/1.1 and 1.2/1.3). Each half-warp
// (sub-warp) is handled independently.
#include <algorithm>
#include <bit>

#include "sim/memory/coalescer_rules.hpp"

namespace warpsim::mem::detail {

namespace {

// cc 1.0/1.1 coalescing test: 4-, 8- or 16-byte words; the k-th thread of the half-warp
// accesses the k-th word; the 16 words lie in one 64-byte (4 B) or 128-byte (8 B) segment,
// or (16 B) the first 8 in one 128-byte segment and the last 8 in the next. Inactive
// threads do not break it. Returns the base of word 0 when it holds.
bool cc10_coalesced(const WarpMemAccess& a, uint32_t first, uint32_t active, uint64_t& base) {
  const uint32_t w = a.bytes_per_lane();
  if (a.kind == AccessKind::Atomic || (w != 4 && w != 8 && w != 16)) return false;
  const uint64_t align = w == 16 ? 128 : 16ull * w;
  bool have = false;
  for (uint32_t k = 0; k < 16; ++k) {
    uint32_t lane = first + k;
    if (!(active >> lane & 1u)) continue;
    if (a.addr[lane] < uint64_t(k) * w) return false;
    uint64_t b = a.addr[lane] - uint64_t(k) * w;
    if (have && b != base) return false;
    base = b;
    have = true;
  }
  return have && base % align == 0;
}

// Not coalesced: one 32-byte transaction per active thread (per 32-byte segment its
// word touches). Same-address stores write once: the later lanes join the first lane's
// transactions. Loads are issued per thread even when addresses repeat (PG: "16 separate
// 32-byte memory transactions").
void cc10_separate(const WarpMemAccess& a, uint32_t first, uint32_t active, std::vector<Transaction>& out) {
  size_t lane_start[32] = {};
  size_t lane_end[32] = {};
  PieceBuffer pieces;
  for (uint32_t lane = first; lane < first + 16; ++lane) {
    if (!(active >> lane & 1u)) continue;
    if (a.kind == AccessKind::Store) {
      uint32_t same = 32;
      for (uint32_t j = first; j < lane; ++j)
        if ((active >> j & 1u) && a.addr[j] == a.addr[lane]) {
          same = j;
          break;
        }
      if (same != 32) {
        for (size_t t = lane_start[same]; t < lane_end[same]; ++t) out[t].lanes |= 1u << lane;
        continue;
      }
    }
    lane_start[lane] = out.size();
    split_lanes(a, lane, 1, 32, pieces);
    for (size_t i = 0; i < pieces.size(); ++i)
      out.push_back(Transaction{pieces[i].unit, 32, 1u << lane, sectors_of(pieces[i].unit, 32)});
    lane_end[lane] = out.size();
  }
}

// Segment size of the cc 1.2/1.3 protocol, by the size of the words accessed.
uint32_t cc13_segment(uint32_t word_bytes) {
  if (word_bytes == 1) return 32;
  if (word_bytes == 2) return 64;
  return 128;
}

// 32-byte chunks of the segment at `unit` used by pieces[i] (bit k = bytes [32k, 32k+32)).
uint32_t chunk_bits(const Piece& p) {
  uint32_t bits = 0;
  for (uint32_t c = p.lo / 32; c <= (p.hi - 1) / 32; ++c) bits |= 1u << c;
  return bits;
}

bool overlaps(const Piece& p, const Piece* const* taken, size_t ntaken) {
  for (size_t k = 0; k < ntaken; ++k)
    if (p.lo < taken[k]->hi && taken[k]->lo < p.hi) return true;
  return false;
}

}  // namespace

void coalesce_cc10(const CoalescerSpec& spec, const WarpMemAccess& a, std::vector<Transaction>& out) {
  for (uint32_t first = 0; first < 32; first += 16) {
    uint32_t active = lanes_in(a.mask, first, 16);
    if (!active) continue;
    uint64_t base = 0;
    if (!cc10_coalesced(a, first, active, base)) {
      cc10_separate(a, first, active, out);
      continue;
    }
    const uint32_t w = a.bytes_per_lane();
    if (w == 16) {
      uint32_t lo = lanes_in(active, first, 8), hi = lanes_in(active, first + 8, 8);
      out.push_back(Transaction{base, 128, lo, sectors_of(base, 128)});
      out.push_back(Transaction{base + 128, 128, hi, sectors_of(base + 128, 128)});
    } else {
      out.push_back(Transaction{base, 16 * w, active, sectors_of(base, 16 * w)});
    }
  }
}

// The cc 1.2/1.3 protocol, per sub-warp: take the segment of the lowest-numbered thread
// not yet serviced; gather every pending thread addressing it; halve 128 -> 64 -> 32 bytes
// while only one half is used; issue; repeat. Atomics: a thread whose bytes overlap those
// of a thread already gathered waits for a later transaction of the same segment (each
// atomic read-modify-write of one location is a separate transaction).
void coalesce_cc13(const CoalescerSpec& spec, const WarpMemAccess& a, std::vector<Transaction>& out) {
  const uint32_t seg = cc13_segment(a.bytes_per_lane());
  const bool atomic = a.kind == AccessKind::Atomic;
  PieceBuffer pieces;
  std::vector<uint8_t> done;
  std::vector<const Piece*> taken;
  for (uint32_t first = 0; first < 32; first += spec.subwarp_size) {
    split_lanes(a, first, spec.subwarp_size, seg, pieces);
    // Stack storage for the usual piece counts (see PieceBuffer), vectors beyond.
    uint8_t done_inline[PieceBuffer::kInline];
    const Piece* taken_inline[PieceBuffer::kInline];
    const bool small = pieces.size() <= PieceBuffer::kInline;
    if (!small) {
      done.assign(pieces.size(), 0);
      taken.resize(pieces.size());
    } else {
      std::fill(done_inline, done_inline + pieces.size(), uint8_t(0));
    }
    uint8_t* is_done = small ? done_inline : done.data();
    const Piece** took = small ? taken_inline : taken.data();
    for (size_t lead = 0; lead < pieces.size(); ++lead) {
      if (is_done[lead]) continue;
      const uint64_t unit = pieces[lead].unit;
      uint32_t used = 0, lanes = 0;
      size_t ntaken = 0;
      for (size_t i = lead; i < pieces.size(); ++i) {
        if (is_done[i] || pieces[i].unit != unit) continue;
        if (atomic && overlaps(pieces[i], took, ntaken)) continue;
        took[ntaken++] = &pieces[i];
        used |= chunk_bits(pieces[i]);
        lanes |= 1u << pieces[i].lane;
        is_done[i] = 1;
      }
      uint64_t base = unit;
      uint32_t size = seg;
      if (size == 128 && (used & 0b1100u) == 0) {
        size = 64;
      } else if (size == 128 && (used & 0b0011u) == 0) {
        size = 64;
        base += 64;
        used >>= 2;
      }
      if (size == 64 && (used & 0b10u) == 0) {
        size = 32;
      } else if (size == 64 && (used & 0b01u) == 0) {
        size = 32;
        base += 32;
      }
      out.push_back(Transaction{base, size, lanes, sectors_of(base, size)});
    }
  }
}

}  // namespace warpsim::mem::detail
