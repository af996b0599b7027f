// The CUDA Occupancy Calculator's block-per-SM rules (spreadsheet form).
#include "sim/sm/occupancy.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/foundation/error.hpp"

namespace warpsim::sm {

namespace {

uint64_t ceil_div(uint64_t x, uint64_t d) { return (x + d - 1) / d; }
uint64_t round_up(uint64_t x, uint64_t unit) { return ceil_div(x, unit) * unit; }

constexpr const char* kOutOfResources = "too many resources requested for launch";

void check_per_block_limits(const SmSpec& sm, uint32_t threads, uint32_t regs, uint32_t shared) {
  if (threads == 0)
    throw LaunchError("invalid configuration argument: threads per block: a block needs at least one thread");
  if (threads > sm.max_threads_per_block)
    throw LaunchError(fmt::format(
        "invalid configuration argument: threads per block: {} threads exceed the device's {} (sm.max_threads_per_block)",
        threads, sm.max_threads_per_block));
  if (regs > sm.max_registers_per_thread)
    throw LaunchError(fmt::format("{}: registers: {} registers per thread exceed the device's {} "
                                  "(sm.max_registers_per_thread)",
                                  kOutOfResources, regs, sm.max_registers_per_thread));
  if (shared > sm.max_shared_per_block)
    throw LaunchError(fmt::format("{}: shared memory: {} bytes per block exceed the device's {} "
                                  "(sm.max_shared_per_block)",
                                  kOutOfResources, shared, sm.max_shared_per_block));
}

// Register limit, cc 1.x (per block): floor(registers / ceil(ceil(W, G) x R x warp, unit)).
uint32_t register_limit_per_block(const SmSpec& sm, uint32_t warps, uint32_t regs, OccupancyDetail& d) {
  const uint64_t per_block =
      round_up(uint64_t(d.warps_allocated_per_block) * regs * sm.warp_size, sm.register_allocation_unit);
  d.registers_per_block = uint32_t(per_block);
  return uint32_t(sm.registers / per_block);
}

// Register limit, cc 2.x (per warp):
// floor(floor(floor(registers / ceil(R x warp, unit)) / G) x G / W).
uint32_t register_limit_per_warp(const SmSpec& sm, uint32_t warps, uint32_t regs, OccupancyDetail& d) {
  const uint64_t per_warp = round_up(uint64_t(regs) * sm.warp_size, sm.register_allocation_unit);
  const uint64_t g = sm.warp_allocation_granularity;
  const uint64_t warps_sm = sm.registers / per_warp / g * g;
  d.registers_per_warp = uint32_t(per_warp);
  d.register_warps_per_sm = uint32_t(warps_sm);
  return uint32_t(warps_sm / warps);
}

}  // namespace

uint32_t block_shared_bytes(const SmSpec& sm, uint32_t static_bytes, uint32_t dynamic_bytes) {
  const uint64_t total = uint64_t(static_bytes) + dynamic_bytes + sm.shared_reserved_per_block;
  return uint32_t(std::min<uint64_t>(total, 0xFFFFFFFFull));
}

OccupancyDetail occupancy_detail(const SmSpec& sm, uint32_t threads, uint32_t regs, uint32_t shared) {
  check_per_block_limits(sm, threads, regs, shared);
  OccupancyDetail d;
  OccupancyStats& s = d.stats;
  const uint32_t warps = uint32_t(ceil_div(threads, sm.warp_size));
  s.threads_per_block = threads;
  s.registers_per_thread = regs;
  s.shared_bytes_per_block = shared;
  s.shared_memory_per_sm = sm.shared_memory;
  s.warps_per_block = warps;
  // Resident warps per SM: max_warps, and max_threads where a config sets it lower.
  s.max_warps_per_sm = std::min(sm.max_warps, sm.max_threads / sm.warp_size);
  d.warps_allocated_per_block = uint32_t(round_up(warps, sm.warp_allocation_granularity));

  s.limit_warps = s.max_warps_per_sm / warps;
  s.limit_blocks = sm.max_blocks;
  s.limit_registers = sm.max_blocks;
  if (regs > 0)
    s.limit_registers = sm.register_allocation == RegisterAllocation::PerBlock
                            ? register_limit_per_block(sm, warps, regs, d)
                            : register_limit_per_warp(sm, warps, regs, d);
  s.limit_shared = sm.max_blocks;
  if (shared > 0) {
    d.shared_allocated_per_block = uint32_t(round_up(shared, sm.shared_allocation_unit));
    s.limit_shared = sm.shared_memory / d.shared_allocated_per_block;
  }

  // Deterministic limiter: the first of warps, blocks, registers, shared memory that
  // attains the minimum.
  const std::pair<uint32_t, const char*> limits[] = {{s.limit_warps, "warps"},
                                                     {s.limit_blocks, "blocks"},
                                                     {s.limit_registers, "registers"},
                                                     {s.limit_shared, "shared memory"}};
  const auto* lim = std::min_element(std::begin(limits), std::end(limits),
                                     [](const auto& x, const auto& y) { return x.first < y.first; });
  s.blocks_per_sm = lim->first;
  s.limiter = lim->second;

  if (s.blocks_per_sm == 0) {
    if (s.limiter == std::string("registers")) {
      if (sm.register_allocation == RegisterAllocation::PerBlock)
        throw LaunchError(fmt::format("{}: registers: a block of {} threads x {} registers needs {} registers "
                                      "(allocated per block), an SM has {}",
                                      kOutOfResources, threads, regs, d.registers_per_block, sm.registers));
      throw LaunchError(fmt::format("{}: registers: a block needs {} warps of {} registers ({} per thread, "
                                    "allocated per warp), an SM's {} registers hold {} such warps",
                                    kOutOfResources, warps, d.registers_per_warp, regs, sm.registers,
                                    d.register_warps_per_sm));
    }
    if (s.limiter == std::string("shared memory"))
      throw LaunchError(fmt::format("{}: shared memory: a block needs {} bytes (allocated {}), an SM has {}",
                                    kOutOfResources, shared, d.shared_allocated_per_block, sm.shared_memory));
    throw LaunchError(fmt::format("{}: {}: a block of {} warps does not fit in an SM's {} resident warps",
                                  kOutOfResources, s.limiter, warps, s.max_warps_per_sm));
  }
  s.active_warps_per_sm = s.blocks_per_sm * warps;
  s.theoretical_occupancy = double(s.active_warps_per_sm) / double(s.max_warps_per_sm);
  return d;
}

OccupancyStats compute_occupancy(const SmSpec& sm, uint32_t threads, uint32_t regs, uint32_t shared) {
  return occupancy_detail(sm, threads, regs, shared).stats;
}

}  // namespace warpsim::sm
