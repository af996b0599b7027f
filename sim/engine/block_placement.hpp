// Which SMs a launch's first pass of blocks goes to, in order (the timed dispatcher gives
// each SM with a free slot one block per pass, walking this list; a functional run places
// block b on entry b mod SMs).
//
// Without GPCs (DeviceSpec::sm_fill_order empty) it is empty, which LaunchContext and
// MemoryCounter read as SM 0, 1, 2, ... With GPCs, measured on
// the H200 (tools/calibration/block_placement.sh, docs/memory-hierarchy.md "GPCs"): a grid
// of at least one block per SM fills GPC by GPC (sm_fill_order); a smaller grid is spread
// over the GPCs in proportion to their sizes (49 blocks put 5 or 6 on each GPC), each
// GPC's share on its first SMs in fill order, the GPCs in fill order; the SMs left out of
// that pass follow, GPC by GPC.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/spec/device_spec.hpp"

namespace warpsim {

std::vector<uint32_t> first_pass_order(const DeviceSpec& spec, uint64_t grid_blocks);

}  // namespace warpsim
