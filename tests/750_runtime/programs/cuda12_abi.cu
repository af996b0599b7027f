// A program as CUDA 12 builds it: linked against libcudart.so.12 (the test links it with
// -cudart none and -l:libcudart.so.12), calling the runtime by the names and with the
// layouts CUDA 12.8's headers give (cuda_runtime_api.h maps cudaGetDeviceProperties to
// cudaGetDeviceProperties_v2 and cudaStreamGetCaptureInfo to _v2; cudaDeviceProp,
// cudaPointerAttributes and cudaResourceDesc are CUDA 12's). The structs are written out
// here, with CUDA 12.8's sizes and offsets (g++ on its driver_types.h: 1032 bytes,
// clockRate at 348, unifiedFunctionPointers at 776; 24; 64). Guard words after the shorter
// structs show the runtime writes no byte past them.
#include <cstddef>
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

struct Prop12 {
  char name[256];
  unsigned char uuid[16];
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment, texturePitchAlignment;
  int deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated, canMapHostMemory, computeMode;
  int maxTexture1D, maxTexture1DMipmap, maxTexture1DLinear, maxTexture2D[2], maxTexture2DMipmap[2];
  int maxTexture2DLinear[3], maxTexture2DGather[2], maxTexture3D[3], maxTexture3DAlt[3], maxTextureCubemap;
  int maxTexture1DLayered[2], maxTexture2DLayered[3], maxTextureCubemapLayered[2];
  int maxSurface1D, maxSurface2D[2], maxSurface3D[3], maxSurface1DLayered[2], maxSurface2DLayered[3];
  int maxSurfaceCubemap, maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, asyncEngineCount;
  int unifiedAddressing, memoryClockRate, memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor, streamPrioritiesSupported, globalL1CacheSupported, localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID, hostNativeAtomicSupported;
  int singleToDoublePrecisionPerfRatio, pageableMemoryAccess, concurrentManagedAccess;
  int computePreemptionSupported, canUseHostPointerForRegisteredMem, cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost, maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch, unifiedFunctionPointers;
  int reserved[63];
};
static_assert(sizeof(Prop12) == 1032, "CUDA 12.8's cudaDeviceProp");
static_assert(offsetof(Prop12, clockRate) == 348 && offsetof(Prop12, unifiedFunctionPointers) == 776,
              "CUDA 12.8's cudaDeviceProp");

struct PointerAttributes12 {
  cudaMemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
};
static_assert(sizeof(PointerAttributes12) == 24, "CUDA 12.8's cudaPointerAttributes");

struct ResourceDesc12 {
  cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { cudaMipmappedArray_t mipmap; } mipmap;
    struct { void* devPtr; cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void* devPtr; cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
  } res;
};
static_assert(sizeof(ResourceDesc12) == 64, "CUDA 12.8's cudaResourceDesc");

// CUDA 12's entry points under names of their own here (the CUDA 13 headers this is
// compiled with declare the same symbols with CUDA 13's types).
extern "C" cudaError_t get_properties_12(Prop12*, int) __asm__("cudaGetDeviceProperties_v2");
extern "C" cudaError_t pointer_attributes_12(PointerAttributes12*, const void*) __asm__("cudaPointerGetAttributes");
extern "C" cudaError_t create_texture_12(cudaTextureObject_t*, const ResourceDesc12*, const cudaTextureDesc*,
                                         const void*) __asm__("cudaCreateTextureObject");
extern "C" cudaError_t texture_resource_12(ResourceDesc12*, cudaTextureObject_t) __asm__(
    "cudaGetTextureObjectResourceDesc");
extern "C" cudaError_t capture_info_12(cudaStream_t, cudaStreamCaptureStatus*, unsigned long long*, cudaGraph_t*,
                                       const cudaGraphNode_t**, size_t*) __asm__("cudaStreamGetCaptureInfo_v2");
extern "C" cudaError_t add_node_12(cudaGraphNode_t*, cudaGraph_t, const cudaGraphNode_t*, size_t,
                                   cudaGraphNodeParams*) __asm__("cudaGraphAddNode");
