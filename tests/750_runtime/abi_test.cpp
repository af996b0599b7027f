// warpsim's declarations of the CUDA runtime's binary interface against the toolkit's
// own headers, when they are installed: every field offset of the structs programs pass,
// the enum values, and the struct sizes.
#include <catch2/catch.hpp>

#include <cstddef>

#include "sim/runtime/cuda_abi.hpp"

#ifdef WARPSIM_HAVE_CUDA_HEADERS
#include <cuda_runtime_api.h>

namespace cuda = warpsim::cuda;

#define SAME_FIELD(ours, theirs, field) CHECK(offsetof(ours, field) == offsetof(theirs, field))

TEST_CASE("abi: cudaDeviceProp has CUDA 13's layout") {
  CHECK(sizeof(cuda::DeviceProp) == sizeof(cudaDeviceProp));
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, totalGlobalMem);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, sharedMemPerBlock);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, warpSize);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, maxThreadsDim);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, maxGridSize);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, major);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, minor);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, multiProcessorCount);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, maxSurfaceCubemapLayered);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, surfaceAlignment);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, memoryBusWidth);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, l2CacheSize);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, maxThreadsPerMultiProcessor);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, sharedMemPerMultiprocessor);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, regsPerMultiprocessor);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, sharedMemPerBlockOptin);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, maxBlocksPerMultiProcessor);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, reservedSharedMemPerBlock);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, hostNumaMultinodeIpcSupported);
  SAME_FIELD(cuda::DeviceProp, cudaDeviceProp, reserved);
}

TEST_CASE("abi: cudaFuncAttributes, cudaPointerAttributes, dim3") {
  CHECK(sizeof(cuda::FuncAttributes) == sizeof(cudaFuncAttributes));
  SAME_FIELD(cuda::FuncAttributes, cudaFuncAttributes, numRegs);
  SAME_FIELD(cuda::FuncAttributes, cudaFuncAttributes, maxDynamicSharedSizeBytes);
  SAME_FIELD(cuda::FuncAttributes, cudaFuncAttributes, reserved);
  CHECK(sizeof(cuda::PointerAttributes) == sizeof(cudaPointerAttributes));
  SAME_FIELD(cuda::PointerAttributes, cudaPointerAttributes, devicePointer);
  SAME_FIELD(cuda::PointerAttributes, cudaPointerAttributes, hostPointer);
  CHECK(sizeof(cuda::Dim3) == sizeof(dim3));
}

TEST_CASE("abi: error codes, memcpy kinds, attributes and the fatbinary wrapper magic") {
  CHECK(cuda::ErrorInvalidValue == int(cudaErrorInvalidValue));
  CHECK(cuda::ErrorMemoryAllocation == int(cudaErrorMemoryAllocation));
  CHECK(cuda::ErrorInvalidConfiguration == int(cudaErrorInvalidConfiguration));
  CHECK(cuda::ErrorInvalidSymbol == int(cudaErrorInvalidSymbol));
  CHECK(cuda::ErrorInvalidMemcpyDirection == int(cudaErrorInvalidMemcpyDirection));
  CHECK(cuda::ErrorInvalidDeviceFunction == int(cudaErrorInvalidDeviceFunction));
  CHECK(cuda::ErrorInvalidDevice == int(cudaErrorInvalidDevice));
  CHECK(cuda::ErrorInvalidPtx == int(cudaErrorInvalidPtx));
  CHECK(cuda::ErrorInvalidResourceHandle == int(cudaErrorInvalidResourceHandle));
  CHECK(cuda::ErrorIllegalAddress == int(cudaErrorIllegalAddress));
  CHECK(cuda::ErrorLaunchOutOfResources == int(cudaErrorLaunchOutOfResources));
  CHECK(cuda::ErrorLaunchTimeout == int(cudaErrorLaunchTimeout));
  CHECK(cuda::ErrorAssert == int(cudaErrorAssert));
  CHECK(cuda::ErrorLaunchFailure == int(cudaErrorLaunchFailure));
  CHECK(cuda::ErrorNotSupported == int(cudaErrorNotSupported));
  CHECK(cuda::DeviceToHost == int(cudaMemcpyDeviceToHost));
  CHECK(cuda::Default == int(cudaMemcpyDefault));
  CHECK(cuda::AttrClockRate == int(cudaDevAttrClockRate));
  CHECK(cuda::AttrMaxSharedMemoryPerBlockOptin == int(cudaDevAttrMaxSharedMemoryPerBlockOptin));
  CHECK(cuda::AttrReservedSharedMemoryPerBlock == int(cudaDevAttrReservedSharedMemoryPerBlock));
  CHECK(cuda::Managed == int(cudaMemoryTypeManaged));
  CHECK(cuda::PreferL1 == int(cudaFuncCachePreferL1));
}
#else
TEST_CASE("abi: layouts against the CUDA toolkit's headers") {
  WARN("skipped: no CUDA toolkit headers at " WARPSIM_CUDA_HOME "/include (set -DWARPSIM_CUDA_HOME=...)");
}
#endif
