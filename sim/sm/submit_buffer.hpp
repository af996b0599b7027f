// One SM's memory submissions held back while SMs tick in parallel (engine/sm_phase.hpp):
// MemorySystem::submit allocates ids and queues in call order, so the runner applies every
// SM's buffer after the SM phase, in SM order, which is the order a serial run submits in.
// Storage is reused from cycle to cycle (nothing is allocated in the steady state).
#pragma once
#include <cstdint>
#include <vector>

#include "sim/memory/memory_system.hpp"

namespace warpsim::sm {

class SubmitBuffer {
 public:
  void add(const std::vector<mem::Transaction>& txns, mem::AccessKind kind, bool local, bool use_l1, uint64_t token,
           uint64_t now, uint32_t bytes_per_lane) {
    entries_.push_back({txns_.size(), txns.size(), kind, local, use_l1, token, now, bytes_per_lane});
    txns_.insert(txns_.end(), txns.begin(), txns.end());
  }
  // Transactions held back (what the SM's load/store queue will hold more once applied).
  size_t queued() const { return txns_.size(); }
  bool empty() const { return entries_.empty(); }
  // Submits everything held, in the order it was added, and empties the buffer.
  void apply(mem::MemorySystem& memory, uint32_t sm) {
    for (const Entry& e : entries_)
      memory.submit(sm, txns_.data() + e.first, e.count, e.kind, e.local, e.use_l1, e.token, e.now,
                    e.bytes_per_lane);
    entries_.clear();
    txns_.clear();
  }

 private:
  struct Entry {
    size_t first, count;
    mem::AccessKind kind;
    bool local, use_l1;
    uint64_t token, now;
    uint32_t bytes_per_lane;
  };
  std::vector<Entry> entries_;
  std::vector<mem::Transaction> txns_;
};

}  // namespace warpsim::sm
