// Dynamic parallelism (CUDA's device runtime, CDP2): what a grid asks the device runtime to
// do (kernel launches, stream copies and sets) and how its launches are checked when they
// are made. The work runs after the grid that asked for it (the runtime runs it: the
// simulator runs one grid at a time); each block's work keeps the order the block made it,
// so work in one stream runs in stream order. docs/ptx-programs.md, "Dynamic parallelism".
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/foundation/dim3.hpp"
#include "sim/isa/ir.hpp"

namespace warpsim::sm {

// CUDA's named device streams (cuda_device_runtime_api.h): a tail launch runs after the
// launching grid and all its other work; fire-and-forget work runs on its own.
inline constexpr uint64_t kTailLaunchStream = 3;
inline constexpr uint64_t kFireAndForgetStream = 4;

struct DeviceWork {
  enum class Kind : uint8_t { Launch, Memcpy, Memset };
  Kind kind = Kind::Launch;
  uint32_t block = 0;   // linear index of the block that asked
  uint32_t seq = 0;     // the block's device-runtime calls before it (a block's work in its order)
  uint32_t thread = 0;  // the asking thread's index in its block
  uint64_t stream = 0;  // 0: the block's NULL stream; kTailLaunchStream, kFireAndForgetStream, or a created one
  std::string origin;   // "kernel K, block (x,y,z), thread (x,y,z)" (messages)
  // Launch: a kernel of the asking kernel's module, its configuration and parameter bytes.
  const isa::Kernel* kernel = nullptr;
  Dim3 grid, block_dim;
  uint32_t shared = 0;
  std::vector<uint8_t> params;
  // Memcpy (src -> dst) and Memset (value): `bytes` of device memory, or for the 2D and 3D
  // calls `bytes` in each of `rows` rows of each of `slices` slices, the rows `*_pitch`
  // apart and the slices `*_slice` apart.
  uint64_t dst = 0, src = 0, bytes = 0;
  uint64_t rows = 1, slices = 1;
  uint64_t dst_pitch = 0, src_pitch = 0, dst_slice = 0, src_slice = 0;
  uint8_t value = 0;
  const char* call = "";  // cudaMemcpyAsync, cudaMemset2DAsync, ... (messages)
};

// What kernels may ask the device runtime about (cudaDeviceGetAttribute, cudaDeviceGetLimit,
// cudaDeviceGetCacheConfig, cudaFuncGetAttributes and the occupancy calls in device code),
// answered as the host's runtime answers the same questions. Each returns a CUDA error code
// (0: the value was set). Unset: the call returns cudaErrorNotSupported.
struct DeviceQueries {
  std::function<uint32_t(int attr, int32_t* value)> attribute;
  std::function<uint32_t(int limit, uint64_t* value)> limit;
  // CUDA's struct cudaFuncAttributes of kernel `k`, as bytes.
  std::function<uint32_t(const isa::Kernel& k, std::vector<uint8_t>* bytes)> func_attributes;
  std::function<uint32_t(const isa::Kernel& k, int block_size, uint64_t dynamic_shared, int32_t* blocks)> occupancy;
  int32_t cache_config = 0;  // cudaDeviceGetCacheConfig's value
};

// What the executor needs from whoever runs a grid's device work, and the grid's device-
// runtime state.
struct DeviceLaunchSupport {
  bool runs_work = false;  // false: nobody runs the grid's work, and asking for any faults
  // Device-launched grids not complete when this grid started (a grid is complete when its
  // children are), and CUDA's limit on them (cudaLimitDevRuntimePendingLaunchCount, 2048 by
  // default): a launch past it fails with cudaErrorLaunchPendingCountExceeded. An H200 runs
  // a chain of 2048 nested grids and refuses the 2049th (dynamic_parallelism.expected).
  uint64_t pending = 0;
  uint64_t pending_limit = 2048;
  // "" when CUDA takes a launch of `k` with this configuration, else why not, in CUDA's
  // wording ("invalid configuration argument ...", "too many resources requested ...").
  std::function<std::string(const isa::Kernel& k, Dim3 grid, Dim3 block, uint32_t shared)> check;
  // cudaGetErrorString (name false) and cudaGetErrorName (true) of a code.
  std::function<std::string(uint32_t code, bool name)> error_text;
  int runtime_version = 0;  // cudaRuntimeGetVersion's value in a kernel
  DeviceQueries queries;

  // The grid's device-runtime state, one for all its SMs and host threads (the calls issue
  // while no other SM ticks, sm_phase.cpp, and their kernels' blocks run in order,
  // functional_parallel.hpp, so it is used in one order whatever the thread count).
  struct PendingLaunch {
    const isa::Kernel* kernel = nullptr;
    Dim3 grid, block;
    uint32_t shared = 0;
  };
  std::map<uint64_t, PendingLaunch> param_buffers;    // handed out, not yet launched
  std::vector<DeviceWork> work;                       // asked for so far
  std::unordered_map<uint64_t, uint32_t> last_errors;  // (block << 32 | thread) -> code, nonzero only
  std::map<std::string, uint64_t> strings;            // error strings placed in device memory
  uint64_t handles = 0;                               // stream and event handles made
  uint64_t launched = 0;                              // launches made (counted against pending_limit)
};

// The order a grid's work runs in: each block's in the order it was made, blocks in
// index order; tail launches after all the rest.
void order_device_work(std::vector<DeviceWork>& work);

}  // namespace warpsim::sm
