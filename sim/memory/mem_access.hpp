// One warp-level memory instruction as the functional engine saw it: which lanes were
// active and which byte address each one touched. The coalescer, the shared-memory bank
// model, the caches and the traces all consume this record; nothing recomputes addresses.
#pragma once
#include <array>
#include <cstdint>

#include "sim/isa/types.hpp"

namespace warpsim::mem {

enum class AccessKind : uint8_t { Load, Store, Atomic };

struct WarpMemAccess {
  isa::Space space = isa::Space::Global;  // resolved space (never Generic)
  AccessKind kind = AccessKind::Load;
  uint8_t elem_bytes = 4;   // bytes of one element (1, 2, 4, 8)
  uint8_t vec = 1;          // elements per lane (ld.v2 / ld.v4)
  isa::CacheOp cache = isa::CacheOp::Default;
  bool is_volatile = false;
  bool texture = false;     // a texture fetch or surface access (the texel addresses)
  // Shared: the farthest block of its cluster a lane reached (0: its own; 1: another on the
  // same TPC; 2: another TPC's, across the SM-to-SM network).
  uint8_t cluster_remote = 0;
  uint32_t mask = 0;        // lanes that performed the access
  // Byte address of each lane's first element: device address for global, byte offset
  // within the block's shared memory for shared (with a cluster rank above
  // isa::kClusterRankShift for distributed shared memory), per-thread offset for local.
  std::array<uint64_t, 32> addr{};
  // Shared, a full warp: a number that the executor gives every access whose lanes sit at
  // the same offsets from lane 0 (sm/shared_access_plan.hpp), so that a consumer fed by that
  // one executor may reuse what it derived from the offsets; 0: none (compare them).
  uint64_t pattern = 0;

  uint32_t bytes_per_lane() const { return uint32_t(elem_bytes) * vec; }

  // Sets every field but the addresses (executors often generate those in place).
  void set(isa::Space sp, AccessKind k, uint32_t elem, uint32_t per_lane, uint32_t lanes,
           isa::CacheOp op = isa::CacheOp::Default, bool vol = false, bool tex = false) {
    space = sp;
    kind = k;
    elem_bytes = static_cast<uint8_t>(elem);
    vec = static_cast<uint8_t>(per_lane);
    cache = op;
    is_volatile = vol;
    texture = tex;
    cluster_remote = 0;
    mask = lanes;
    pattern = 0;
  }
};

}  // namespace warpsim::mem
