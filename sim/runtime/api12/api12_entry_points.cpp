// The entry points of libcudart.so.12 whose CUDA 12 form differs from CUDA 13's: a longer
// cudaDeviceProp, shorter cudaPointerAttributes and cudaResourceDesc, graph and capture
// calls without edge data, and the suffixed names CUDA 12's headers map calls to
// (cuda_runtime_api.h 12.8: cudaGetDeviceProperties -> _v2, cudaStreamGetCaptureInfo -> _v2).
// Everything else is api/'s code, built a second time (process_context.hpp,
// WARPSIM_ABI_NAME). Each converts and calls what the CUDA 13 entry point calls.
#include <fmt/format.h>

#include <cstring>

#include "sim/runtime/cuda_abi12.hpp"
#include "sim/runtime/driver/handle_owners.hpp"
#include "sim/runtime/driver/process_context.hpp"

using namespace warpsim::runtime;
using warpsim::runtime::api::call;
using warpsim::runtime::api::ordered_call;
namespace cuda = warpsim::cuda;
namespace cuda12 = warpsim::cuda12;

// api/'s CUDA 13 forms under their CUDA 12 names (api_graph_conditional.cpp).
extern "C" {
int cudaGraphAddNode_v2(void** node, void* graph, void* const* deps, const cuda::GraphEdgeData* edges, size_t ndeps,
                        cuda::GraphNodeParams* params);
int cudaStreamGetCaptureInfo_v3(void* stream, int* status, unsigned long long* id, void** graph,
                                const void* const** deps, const cuda::GraphEdgeData** edges, size_t* ndeps);
int cudaStreamUpdateCaptureDependencies_v2(void* stream, void* const* deps, const cuda::GraphEdgeData* edges,
                                           size_t ndeps, unsigned flags);
int cudaGraphGetEdges_v2(void* graph, void** from, void** to, cuda::GraphEdgeData* data, size_t* count);
int cudaGraphNodeGetDependencies_v2(void* node, void** deps, cuda::GraphEdgeData* data, size_t* count);
int cudaGraphNodeGetDependentNodes_v2(void* node, void** out, cuda::GraphEdgeData* data, size_t* count);
int cudaGraphAddDependencies_v2(void* graph, void* const* from, void* const* to, const cuda::GraphEdgeData* data,
                                size_t n);
int cudaGraphRemoveDependencies_v2(void* graph, void* const* from, void* const* to, const cuda::GraphEdgeData* data,
                                   size_t n);
}

