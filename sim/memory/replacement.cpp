#include "sim/memory/replacement.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>

#include "sim/foundation/error.hpp"

namespace warpsim::mem {

namespace {

// Ranks ways by a per-line stamp from a private counter (not the cycle number, so two
// touches in one cycle still have an order). The victim is the smallest stamp.
class StampPolicy : public ReplacementPolicy {
 public:
  StampPolicy(uint32_t sets, uint32_t ways, bool stamp_on_access)
      : ways_(ways), stamp_on_access_(stamp_on_access), stamp_(size_t(sets) * ways, 0) {}

  void on_insert(uint32_t set, uint32_t way) override { stamp_[idx(set, way)] = ++clock_; }
  void on_access(uint32_t set, uint32_t way) override {
    if (stamp_on_access_) stamp_[idx(set, way)] = ++clock_;
  }
  uint32_t victim(uint32_t set, uint64_t candidates) const override {
    uint32_t best = kMaxWays;
    uint64_t best_stamp = UINT64_MAX;
    for (uint32_t w = 0; w < ways_; ++w) {
      if (!((candidates >> w) & 1)) continue;
      uint64_t s = stamp_[idx(set, w)];
      if (s < best_stamp) {
        best_stamp = s;
        best = w;
      }
    }
    return best;
  }
  void prefetch(uint32_t set) const override {
    prefetch_bytes(&stamp_[idx(set, 0)], ways_ * sizeof(uint64_t));
  }

 private:
  size_t idx(uint32_t set, uint32_t way) const { return size_t(set) * ways_ + way; }
  uint32_t ways_;
  bool stamp_on_access_;
  uint64_t clock_ = 0;
  std::vector<uint64_t> stamp_;
};

std::unique_ptr<ReplacementPolicy> make_lru(uint32_t sets, uint32_t ways) {
  return std::make_unique<StampPolicy>(sets, ways, true);
}
std::unique_ptr<ReplacementPolicy> make_fifo(uint32_t sets, uint32_t ways) {
  return std::make_unique<StampPolicy>(sets, ways, false);
}

constexpr std::array<ReplacementEntry, 2> kRegistry{{
    {"lru", "least recently used line (GPGPU-Sim 'L')", &make_lru},
    {"fifo", "oldest inserted line, hits do not refresh (GPGPU-Sim 'F')", &make_fifo},
}};

}  // namespace

std::span<const ReplacementEntry> replacement_registry() { return kRegistry; }

std::vector<std::string> replacement_policy_names() {
  std::vector<std::string> names;
  for (const auto& e : kRegistry) names.emplace_back(e.name);
  return names;
}

std::unique_ptr<ReplacementPolicy> make_replacement_policy(std::string_view name, uint32_t sets,
                                                           uint32_t ways) {
  for (const auto& e : kRegistry)
    if (e.name == name) return e.make(sets, ways);
  throw ConfigError(fmt::format("unknown replacement policy \"{}\"; valid: {}", name,
                                fmt::join(replacement_policy_names(), ", ")));
}

}  // namespace warpsim::mem
