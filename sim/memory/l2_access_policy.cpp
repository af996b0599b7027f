#include "sim/memory/l2_access_policy.hpp"

namespace warpsim::mem {

namespace {

// A fraction in [0, 1) fixed by the address (splitmix64's finaliser: neighbouring lines get
// independent fractions; `salt` gives another, independent one).
double line_fraction(uint64_t line_addr, uint64_t salt) {
  uint64_t z = line_addr + salt;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return double(z >> 11) * 0x1p-53;
}

}  // namespace

AccessProperty line_property(const AccessPolicyWindow& w, uint64_t line_addr) {
  if (w.bytes == 0 || line_addr < w.base || line_addr - w.base >= w.bytes) return AccessProperty::Normal;
  if (w.hit_ratio >= 1.0f) return w.hit;
  if (w.hit_ratio <= 0.0f) return w.miss;
  return line_fraction(line_addr, 0x9E3779B97F4A7C15ull) < double(w.hit_ratio) ? w.hit : w.miss;
}

bool kept_persisting(const L2AccessPolicy& p, uint64_t line_addr) {
  if (p.persisting_kept_share >= 1.0f) return true;
  return line_fraction(line_addr, 0xD1B54A32D192ED03ull) < double(p.persisting_kept_share);
}

uint32_t persisting_ways(uint64_t set_aside_bytes, uint64_t l2_bytes, uint32_t ways) {
  if (l2_bytes == 0 || set_aside_bytes == 0) return 0;
  const uint64_t n = set_aside_bytes * ways / l2_bytes;
  return n >= ways ? ways - 1 : static_cast<uint32_t>(n);  // normal lines always keep a way
}

}  // namespace warpsim::mem