namespace {

// An attribute the simulated device does not model is 0 in the properties (as CUDA 13's
// cudaGetDeviceProperties leaves the fields warpsim does not model).
int attribute_or_zero(const Runtime& rt, int attr) {
  try {
    return rt.device_attribute(attr);
  } catch (const ApiError& e) {
    if (e.code() == cuda::ErrorNotSupported) return 0;
    throw;
  }
}

void device_properties_12(Runtime& rt, cuda12::DeviceProp* out, int device, const char* name) {
  check_device(device, name);
  if (!out) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: prop is NULL", name));
  cuda::DeviceProp p;
  rt.device_properties(&p);
  cuda12::DeviceProp q;
  std::memset(&q, 0, sizeof q);
  // The fields both layouts have, by name.
  std::memcpy(q.name, p.name, sizeof q.name);
  std::memcpy(q.uuid, p.uuid, sizeof q.uuid);
  std::memcpy(q.luid, p.luid, sizeof q.luid);
  q.luidDeviceNodeMask = p.luidDeviceNodeMask;
  q.totalGlobalMem = p.totalGlobalMem;
  q.sharedMemPerBlock = p.sharedMemPerBlock;
  q.regsPerBlock = p.regsPerBlock;
  q.warpSize = p.warpSize;
  q.memPitch = p.memPitch;
  q.maxThreadsPerBlock = p.maxThreadsPerBlock;
  std::memcpy(q.maxThreadsDim, p.maxThreadsDim, sizeof q.maxThreadsDim);
  std::memcpy(q.maxGridSize, p.maxGridSize, sizeof q.maxGridSize);
  q.totalConstMem = p.totalConstMem;
  q.major = p.major;
  q.minor = p.minor;
  q.textureAlignment = p.textureAlignment;
  q.texturePitchAlignment = p.texturePitchAlignment;
  q.multiProcessorCount = p.multiProcessorCount;
  q.integrated = p.integrated;
  q.canMapHostMemory = p.canMapHostMemory;
  q.maxTexture1D = p.maxTexture1D;
  q.maxTexture1DMipmap = p.maxTexture1DMipmap;
  std::memcpy(q.maxTexture2D, p.maxTexture2D, sizeof q.maxTexture2D);
  std::memcpy(q.maxTexture2DMipmap, p.maxTexture2DMipmap, sizeof q.maxTexture2DMipmap);
  std::memcpy(q.maxTexture2DLinear, p.maxTexture2DLinear, sizeof q.maxTexture2DLinear);
  std::memcpy(q.maxTexture2DGather, p.maxTexture2DGather, sizeof q.maxTexture2DGather);
  std::memcpy(q.maxTexture3D, p.maxTexture3D, sizeof q.maxTexture3D);
  std::memcpy(q.maxTexture3DAlt, p.maxTexture3DAlt, sizeof q.maxTexture3DAlt);
  q.maxTextureCubemap = p.maxTextureCubemap;
  std::memcpy(q.maxTexture1DLayered, p.maxTexture1DLayered, sizeof q.maxTexture1DLayered);
  std::memcpy(q.maxTexture2DLayered, p.maxTexture2DLayered, sizeof q.maxTexture2DLayered);
  std::memcpy(q.maxTextureCubemapLayered, p.maxTextureCubemapLayered, sizeof q.maxTextureCubemapLayered);
  q.maxSurface1D = p.maxSurface1D;
  std::memcpy(q.maxSurface2D, p.maxSurface2D, sizeof q.maxSurface2D);
  std::memcpy(q.maxSurface3D, p.maxSurface3D, sizeof q.maxSurface3D);
  std::memcpy(q.maxSurface1DLayered, p.maxSurface1DLayered, sizeof q.maxSurface1DLayered);
  std::memcpy(q.maxSurface2DLayered, p.maxSurface2DLayered, sizeof q.maxSurface2DLayered);
  q.maxSurfaceCubemap = p.maxSurfaceCubemap;
  std::memcpy(q.maxSurfaceCubemapLayered, p.maxSurfaceCubemapLayered, sizeof q.maxSurfaceCubemapLayered);
  q.surfaceAlignment = p.surfaceAlignment;
  q.concurrentKernels = p.concurrentKernels;
  q.ECCEnabled = p.ECCEnabled;
  q.pciBusID = p.pciBusID;
  q.pciDeviceID = p.pciDeviceID;
  q.pciDomainID = p.pciDomainID;
  q.tccDriver = p.tccDriver;
  q.asyncEngineCount = p.asyncEngineCount;
  q.unifiedAddressing = p.unifiedAddressing;
  q.memoryBusWidth = p.memoryBusWidth;
  q.l2CacheSize = p.l2CacheSize;
  q.persistingL2CacheMaxSize = p.persistingL2CacheMaxSize;
  q.maxThreadsPerMultiProcessor = p.maxThreadsPerMultiProcessor;
  q.streamPrioritiesSupported = p.streamPrioritiesSupported;
  q.globalL1CacheSupported = p.globalL1CacheSupported;
  q.localL1CacheSupported = p.localL1CacheSupported;
  q.sharedMemPerMultiprocessor = p.sharedMemPerMultiprocessor;
  q.regsPerMultiprocessor = p.regsPerMultiprocessor;
  q.managedMemory = p.managedMemory;
  q.isMultiGpuBoard = p.isMultiGpuBoard;
  q.multiGpuBoardGroupID = p.multiGpuBoardGroupID;
  q.hostNativeAtomicSupported = p.hostNativeAtomicSupported;
  q.pageableMemoryAccess = p.pageableMemoryAccess;
  q.concurrentManagedAccess = p.concurrentManagedAccess;
  q.computePreemptionSupported = p.computePreemptionSupported;
  q.canUseHostPointerForRegisteredMem = p.canUseHostPointerForRegisteredMem;
  q.cooperativeLaunch = p.cooperativeLaunch;
  q.sharedMemPerBlockOptin = p.sharedMemPerBlockOptin;
  q.pageableMemoryAccessUsesHostPageTables = p.pageableMemoryAccessUsesHostPageTables;
  q.directManagedMemAccessFromHost = p.directManagedMemAccessFromHost;
  q.maxBlocksPerMultiProcessor = p.maxBlocksPerMultiProcessor;
  q.accessPolicyMaxWindowSize = p.accessPolicyMaxWindowSize;
  q.reservedSharedMemPerBlock = p.reservedSharedMemPerBlock;
  q.hostRegisterSupported = p.hostRegisterSupported;
  q.sparseCudaArraySupported = p.sparseCudaArraySupported;
  q.hostRegisterReadOnlySupported = p.hostRegisterReadOnlySupported;
  q.timelineSemaphoreInteropSupported = p.timelineSemaphoreInteropSupported;
  q.memoryPoolsSupported = p.memoryPoolsSupported;
  q.gpuDirectRDMASupported = p.gpuDirectRDMASupported;
  q.gpuDirectRDMAFlushWritesOptions = p.gpuDirectRDMAFlushWritesOptions;
  q.gpuDirectRDMAWritesOrdering = p.gpuDirectRDMAWritesOrdering;
  q.memoryPoolSupportedHandleTypes = p.memoryPoolSupportedHandleTypes;
  q.deferredMappingCudaArraySupported = p.deferredMappingCudaArraySupported;
  q.ipcEventSupported = p.ipcEventSupported;
  q.clusterLaunch = p.clusterLaunch;
  q.unifiedFunctionPointers = p.unifiedFunctionPointers;
  // CUDA 12's own fields, as cudaDeviceGetAttribute answers them (driver_types.h numbers).
  q.clockRate = attribute_or_zero(rt, cuda::AttrClockRate);
  q.deviceOverlap = attribute_or_zero(rt, cuda::AttrGpuOverlap);
  q.kernelExecTimeoutEnabled = attribute_or_zero(rt, cuda::AttrKernelExecTimeout);
  q.computeMode = attribute_or_zero(rt, cuda::AttrComputeMode);
  q.maxTexture1DLinear = attribute_or_zero(rt, 69);  // cudaDevAttrMaxTexture1DLinearWidth
  q.memoryClockRate = attribute_or_zero(rt, cuda::AttrMemoryClockRate);
  q.singleToDoublePrecisionPerfRatio = attribute_or_zero(rt, 87);  // cudaDevAttrSingleToDoublePrecisionPerfRatio
  q.cooperativeMultiDeviceLaunch = attribute_or_zero(rt, 96);      // cudaDevAttrCooperativeMultiDeviceLaunch
  *out = q;
}

}  // namespace

