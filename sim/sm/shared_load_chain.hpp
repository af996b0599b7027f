// Which full-warp ld.shared.u32 from a base register may trust an earlier load's check of
// that register: in a tiled kernel's unrolled inner loop, sixteen loads in a row read one
// base register (at offsets 0, 64, 128, ...) that nothing between them writes, so once the
// first has found its lanes at its plan's offsets, the rest need only lane 0's address.
// The analysis is static (once per kernel); WarpExecutor::run_plain pairs it with the
// run-time fact that the earlier load was checked in the same straight-line run.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/isa/ir.hpp"

namespace warpsim::sm {

constexpr uint32_t kNoChainLoad = UINT32_MAX;

// The loads shared_load_repeat takes: ld.shared of one 4-byte unsigned element from a base
// register into a register (what a tiled kernel's ld.shared.f32/u32/b32 are).
bool is_u32_shared_load(const isa::Instr& in);

// Per pc (sized with the code): for such a load, the nearest earlier such load from the same
// base register, at most kMaxChainGap instructions back, with neither that load nor any
// instruction between writing the register; kNoChainLoad otherwise and for every other pc.
// The instructions between are only looked at, not followed: the caller must know that the
// earlier one ran and then every instruction up to this one in order. One pass over the
// code (nothing at all for a kernel without such loads).
constexpr uint32_t kMaxChainGap = 64;
std::vector<uint32_t> same_base_predecessors(const isa::Kernel& k);

}  // namespace warpsim::sm
