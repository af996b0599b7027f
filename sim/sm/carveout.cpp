#include "sim/sm/carveout.hpp"

#include <algorithm>

#include "sim/foundation/error.hpp"
#include "sim/sm/occupancy.hpp"
#include "sim/spec/device_spec.hpp"

namespace warpsim::sm {

const SharedSplit* CarveoutSpec::split(uint32_t shared_bytes) const {
  for (const auto& s : splits)
    if (s.shared_bytes == shared_bytes) return &s;
  return nullptr;
}

uint32_t CarveoutSpec::smallest_at_least(uint64_t bytes) const {
  for (const auto& s : splits)
    if (s.shared_bytes >= bytes) return s.shared_bytes;
  return splits.back().shared_bytes;
}

namespace {

uint64_t round_up(uint64_t x, uint64_t unit) { return unit ? (x + unit - 1) / unit * unit : x; }

// The cudaFuncCache value in force: the function's own, else the device's.
int cache_preference(const SharedPreference& p) { return p.function_cache ? p.function_cache : p.device_cache; }

// An explicit preference in percent of the largest capacity, or -1. On Volta and later the
// cache configurations ask for the largest (PreferShared), half (PreferEqual) or the least
// (PreferL1) shared memory, which is what the H100 launches with (h100_carveout_ncu.csv).
int preference_percent(const SharedPreference& p) {
  if (p.carveout_percent >= 0) return p.carveout_percent;
  switch (cache_preference(p)) {
    case 1: return 100;
    case 2: return 0;
    case 3: return 50;
    default: return -1;
  }
}

uint32_t cache_config_capacity(const CarveoutSpec& c, uint64_t alloc, const SharedPreference& p) {
  uint32_t cap = c.prefer_none;
  switch (cache_preference(p)) {
    case 1: cap = c.prefer_shared; break;
    case 2: cap = c.prefer_l1; break;
    case 3: cap = c.prefer_equal; break;
    default: break;
  }
  // "The runtime will use the requested configuration if possible, but it is free to choose
  // a different configuration if required to execute the function" (cudaFuncSetCacheConfig).
  return alloc > cap ? c.smallest_at_least(alloc) : cap;
}

uint32_t percent_capacity(const CarveoutSpec& c, int percent, uint64_t alloc, uint64_t floor) {
  const uint64_t largest = c.splits.back().shared_bytes;
  const uint64_t wanted = (uint64_t(percent) * largest + 99) / 100;
  return c.smallest_at_least(std::max({wanted, alloc, floor}));
}

}  // namespace

uint32_t launch_shared_capacity(const SmSpec& sm, const CarveoutSpec& c, uint32_t threads, uint32_t regs,
                                uint32_t block_shared, const SharedPreference& pref) {
  if (c.policy == CarveoutPolicy::Fixed || c.splits.empty()) return sm.shared_memory;
  const uint64_t alloc = round_up(block_shared, sm.shared_allocation_unit);
  if (c.policy == CarveoutPolicy::CacheConfig) return cache_config_capacity(c, alloc, pref);
  if (int percent = preference_percent(pref); percent >= 0)
    return percent_capacity(c, percent, alloc, c.preference_floor);
  // No preference: the smallest carveout that does not lower the occupancy the other limits
  // allow ("the driver automatically configures the shared memory capacity for each kernel
  // to avoid shared memory occupancy bottlenecks", Volta tuning guide).
  const uint32_t largest = c.splits.back().shared_bytes;
  if (alloc == 0) return c.splits.front().shared_bytes;
  uint64_t target = 0;
  try {
    target = compute_occupancy(sm, threads, regs, 0).blocks_per_sm;
  } catch (const LaunchError&) {
    return largest;  // the launch fails its occupancy check, with its own message
  }
  target = std::min<uint64_t>(target, largest / alloc);
  for (const auto& s : c.splits)
    if (s.shared_bytes / alloc >= target) return s.shared_bytes;
  return largest;
}

uint32_t occupancy_api_shared_capacity(const SmSpec& sm, const CarveoutSpec& c, uint32_t block_shared,
                                       const SharedPreference& pref) {
  if (c.policy == CarveoutPolicy::Fixed || c.splits.empty()) return sm.shared_memory;
  const uint64_t alloc = round_up(block_shared, sm.shared_allocation_unit);
  if (c.policy == CarveoutPolicy::CacheConfig) return cache_config_capacity(c, alloc, pref);
  const int percent = preference_percent(pref);
  return percent < 0 ? c.splits.back().shared_bytes : percent_capacity(c, percent, alloc, 0);
}

}  // namespace warpsim::sm
