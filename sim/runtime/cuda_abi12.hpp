// Where the binary interface of CUDA 12's runtime (libcudart.so.12) differs from CUDA 13's
// (cuda_abi.hpp) in what warpsim's entry points read or write: written here from the
// CUDA 12.8 headers' layouts (docs/runtime.md, "CUDA 12 programs", says how they were
// checked). Only sim/runtime/api12/ uses it.
#pragma once
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "sim/runtime/cuda_abi.hpp"

namespace warpsim::cuda12 {

// What cudaRuntimeGetVersion says to a CUDA 12 program: the 12.8 runtime whose layouts these are.
inline constexpr int kRuntimeVersion = 12080;

// cudaDeviceProp as CUDA 12 lays it out (cudaGetDeviceProperties_v2). CUDA 13 dropped eight
// fields (marked "12 only") and named seven of the reserved words (deviceNumaConfig to
// hostNumaMultinodeIpcSupported), which CUDA 12 programs read as device attributes.
struct DeviceProp {
  char name[256];
  unsigned char uuid[16];
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;  // 12 only: kHz
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int deviceOverlap;  // 12 only
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;  // 12 only
  int integrated;
  int canMapHostMemory;
  int computeMode;  // 12 only
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture1DLinear;  // 12 only
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;  // 12 only: kHz
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int singleToDoublePrecisionPerfRatio;  // 12 only
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;  // 12 only
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int reserved[63];
};
// sizeof(cudaDeviceProp) and two offsets, as g++ computes them from the CUDA 12.8 headers.
static_assert(sizeof(DeviceProp) == 1032);
static_assert(offsetof(DeviceProp, clockRate) == 348 && offsetof(DeviceProp, unifiedFunctionPointers) == 776);

// cudaPointerAttributes: CUDA 13 appended `long reserved[8]`.
struct PointerAttributes {
  cuda::MemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
};
static_assert(sizeof(PointerAttributes) == 24);

// cudaResourceDesc: CUDA 13 widened the union (an int[32] member) and appended `flags`;
// the members CUDA 12 has sit at the same offsets in both.
struct ResourceDesc {
  cuda::ResourceType resType;
  union {
    struct {
      void* array;
    } array;
    struct {
      void* mipmap;
    } mipmap;
    struct {
      void* devPtr;
      cuda::ChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      cuda::ChannelFormatDesc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
  } res;
};
static_assert(sizeof(ResourceDesc) == 64);
static_assert(offsetof(ResourceDesc, res) == offsetof(cuda::ResourceDesc, res));

// A CUDA 12 resource description as CUDA 13's (the rest zero: no flags), and back.
inline cuda::ResourceDesc to_cuda13(const ResourceDesc& r) {
  cuda::ResourceDesc out;
  std::memset(&out, 0, sizeof out);
  std::memcpy(&out, &r, sizeof r);
  return out;
}
inline ResourceDesc from_cuda13(const cuda::ResourceDesc& r) {
  ResourceDesc out;
  std::memcpy(&out, &r, sizeof out);
  return out;
}

}  // namespace warpsim::cuda12
