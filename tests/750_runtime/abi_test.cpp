// warpsim's declarations of the CUDA runtime's binary interface against the toolkit's
// own headers, when they are installed: every field offset of the structs programs pass,
// the enum values, and the struct sizes.
#include <catch2/catch.hpp>

#include <cstddef>

#include "sim/runtime/cuda_abi.hpp"
#include "sim/runtime/driver_abi.hpp"

#ifdef WARPSIM_HAVE_CUDA_HEADERS
#include <cuda.h>
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
  SAME_FIELD(cuda::FuncAttributes, cudaFuncAttributes, clusterDimMustBeSet);
  SAME_FIELD(cuda::FuncAttributes, cudaFuncAttributes, nonPortableClusterSizeAllowed);
  CHECK(cuda::FuncAttrClusterDimMustBeSet == int(cudaFuncAttributeClusterDimMustBeSet));
  CHECK(cuda::FuncAttrRequiredClusterWidth == int(cudaFuncAttributeRequiredClusterWidth));
  CHECK(cuda::FuncAttrRequiredClusterDepth == int(cudaFuncAttributeRequiredClusterDepth));
  CHECK(cuda::FuncAttrNonPortableClusterSizeAllowed == int(cudaFuncAttributeNonPortableClusterSizeAllowed));
  CHECK(cuda::FuncAttrClusterSchedulingPolicyPreference == int(cudaFuncAttributeClusterSchedulingPolicyPreference));
  CHECK(cuda::LaunchAttributeClusterDimension == int(cudaLaunchAttributeClusterDimension));
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
TEST_CASE("abi: CUDA arrays, texture and surface descriptors have CUDA 13's layout") {
  CHECK(sizeof(cuda::ChannelFormatDesc) == sizeof(cudaChannelFormatDesc));
  SAME_FIELD(cuda::ChannelFormatDesc, cudaChannelFormatDesc, f);
  CHECK(sizeof(cuda::Extent) == sizeof(cudaExtent));
  CHECK(sizeof(cuda::PitchedPtr) == sizeof(cudaPitchedPtr));
  CHECK(sizeof(cuda::Memcpy3DParms) == sizeof(cudaMemcpy3DParms));
  SAME_FIELD(cuda::Memcpy3DParms, cudaMemcpy3DParms, srcPtr);
  SAME_FIELD(cuda::Memcpy3DParms, cudaMemcpy3DParms, dstArray);
  SAME_FIELD(cuda::Memcpy3DParms, cudaMemcpy3DParms, dstPtr);
  SAME_FIELD(cuda::Memcpy3DParms, cudaMemcpy3DParms, extent);
  SAME_FIELD(cuda::Memcpy3DParms, cudaMemcpy3DParms, kind);
  CHECK(sizeof(cuda::Memcpy3DPeerParms) == sizeof(cudaMemcpy3DPeerParms));
  SAME_FIELD(cuda::Memcpy3DPeerParms, cudaMemcpy3DPeerParms, srcPtr);
  SAME_FIELD(cuda::Memcpy3DPeerParms, cudaMemcpy3DPeerParms, srcDevice);
  SAME_FIELD(cuda::Memcpy3DPeerParms, cudaMemcpy3DPeerParms, dstArray);
  SAME_FIELD(cuda::Memcpy3DPeerParms, cudaMemcpy3DPeerParms, dstPtr);
  SAME_FIELD(cuda::Memcpy3DPeerParms, cudaMemcpy3DPeerParms, dstDevice);
  SAME_FIELD(cuda::Memcpy3DPeerParms, cudaMemcpy3DPeerParms, extent);
  CHECK(sizeof(cuda::ResourceDesc) == sizeof(cudaResourceDesc));
  SAME_FIELD(cuda::ResourceDesc, cudaResourceDesc, res);
  SAME_FIELD(cuda::ResourceDesc, cudaResourceDesc, res.linear.desc);
  SAME_FIELD(cuda::ResourceDesc, cudaResourceDesc, res.linear.sizeInBytes);
  SAME_FIELD(cuda::ResourceDesc, cudaResourceDesc, res.pitch2D.pitchInBytes);
  SAME_FIELD(cuda::ResourceDesc, cudaResourceDesc, flags);
  CHECK(sizeof(cuda::TextureDesc) == sizeof(cudaTextureDesc));
  SAME_FIELD(cuda::TextureDesc, cudaTextureDesc, filterMode);
  SAME_FIELD(cuda::TextureDesc, cudaTextureDesc, borderColor);
  SAME_FIELD(cuda::TextureDesc, cudaTextureDesc, normalizedCoords);
  SAME_FIELD(cuda::TextureDesc, cudaTextureDesc, seamlessCubemap);
  CHECK(cuda::ArrayLayered == cudaArrayLayered);
  CHECK(cuda::ArraySurfaceLoadStore == cudaArraySurfaceLoadStore);
  CHECK(cuda::ArrayCubemap == cudaArrayCubemap);
  CHECK(cuda::ResourcePitch2D == int(cudaResourceTypePitch2D));
  CHECK(cuda::ChannelFloat == int(cudaChannelFormatKindFloat));
  CHECK(cuda::ErrorInvalidChannelDescriptor == int(cudaErrorInvalidChannelDescriptor));
  CHECK(cuda::ErrorInvalidFilterSetting == int(cudaErrorInvalidFilterSetting));
  CHECK(cuda::ErrorInvalidNormSetting == int(cudaErrorInvalidNormSetting));
}

