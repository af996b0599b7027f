// Shared building blocks of the coalescer rules: splitting lane accesses into aligned
// units and issuing one transaction per unit touched.
#include <algorithm>
#include <bit>

#include "sim/memory/coalescer_rules.hpp"

namespace warpsim::mem::detail {

uint8_t sectors_of(uint64_t addr, uint32_t size) {
  if (size == 0) return 0;
  uint64_t line = addr & ~uint64_t(127);
  uint64_t off = addr - line;
  if (off + size > 128) return 0;
  uint32_t first = uint32_t(off / 32), last = uint32_t((off + size - 1) / 32);
  uint8_t bits = 0;
  for (uint32_t s = first; s <= last; ++s) bits = uint8_t(bits | (1u << s));
  return bits;
}

namespace {

template <class Buffer>
void split_lanes_into(const WarpMemAccess& a, uint32_t first, uint32_t count, uint32_t unit_bytes, Buffer& pieces) {
  pieces.clear();
  const uint64_t bytes = a.bytes_per_lane();
  const uint64_t unit_mask = ~uint64_t(unit_bytes - 1);
  for (uint32_t lane = first; lane < first + count && lane < 32; ++lane) {
    if (!(a.mask >> lane & 1u)) continue;
    uint64_t p = a.addr[lane], end = a.addr[lane] + bytes;
    while (p < end) {
      uint64_t unit = p & unit_mask;
      uint64_t stop = std::min<uint64_t>(end, unit + unit_bytes);
      pieces.push_back(Piece{unit, uint32_t(p - unit), uint32_t(stop - unit), lane});
      p = stop;
    }
  }
}

}  // namespace

void split_lanes(const WarpMemAccess& a, uint32_t first, uint32_t count, uint32_t unit_bytes,
                 PieceBuffer& pieces) {
  split_lanes_into(a, first, count, unit_bytes, pieces);
}

namespace {

uint8_t used_sectors(const Piece* begin, const Piece* end) {
  uint8_t bits = 0;
  for (const Piece* p = begin; p != end; ++p)
    for (uint32_t s = p->lo / 32; s <= (p->hi - 1) / 32; ++s) bits = uint8_t(bits | (1u << s));
  return bits;
}

Transaction make_unit_txn(uint64_t unit, uint32_t unit_bytes, UnitSize sizing, uint32_t lanes,
                          const Piece* begin, const Piece* end) {
  if (sizing == UnitSize::UsedSectors) {
    uint8_t s = used_sectors(begin, end);
    return Transaction{unit, 32u * uint32_t(std::popcount(unsigned(s))), lanes, s};
  }
  return Transaction{unit, unit_bytes, lanes, sectors_of(unit, unit_bytes)};
}

}  // namespace

namespace {

// Bit l (1 <= l < 32) set where lane l's address is not lane l-1's plus `bytes`; bit 0
// clear. Every lane is compared, active or not (callers mask the bits): a plain loop the
// x86-64-v3 clone does four lanes an instruction.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
uint32_t discontinuities(const uint64_t* __restrict addr, uint64_t bytes) {
  uint32_t bits = 0;
  for (int l = 1; l < 32; ++l) bits |= uint32_t(addr[l] != addr[l - 1] + bytes) << l;
  return bits;
}

// The commonest accesses, without a loop over each lane's sectors: the active lanes of the
// range fall into runs of consecutive lanes at consecutive elements (one run for a fully
// active contiguous request; two for the rows of a 16 x 16 tile), with the element size a
// power of two (at most a unit) and every run's first address aligned to it, so each lane
// lies in one unit and a run's units and their lanes and sectors follow from its ends.
// A run that starts in the unit the last one ended in joins that unit's transaction, as in
// emit_units_in_lane_order. Appends what that function would; returns false, having
// appended nothing, for anything else (a run going back to a lower unit, say).
bool emit_units_runs(const WarpMemAccess& a, uint32_t first, uint32_t count, uint32_t unit_bytes, UnitSize sizing,
                     std::vector<Transaction>& out) {
  const uint32_t end = std::min<uint32_t>(first + count, 32);
  const uint32_t active = lanes_in(a.mask, first, count);
  const uint64_t bytes = a.bytes_per_lane();
  if (!active || !std::has_single_bit(bytes) || bytes > unit_bytes) return false;
  const int shift = std::countr_zero(bytes);  // x / bytes as a shift: no division per unit
  // breaks: lanes that do not continue the element before them (the first lane always starts a run)
  // (bits first+1 .. end-1 of the lanes' discontinuities)
  const uint32_t inside = uint32_t(((uint64_t(1) << end) - 1) & ~((uint64_t(2) << first) - 1));
  uint32_t breaks = (1u << first) | (discontinuities(a.addr.data(), bytes) & inside);
  bool plain = true;  // every run's first address aligned, and no run past the top of the address space
  breaks |= active & ~(active << 1);  // a lane after an inactive one
  const size_t start = out.size();
  for (uint32_t m = active; m;) {
    const uint32_t l0 = uint32_t(std::countr_zero(m));
    // the run: l0 and the active lanes after it up to the next break
    const uint32_t later_breaks = (breaks | ~active) & ~((2u << l0) - 1);
    const uint32_t l1 = later_breaks ? uint32_t(std::countr_zero(later_breaks)) : 32;  // one past the run
    m &= l1 >= 32 ? 0u : ~((1u << l1) - 1);
    const uint64_t lo = a.addr[l0], hi = lo + uint64_t(l1 - l0) * bytes;  // bytes [lo, hi)
    if ((lo & (bytes - 1)) || hi < lo) {
      plain = false;
      break;
    }
    for (uint64_t u = lo & ~uint64_t(unit_bytes - 1); u < hi; u += unit_bytes) {
      const uint64_t b = std::max(u, lo), e = std::min(u + unit_bytes, hi);
      const uint32_t n = uint32_t((e - b) >> shift), f = l0 + uint32_t((b - lo) >> shift);  // lanes [f, f + n)
      const uint32_t lanes = uint32_t(((uint64_t(1) << n) - 1) << f);
      const uint32_t s0 = uint32_t(b - u) / 32, s1 = uint32_t(e - 1 - u) / 32;
      const uint8_t used = uint8_t((2u << s1) - (1u << s0));  // sectors s0..s1 (UsedSectors: 128-byte units)
      if (out.size() > start && out.back().addr >= u) {
        Transaction& t = out.back();
        if (t.addr > u) {  // back to a lower unit: the sorting path
          out.resize(start);
          return false;
        }
        t.lanes |= lanes;
        if (sizing == UnitSize::UsedSectors) {
          t.sectors = uint8_t(t.sectors | used);
          t.size = 32u * uint32_t(std::popcount(unsigned(t.sectors)));
        }
        continue;
      }
      if (sizing == UnitSize::UsedSectors)
        out.push_back(Transaction{u, 32u * uint32_t(std::popcount(unsigned(used))), lanes, used});
      else
        out.push_back(Transaction{u, unit_bytes, lanes, sectors_of(u, unit_bytes)});
    }
  }
  if (!plain) {
    out.resize(start);
    return false;
  }
  return true;
}

// The usual case in one pass: each active lane's bytes lie in one unit and the units do not
// decrease from lane to lane, so the lanes of a unit are consecutive and lane order is the
// order the general path sorts into. Appends what emit_units would and returns true; returns
// false, having appended nothing, when the lanes are not like that.
bool emit_units_in_lane_order(const WarpMemAccess& a, uint32_t first, uint32_t count, uint32_t unit_bytes,
                              UnitSize sizing, std::vector<Transaction>& out) {
  const uint64_t bytes = a.bytes_per_lane();
  const uint64_t unit_mask = ~uint64_t(unit_bytes - 1);
  const size_t start = out.size();
  uint64_t unit = 0;
  uint32_t lanes = 0;
  uint8_t used = 0;
  auto flush = [&] {
    if (!lanes) return;
    if (sizing == UnitSize::UsedSectors)
      out.push_back(Transaction{unit, 32u * uint32_t(std::popcount(unsigned(used))), lanes, used});
    else
      out.push_back(Transaction{unit, unit_bytes, lanes, sectors_of(unit, unit_bytes)});
  };
  for (uint32_t m = lanes_in(a.mask, first, count); m; m &= m - 1) {
    const uint32_t lane = uint32_t(std::countr_zero(m));
    const uint64_t p = a.addr[lane], last = p + bytes - 1;
    const uint64_t u = p & unit_mask;
    if ((last & unit_mask) != u || (lanes && u < unit)) {
      out.resize(start);
      return false;
    }
    if (!lanes || u != unit) {
      flush();
      unit = u;
      lanes = 0;
      used = 0;
    }
    lanes |= 1u << lane;
    if (sizing == UnitSize::UsedSectors)
      for (uint32_t s = uint32_t(p - u) / 32; s <= uint32_t(last - u) / 32; ++s) used = uint8_t(used | (1u << s));
  }
  flush();
  return true;
}

}  // namespace

void emit_units(const WarpMemAccess& a, uint32_t first, uint32_t count, uint32_t unit_bytes,
                UnitSize sizing, bool split_overlaps, std::vector<Transaction>& out) {
  if (!split_overlaps && (emit_units_runs(a, first, count, unit_bytes, sizing, out) ||
                          emit_units_in_lane_order(a, first, count, unit_bytes, sizing, out)))
    return;
  // Called for every global access: pieces live on the stack (a lane of at most 16 bytes
  // touches at most two units of 32 bytes or more), and an insertion sort (stable,
  // near-linear on the usual ascending addresses) orders them.
  PieceBuffer pieces;
  split_lanes_into(a, first, count, unit_bytes, pieces);
  for (size_t i = 1; i < pieces.size(); ++i) {
    if (!(pieces[i].unit < pieces[i - 1].unit)) continue;
    Piece p = pieces[i];
    size_t j = i;
    while (j > 0 && p.unit < pieces[j - 1].unit) {
      pieces[j] = pieces[j - 1];
      --j;
    }
    pieces[j] = p;
  }

  for (size_t g = 0; g < pieces.size();) {
    size_t e = g;
    while (e < pieces.size() && pieces[e].unit == pieces[g].unit) ++e;
    if (!split_overlaps) {
      uint32_t lanes = 0;
      for (size_t i = g; i < e; ++i) lanes |= 1u << pieces[i].lane;
      out.push_back(make_unit_txn(pieces[g].unit, unit_bytes, sizing, lanes, pieces.data() + g, pieces.data() + e));
    } else {
      // Rounds: each piece joins the first round none of whose pieces it overlaps.
      std::vector<std::vector<Piece>> rounds;
      for (size_t i = g; i < e; ++i) {
        const Piece& p = pieces[i];
        auto fits = [&](const std::vector<Piece>& r) {
          return std::none_of(r.begin(), r.end(), [&](const Piece& q) { return p.lo < q.hi && q.lo < p.hi; });
        };
        auto it = std::find_if(rounds.begin(), rounds.end(), fits);
        if (it == rounds.end()) rounds.emplace_back(1, p);
        else it->push_back(p);
      }
      for (const auto& r : rounds) {
        uint32_t lanes = 0;
        for (const Piece& p : r) lanes |= 1u << p.lane;
        out.push_back(make_unit_txn(r.front().unit, unit_bytes, sizing, lanes, r.data(), r.data() + r.size()));
      }
    }
    g = e;
  }
}

}  // namespace warpsim::mem::detail
