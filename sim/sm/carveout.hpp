// The L1/shared split of an SM whose L1 and shared memory are one storage: the shared-memory
// capacity a launch gets, from the kernel's needs and the program's preferences, chosen the
// way the CUDA driver chooses it, and the capacity the occupancy API assumes. The rules and
// their measurement on the H100 are in docs/exact-rules.md, "The L1/shared split".
#pragma once
#include <cstdint>
#include <vector>

namespace warpsim {
struct SmSpec;
}

namespace warpsim::sm {

enum class CarveoutPolicy : uint8_t {
  Fixed,        // one split: sm.shared_memory and the l1 section, whatever the kernel asks
  CacheConfig,  // Fermi/Kepler: cudaFuncCachePrefer* pick a split; a block that needs more gets more
  Occupancy,    // Volta and later: the driver sizes the carveout to the kernel; preferences in percent
};

struct SharedSplit {
  uint32_t shared_bytes = 0;  // shared-memory capacity of the SM
  uint32_t l1_ways = 0;       // the L1 gets the rest of the storage, with these ways
};

struct CarveoutSpec {
  CarveoutPolicy policy = CarveoutPolicy::Fixed;
  uint32_t unified_bytes = 0;       // L1 + shared storage per SM
  std::vector<SharedSplit> splits;  // by increasing shared_bytes; the last is sm.shared_memory
  // CacheConfig: the capacity each cudaFuncCache value asks for (none: the device's default).
  uint32_t prefer_none = 0, prefer_shared = 0, prefer_l1 = 0, prefer_equal = 0;
  // Occupancy: the least capacity an explicit preference gets (measured on the H100: a
  // carveout of 0 % and cudaFuncCachePreferL1 both launch with 32 KB).
  uint32_t preference_floor = 0;

  const SharedSplit* split(uint32_t shared_bytes) const;
  // The smallest split with at least `bytes` of shared memory; the largest if none has.
  uint32_t smallest_at_least(uint64_t bytes) const;
};

// What the program asked for (the CUDA runtime's settings; all default: no preference).
struct SharedPreference {
  int function_cache = 0;         // cudaFuncSetCacheConfig: a cudaFuncCache value, 0 = none
  int device_cache = 0;           // cudaDeviceSetCacheConfig
  int carveout_percent = -1;      // cudaFuncAttributePreferredSharedMemoryCarveout, -1 = none
  bool operator==(const SharedPreference&) const = default;
};

// The shared-memory capacity per SM that a launch runs with (ncu's
// launch__shared_mem_config_size). `block_shared` counts static + dynamic + reserved bytes.
// Limits that the launch breaks (too many threads or registers) are left to the occupancy
// check: the capacity is then the largest.
uint32_t launch_shared_capacity(const SmSpec& sm, const CarveoutSpec& c, uint32_t threads, uint32_t regs,
                                uint32_t block_shared, const SharedPreference& pref);

// The capacity that cudaOccupancyMaxActiveBlocksPerMultiprocessor assumes: the largest
// without a preference, else the preference rounded up to a split and to one block, with
// no floor (measured: a carveout of 0 % reports 8 blocks of 1 KB, where the launch gets 32).
uint32_t occupancy_api_shared_capacity(const SmSpec& sm, const CarveoutSpec& c, uint32_t block_shared,
                                       const SharedPreference& pref);

}  // namespace warpsim::sm
