// Device queries answered from the simulated device's config, and the cache preference.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime {

namespace {

int as_int(uint64_t v) { return static_cast<int>(std::min<uint64_t>(v, INT32_MAX)); }

// cudaDeviceAttr values that are yes/no capabilities (driver_types.h): 84-91 (but 87, the
// single-to-double precision rate, a number device_attribute takes from the config), 95, 96,
// 98-101, 112-121, 125, 126, 130-147 (multi-GPU board, host-native atomics, pageable and
// managed access, preemption, cooperative and multi-device launch, remote flushes, host
// registration, sparse arrays, semaphores, memory pools, RDMA, clusters, IPC events, NUMA,
// MPS, ...), and the driver API's 103-105, 107 and 110 (IPC handle types, compressible
// memory, RDMA with virtual memory management: cuda.h): 0 for those warpsim does not have
// (device_attribute answers the others, 125 and the pools among them, before asking this).
bool is_capability_flag(int attr) {
  return (attr >= 84 && attr <= 91 && attr != 87) || attr == 95 || attr == 96 || (attr >= 98 && attr <= 105) ||
         attr == 107 || attr == 110 ||
         (attr >= 112 && attr <= 121) || attr == 125 || attr == 126 || (attr >= 130 && attr <= 147);
}

// Constant memory is 64 KB on every CUDA device (Programming Guide, Table "Technical
// Specifications per Compute Capability").
constexpr int kConstantMemory = 64 * 1024;
// Shared memory per block without the opt-in (PG, "Technical Specifications per Compute
// Capability": 48 KB on every compute capability from 2.x on).
constexpr uint32_t kSharedPerBlockDefault = 48 * 1024;

// The largest textures per compute capability (Programming Guide, "Technical Specifications
// per Compute Capability": maximum widths, heights, depths and layers of 1D, 2D, 3D and
// layered textures; deviceQuery prints them): the same on every device of a capability.
struct TextureLimits {
  int tex1d, tex2d[2], tex3d[3], tex1d_layered[2], tex2d_layered[3];
};
TextureLimits texture_limits(int cc_major) {
  if (cc_major <= 1) return {8192, {65536, 32768}, {2048, 2048, 2048}, {8192, 512}, {8192, 8192, 512}};
  if (cc_major == 2) return {65536, {65536, 65535}, {2048, 2048, 2048}, {16384, 2048}, {16384, 16384, 2048}};
  if (cc_major <= 4) return {65536, {65536, 65536}, {4096, 4096, 4096}, {16384, 2048}, {16384, 16384, 2048}};
  return {131072, {131072, 65536}, {16384, 16384, 16384}, {32768, 2048}, {32768, 32768, 2048}};
}
// Surfaces, textures and texture pitches are aligned to 512 bytes on every device CUDA runs.
constexpr int kSurfaceAlignment = 512;
// The largest cudaDeviceAttr of CUDA 13 (an H100 answers cudaErrorInvalidValue past it).
constexpr int kLastAttribute = 147;

// The other texture and surface limits (gather, alternate 3D, cubemap, surface, linear and
// mipmapped sizes) as an H100 (cc 9.0) reports them (docs/measurements/
// h100_device_attributes.tsv, tools/runtime/device_attributes.cu), by cudaDeviceAttr. They
// are given for cc 9.x only; other devices answer cudaErrorNotSupported for them.
constexpr std::pair<int, int> kHopperTextureLimits[] = {
    {45, 32768},     {46, 32768},     {47, 8192},  {48, 8192},  {49, 32768},  {52, 32768},  {53, 32768},
    {54, 2046},      {55, 32768},     {56, 131072}, {57, 65536}, {58, 16384},  {59, 16384},  {60, 16384},
    {61, 32768},     {62, 2048},      {63, 32768}, {64, 32768}, {65, 2048},   {66, 32768},  {67, 32768},
    {68, 2046},      {69, 268435456}, {70, 131072}, {71, 65000}, {72, 2097120}, {73, 32768}, {74, 32768},
    {77, 32768}};

// CUDA's stream priorities (cudaDeviceGetStreamPriorityRange): {least, greatest}. An H200
// (cc 9.0, driver 580) reports 0 and -5 (tests/750_runtime/programs/stream_properties.expected);
// devices before cc 3.5 have none (CUDA Programming Guide, "Stream Priorities") and report 0
// and 0. Capabilities between are given Hopper's range, not measured here.
std::pair<int, int> priority_range(int cc_major, int cc_minor) {
  if (cc_major < 3 || (cc_major == 3 && cc_minor < 5)) return {0, 0};
  return {0, -5};
}

}  // namespace

