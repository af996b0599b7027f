// Where a warp's global or local memory transactions go on a given device: which ones the
// L1 caches, which L2 slice serves an address, and the device address of local memory.
// Shared by the functional transaction counter and the timing memory system, so both
// route every transaction the same way.
#pragma once
#include <cstdint>
#include <memory>

#include "sim/spec/device_spec.hpp"
#include "sim/memory/address_map.hpp"
#include "sim/memory/mem_access.hpp"
#include "sim/memory/set_index.hpp"

namespace warpsim::mem {

// Local memory lives in device DRAM, interleaved so that the threads of a warp touching the
// same local offset touch consecutive words (as the hardware lays it out).
constexpr uint64_t kLocalMemoryBase = uint64_t(1) << 44;
inline uint64_t local_device_address(uint64_t global_thread, uint64_t grid_threads, uint64_t offset,
                                     uint32_t elem_bytes) {
  return kLocalMemoryBase + (offset / elem_bytes) * grid_threads * elem_bytes + global_thread * elem_bytes +
         offset % elem_bytes;
}

// Loads the L1 caches: on a device with an L1, local loads always, global loads unless the
// coalescer config turns L1 caching off (-dlcm=cg) or the instruction bypasses it
// (ld.cg, ld.cv, volatile).
inline bool l1_caches_load(const DeviceSpec& d, const WarpMemAccess& a) {
  if (!d.has_l1 || a.kind != AccessKind::Load) return false;
  if (a.space == isa::Space::Local || a.texture) return true;  // textures: the L1/texture cache
  if (!d.coalescer.l1_caching || a.is_volatile) return false;
  return a.cache != isa::CacheOp::Cg && a.cache != isa::CacheOp::Cv;
}

// The L2 slice serving an address: the slices of a channel alternate by 128-byte line
// within the channel's 256-byte interleave unit.
inline uint32_t l2_slice_of(const DeviceSpec& d, const AddressMap& map, uint64_t addr) {
  uint32_t spc = d.l2.slices_per_channel;
  uint32_t channel = map.channel_of(addr);
  return channel * spc + (spc > 1 ? uint32_t(addr / d.l2.slice.line_bytes) % spc : 0);
}

// How an L2 slice of this device picks a set (slice_xor numbers lines through `map`).
inline SetIndex l2_set_index(const DeviceSpec& d, std::shared_ptr<const AddressMap> map) {
  return SetIndex(d.l2.slice, std::move(map), d.l2.slices_per_channel);
}

// The slice SM `sm` sends an access to: the address's home slice, or with a partitioned L2
// the slice at the same place in the SM's own partition, which keeps the SM's copy when the
// home is in another partition (docs/memory-hierarchy.md, "L2 partitions"). Atomics go home.
inline uint32_t l2_slice_for(const DeviceSpec& d, const AddressMap& map, uint64_t addr, uint32_t sm,
                             bool atomic) {
  const uint32_t home = l2_slice_of(d, map, addr);
  return atomic ? home : d.l2.near_slice(home, sm);
}

}  // namespace warpsim::mem