// CUDA 12's edge calls without edge data (CUDA 13 added the edgeData parameter).
extern "C" cudaError_t get_edges_12(cudaGraph_t, cudaGraphNode_t*, cudaGraphNode_t*, size_t*) __asm__(
    "cudaGraphGetEdges");
extern "C" cudaError_t get_deps_12(cudaGraphNode_t, cudaGraphNode_t*, size_t*) __asm__("cudaGraphNodeGetDependencies");
extern "C" cudaError_t get_dependents_12(cudaGraphNode_t, cudaGraphNode_t*, size_t*) __asm__(
    "cudaGraphNodeGetDependentNodes");
extern "C" cudaError_t add_deps_12(cudaGraph_t, const cudaGraphNode_t*, const cudaGraphNode_t*, size_t) __asm__(
    "cudaGraphAddDependencies");
extern "C" cudaError_t remove_deps_12(cudaGraph_t, const cudaGraphNode_t*, const cudaGraphNode_t*, size_t) __asm__(
    "cudaGraphRemoveDependencies");

__global__ void scale(float* x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

__global__ void fetch(cudaTextureObject_t t, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i) + 1.0f;
}

// Guard words after a struct: the runtime must leave them as they were.
constexpr unsigned long long kGuard = 0x5a5a5a5a5a5a5a5aull;
bool guards_intact(const unsigned long long* g) {
  for (int i = 0; i < 16; ++i)
    if (g[i] != kGuard) return false;
  return true;
}

