// Cache replacement policies and their registry (Ramulator 2 style: one explicit table
// maps a config name to a factory; an unknown name is a ConfigError listing the valid ones).
//
// A policy only ranks ways; the tag array decides which ways are candidates (it never
// offers a way that holds a line waiting for a fill, and it fills empty ways first).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::mem {

// Asks the host to load [p, p + bytes) into its caches (a hint; no effect on results).
inline void prefetch_bytes(const void* p, size_t bytes) {
  const uintptr_t end = reinterpret_cast<uintptr_t>(p) + bytes;
  for (uintptr_t a = reinterpret_cast<uintptr_t>(p) & ~uintptr_t(63); a < end; a += 64)
    __builtin_prefetch(reinterpret_cast<const void*>(a));
}

// Ways per set are limited to 64 so a candidate set fits in one 64-bit mask.
inline constexpr uint32_t kMaxWays = 64;

class ReplacementPolicy {
 public:
  virtual ~ReplacementPolicy() = default;
  // A new line was placed in (set, way).
  virtual void on_insert(uint32_t set, uint32_t way) = 0;
  // The line in (set, way) was accessed again (read or write hit, merged miss).
  virtual void on_access(uint32_t set, uint32_t way) = 0;
  // Pick the victim among the ways whose bit is set in `candidates` (never 0).
  // Deterministic: ties go to the lowest way.
  virtual uint32_t victim(uint32_t set, uint64_t candidates) const = 0;
  // A hint that `set` is about to be used: start loading its state into the host's caches.
  // Changes nothing observable.
  virtual void prefetch(uint32_t /*set*/) const {}
};

using ReplacementFactory = std::unique_ptr<ReplacementPolicy> (*)(uint32_t sets, uint32_t ways);

struct ReplacementEntry {
  std::string_view name;         // the JSON value, e.g. "lru"
  std::string_view description;  // one line for docs and error messages
  ReplacementFactory make;
};

// The registry: every replacement policy the simulator knows, in a fixed order.
std::span<const ReplacementEntry> replacement_registry();
// The registry's names, in registry order (for get_choice and error messages).
std::vector<std::string> replacement_policy_names();
// Build the named policy; throws ConfigError listing the valid names when unknown.
std::unique_ptr<ReplacementPolicy> make_replacement_policy(std::string_view name, uint32_t sets,
                                                           uint32_t ways);

}  // namespace warpsim::mem
