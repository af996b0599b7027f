// The tag array of one cache: sets x ways of line states with per-sector valid and dirty
// masks, plus the replacement policy that ranks the ways. Holds no data: the functional
// engine owns the bytes; caches only decide hit, miss and traffic.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sim/memory/cache_spec.hpp"
#include "sim/memory/l2_access_policy.hpp"
#include "sim/memory/replacement.hpp"

namespace warpsim::mem {

struct CacheLine {
  uint64_t line_addr = 0;
  uint32_t valid = 0;        // sectors that hold data
  uint32_t dirty = 0;        // sectors newer than the level below (a subset of valid)
  bool allocated = false;    // the tag is in use (it may have no valid sector yet)
  bool reserved = false;     // a miss is outstanding: the line cannot be evicted
  bool evict_after_fill = false;  // a write-evict hit it while reserved: drop it once filled
  AccessProperty prop = AccessProperty::Normal;  // L2 access control (l2_access_policy.hpp)
};

class CacheTags {
 public:
  explicit CacheTags(const CacheSpec& spec);

  // The way of `set` whose tag is line_addr, if any.
  std::optional<uint32_t> find(uint32_t set, uint64_t line_addr) const;
  // A line's tag and whether it is allocated may change only through insert() and
  // invalidate() (find() reads a copy of them); the rest of its state through at().
  CacheLine& at(uint32_t set, uint32_t way) { return lines_[idx(set, way)]; }
  const CacheLine& at(uint32_t set, uint32_t way) const { return lines_[idx(set, way)]; }

  // The way a new line of `set` should go to: the lowest empty way, else the policy's
  // choice among the lines not reserved; nullopt when every way is reserved.
  std::optional<uint32_t> victim(uint32_t set) const;
  // The same for a line of property `incoming` where persisting lines may hold
  // `persisting_ways` ways of a set: they are not evicted for other lines while the set
  // holds no more of them, a persisting line past that share replaces one of its kind, and
  // streaming lines go first. With no persisting or streaming line it is victim(set).
  std::optional<uint32_t> victim(uint32_t set, AccessProperty incoming, uint32_t persisting_ways) const;
  // Persisting lines of `set`.
  uint32_t persisting_lines(uint32_t set) const;
  // Place line_addr in (set, way) with nothing valid; the caller handled the old line.
  void insert(uint32_t set, uint32_t way, uint64_t line_addr);
  // The line was used again (replacement-policy update).
  void touch(uint32_t set, uint32_t way) { policy_->on_access(set, way); }
  void invalidate(uint32_t set, uint32_t way) {
    lines_[idx(set, way)] = CacheLine{};
    keys_[idx(set, way)] = kNoKey;
  }
  // A hint that `set` is about to be looked up: start loading its lines and its replacement
  // state into the host's caches (a large L2's tags miss them; several sets' misses then
  // overlap instead of following one another). Changes nothing observable.
  void prefetch(uint32_t set) const {
    prefetch_bytes(&keys_[idx(set, 0)], ways_ * sizeof(uint64_t));
    prefetch_bytes(&lines_[idx(set, 0)], ways_ * sizeof(CacheLine));
    policy_->prefetch(set);
  }

  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }

 private:
  size_t idx(uint32_t set, uint32_t way) const { return size_t(set) * ways_ + way; }
  uint32_t sets_, ways_;
  std::vector<CacheLine> lines_;
  // The tags of allocated lines, kNoKey for the others, contiguous per set: what find()
  // scans (a set's ways in one or two of the host's cache lines instead of several).
  static constexpr uint64_t kNoKey = ~uint64_t(0);
  std::vector<uint64_t> keys_;
  std::unique_ptr<ReplacementPolicy> policy_;
};

}  // namespace warpsim::mem
