#include "sim/sm/warp_scheduler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "sim/foundation/error.hpp"

namespace warpsim::sm {

namespace {

inline uint64_t bit(uint32_t slot) { return uint64_t(1) << slot; }

// Loose round-robin: the first eligible slot after the last one issued, wrapping around.
class LooseRoundRobin final : public WarpScheduler {
 public:
  void add(uint32_t slot) override { members_ |= bit(slot); }
  void remove(uint32_t slot) override { members_ &= ~bit(slot); }
  int select(uint64_t eligible) override {
    eligible &= members_;
    if (!eligible) return -1;
    const uint64_t after = last_ >= 63 ? 0 : eligible & ~((bit(last_) << 1) - 1);
    return std::countr_zero(after ? after : eligible);
  }
  void issued(uint32_t slot) override { last_ = slot; }
  size_t size() const override { return size_t(std::popcount(members_)); }

 private:
  uint64_t members_ = 0;
  uint32_t last_ = 63;
};

// Greedy-then-oldest: keep issuing the same warp while it can, else the oldest that can.
class GreedyThenOldest final : public WarpScheduler {
 public:
  void add(uint32_t slot) override { by_age_.push_back(slot); }
  void remove(uint32_t slot) override {
    auto it = std::find(by_age_.begin(), by_age_.end(), slot);
    if (it != by_age_.end()) by_age_.erase(it);
    if (greedy_ == int(slot)) greedy_ = -1;
  }
  int select(uint64_t eligible) override {
    if (greedy_ >= 0 && (eligible & bit(uint32_t(greedy_)))) return greedy_;
    for (uint32_t s : by_age_)
      if (int(s) != greedy_ && (eligible & bit(s))) return int(s);
    return -1;
  }
  void issued(uint32_t slot) override { greedy_ = int(slot); }
  size_t size() const override { return by_age_.size(); }

 private:
  std::vector<uint32_t> by_age_;
  int greedy_ = -1;
};

// Two-level (Narasiman et al., MICRO 2011): a small active set scheduled round-robin;
// a warp that starts waiting on memory leaves it and the oldest pending warp enters.
class TwoLevel final : public WarpScheduler {
 public:
  explicit TwoLevel(uint32_t active_set) : capacity_(std::max<uint32_t>(1, active_set)) {}
  void add(uint32_t slot) override {
    if (active_.size() < capacity_) active_.push_back(slot);
    else pending_.push_back(slot);
  }
  void remove(uint32_t slot) override {
    auto it = std::find(active_.begin(), active_.end(), slot);
    if (it != active_.end()) {
      size_t idx = size_t(it - active_.begin());
      active_.erase(it);
      if (next_ > idx) --next_;
      refill();
    } else {
      auto p = std::find(pending_.begin(), pending_.end(), slot);
      if (p != pending_.end()) pending_.erase(p);
    }
    if (next_ >= active_.size()) next_ = 0;
  }
  int select(uint64_t eligible) override {
    const size_t n = active_.size();
    for (size_t k = 0; k < n; ++k) {
      size_t i = next_ + k < n ? next_ + k : next_ + k - n;
      if (eligible & bit(active_[i])) {
        next_ = i + 1 < n ? i + 1 : 0;
        return int(active_[i]);
      }
    }
    // Nothing in the active set can issue: let a pending warp in if one can.
    for (size_t k = 0; k < pending_.size(); ++k) {
      if (eligible & bit(pending_[k])) {
        uint32_t s = pending_[k];
        pending_.erase(pending_.begin() + long(k));
        if (active_.size() >= capacity_) {
          pending_.push_back(active_.front());
          active_.erase(active_.begin());
        }
        active_.push_back(s);
        next_ = 0;
        return int(s);
      }
    }
    return -1;
  }
  void issued(uint32_t) override {}
  void long_latency(uint32_t slot) override {
    if (pending_.empty()) return;
    auto it = std::find(active_.begin(), active_.end(), slot);
    if (it == active_.end()) return;
    size_t idx = size_t(it - active_.begin());
    active_.erase(it);
    if (next_ > idx) --next_;
    pending_.push_back(slot);
    refill();
    if (next_ >= active_.size()) next_ = 0;
  }
  size_t size() const override { return active_.size() + pending_.size(); }

 private:
  void refill() {
    while (active_.size() < capacity_ && !pending_.empty()) {
      active_.push_back(pending_.front());
      pending_.erase(pending_.begin());
    }
  }
  uint32_t capacity_;
  std::vector<uint32_t> active_, pending_;
  size_t next_ = 0;
};

}  // namespace

const std::vector<std::pair<std::string, SchedulerFactory>>& scheduler_registry() {
  static const std::vector<std::pair<std::string, SchedulerFactory>> registry = {
      {"lrr", [](uint32_t) { return std::make_unique<LooseRoundRobin>(); }},
      {"gto", [](uint32_t) { return std::make_unique<GreedyThenOldest>(); }},
      {"two_level", [](uint32_t n) { return std::make_unique<TwoLevel>(n); }},
  };
  return registry;
}

std::unique_ptr<WarpScheduler> make_scheduler(const std::string& name, uint32_t active_set) {
  for (const auto& [n, f] : scheduler_registry())
    if (n == name) return f(active_set);
  std::string names;
  for (const auto& [n, f] : scheduler_registry()) names += (names.empty() ? "" : ", ") + n;
  throw ConfigError(fmt::format("unknown warp scheduler policy '{}' (valid: {})", name, names));
}

}  // namespace warpsim::sm
