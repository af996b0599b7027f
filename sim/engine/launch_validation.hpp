// The checks CUDA applies before a kernel starts, with CUDA's wording where it has one:
// "invalid configuration argument" for impossible dimensions, "too many resources
// requested for launch" for per-block resource excesses (naming the resource).
#pragma once
#include <cstdint>
#include <optional>

#include "sim/spec/device_spec.hpp"
#include "sim/foundation/dim3.hpp"
#include "sim/foundation/launch_stats.hpp"
#include "sim/isa/ir.hpp"

namespace warpsim {

void validate_launch(const DeviceSpec& spec, const isa::Kernel& kernel, Dim3 grid, Dim3 block,
                     uint32_t dynamic_shared_bytes);

// Occupancy of this launch: registers from `registers_per_thread` or, when 0, the
// loader's estimate; shared memory = static + dynamic + the device's reserved bytes.
OccupancyStats launch_occupancy(const DeviceSpec& spec, const isa::Kernel& kernel, Dim3 block,
                                uint32_t dynamic_shared_bytes, uint32_t registers_per_thread);

// The SM's shared-memory capacity this launch gets from the device's L1/shared split
// (sm/carveout.hpp), with the registers and shared bytes launch_occupancy() counts.
uint32_t launch_shared_capacity(const DeviceSpec& spec, const isa::Kernel& kernel, Dim3 block,
                                uint32_t dynamic_shared_bytes, uint32_t registers_per_thread,
                                const sm::SharedPreference& preference);

// The cluster shape of a launch: `given` (the launch's, or nullopt) or else the kernel's
// __cluster_dims__; nullopt for a launch without clusters. Throws LaunchError "invalid
// cluster size: ..." where CUDA refuses it with cudaErrorInvalidClusterSize (a zero or
// too large shape, one that does not divide the grid or differs from the kernel's, a
// kernel that must be launched in clusters without one, a device without clusters).
std::optional<Dim3> launch_cluster_shape(const DeviceSpec& spec, const isa::Kernel& kernel, Dim3 grid,
                                         std::optional<Dim3> given, bool non_portable);
// Whether the kernel has an instruction of thread block clusters (barrier.cluster, mapa,
// getctarank): then even a launch without clusters runs each block as a cluster of one.
bool uses_cluster_instructions(const isa::Kernel& kernel);

}  // namespace warpsim
