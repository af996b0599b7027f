// Warp scheduling policies: one interface, implementations chosen by name from the
// device config (sm.scheduler_policy) through one explicit registry.
//
// Contract: a scheduler owns an ordering of the warp slots (< 64) assigned to it. Each
// issue cycle the SM passes the slots that could issue now (operands ready, unit free, room
// in the memory queue for a global access) as a bit mask; select() returns the one its
// policy prefers among them, or -1. The SM then issues that warp and calls issued(). add()/remove() track warps as blocks arrive and finish (add() is
// called oldest first); long_latency() tells the policy a warp now waits on memory.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace warpsim::sm {

class WarpScheduler {
 public:
  virtual ~WarpScheduler() = default;
  virtual void add(uint32_t slot) = 0;
  virtual void remove(uint32_t slot) = 0;
  virtual int select(uint64_t eligible) = 0;
  virtual void issued(uint32_t slot) = 0;
  virtual void long_latency(uint32_t slot) {}
  virtual size_t size() const = 0;
};

using SchedulerFactory = std::function<std::unique_ptr<WarpScheduler>(uint32_t active_set)>;

// Names: "lrr" (loose round-robin over warp slots), "gto" (greedy-then-oldest),
// "two_level" (an active set of `active_set` warps scheduled round-robin; warps that wait
// on memory are swapped out for pending ones).
const std::vector<std::pair<std::string, SchedulerFactory>>& scheduler_registry();
std::unique_ptr<WarpScheduler> make_scheduler(const std::string& name, uint32_t active_set);

}  // namespace warpsim::sm