// --- Device properties: CUDA 12's layout ---

WARPSIM_API int cudaGetDeviceProperties_v2(cuda12::DeviceProp* prop, int device) {
  return call(
      "cudaGetDeviceProperties_v2",
      [&](Runtime& rt) { device_properties_12(rt, prop, device, "cudaGetDeviceProperties_v2"); }, api::Sticky::Ignore);
}
// The unsuffixed name, which CUDA 12's headers never call (they map it to _v2), takes the
// same layout.
WARPSIM_API int cudaGetDeviceProperties(cuda12::DeviceProp* prop, int device) {
  return call(
      "cudaGetDeviceProperties",
      [&](Runtime& rt) { device_properties_12(rt, prop, device, "cudaGetDeviceProperties"); }, api::Sticky::Ignore);
}

// --- Pointers and textures: CUDA 12's shorter structs ---

WARPSIM_API int cudaPointerGetAttributes(cuda12::PointerAttributes* attr, const void* ptr) {
  return call("cudaPointerGetAttributes", [&](Runtime& rt) {
    if (!attr) throw ApiError(cuda::ErrorInvalidValue, "cudaPointerGetAttributes: attributes is NULL");
    cuda::PointerAttributes a;
    std::memset(&a, 0, sizeof a);
    rt.pointer_attributes(&a, ptr);
    std::memcpy(attr, &a, sizeof *attr);  // CUDA 13 appended its reserved words
  });
}

