// Miss status holding registers: one entry per line with outstanding misses, holding the
// sectors requested from below and the requests waiting for them. A bounded table: when
// it is full, or an entry already holds mshr_max_merge requests, the cache answers
// ReservationFail and the caller retries (back-pressure; nothing is dropped).
#pragma once
#include <cstdint>
#include <vector>

namespace warpsim::mem {

enum class AccessType : uint8_t { Read, Write, Atomic };

struct MshrWaiter {
  uint64_t id = 0;      // caller's request id
  uint32_t mask = 0;    // sectors it needs
  AccessType type = AccessType::Read;
};

struct MshrEntry {
  uint64_t line_addr = 0;
  uint32_t pending = 0;              // sectors requested from below and not yet filled
  std::vector<MshrWaiter> waiters;   // in arrival order (the first miss first)
  bool in_use = false;
};

class MshrTable {
 public:
  MshrTable(uint32_t entries, uint32_t max_merge);

  MshrEntry* find(uint64_t line_addr);
  const MshrEntry* find(uint64_t line_addr) const;
  bool full() const { return used_ == entries_.size(); }
  bool can_merge(const MshrEntry& e) const { return e.waiters.size() < max_merge_; }
  // Precondition: !full() and no entry for line_addr.
  MshrEntry& allocate(uint64_t line_addr);
  void release(MshrEntry& e);

  uint32_t used() const { return used_; }
  uint32_t capacity() const { return uint32_t(entries_.size()); }

 private:
  std::vector<MshrEntry> entries_;
  std::vector<uint64_t> active_lines_;  // [0, used_): lines with an entry, for find()
  std::vector<uint32_t> active_index_;  // their entry indices
  uint32_t max_merge_;
  uint32_t used_ = 0;
};

}  // namespace warpsim::mem
