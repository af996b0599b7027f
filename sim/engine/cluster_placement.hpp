// Where the clusters of a launch in thread block clusters may run (spec.clusters): every
// block of a cluster on its own SM, all in one GPC, and clusters larger than a TPC not on
// the pair-only SMs. Used by the timed dispatcher and by cudaOccupancyMaxActiveClusters.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/spec/device_spec.hpp"

namespace warpsim {

// The SM groups a cluster of `size` blocks may use, each in its GPC's fill order: the GPCs
// (all SMs as one group on a device without them), less the pair-only SMs when `size`
// exceeds a TPC.
std::vector<std::vector<uint32_t>> cluster_groups(const DeviceSpec& spec, uint32_t size);

// Clusters of `size` blocks resident at once with `blocks_per_sm` blocks per SM: over the
// groups, floor(SMs x blocks_per_sm / size) for each group of at least `size` SMs.
uint64_t max_active_clusters(const DeviceSpec& spec, uint32_t size, uint32_t blocks_per_sm);

}  // namespace warpsim