WARPSIM_API int cudaCreateTextureObject(unsigned long long* obj, const cuda12::ResourceDesc* res,
                                        const cuda::TextureDesc* tex, const void* view) {
  return call("cudaCreateTextureObject", [&](Runtime& rt) {
    if (!obj) throw ApiError(cuda::ErrorInvalidValue, "cudaCreateTextureObject: pTexObject is NULL");
    if (!res) throw ApiError(cuda::ErrorInvalidValue, "cudaCreateTextureObject: pResDesc is NULL");
    const cuda::ResourceDesc r = cuda12::to_cuda13(*res);
    *obj = rt.create_texture(&r, tex, view);
  });
}
WARPSIM_API int cudaGetTextureObjectResourceDesc(cuda12::ResourceDesc* out, unsigned long long obj) {
  return call("cudaGetTextureObjectResourceDesc", [&](Runtime& rt) {
    cuda::ResourceDesc r;
    rt.texture_resource_desc(out ? &r : nullptr, obj, false);
    *out = cuda12::from_cuda13(r);
  });
}
WARPSIM_API int cudaCreateSurfaceObject(unsigned long long* obj, const cuda12::ResourceDesc* res) {
  return call("cudaCreateSurfaceObject", [&](Runtime& rt) {
    if (!obj) throw ApiError(cuda::ErrorInvalidValue, "cudaCreateSurfaceObject: pSurfObject is NULL");
    if (!res) throw ApiError(cuda::ErrorInvalidValue, "cudaCreateSurfaceObject: pResDesc is NULL");
    const cuda::ResourceDesc r = cuda12::to_cuda13(*res);
    *obj = rt.create_surface(&r);
  });
}
WARPSIM_API int cudaGetSurfaceObjectResourceDesc(cuda12::ResourceDesc* out, unsigned long long obj) {
  return call("cudaGetSurfaceObjectResourceDesc", [&](Runtime& rt) {
    cuda::ResourceDesc r;
    rt.texture_resource_desc(out ? &r : nullptr, obj, true);
    *out = cuda12::from_cuda13(r);
  });
}

// --- Graphs and capture without edge data (CUDA 12's unsuffixed forms) ---

WARPSIM_API int cudaGraphAddNode(void** node, void* graph, void* const* deps, size_t ndeps,
                                 cuda::GraphNodeParams* params) {
  return cudaGraphAddNode_v2(node, graph, deps, nullptr, ndeps, params);
}

WARPSIM_API int cudaStreamGetCaptureInfo_v2(void* stream, int* status, unsigned long long* id, void** graph,
                                            const void* const** deps, size_t* ndeps) {
  return cudaStreamGetCaptureInfo_v3(stream, status, id, graph, deps, nullptr, ndeps);
}
WARPSIM_API int cudaStreamGetCaptureInfo_v2_ptsz(void* stream, int* status, unsigned long long* id, void** graph,
                                                 const void* const** deps, size_t* ndeps) {
  return cudaStreamGetCaptureInfo_v3(stream, status, id, graph, deps, nullptr, ndeps);
}
// CUDA 11's three-argument form, kept in CUDA 12's library.
WARPSIM_API int cudaStreamGetCaptureInfo(void* stream, int* status, unsigned long long* id) {
  return cudaStreamGetCaptureInfo_v3(stream, status, id, nullptr, nullptr, nullptr, nullptr);
}
WARPSIM_API int cudaStreamGetCaptureInfo_ptsz(void* stream, int* status, unsigned long long* id) {
  return cudaStreamGetCaptureInfo_v3(stream, status, id, nullptr, nullptr, nullptr, nullptr);
}

