// The "carveout" section of a device config: how the SM's L1 and shared memory divide one
// storage. Read after "sm" and "l1", whose values it must agree with.
#include <fmt/format.h>

#include "sim/spec/carveout_spec.hpp"

namespace warpsim {

sm::CarveoutSpec parse_carveout_spec(ConfigReader& r, const SmSpec& sm, bool has_l1, const mem::CacheSpec& l1) {
  sm::CarveoutSpec c;
  const std::string policy = r.get_choice("policy", {"fixed", "cache_config", "occupancy"});
  c.policy = policy == "fixed"          ? sm::CarveoutPolicy::Fixed
             : policy == "cache_config" ? sm::CarveoutPolicy::CacheConfig
                                        : sm::CarveoutPolicy::Occupancy;
  if (!has_l1) r.fail_here("a carveout divides the L1's storage; the device needs an \"l1\" section");
  const uint64_t unified = r.get_positive_at_most("unified_bytes", uint64_t(1) << 21, "2 MiB per SM");
  c.unified_bytes = uint32_t(unified);
  const Json& splits = r.raw("splits");
  if (!splits.is_array() || splits.empty())
    r.fail("splits", "expected a non-empty array of {\"shared_bytes\": N, \"l1_ways\": W}");
  for (size_t i = 0; i < splits.size(); ++i) {
    ConfigReader e(splits[i], r.file(), r.key_path(fmt::format("splits[{}]", i)));
    if (!splits[i].is_object()) e.fail_here("expected an object {\"shared_bytes\": N, \"l1_ways\": W}");
    sm::SharedSplit s;
    const uint64_t shared = e.get_uint("shared_bytes");
    if (shared >= unified)
      e.fail("shared_bytes", fmt::format("{} leaves no L1 of the {} unified_bytes", shared, unified));
    if (!c.splits.empty() && shared <= c.splits.back().shared_bytes)
      e.fail("shared_bytes", "splits must be listed by increasing shared_bytes");
    s.shared_bytes = uint32_t(shared);
    const uint64_t ways = e.get_positive("l1_ways");
    // The split's L1 is the l1 section's cache with this size and associativity. Its other
    // keys passed the same rules in the l1 section, so any problem is this split's l1_ways.
    const mem::CacheGeometry g{unified - shared, l1.line_bytes, l1.sector_bytes, ways, l1.index};
    if (auto problem = mem::cache_geometry_problem(g, fmt::format("an L1 of {} bytes", g.size_bytes)))
      e.fail("l1_ways", problem->why);
    s.l1_ways = uint32_t(ways);
    e.finish();
    c.splits.push_back(s);
  }
  if (c.splits.back().shared_bytes != sm.shared_memory)
    r.fail("splits", fmt::format("the largest split has {} bytes of shared memory; sm.shared_memory is {}",
                                 c.splits.back().shared_bytes, sm.shared_memory));
  // The l1 section describes one real configuration: the split that leaves it.
  const sm::SharedSplit* own =
      l1.size_bytes < unified ? c.split(uint32_t(unified - l1.size_bytes)) : nullptr;
  const bool fixed = c.policy == sm::CarveoutPolicy::Fixed;
  if (!fixed && (!own || own->l1_ways != l1.ways))
    r.fail("splits", fmt::format("no split leaves the l1 section's L1 ({} bytes, {} ways): list it, or set "
                                 "carveout.policy \"fixed\" to run every launch with the l1 section as it is",
                                 l1.size_bytes, l1.ways));
  auto split_bytes = [&](const char* key) {
    const uint64_t v = r.get_uint(key);
    if (!c.split(uint32_t(v)) || v > 0xFFFFFFFFull)
      r.fail(key, fmt::format("{} is not the shared_bytes of one of the splits", v));
    return uint32_t(v);
  };
  // A fixed policy ignores the other policies' keys, so `--set carveout.policy=fixed` pins
  // any config's split.
  if (c.policy == sm::CarveoutPolicy::CacheConfig || (fixed && r.has("prefer_none"))) {
    c.prefer_none = split_bytes("prefer_none");
    c.prefer_shared = split_bytes("prefer_shared");
    c.prefer_l1 = split_bytes("prefer_l1");
    c.prefer_equal = split_bytes("prefer_equal");
  }
  if (c.policy == sm::CarveoutPolicy::Occupancy || (fixed && r.has("preference_floor_bytes"))) {
    c.preference_floor = uint32_t(r.get_uint_or("preference_floor_bytes", 0));
    if (c.preference_floor > sm.shared_memory)
      r.fail("preference_floor_bytes", "exceeds sm.shared_memory");
  }
  r.finish();
  return c;
}

DeviceSpec with_shared_capacity(const DeviceSpec& spec, uint32_t shared_bytes) {
  DeviceSpec d = spec;
  if (spec.carveout.policy == sm::CarveoutPolicy::Fixed) return d;
  const sm::SharedSplit* s = spec.carveout.split(shared_bytes);
  if (!s) throw Error(fmt::format("internal: {} bytes of shared memory is not a split of {}", shared_bytes, spec.name));
  d.sm.shared_memory = shared_bytes;
  d.l1.size_bytes = spec.carveout.unified_bytes - shared_bytes;
  d.l1.ways = s->l1_ways;
  d.l1.sets = uint32_t(d.l1.size_bytes / (uint64_t(d.l1.line_bytes) * d.l1.ways));
  return d;
}

}  // namespace warpsim