std::pair<int, int> Runtime::stream_priority_range() const {
  return priority_range(spec().cc_major(), spec().cc_minor());
}

void Runtime::device_properties(cuda::DeviceProp* p) const {
  if (!p) throw ApiError(cuda::ErrorInvalidValue, "cudaGetDeviceProperties: prop is NULL");
  const DeviceSpec& s = spec();
  std::memset(p, 0, sizeof(*p));
  std::string name = fmt::format("{} (warpsim)", s.name);
  std::strncpy(p->name, name.c_str(), sizeof(p->name) - 1);
  p->totalGlobalMem = device_->memory_capacity();
  p->sharedMemPerBlock = shared_per_block_limit(false);
  p->regsPerBlock = as_int(s.sm.registers);
  p->warpSize = as_int(s.sm.warp_size);
  p->memPitch = INT32_MAX;
  p->maxThreadsPerBlock = as_int(s.sm.max_threads_per_block);
  for (int i = 0; i < 3; ++i) {
    p->maxThreadsDim[i] = as_int(s.sm.max_block_dim[i]);
    p->maxGridSize[i] = as_int(s.sm.max_grid_dim[i]);
  }
  p->totalConstMem = kConstantMemory;
  p->major = s.cc_major();
  p->minor = s.cc_minor();
  p->textureAlignment = 512;
  const TextureLimits t = texture_limits(s.cc_major());
  p->maxTexture1D = t.tex1d;
  for (int i = 0; i < 2; ++i) p->maxTexture2D[i] = t.tex2d[i];
  for (int i = 0; i < 3; ++i) p->maxTexture3D[i] = t.tex3d[i];
  for (int i = 0; i < 2; ++i) p->maxTexture1DLayered[i] = t.tex1d_layered[i];
  for (int i = 0; i < 3; ++i) p->maxTexture2DLayered[i] = t.tex2d_layered[i];
  p->surfaceAlignment = kSurfaceAlignment;
  p->texturePitchAlignment = 32;
  p->multiProcessorCount = as_int(s.sm.count);
  p->canMapHostMemory = 1;  // pinned host memory is mapped for kernels (runtime_memory.cpp)
  p->concurrentKernels = 0;
  p->asyncEngineCount = 0;
  p->unifiedAddressing = 1;
  p->ipcEventSupported = 1;  // runtime_ipc.cpp
  if (s.has_dram)
    p->memoryBusWidth = as_int(uint64_t(s.dram.channels) * s.dram.channel_bytes_per_transfer() * 8);
  p->l2CacheSize = s.has_l2 ? as_int(s.l2.total_bytes) : 0;
  p->persistingL2CacheMaxSize = s.has_l2 ? as_int(s.l2.persisting_max_bytes) : 0;
  p->accessPolicyMaxWindowSize = s.has_l2 ? as_int(s.l2.access_policy_max_window_bytes) : 0;
  p->maxThreadsPerMultiProcessor = as_int(s.sm.max_threads);
  p->globalL1CacheSupported = s.has_l1;
  p->localL1CacheSupported = s.has_l1;
  p->sharedMemPerMultiprocessor = s.sm.shared_memory;
  p->regsPerMultiprocessor = as_int(s.sm.registers);
  p->streamPrioritiesSupported = stream_priority_range().second != 0;
  p->managedMemory = 1;
  p->cooperativeLaunch = 1;
  p->clusterLaunch = s.has_clusters();  // thread block clusters (cc 9.0)
  p->canUseHostPointerForRegisteredMem = 1;
  p->hostRegisterSupported = 1;
  p->sharedMemPerBlockOptin = shared_per_block_limit(true);
  p->maxBlocksPerMultiProcessor = as_int(s.sm.max_blocks);
  p->reservedSharedMemPerBlock = s.sm.shared_reserved_per_block;
  p->pciBusID = 0;
  p->deviceNumaId = -1;
  p->hostNumaId = -1;
}