WARPSIM_API int cudaStreamUpdateCaptureDependencies(void* stream, void* const* deps, size_t ndeps, unsigned flags) {
  return cudaStreamUpdateCaptureDependencies_v2(stream, deps, nullptr, ndeps, flags);
}
WARPSIM_API int cudaStreamUpdateCaptureDependencies_ptsz(void* stream, void* const* deps, size_t ndeps,
                                                         unsigned flags) {
  return cudaStreamUpdateCaptureDependencies_v2(stream, deps, nullptr, ndeps, flags);
}

WARPSIM_API int cudaGraphGetEdges(void* graph, void** from, void** to, size_t* count) {
  return cudaGraphGetEdges_v2(graph, from, to, nullptr, count);
}
WARPSIM_API int cudaGraphNodeGetDependencies(void* node, void** deps, size_t* count) {
  return cudaGraphNodeGetDependencies_v2(node, deps, nullptr, count);
}
WARPSIM_API int cudaGraphNodeGetDependentNodes(void* node, void** out, size_t* count) {
  return cudaGraphNodeGetDependentNodes_v2(node, out, nullptr, count);
}
WARPSIM_API int cudaGraphAddDependencies(void* graph, void* const* from, void* const* to, size_t n) {
  return cudaGraphAddDependencies_v2(graph, from, to, nullptr, n);
}
WARPSIM_API int cudaGraphRemoveDependencies(void* graph, void* const* from, void* const* to, size_t n) {
  return cudaGraphRemoveDependencies_v2(graph, from, to, nullptr, n);
}

// --- Other suffixed names of CUDA 12 ---

// CUDA 12.8's finer-grained elapsed time: warpsim's times are exact either way.
WARPSIM_API int cudaEventElapsedTime_v2(float* ms, void* start, void* end) {
  return call("cudaEventElapsedTime_v2", [&](Runtime& rt) {
    if (!ms) throw ApiError(cuda::ErrorInvalidValue, "cudaEventElapsedTime_v2: ms is NULL");
    driver::require_same_context(driver::owner_of(start), "the start event", driver::owner_of(end), "the end event",
                                 "cudaEventElapsedTime_v2");
    *ms = rt.elapsed_ms(start, end);
  });
}

// Managed-memory hints with a cudaMemLocation (CUDA 12's _v2; api_memory.cpp has the
// unsuffixed ones, which take a device), kept for cudaMemRangeGetAttribute.
WARPSIM_API int cudaMemPrefetchAsync_v2(const void* ptr, size_t bytes, warpsim::cuda::MemLocation where,
                                        unsigned flags, void* stream) {
  return ordered_call("cudaMemPrefetchAsync_v2", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaMemPrefetchAsync_v2");
    rt.mem_prefetch(ptr, bytes, where, flags, "cudaMemPrefetchAsync_v2");
  });
}
WARPSIM_API int cudaMemPrefetchAsync_v2_ptsz(const void* ptr, size_t bytes, warpsim::cuda::MemLocation where,
                                             unsigned flags, void* stream) {
  return cudaMemPrefetchAsync_v2(ptr, bytes, where, flags, Runtime::per_thread_default(stream));
}
WARPSIM_API int cudaMemAdvise_v2(const void* ptr, size_t bytes, int advice, warpsim::cuda::MemLocation where) {
  return ordered_call("cudaMemAdvise_v2",
                      [&](Runtime& rt) { rt.mem_advise(ptr, bytes, advice, where, "cudaMemAdvise_v2"); });
}

// CUDA 12 names that warpsim does not support, as api_unsupported.cpp does CUDA 13's.
#define X(name) \
  WARPSIM_API int name(...) { return warpsim::runtime::api::unsupported(#name); }
X(cudaSignalExternalSemaphoresAsync_v2)
X(cudaSignalExternalSemaphoresAsync_v2_ptsz)
X(cudaWaitExternalSemaphoresAsync_v2)
X(cudaWaitExternalSemaphoresAsync_v2_ptsz)
#undef X
