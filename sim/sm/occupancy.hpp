// Theoretical occupancy: resident blocks per SM by the CUDA Occupancy Calculator's rules,
// every granularity taken from the SmSpec. The simulator calls compute_occupancy() at
// every launch; `warpsim occupancy` prints the same figures. docs/exact-rules.md gives
// the formulas, their source and the worked examples the tests check.
#pragma once
#include <cstdint>

#include "sim/spec/device_spec.hpp"
#include "sim/foundation/launch_stats.hpp"

namespace warpsim::sm {

// Shared memory a block occupies as the calculator counts it: static + dynamic + the
// device's per-block reserved bytes (cc 1.x keeps kernel parameters in shared memory).
uint32_t block_shared_bytes(const SmSpec& sm, uint32_t static_bytes, uint32_t dynamic_bytes);

// The per-block allocations behind the limits (for reports).
struct OccupancyDetail {
  OccupancyStats stats;
  uint32_t warps_allocated_per_block = 0;     // cc 1.x: warps rounded up to the warp granularity
  uint32_t registers_per_block = 0;           // per-block allocation (0 when registers are per warp or unused)
  uint32_t registers_per_warp = 0;            // per-warp allocation (0 when registers are per block or unused)
  uint32_t register_warps_per_sm = 0;         // per-warp allocation: warps the register file holds
  uint32_t shared_allocated_per_block = 0;    // shared bytes rounded up to the allocation unit
};

// Blocks per SM and the limiting resource. `shared_bytes_per_block` already includes
// static + dynamic + reserved bytes. Zero registers or zero shared bytes mean no limit from
// that resource (its limit is reported as max_blocks, as the calculator does). Ties
// between limits are reported in the order warps, blocks, registers, shared memory.
// Throws LaunchError, naming the resource, for zero threads, more threads, registers or
// shared bytes per block than the device allows, and when not even one block fits.
OccupancyStats compute_occupancy(const SmSpec& sm, uint32_t threads_per_block, uint32_t regs_per_thread,
                                 uint32_t shared_bytes_per_block);
OccupancyDetail occupancy_detail(const SmSpec& sm, uint32_t threads_per_block, uint32_t regs_per_thread,
                                 uint32_t shared_bytes_per_block);

}  // namespace warpsim::sm