TEST_CASE("abi: graph node parameters and update results have CUDA 13's layout") {
  CHECK(sizeof(cuda::KernelNodeParams) == sizeof(cudaKernelNodeParams));
  SAME_FIELD(cuda::KernelNodeParams, cudaKernelNodeParams, gridDim);
  SAME_FIELD(cuda::KernelNodeParams, cudaKernelNodeParams, blockDim);
  SAME_FIELD(cuda::KernelNodeParams, cudaKernelNodeParams, sharedMemBytes);
  SAME_FIELD(cuda::KernelNodeParams, cudaKernelNodeParams, kernelParams);
  SAME_FIELD(cuda::KernelNodeParams, cudaKernelNodeParams, extra);
  CHECK(sizeof(cuda::MemsetParams) == sizeof(cudaMemsetParams));
  SAME_FIELD(cuda::MemsetParams, cudaMemsetParams, pitch);
  SAME_FIELD(cuda::MemsetParams, cudaMemsetParams, value);
  SAME_FIELD(cuda::MemsetParams, cudaMemsetParams, elementSize);
  SAME_FIELD(cuda::MemsetParams, cudaMemsetParams, width);
  SAME_FIELD(cuda::MemsetParams, cudaMemsetParams, height);
  CHECK(sizeof(cuda::HostNodeParams) == sizeof(cudaHostNodeParams));
  SAME_FIELD(cuda::HostNodeParams, cudaHostNodeParams, userData);
  CHECK(sizeof(cuda::GraphInstantiateParams) == sizeof(cudaGraphInstantiateParams));
  SAME_FIELD(cuda::GraphInstantiateParams, cudaGraphInstantiateParams, uploadStream);
  SAME_FIELD(cuda::GraphInstantiateParams, cudaGraphInstantiateParams, errNode_out);
  SAME_FIELD(cuda::GraphInstantiateParams, cudaGraphInstantiateParams, result_out);
  CHECK(int(cuda::GraphInstantiateInvalidStructure) == int(cudaGraphInstantiateInvalidStructure));
  CHECK(cuda::GraphInstantiateFlagUpload == (unsigned long long)cudaGraphInstantiateFlagUpload);
  CHECK(sizeof(cuda::GraphExecUpdateResultInfo) == sizeof(cudaGraphExecUpdateResultInfo));
  SAME_FIELD(cuda::GraphExecUpdateResultInfo, cudaGraphExecUpdateResultInfo, errorNode);
  SAME_FIELD(cuda::GraphExecUpdateResultInfo, cudaGraphExecUpdateResultInfo, errorFromNode);
  CHECK(cuda::GraphExecUpdateErrorTopologyChanged == int(cudaGraphExecUpdateErrorTopologyChanged));
  CHECK(cuda::GraphExecUpdateErrorNodeTypeChanged == int(cudaGraphExecUpdateErrorNodeTypeChanged));
  CHECK(cuda::GraphExecUpdateErrorParametersChanged == int(cudaGraphExecUpdateErrorParametersChanged));
  CHECK(cuda::ErrorIllegalState == int(cudaErrorIllegalState));
  CHECK(cuda::ErrorStreamCaptureUnsupported == int(cudaErrorStreamCaptureUnsupported));
  CHECK(cuda::ErrorStreamCaptureUnmatched == int(cudaErrorStreamCaptureUnmatched));
  CHECK(cuda::ErrorGraphExecUpdateFailure == int(cudaErrorGraphExecUpdateFailure));
  CHECK(cuda::ErrorInvalidClusterSize == int(cudaErrorInvalidClusterSize));
}
TEST_CASE("abi: stream-ordered allocation and cudaLaunchKernelEx structs have CUDA 13's layout") {
  CHECK(sizeof(cuda::MemPoolProps) == sizeof(cudaMemPoolProps));
  SAME_FIELD(cuda::MemPoolProps, cudaMemPoolProps, location);
  SAME_FIELD(cuda::MemPoolProps, cudaMemPoolProps, maxSize);
  SAME_FIELD(cuda::MemPoolProps, cudaMemPoolProps, usage);
  CHECK(sizeof(cuda::MemAccessDesc) == sizeof(cudaMemAccessDesc));
  SAME_FIELD(cuda::MemAccessDesc, cudaMemAccessDesc, flags);
  CHECK(sizeof(cuda::MemAllocNodeParams) == sizeof(cudaMemAllocNodeParams));
  SAME_FIELD(cuda::MemAllocNodeParams, cudaMemAllocNodeParams, accessDescs);
  SAME_FIELD(cuda::MemAllocNodeParams, cudaMemAllocNodeParams, bytesize);
  SAME_FIELD(cuda::MemAllocNodeParams, cudaMemAllocNodeParams, dptr);
  CHECK(sizeof(cuda::GraphNodeParams) == sizeof(cudaGraphNodeParams));
  SAME_FIELD(cuda::GraphNodeParams, cudaGraphNodeParams, kernel);
  SAME_FIELD(cuda::GraphNodeParams, cudaGraphNodeParams, conditional);
  SAME_FIELD(cuda::GraphNodeParams, cudaGraphNodeParams, memcpy.copyParams);
  SAME_FIELD(cuda::GraphNodeParams, cudaGraphNodeParams, memset.elementSize);
  SAME_FIELD(cuda::GraphNodeParams, cudaGraphNodeParams, host.userData);
  SAME_FIELD(cuda::GraphNodeParams, cudaGraphNodeParams, graph.ownership);
  SAME_FIELD(cuda::GraphNodeParams, cudaGraphNodeParams, eventRecord.event);
  SAME_FIELD(cuda::GraphNodeParams, cudaGraphNodeParams, eventWait.event);
  SAME_FIELD(cuda::GraphNodeParams, cudaGraphNodeParams, alloc.bytesize);
  SAME_FIELD(cuda::GraphNodeParams, cudaGraphNodeParams, alloc.dptr);
  SAME_FIELD(cuda::GraphNodeParams, cudaGraphNodeParams, free.dptr);
  CHECK(sizeof(cuda::MemcpyNodeParams) == sizeof(cudaMemcpyNodeParams));
  SAME_FIELD(cuda::GraphNodeParams, cudaGraphNodeParams, reserved2);
  CHECK(sizeof(cuda::KernelNodeParams) == sizeof(cudaKernelNodeParamsV2));
  SAME_FIELD(cuda::KernelNodeParams, cudaKernelNodeParamsV2, extra);
  CHECK(sizeof(cuda::ConditionalNodeParams) == sizeof(cudaConditionalNodeParams));
  SAME_FIELD(cuda::ConditionalNodeParams, cudaConditionalNodeParams, type);
  SAME_FIELD(cuda::ConditionalNodeParams, cudaConditionalNodeParams, size);
  SAME_FIELD(cuda::ConditionalNodeParams, cudaConditionalNodeParams, phGraph_out);
  CHECK(sizeof(cuda::GraphEdgeData) == sizeof(cudaGraphEdgeData));
  SAME_FIELD(cuda::GraphEdgeData, cudaGraphEdgeData, type);
  CHECK(int(cuda::GraphNodeTypeConditional) == int(cudaGraphNodeTypeConditional));
  CHECK(int(cuda::GraphCondTypeSwitch) == int(cudaGraphCondTypeSwitch));
  CHECK(cuda::GraphCondAssignDefault == unsigned(cudaGraphCondAssignDefault));
  CHECK(cuda::StreamSetCaptureDependencies == unsigned(cudaStreamSetCaptureDependencies));
  CHECK(sizeof(cuda::LaunchAttribute) == sizeof(cudaLaunchAttribute));
  SAME_FIELD(cuda::LaunchAttribute, cudaLaunchAttribute, val);
  CHECK(sizeof(cuda::LaunchConfig) == sizeof(cudaLaunchConfig_t));
  SAME_FIELD(cuda::LaunchConfig, cudaLaunchConfig_t, dynamicSmemBytes);
  SAME_FIELD(cuda::LaunchConfig, cudaLaunchConfig_t, stream);
  SAME_FIELD(cuda::LaunchConfig, cudaLaunchConfig_t, attrs);
  SAME_FIELD(cuda::LaunchConfig, cudaLaunchConfig_t, numAttrs);
  CHECK(cuda::MemPoolAttrUsedMemHigh == cudaMemPoolAttrUsedMemHigh);
  CHECK(cuda::MemPoolAttrReleaseThreshold == cudaMemPoolAttrReleaseThreshold);
  CHECK(cuda::GraphMemAttrReservedMemHigh == cudaGraphMemAttrReservedMemHigh);
  CHECK(cuda::MemAccessFlagsProtReadWrite == cudaMemAccessFlagsProtReadWrite);
  CHECK(cuda::LaunchAttributeProgrammaticStreamSerialization == cudaLaunchAttributeProgrammaticStreamSerialization);
  CHECK(cuda::LaunchAttributePreferredSharedMemoryCarveout == cudaLaunchAttributePreferredSharedMemoryCarveout);
  CHECK(cuda::LaunchAttributeCooperative == cudaLaunchAttributeCooperative);
  CHECK(cuda::LaunchAttributeClusterDimension == cudaLaunchAttributeClusterDimension);
  // The union the stream, kernel node and launch attributes share, field by field.
  CHECK(sizeof(cuda::LaunchAttributeValue) == sizeof(cudaLaunchAttributeValue));
  SAME_FIELD(cuda::LaunchAttributeValue, cudaLaunchAttributeValue, syncPolicy);
  SAME_FIELD(cuda::LaunchAttributeValue, cudaLaunchAttributeValue, clusterDim);
  SAME_FIELD(cuda::LaunchAttributeValue, cudaLaunchAttributeValue, priority);
  SAME_FIELD(cuda::LaunchAttributeValue, cudaLaunchAttributeValue, memSyncDomainMap);
  SAME_FIELD(cuda::LaunchAttributeValue, cudaLaunchAttributeValue, memSyncDomain);
  SAME_FIELD(cuda::LaunchAttributeValue, cudaLaunchAttributeValue, sharedMemCarveout);
  CHECK(sizeof(cuda::MemcpyAttributes) == sizeof(cudaMemcpyAttributes));
  SAME_FIELD(cuda::MemcpyAttributes, cudaMemcpyAttributes, srcLocHint);
  SAME_FIELD(cuda::MemcpyAttributes, cudaMemcpyAttributes, dstLocHint);
  SAME_FIELD(cuda::MemcpyAttributes, cudaMemcpyAttributes, flags);
  CHECK(cuda::ErrorPeerAccessUnsupported == int(cudaErrorPeerAccessUnsupported));
  CHECK(cuda::ErrorPeerAccessNotEnabled == int(cudaErrorPeerAccessNotEnabled));
}

