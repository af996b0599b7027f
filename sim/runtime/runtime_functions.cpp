// Queries and settings of one kernel that neither launch it nor change how it runs: its name,
// its parameters' offsets and sizes, the shared-memory bank size, and the dynamic shared
// memory left to a block at a chosen occupancy. Each answer and error is an H200's (tests/750_runtime/programs/
// memory_3d_and_queries.expected).
#include <fmt/format.h>

#include <algorithm>

#include "sim/foundation/error.hpp"
#include "sim/runtime/runtime.hpp"
#include "sim/sm/carveout.hpp"
#include "sim/sm/occupancy.hpp"

namespace warpsim::runtime {

namespace {
// cudaSharedMemConfig
constexpr int kBankSizeDefault = 0, kBankSizeFourByte = 1, kBankSizeEightByte = 2;
}  // namespace

uint64_t Runtime::available_dynamic_shared(const void* host_fn, int blocks, int block_size) {
  const char* call = "cudaOccupancyAvailableDynamicSMemPerBlock";
  const isa::Kernel& k = kernel_for(host_fn, call);
  SmSpec sm = spec().sm;
  if (block_size <= 0 || uint32_t(block_size) > sm.max_threads_per_block)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: block size {}", call, block_size));
  if (blocks <= 0) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} blocks", call, blocks));
  const KernelEntry& e = entry(host_fn);
  // The blocks an SM holds by threads, warps, registers and its block limit.
  const uint32_t regs = std::min(k.estimated_registers, sm.max_registers_per_thread);
  uint32_t fit = 0;
  try {
    fit = sm::compute_occupancy(sm, uint32_t(block_size), regs, 0).blocks_per_sm;
  } catch (const LaunchError&) {
    fit = 0;
  }
  if (uint32_t(blocks) > fit)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} blocks of {} threads do not fit on one SM ({} do)",
                                                        call, blocks, block_size, fit));
  // Measured: the SM's shared memory shared evenly, in allocation units, with no reserved
  // bytes taken off (8 blocks: 233,472 / 8 = 29,184 on an H200), and at most the per-block
  // limit (48 KB, or the kernel's opt-in); the kernel's static bytes come out of it.
  const uint32_t static_block = sm::block_shared_bytes(sm, k.static_shared_bytes, 0);
  const uint64_t capacity = sm::occupancy_api_shared_capacity(sm, spec().carveout, static_block, shared_preference(e));
  const uint64_t unit = std::max<uint32_t>(sm.shared_allocation_unit, 1);
  const uint64_t share = capacity / uint64_t(blocks) / unit * unit;
  const uint64_t limit = e.max_dynamic_shared >= 0 ? k.static_shared_bytes + uint64_t(e.max_dynamic_shared)
                                                   : shared_per_block_limit(false);
  const uint64_t total = std::min(share, limit);
  return total > k.static_shared_bytes ? total - k.static_shared_bytes : 0;
}

const char* Runtime::function_name(const void* host_fn) {
  if (!is_kernel(host_fn))  // CUDA's code for a pointer that is no kernel
    throw ApiError(cuda::ErrorInvalidResourceHandle,
                   fmt::format("cudaFuncGetName: {} is not a registered __global__ function", host_fn));
  return kernel_for(host_fn, "cudaFuncGetName").name.c_str();
}

std::pair<uint64_t, uint64_t> Runtime::param_info(const void* host_fn, uint64_t index, const char* call) {
  if (!is_kernel(host_fn))  // CUDA's code for a pointer that is no kernel
    throw ApiError(cuda::ErrorInvalidResourceHandle,
                   fmt::format("{}: {} is not a registered __global__ function", call, host_fn));
  const isa::Kernel& k = kernel_for(host_fn, call);
  if (index >= k.params.size())
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: parameter index {}, but {} has {}",
                                                        call, index, k.name, k.params.size()));
  return {k.params[index].offset, k.params[index].size};
}

int Runtime::shared_mem_config() const {
  return spec().shared.bank_width >= 8 ? kBankSizeEightByte : kBankSizeFourByte;
}

void Runtime::set_shared_mem_config(const void* host_fn, int config, const char* call) {
  if (config < kBankSizeDefault || config > kBankSizeEightByte)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} is not a cudaSharedMemConfig", call, config));
  if (host_fn) kernel_for(host_fn, call);  // a kernel, or cudaErrorInvalidDeviceFunction
  // The bank width is the device's (the config's "shared" section): nothing to change.
}

}  // namespace warpsim::runtime