int Runtime::device_attribute(int attr) const {
  const DeviceSpec& s = spec();
  cuda::DeviceProp p;
  device_properties(&p);
  switch (attr) {
    case cuda::AttrMaxThreadsPerBlock: return p.maxThreadsPerBlock;
    case cuda::AttrMaxBlockDimX: return p.maxThreadsDim[0];
    case cuda::AttrMaxBlockDimY: return p.maxThreadsDim[1];
    case cuda::AttrMaxBlockDimZ: return p.maxThreadsDim[2];
    case cuda::AttrMaxGridDimX: return p.maxGridSize[0];
    case cuda::AttrMaxGridDimY: return p.maxGridSize[1];
    case cuda::AttrMaxGridDimZ: return p.maxGridSize[2];
    case cuda::AttrMaxSharedMemoryPerBlock: return as_int(p.sharedMemPerBlock);
    case cuda::AttrTotalConstantMemory: return as_int(p.totalConstMem);
    case cuda::AttrWarpSize: return p.warpSize;
    case cuda::AttrMaxPitch: return as_int(p.memPitch);
    case cuda::AttrMaxRegistersPerBlock: return p.regsPerBlock;
    case cuda::AttrClockRate: return static_cast<int>(s.clock_mhz * 1000);  // kHz
    case cuda::AttrTextureAlignment: return as_int(p.textureAlignment);
    case cuda::AttrGpuOverlap: return 0;
    case 21: return p.maxTexture1D;  // cudaDevAttrMaxTexture1DWidth
    case 22: return p.maxTexture2D[0];
    case 23: return p.maxTexture2D[1];
    case 24: return p.maxTexture3D[0];
    case 25: return p.maxTexture3D[1];
    case 26: return p.maxTexture3D[2];
    case 27: return p.maxTexture2DLayered[0];
    case 28: return p.maxTexture2DLayered[1];
    case 29: return p.maxTexture2DLayered[2];
    case 30: return as_int(p.surfaceAlignment);  // cudaDevAttrSurfaceAlignment
    case 42: return p.maxTexture1DLayered[0];    // cudaDevAttrMaxTexture1DLayeredWidth
    case 43: return p.maxTexture1DLayered[1];
    case 51: return as_int(p.texturePitchAlignment);  // cudaDevAttrTexturePitchAlignment
    case 78: return p.streamPrioritiesSupported;      // cudaDevAttrStreamPrioritiesSupported
    case 79: return p.globalL1CacheSupported;         // cudaDevAttrGlobalL1CacheSupported
    case 80: return p.localL1CacheSupported;
    case 131: return p.deviceNumaId;                  // cudaDevAttrNumaId: -1, not a NUMA node
    case cuda::AttrMultiProcessorCount: return p.multiProcessorCount;
    case cuda::AttrKernelExecTimeout: return 0;
    case cuda::AttrIntegrated: return 0;
    case cuda::AttrCanMapHostMemory: return p.canMapHostMemory;
    case cuda::AttrComputeMode: return 0;
    case cuda::AttrConcurrentKernels: return p.concurrentKernels;
    case cuda::AttrEccEnabled: return 0;
    case cuda::AttrPciBusId: case cuda::AttrPciDeviceId: case cuda::AttrPciDomainId: return 0;
    case cuda::AttrTccDriver: return 0;
    case cuda::AttrMemoryClockRate:  // kHz of the data rate's clock, as CUDA reports it
      return s.has_dram ? static_cast<int>(s.dram.command_clock_mhz * 1000 * s.dram.transfers_per_clock / 2) : 0;
    case cuda::AttrGlobalMemoryBusWidth: return p.memoryBusWidth;
    case cuda::AttrL2CacheSize: return p.l2CacheSize;
    case cuda::AttrMaxThreadsPerMultiProcessor: return p.maxThreadsPerMultiProcessor;
    case cuda::AttrAsyncEngineCount: return p.asyncEngineCount;
    case cuda::AttrUnifiedAddressing: return p.unifiedAddressing;
    case cuda::AttrComputeCapabilityMajor: return p.major;
    case cuda::AttrComputeCapabilityMinor: return p.minor;
    case cuda::AttrMaxSharedMemoryPerMultiprocessor: return as_int(p.sharedMemPerMultiprocessor);
    case cuda::AttrMaxRegistersPerMultiprocessor: return p.regsPerMultiprocessor;
    case cuda::AttrManagedMemory: return p.managedMemory;
    case cuda::AttrCanUseHostPointerForRegisteredMem: return p.canUseHostPointerForRegisteredMem;
    case cuda::AttrHostRegisterSupported: return p.hostRegisterSupported;
    case cuda::AttrConcurrentManagedAccess: return 0;
    case cuda::AttrCooperativeLaunch: return 1;  // cudaLaunchCooperativeKernel (runtime_launch.cpp)
    case cuda::AttrMaxSharedMemoryPerBlockOptin: return as_int(p.sharedMemPerBlockOptin);
    case cuda::AttrMaxBlocksPerMultiprocessor: return p.maxBlocksPerMultiProcessor;
    case cuda::AttrMaxPersistingL2CacheSize: return p.persistingL2CacheMaxSize;
    case cuda::AttrMaxAccessPolicyWindowSize: return p.accessPolicyMaxWindowSize;
    case cuda::AttrReservedSharedMemoryPerBlock: return as_int(p.reservedSharedMemPerBlock);
    case cuda::AttrMemoryPoolsSupported: return 1;            // runtime_pools.cpp
    case cuda::AttrVirtualMemoryManagementSupported: return 1;  // driver/drv_vmm.cpp
    case cuda::AttrMemoryPoolSupportedHandleTypes: return 1;  // POSIX descriptors (runtime_ipc_pools.cpp)
    case 120: return p.clusterLaunch;  // cudaDevAttrClusterLaunch
    case 125: return 1;  // cudaDevAttrIpcEventSupport: interprocess events (runtime_ipc.cpp)
    case 103: return 1;  // the driver's POSIX-descriptor handles for cuMemCreate (runtime_ipc_vmm.cpp)
    case 87:  // cudaDevAttrSingleToDoublePrecisionPerfRatio: FP32 lanes per FP64 unit, which
              // is what an H100 reports (128 / 64 = 2, h100_device_attributes.tsv)
      if (s.sm.dp_units != 0) return as_int((s.sm.cores + s.sm.dp_units / 2) / s.sm.dp_units);
      throw ApiError(cuda::ErrorNotSupported,
                     "cudaDeviceGetAttribute: attribute 87 (FP32 to FP64 rate): the device has no FP64 units");
    default:
      if (attr < 1 || attr > kLastAttribute)  // not a cudaDeviceAttr at all, as the H100 answers
        throw ApiError(cuda::ErrorInvalidValue,
                       fmt::format("cudaDeviceGetAttribute: {} is not a cudaDeviceAttr", attr));
      if (s.cc_major() == 9)
        for (const auto& [a, value] : kHopperTextureLimits)
          if (a == attr) return value;
      // Capability flags of features the simulated device does not have (memory pools,
      // host-native atomics, pageable access, timeline semaphores, NUMA, MPS, ...): 0,
      // which is the true answer. Any other attribute is a quantity warpsim does not model.
      if (is_capability_flag(attr)) return 0;
      throw ApiError(cuda::ErrorNotSupported,
                     fmt::format("cudaDeviceGetAttribute: attribute {} is not modelled by warpsim", attr));
  }
}

