// The global-memory bytes a share of a launch read and wrote: what parallel functional
// blocks (functional_parallel.hpp) compare between threads to find blocks that depend on
// one another. Kept as bitmaps of 4 KiB regions (a bit per byte), so neighbouring blocks
// that write adjacent words do not count as touching the same data, and a warp's lanes,
// which mostly fall in one region, update one bitmap.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "sim/memory/mem_access.hpp"

namespace warpsim {

class TouchedBytes {
 public:
  TouchedBytes() { index_.assign(kInitialSlots, kFree); }

  // Adds the bytes of a global access (other spaces are private to a block or a thread).
  void record(const mem::WarpMemAccess& a) {
    if (a.space != isa::Space::Global) return;
    const bool writes = a.kind != mem::AccessKind::Load;
    const bool reads = a.kind != mem::AccessKind::Store;
    const uint32_t n = a.bytes_per_lane();
    for (uint32_t m = a.mask; m; m &= m - 1) {
      const uint64_t addr = a.addr[unsigned(std::countr_zero(m))];
      const uint64_t word_off = addr & 63;
      if (word_off + n <= 64) {  // the usual case: an aligned access within one 64-byte word
        Region& r = region(addr >> kRegionBits);
        const uint32_t w = uint32_t(addr & (kRegionBytes - 1)) >> 6;
        const uint64_t bits = (n == 64 ? ~uint64_t(0) : ((uint64_t(1) << n) - 1)) << word_off;
        if (reads) r.read[w] |= bits;
        if (writes) r.written[w] |= bits;
      } else {
        for (uint64_t at = addr, end = addr + n; at < end; ++at) {
          Region& r = region(at >> kRegionBits);
          const uint32_t b = uint32_t(at & (kRegionBytes - 1));
          if (reads) r.read[b >> 6] |= uint64_t(1) << (b & 63);
          if (writes) r.written[b >> 6] |= uint64_t(1) << (b & 63);
        }
      }
    }
  }

  // Whether one set wrote a byte the other read or wrote.
  bool overlaps(const TouchedBytes& other) const {
    const TouchedBytes& small = regions_used_ <= other.regions_used_ ? *this : other;
    const TouchedBytes& large = &small == this ? other : *this;
    for (uint32_t i = 0; i < small.regions_used_; ++i) {
      const Region& a = small.regions_[i];
      const Region* b = large.find(a.key);
      if (!b) continue;
      uint64_t hit = 0;
      for (uint32_t w = 0; w < kWords; ++w) hit |= (a.written[w] & (b->read[w] | b->written[w])) | (b->written[w] & a.read[w]);
      if (hit) return true;
    }
    return false;
  }

  void clear() {
    for (uint32_t i = 0; i < regions_used_; ++i) {
      std::memset(regions_[i].read, 0, sizeof regions_[i].read);
      std::memset(regions_[i].written, 0, sizeof regions_[i].written);
    }
    std::fill(index_.begin(), index_.end(), kFree);
    regions_used_ = 0;
    last_ = nullptr;
  }
  size_t regions() const { return regions_used_; }

 private:
  static constexpr uint32_t kRegionBits = 12;
  static constexpr uint64_t kRegionBytes = uint64_t(1) << kRegionBits;
  static constexpr uint32_t kWords = kRegionBytes / 64;
  static constexpr size_t kInitialSlots = 256;
  static constexpr uint32_t kFree = UINT32_MAX;
  struct Region {
    uint64_t key = 0;
    uint64_t read[kWords] = {};
    uint64_t written[kWords] = {};
  };

  static size_t hash(uint64_t key) { return size_t((key * 0x9E3779B97F4A7C15ull) >> 24); }

  // The index slot holding `key`, or the free slot where it would go.
  size_t slot_of(uint64_t key) const {
    const size_t mask = index_.size() - 1;
    size_t i = hash(key) & mask;
    while (index_[i] != kFree && regions_[index_[i]].key != key) i = (i + 1) & mask;
    return i;
  }
  const Region* find(uint64_t key) const {
    const uint32_t at = index_[slot_of(key)];
    return at == kFree ? nullptr : &regions_[at];
  }
  Region& region(uint64_t key) {
    if (last_ && last_->key == key) return *last_;
    size_t i = slot_of(key);
    if (index_[i] == kFree) {
      if ((regions_used_ + 1) * 2 > index_.size()) {
        grow();
        i = slot_of(key);
      }
      if (regions_used_ == regions_.size()) regions_.emplace_back();
      regions_[regions_used_].key = key;
      index_[i] = regions_used_++;
    }
    last_ = &regions_[index_[i]];
    return *last_;
  }
  void grow() {
    index_.assign(index_.size() * 2, kFree);
    for (uint32_t r = 0; r < regions_used_; ++r) index_[slot_of(regions_[r].key)] = r;
    last_ = nullptr;
  }

  std::vector<Region> regions_;  // the first regions_used_ are in use (the rest zeroed, for reuse)
  uint32_t regions_used_ = 0;
  std::vector<uint32_t> index_;  // open addressing: region number, or kFree
  Region* last_ = nullptr;
};

}  // namespace warpsim
