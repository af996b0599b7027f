// Which SMs a launch's first pass of blocks goes to, in order (the timed dispatcher gives
// each SM with a free slot one block per pass, walking this list; a functional run places
// block b on entry b mod SMs).
//
// Without GPCs (DeviceSpec::sm_fill_order empty) it is empty, which LaunchContext and
// MemoryCounter read as SM 0, 1, 2, ... With GPCs, as measured on the H200
// (tools/calibration/block_placement.sh, docs/memory-hierarchy.md "GPCs"): a grid of at
// least one block per SM fills GPC by GPC (sm_fill_order). A smaller grid first takes the
// first gpc_small_grid_lead_sms SMs of sm_fill_order, one block each; the rest is dealt
// over the GPCs one block per TPC (gpc_tpc_sms consecutive SMs of a GPC's list), a round
// at a time in GPC order, a GPC whose TPCs are all taken skipped, and only when every GPC's
// TPCs hold a block do their second SMs take blocks the same way. The blocks are numbered
// GPC by GPC (49 blocks: 8 on SMs 124-131, then 4, 6, 6, 5, 5, 5, 5, 5 on GPCs 0-7, as on
// the GPU); the SMs left out of that pass follow, GPC by GPC.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/spec/device_spec.hpp"

namespace warpsim {

std::vector<uint32_t> first_pass_order(const DeviceSpec& spec, uint64_t grid_blocks);

}  // namespace warpsim