void check_device(int device, const char* call) {
  if (device != 0)
    throw ApiError(cuda::ErrorInvalidDevice,
                   fmt::format("{}: device {} does not exist (warpsim simulates one device, 0)", call, device));
}

void Runtime::set_cache_config(const void* host_fn, int config) {
  if (config < cuda::PreferNone || config > cuda::PreferEqual)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("cache config {} is not a cudaFuncCache value", config));
  if (host_fn) {
    KernelEntry* e = find_entry(host_fn);
    if (!e)
      throw ApiError(cuda::ErrorInvalidDeviceFunction, "cudaFuncSetCacheConfig: not a registered __global__ function");
    e->cache_config = config;
  } else {
    device_cache_config_ = config;
  }
  // Each launch passes the preferences to the device, whose "carveout" rules choose its split.
}

uint32_t Runtime::shared_per_block_limit(bool optin) const {
  // cc 1.x counts its reserved bytes (the kernel parameters) inside the 16 KB per block;
  // later devices reserve theirs (1 KB on cc 8.x/9.x) beside the opt-in maximum.
  const SmSpec& sm = spec().sm;
  const uint32_t largest =
      spec().cc_major() >= 2 ? sm.max_shared_per_block - std::min(sm.max_shared_per_block, sm.shared_reserved_per_block)
                             : sm.max_shared_per_block;
  // "Kernels relying on shared memory allocations over 48 KB per block ... require an
  // explicit opt-in" (PG, shared memory, cc 7.x and later); measured: 49,152 / 232,448 on
  // the H100 (docs/measurements/h100_shared_limits.txt).
  return optin ? largest : std::min<uint32_t>(largest, kSharedPerBlockDefault);
}