TEST_CASE("abi: the driver API's structs and numbers are cuda.h's") {
  namespace cu = warpsim::cu;
  CHECK(sizeof(cu::Memcpy2D) == sizeof(CUDA_MEMCPY2D));
  SAME_FIELD(cu::Memcpy2D, CUDA_MEMCPY2D, srcMemoryType);
  SAME_FIELD(cu::Memcpy2D, CUDA_MEMCPY2D, srcArray);
  SAME_FIELD(cu::Memcpy2D, CUDA_MEMCPY2D, dstXInBytes);
  SAME_FIELD(cu::Memcpy2D, CUDA_MEMCPY2D, dstArray);
  SAME_FIELD(cu::Memcpy2D, CUDA_MEMCPY2D, Height);
  CHECK(sizeof(cu::Memcpy3D) == sizeof(CUDA_MEMCPY3D));
  SAME_FIELD(cu::Memcpy3D, CUDA_MEMCPY3D, srcLOD);
  SAME_FIELD(cu::Memcpy3D, CUDA_MEMCPY3D, srcHeight);
  SAME_FIELD(cu::Memcpy3D, CUDA_MEMCPY3D, dstZ);
  SAME_FIELD(cu::Memcpy3D, CUDA_MEMCPY3D, dstHeight);
  SAME_FIELD(cu::Memcpy3D, CUDA_MEMCPY3D, Depth);
  CHECK(sizeof(cu::ArrayDescriptor) == sizeof(CUDA_ARRAY_DESCRIPTOR));
  SAME_FIELD(cu::ArrayDescriptor, CUDA_ARRAY_DESCRIPTOR, NumChannels);
  CHECK(sizeof(cu::Array3DDescriptor) == sizeof(CUDA_ARRAY3D_DESCRIPTOR));
  SAME_FIELD(cu::Array3DDescriptor, CUDA_ARRAY3D_DESCRIPTOR, Flags);
  CHECK(sizeof(cu::ResourceDesc) == sizeof(CUDA_RESOURCE_DESC));
  SAME_FIELD(cu::ResourceDesc, CUDA_RESOURCE_DESC, res);
  SAME_FIELD(cu::ResourceDesc, CUDA_RESOURCE_DESC, res.pitch2D.pitchInBytes);
  SAME_FIELD(cu::ResourceDesc, CUDA_RESOURCE_DESC, res.linear.sizeInBytes);
  SAME_FIELD(cu::ResourceDesc, CUDA_RESOURCE_DESC, flags);
  CHECK(sizeof(cu::TextureDesc) == sizeof(CUDA_TEXTURE_DESC));
  SAME_FIELD(cu::TextureDesc, CUDA_TEXTURE_DESC, flags);
  SAME_FIELD(cu::TextureDesc, CUDA_TEXTURE_DESC, borderColor);
  CHECK(sizeof(cu::MemAllocationProp) == sizeof(CUmemAllocationProp));
  SAME_FIELD(cu::MemAllocationProp, CUmemAllocationProp, requestedHandleTypes);
  SAME_FIELD(cu::MemAllocationProp, CUmemAllocationProp, location.id);
  SAME_FIELD(cu::MemAllocationProp, CUmemAllocationProp, win32HandleMetaData);
  SAME_FIELD(cu::MemAllocationProp, CUmemAllocationProp, allocFlags.compressionType);
  SAME_FIELD(cu::MemAllocationProp, CUmemAllocationProp, allocFlags.usage);
  CHECK(sizeof(warpsim::cuda::MemAccessDesc) == sizeof(CUmemAccessDesc));
  SAME_FIELD(warpsim::cuda::MemAccessDesc, CUmemAccessDesc, flags);
  CHECK(sizeof(cu::MemGenericAllocationHandle) == sizeof(CUmemGenericAllocationHandle));
  // Memory pools (drv_pool.cpp): the runtime's structs and attribute numbers.
  CHECK(sizeof(warpsim::cuda::MemPoolProps) == sizeof(CUmemPoolProps));
  SAME_FIELD(warpsim::cuda::MemPoolProps, CUmemPoolProps, handleTypes);
  SAME_FIELD(warpsim::cuda::MemPoolProps, CUmemPoolProps, location.id);
  SAME_FIELD(warpsim::cuda::MemPoolProps, CUmemPoolProps, maxSize);
  SAME_FIELD(warpsim::cuda::MemPoolProps, CUmemPoolProps, usage);
  CHECK(int(warpsim::cuda::MemPoolReuseFollowEventDependencies) ==
        int(CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES));
  CHECK(int(warpsim::cuda::MemPoolAttrReleaseThreshold) == int(CU_MEMPOOL_ATTR_RELEASE_THRESHOLD));
  CHECK(int(warpsim::cuda::MemPoolAttrUsedMemHigh) == int(CU_MEMPOOL_ATTR_USED_MEM_HIGH));
  CHECK(int(cu::MemAllocationTypePinned) == int(CU_MEM_ALLOCATION_TYPE_PINNED));
  CHECK(int(warpsim::cuda::AttrVirtualMemoryManagementSupported) ==
        int(CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED));
  CHECK(int(cu::MemGranularityRecommended) == int(CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  CHECK(int(cu::MemAllocationCompGeneric) == int(CU_MEM_ALLOCATION_COMP_GENERIC));
  CHECK(int(warpsim::cuda::MemLocationTypeDevice) == int(CU_MEM_LOCATION_TYPE_DEVICE));
  CHECK(int(warpsim::cuda::MemAccessFlagsProtRead) == int(CU_MEM_ACCESS_FLAGS_PROT_READ));
  CHECK(int(cu::kReadAsInteger) == int(CU_TRSF_READ_AS_INTEGER));
  CHECK(int(cu::kNormalizedCoordinates) == int(CU_TRSF_NORMALIZED_COORDINATES));
  CHECK(cu::kLaunchParamBufferPointer == CU_LAUNCH_PARAM_BUFFER_POINTER);
  CHECK(cu::kLaunchParamBufferSize == CU_LAUNCH_PARAM_BUFFER_SIZE);
  CHECK(cu::kLaunchParamEnd == CU_LAUNCH_PARAM_END);
  CHECK(int(cu::FormatHalf) == int(CU_AD_FORMAT_HALF));
  CHECK(int(cu::FormatSignedInt32) == int(CU_AD_FORMAT_SIGNED_INT32));
  CHECK(int(cu::MemoryTypeUnified) == int(CU_MEMORYTYPE_UNIFIED));
  CHECK(int(cu::FuncPreferredSharedMemoryCarveout) == int(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT));
  CHECK(int(cu::JitErrorLogBufferSizeBytes) == int(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES));
  CHECK(int(cu::JitInputFatbinary) == int(CU_JIT_INPUT_FATBINARY));
  CHECK(int(cu::ErrorInvalidContext) == int(CUDA_ERROR_INVALID_CONTEXT));
  CHECK(int(cu::ErrorNotFound) == int(CUDA_ERROR_NOT_FOUND));
  // The numbers the driver layer passes through unchanged: the runtime's codes from 100 up,
  // and the enums whose values are the runtime's.
  CHECK(int(CUDA_ERROR_ILLEGAL_ADDRESS) == int(cudaErrorIllegalAddress));
  CHECK(int(CUDA_ERROR_NO_BINARY_FOR_GPU) == int(cudaErrorNoKernelImageForDevice));
  CHECK(int(CUDA_ERROR_INVALID_PTX) == int(cudaErrorInvalidPtx));
  CHECK(int(CUDA_ERROR_INVALID_IMAGE) == int(cudaErrorInvalidKernelImage));
  CHECK(int(CUDA_ERROR_FILE_NOT_FOUND) == int(cudaErrorFileNotFound));
  CHECK(int(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT) == int(cudaDevAttrMultiProcessorCount));
  CHECK(int(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN) == int(cudaDevAttrMaxSharedMemoryPerBlockOptin));
  CHECK(int(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) == int(cudaFuncAttributeMaxDynamicSharedMemorySize));
  CHECK(int(CU_FUNC_CACHE_PREFER_L1) == int(cudaFuncCachePreferL1));
  CHECK(int(CU_LIMIT_PERSISTING_L2_CACHE_SIZE) == int(cudaLimitPersistingL2CacheSize));
  CHECK(int(CU_TR_ADDRESS_MODE_BORDER) == int(cudaAddressModeBorder));
  CHECK(int(CU_MEMHOSTALLOC_DEVICEMAP) == int(cudaHostAllocMapped));
  CHECK(int(CUDA_ARRAY3D_SURFACE_LDST) == int(cudaArraySurfaceLoadStore));
}
#else
TEST_CASE("abi: layouts against the CUDA toolkit's headers") {
  WARN("skipped: no CUDA toolkit headers at " WARPSIM_CUDA_HOME "/include (set -DWARPSIM_CUDA_HOME=...)");
}
#endif