int main() {
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  printf("runtime %d driver %d\n", runtime, driver);

  Prop12 p;
  memset(&p, 0xff, sizeof p);
  printf("properties: %s\n", cudaGetErrorName(get_properties_12(&p, 0)));
  printf("%s cc %d.%d, %d SMs, warp %d\n", p.name, p.major, p.minor, p.multiProcessorCount, p.warpSize);
  printf("clockRate %d kHz, memoryClockRate %d kHz, bus %d bits, L2 %d bytes\n", p.clockRate, p.memoryClockRate,
         p.memoryBusWidth, p.l2CacheSize);
  printf("threads/SM %d, shared/SM %zu, opt-in %zu, blocks/SM %d, regs/SM %d\n", p.maxThreadsPerMultiProcessor,
         p.sharedMemPerMultiprocessor, p.sharedMemPerBlockOptin, p.maxBlocksPerMultiProcessor,
         p.regsPerMultiprocessor);
  printf("overlap %d, timeout %d, compute mode %d, multi-device %d, cluster %d, reserved[62] %d\n", p.deviceOverlap,
         p.kernelExecTimeoutEnabled, p.computeMode, p.cooperativeMultiDeviceLaunch, p.clusterLaunch,
         p.reserved[62]);
  printf("FP32 to FP64 rate %d\n", p.singleToDoublePrecisionPerfRatio);

  const int n = 1000;
  float host[n];
  for (int i = 0; i < n; ++i) host[i] = float(i);
  float* d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice);

  struct {
    PointerAttributes12 a;
    unsigned long long guard[16];
  } attr;
  for (auto& g : attr.guard) g = kGuard;
  // (Each call's result is taken before the printf that shows what it wrote.)
  cudaError_t e = pointer_attributes_12(&attr.a, d);
  printf("pointer: %s type %d device %d same %d, guard %s\n", cudaGetErrorName(e), int(attr.a.type), attr.a.device,
         attr.a.devicePointer == d, guards_intact(attr.guard) ? "intact" : "OVERWRITTEN");

  // Events and a launch by nvcc's own code, then the CUDA 12 capture calls.
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  scale<<<(n + 255) / 256, 256>>>(d, 2.0f, n);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = -1;
  cudaEventElapsedTime(&ms, start, stop);
  printf("launch: %s, elapsed >= 0: %d\n", cudaGetErrorName(cudaGetLastError()), ms >= 0);

  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  scale<<<(n + 255) / 256, 256, 0, s>>>(d, 0.5f, n);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  unsigned long long id = 0;
  cudaGraph_t captured = nullptr;
  const cudaGraphNode_t* deps = nullptr;
  size_t ndeps = 99;
  e = capture_info_12(s, &status, &id, &captured, &deps, &ndeps);
  printf("capture info: %s active %d graph %d deps %zu\n", cudaGetErrorName(e), status == cudaStreamCaptureStatusActive,
         captured != nullptr, ndeps);
  cudaGraph_t g = nullptr;
  cudaStreamEndCapture(s, &g);
  alignas(cudaGraphNodeParams) unsigned char empty_bytes[sizeof(cudaGraphNodeParams)] = {};
  auto* empty = reinterpret_cast<cudaGraphNodeParams*>(empty_bytes);  // its union has no default constructor
  empty->type = cudaGraphNodeTypeEmpty;
  cudaGraphNode_t roots[4];
  size_t nroots = 4;
  cudaGraphGetNodes(g, roots, &nroots);
  cudaGraphNode_t after = nullptr;
  printf("add node: %s\n", cudaGetErrorName(add_node_12(&after, g, roots, 1, empty)));
  // The edge the new node hangs from, read, removed and added back by CUDA 12's forms.
  cudaGraphNode_t from[2] = {}, to[2] = {}, other[2] = {};
  size_t nedges = 2, ndep = 2, nafter = 2, nleft = 0;
  e = get_edges_12(g, from, to, &nedges);
  cudaError_t e2 = get_deps_12(after, other, &ndep);
  const bool dep_ok = ndep == 1 && other[0] == roots[0];
  cudaError_t e3 = get_dependents_12(roots[0], other, &nafter);
  const bool after_ok = nafter == 1 && other[0] == after;
  cudaError_t e4 = remove_deps_12(g, &roots[0], &after, 1);
  get_edges_12(g, nullptr, nullptr, &nleft);
  cudaError_t e5 = add_deps_12(g, &roots[0], &after, 1);
  printf("edges: %s %s %s %s %s, %zu edge %d, dependency %d, dependent %d, %zu left after removal\n",
         cudaGetErrorName(e), cudaGetErrorName(e2), cudaGetErrorName(e3), cudaGetErrorName(e4), cudaGetErrorName(e5),
         nedges, from[0] == roots[0] && to[0] == after, dep_ok, after_ok, nleft);
  size_t nnodes = 0;
  cudaGraphGetNodes(g, nullptr, &nnodes);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += host[i] != float(i);
  printf("graph of %zu nodes: %s, %d wrong\n", nnodes, cudaGetErrorName(cudaGetLastError()), wrong);

  // A texture over the linear buffer, described by CUDA 12's shorter cudaResourceDesc.
  struct {
    ResourceDesc12 r;
    unsigned long long guard[16];
  } res;
  memset(&res.r, 0, sizeof res.r);
  for (auto& w : res.guard) w = kGuard;
  res.r.resType = cudaResourceTypeLinear;
  res.r.res.linear.devPtr = d;
  res.r.res.linear.desc = cudaCreateChannelDesc<float>();
  res.r.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  printf("texture: %s\n", cudaGetErrorName(create_texture_12(&t, &res.r, &td, nullptr)));
  float* out = nullptr;
  cudaMalloc(&out, n * sizeof(float));
  fetch<<<(n + 255) / 256, 256>>>(t, out, n);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  wrong = 0;
  for (int i = 0; i < n; ++i) wrong += host[i] != float(i) + 1.0f;
  printf("fetch: %s, %d wrong\n", cudaGetErrorName(cudaGetLastError()), wrong);
  struct {
    ResourceDesc12 r;
    unsigned long long guard[16];
  } back;
  for (auto& w : back.guard) w = kGuard;
  e = texture_resource_12(&back.r, t);
  printf("resource desc: %s linear %d size %zu same %d, guard %s\n", cudaGetErrorName(e),
         back.r.resType == cudaResourceTypeLinear, back.r.res.linear.sizeInBytes, back.r.res.linear.devPtr == d,
         guards_intact(back.guard) ? "intact" : "OVERWRITTEN");
  cudaDestroyTextureObject(t);
  cudaFree(out);
  cudaFree(d);
  return 0;
}