void Runtime::set_limit(int limit, uint64_t value, const char* call) {
  switch (limit) {
    case 0: set_stack_bytes(value); break;  // cudaLimitStackSize
    case 2:                                 // cudaLimitMallocHeapSize, as an H200 answers
      if (!device_->set_heap_limit(value))
        throw ApiError(cuda::ErrorInvalidValue,
                       fmt::format("{}(cudaLimitMallocHeapSize): a kernel has already allocated from the heap", call));
      break;
    // The L2 set aside for persisting lines, up to the device's persistingL2CacheMaxSize.
    case cuda::LimitPersistingL2CacheSize: set_persisting_l2_bytes(value); break;
    case cuda::LimitDevRuntimePendingLaunchCount: pending_launch_limit_ = value; break;
    case 1: case 5: break;  // cudaLimitPrintfFifoSize, cudaLimitMaxL2FetchGranularity: accepted, not modelled
    default:  // cudaLimitDevRuntimeSyncDepth (3) included, as an H200 answers
      throw ApiError(cuda::ErrorUnsupportedLimit, fmt::format("{}: limit {} is not supported", call, limit));
  }
}

uint64_t Runtime::limit(int limit) const {
  switch (limit) {
    case 0: return stack_bytes();
    case 1: return 1 << 20;  // cudaLimitPrintfFifoSize: CUDA's default
    case 2: return device_->heap_limit();
    case cuda::LimitPersistingL2CacheSize: return persisting_l2_bytes();
    case cuda::LimitDevRuntimePendingLaunchCount: return pending_launch_limit_;
    case 5: return 0;  // cudaLimitMaxL2FetchGranularity: not modelled
    default:
      // cudaLimitDevRuntimeSyncDepth (3) is gone with CDP2: an H200 refuses it on the host and in
      // kernels alike (tests/750_runtime/programs/device_queries.expected).
      throw ApiError(cuda::ErrorUnsupportedLimit, fmt::format("cudaDeviceGetLimit: limit {} is not supported", limit));
  }
}

}  // namespace warpsim::runtime
