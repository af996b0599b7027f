// Cache-line based coalescing: compute capability 2.x (PG appendix "Compute
// Capabilities", cc 2.x "Global Memory"), 32-byte sectors of later architectures, and the
// teaching mode of fixed segments.
#include "sim/memory/coalescer_rules.hpp"

namespace warpsim::mem::detail {

namespace {

// Whether a cc 2.x load is cached in L1 (128-byte lines) or serviced by L2 only.
// Local memory is always cached in L1; for global memory ld.ca/.cs/.lu are cached,
// ld.cg/.cv are not, the default follows the config's -dlcm switch. Volatile loads must
// not hit in the (incoherent) L1, so they are serviced like ld.cv.
bool cached_in_l1(const CoalescerSpec& spec, const WarpMemAccess& a) {
  if (a.space == isa::Space::Local) return true;
  if (a.is_volatile) return false;
  switch (a.cache) {
    case isa::CacheOp::Ca:
    case isa::CacheOp::Cs:
    case isa::CacheOp::Lu:
      return true;
    case isa::CacheOp::Cg:
    case isa::CacheOp::Cv:
      return false;
    default:
      return spec.l1_caching;
  }
}

// Lanes per memory request: the sub-warp, split in two for 8-byte words and in four for
// 16-byte words (PG: "first split into ... one for each half-warp ... quarter-warp").
uint32_t cc20_request_lanes(const CoalescerSpec& spec, uint32_t bytes) {
  if (bytes <= 4) return spec.subwarp_size;
  uint32_t lanes = spec.subwarp_size * 4 / bytes;
  return lanes ? lanes : 1;
}

}  // namespace

// cc 2.x: L1-cached loads in 128-byte lines; L2-only loads and all stores in 32-byte
// segments (or 128-byte lines sized by their sectors, per the config); atomics, which are
// performed in L2, in 32-byte segments with one transaction per access to a location.
void coalesce_cc20(const CoalescerSpec& spec, const WarpMemAccess& a, std::vector<Transaction>& out) {
  const uint32_t req = cc20_request_lanes(spec, a.bytes_per_lane());
  for (uint32_t first = 0; first < 32; first += req) {
    if (!lanes_in(a.mask, first, req)) continue;
    if (a.kind == AccessKind::Atomic) {
      emit_units(a, first, req, 32, UnitSize::Whole, true, out);
    } else if (a.kind == AccessKind::Load && cached_in_l1(spec, a)) {
      emit_units(a, first, req, 128, UnitSize::Whole, false, out);
    } else if (spec.l2_only == L2OnlyTransactions::Line) {
      emit_units(a, first, req, 128, UnitSize::UsedSectors, false, out);
    } else {
      emit_units(a, first, req, 32, UnitSize::Whole, false, out);
    }
  }
}

// One 32-byte sector transaction per distinct sector a sub-warp request touches.
void coalesce_sector32(const CoalescerSpec& spec, const WarpMemAccess& a, std::vector<Transaction>& out) {
  for (uint32_t first = 0; first < 32; first += spec.subwarp_size)
    emit_units(a, first, spec.subwarp_size, 32, UnitSize::Whole, a.kind == AccessKind::Atomic, out);
}

// Teaching mode: one transaction per distinct aligned segment a sub-warp touches.
void coalesce_segments(const CoalescerSpec& spec, const WarpMemAccess& a, std::vector<Transaction>& out) {
  for (uint32_t first = 0; first < 32; first += spec.subwarp_size)
    emit_units(a, first, spec.subwarp_size, spec.segment_bytes, UnitSize::Whole,
               a.kind == AccessKind::Atomic, out);
}

}  // namespace warpsim::mem::detail
