// L2 access control as CUDA exposes it (CUDA Programming Guide, "L2 cache access
// management"): a launch's access policy window gives the lines of one address range a
// property (a hitRatio share of them hitProp, the rest missProp), and persisting lines are
// kept in a set-aside part of the L2 (cudaLimitPersistingL2CacheSize) while normal and
// streaming lines use the rest; streaming lines are evicted first.
#pragma once
#include <cstdint>

namespace warpsim::mem {

// cudaAccessProperty's values.
enum class AccessProperty : uint8_t { Normal = 0, Streaming = 1, Persisting = 2 };

struct AccessPolicyWindow {
  uint64_t base = 0, bytes = 0;  // bytes 0: no window (every line normal)
  float hit_ratio = 0;           // the share of the window's lines that get `hit`
  AccessProperty hit = AccessProperty::Normal, miss = AccessProperty::Normal;
};

// What one L2 slice applies during a launch.
struct L2AccessPolicy {
  AccessPolicyWindow window;
  uint32_t persisting_ways = 0;  // per set: the set-aside's share of the ways
  // The share of the lines given the persisting property that the L2 really keeps as
  // persisting (the rest are normal lines), a fitted number: the documented behaviour is 1
  // (l2.persisting_kept_share; docs/memory-hierarchy.md, "L2 access control").
  float persisting_kept_share = 1.0f;
};

// The property of the line at line_addr under `w`. Which lines of the window get the hit
// property is fixed by a hash of the line's address (the GPU picks them at random): the
// same lines every launch, a `hit_ratio` share of any large range.
AccessProperty line_property(const AccessPolicyWindow& w, uint64_t line_addr);

// Whether a line that an access makes persisting is kept as one (persisting_kept_share of
// the lines, picked by another hash of the address than line_property's).
bool kept_persisting(const L2AccessPolicy& p, uint64_t line_addr);

// The set-aside's share of each set's ways (rounded down): `ways` x set_aside / l2_bytes.
uint32_t persisting_ways(uint64_t set_aside_bytes, uint64_t l2_bytes, uint32_t ways);

}  // namespace warpsim::mem
