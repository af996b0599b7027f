// Where a warp's global or local memory transactions go on a given device: which ones the
// L1 caches, which L2 slice serves an address, and the device address of local memory.
// Shared by the functional transaction counter and the timing memory system, so both
// route every transaction the same way.
#pragma once
#include <cstdint>
#include <memory>

#include "sim/spec/device_spec.hpp"
#include "sim/memory/address_map.hpp"
#include "sim/memory/cache_spec.hpp"
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

// A sectored L1 (sector_bytes < line_bytes, e.g. the H100's 32-byte sectors) fetches only
// the sectors a miss lacks, and its fill carries them back as the L2 sectors requested.
// A whole-line L1 (the C2070's) keeps fetching and filling whole lines.
inline bool l1_sectored(const DeviceSpec& d) { return d.has_l1 && d.l1.sector_bytes < d.l1.line_bytes; }

// The L2 sectors that hold the sectors `l1_mask` of the L1 line at `line` (0 without an L2).
inline uint32_t l2_sectors_of_l1(const DeviceSpec& d, uint64_t line, uint32_t l1_mask) {
  if (!d.has_l2) return 0;
  uint32_t m = 0;
  for (uint32_t i = 0; i < 32; ++i)
    if (l1_mask >> i & 1u) m |= d.l2.slice.sector_mask(line + uint64_t(i) * d.l1.sector_bytes, d.l1.sector_bytes);
  return m;
}

// issue.lsu_line_requests: a load's transaction (addr, bytes) and the ones after it that
// fall in the same line of cache `c`, none twice, at most `limit` in all, are one lookup.
// next(n, addr, bytes) gives the n-th following transaction, or false where it may not
// join. Returns how many joined; `sectors` gets their sectors of the line. Shared by the
// timing memory system and the functional counter, so both join alike.
template <class Next>
uint32_t join_line_request(const CacheSpec& c, uint64_t addr, uint32_t bytes, uint32_t limit, Next next,
                           uint32_t& sectors) {
  const uint64_t line = c.line_addr(addr);
  sectors = c.sector_mask(addr, bytes);
  uint32_t n = 1;
  for (; n < limit; ++n) {
    uint64_t a = 0;
    uint32_t b = 0;
    if (!next(n, a, b) || c.line_addr(a) != line) break;
    const uint32_t m = c.sector_mask(a, b);
    if (m & sectors) break;
    sectors |= m;
  }
  return n;
}

}  // namespace warpsim::mem
