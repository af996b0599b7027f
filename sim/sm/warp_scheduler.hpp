// Warp scheduling policies: one interface, implementations chosen by name from the
// device config (sm.scheduler_policy) through one explicit registry.
//
// Contract: a scheduler owns an ordering of the warp slots assigned to it. Each issue
// cycle the SM calls select(); the policy offers slots in its priority order to
// `probe.can_issue(slot)` and returns the first slot the probe accepts (-1: none). The SM
// then issues that warp and calls issued(). add()/remove() track warps as blocks arrive
// and finish; long_latency() tells the policy a warp now waits on memory.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace warpsim::sm {

class IssueProbe {
 public:
  virtual ~IssueProbe() = default;
  // Cheap pre-filter the policies apply before can_issue(): the warp's operands are ready
  // and the unit its next instruction needs is free (arrays indexed by slot).
  bool eligible(uint32_t slot) const { return ready_at[slot] <= now && unit_free[next_unit[slot]] <= now; }
  // The remaining checks for an eligible warp (memory back-pressure).
  virtual bool can_issue(uint32_t slot) = 0;

  const uint64_t* ready_at = nullptr;
  const uint8_t* next_unit = nullptr;
  uint64_t unit_free[5] = {0, 0, 0, 0, 0};  // by Unit: Alu, Sfu, Dp, Lsu, None
  uint64_t now = 0;
};

class WarpScheduler {
 public:
  virtual ~WarpScheduler() = default;
  // Warps are added oldest first (in block dispatch order, warp index order).
  virtual void add(uint32_t slot) = 0;
  virtual void remove(uint32_t slot) = 0;
  virtual int select(IssueProbe& probe) = 0;
  virtual void issued(uint32_t slot) = 0;
  virtual void long_latency(uint32_t slot) {}
  virtual size_t size() const = 0;
};

using SchedulerFactory = std::function<std::unique_ptr<WarpScheduler>(uint32_t active_set)>;

// Names: "lrr" (loose round-robin), "gto" (greedy-then-oldest), "two_level" (an active
// set of `active_set` warps scheduled round-robin; warps that wait on memory are swapped
// out for pending ones).
const std::vector<std::pair<std::string, SchedulerFactory>>& scheduler_registry();
std::unique_ptr<WarpScheduler> make_scheduler(const std::string& name, uint32_t active_set);

}  // namespace warpsim::sm
