// The binary interface of NVIDIA's CUDA runtime (libcudart.so.13) that programs built by
// nvcc call: the types, enum values and struct layouts the entry points take. Written
// here so that the runtime builds without the CUDA toolkit; tests/700_runtime checks every
// layout against the toolkit's own headers when they are installed.
#pragma once
#include <cstddef>
#include <cstdint>

namespace warpsim::cuda {

// cudaError_t values used by this runtime (driver_types.h numbering).
// The CUDA version this runtime stands in for (cudaRuntimeGetVersion's encoding).
inline constexpr int kRuntimeVersion = 13000;
// What cudaRuntimeGetVersion says in a kernel (the device runtime's version): 6000 on an
// H200 with CUDA 13.0 (tests/750_runtime/programs/dynamic_parallelism.expected).
inline constexpr int kDeviceRuntimeVersion = 6000;

enum Error : int {
  Success = 0,
  ErrorInvalidValue = 1,
  ErrorMemoryAllocation = 2,
  ErrorInitializationError = 3,
  ErrorCudartUnloading = 4,
  ErrorInvalidConfiguration = 9,
  ErrorInvalidPitchValue = 12,
  ErrorInvalidSymbol = 13,
  ErrorInvalidHostPointer = 16,
  ErrorInvalidTexture = 18,
  ErrorInvalidChannelDescriptor = 20,
  ErrorInvalidFilterSetting = 26,
  ErrorInvalidNormSetting = 27,
  ErrorInvalidDevicePointer = 17,
  ErrorInvalidMemcpyDirection = 21,
  ErrorInvalidDeviceFunction = 98,
  ErrorUnsupportedLimit = 215,
  ErrorPeerAccessUnsupported = 217,
  ErrorPeerAccessNotEnabled = 705,
  ErrorNoDevice = 100,
  ErrorInvalidDevice = 101,
  ErrorInvalidKernelImage = 200,
  ErrorDeviceUninitialized = 201,  // the driver's CUDA_ERROR_INVALID_CONTEXT
  ErrorNoKernelImageForDevice = 209,
  ErrorInvalidPtx = 218,
  ErrorFileNotFound = 301,
  ErrorOperatingSystem = 304,
  ErrorInvalidResourceHandle = 400,
  ErrorIllegalState = 401,
  ErrorSymbolNotFound = 500,
  ErrorNotReady = 600,
  ErrorIllegalAddress = 700,
  ErrorLaunchOutOfResources = 701,
  ErrorLaunchTimeout = 702,
  ErrorAssert = 710,
  ErrorHostMemoryAlreadyRegistered = 712,
  ErrorHostMemoryNotRegistered = 713,
  ErrorIllegalInstruction = 715,
  ErrorMisalignedAddress = 716,
  ErrorLaunchFailure = 719,
  ErrorCooperativeLaunchTooLarge = 720,
  ErrorNotPermitted = 800,
  ErrorNotSupported = 801,
  ErrorStreamCaptureUnsupported = 900,
  ErrorStreamCaptureInvalidated = 901,
  ErrorStreamCaptureUnmatched = 903,
  ErrorGraphExecUpdateFailure = 910,
  ErrorInvalidClusterSize = 912,
  ErrorUnknown = 999,
};

// cudaIpcMemHandle_t and cudaIpcEventHandle_t (driver_types.h): 64 opaque bytes, passed by value.
struct IpcHandle {
  char reserved[64];
};

struct Dim3 {
  unsigned x, y, z;
};

enum MemcpyKind : int { HostToHost = 0, HostToDevice = 1, DeviceToHost = 2, DeviceToDevice = 3, Default = 4 };

enum MemoryType : int { Unregistered = 0, Host = 1, Device = 2, Managed = 3 };

struct PointerAttributes {
  MemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
  long reserved[8];
};

struct FuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};

// cudaDeviceProp as CUDA 13 lays it out (clockRate and memoryClockRate are no longer in
// it; programs ask cudaDeviceGetAttribute for them).
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
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
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
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
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
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned int gpuPciDeviceID;
  unsigned int gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
};

// cudaDeviceAttr values this runtime answers (driver_types.h numbering).
enum DeviceAttr : int {
  AttrMaxThreadsPerBlock = 1,
  AttrMaxBlockDimX = 2,
  AttrMaxBlockDimY = 3,
  AttrMaxBlockDimZ = 4,
  AttrMaxGridDimX = 5,
  AttrMaxGridDimY = 6,
  AttrMaxGridDimZ = 7,
  AttrMaxSharedMemoryPerBlock = 8,
  AttrTotalConstantMemory = 9,
  AttrWarpSize = 10,
  AttrMaxPitch = 11,
  AttrMaxRegistersPerBlock = 12,
  AttrClockRate = 13,
  AttrTextureAlignment = 14,
  AttrGpuOverlap = 15,
  AttrMultiProcessorCount = 16,
  AttrKernelExecTimeout = 17,
  AttrIntegrated = 18,
  AttrCanMapHostMemory = 19,
  AttrComputeMode = 20,
  AttrConcurrentKernels = 31,
  AttrEccEnabled = 32,
  AttrPciBusId = 33,
  AttrPciDeviceId = 34,
  AttrTccDriver = 35,
  AttrMemoryClockRate = 36,
  AttrGlobalMemoryBusWidth = 37,
  AttrL2CacheSize = 38,
  AttrMaxThreadsPerMultiProcessor = 39,
  AttrAsyncEngineCount = 40,
  AttrUnifiedAddressing = 41,
  AttrPciDomainId = 50,
  AttrComputeCapabilityMajor = 75,
  AttrComputeCapabilityMinor = 76,
  AttrMaxSharedMemoryPerMultiprocessor = 81,
  AttrMaxRegistersPerMultiprocessor = 82,
  AttrManagedMemory = 83,
  AttrConcurrentManagedAccess = 89,
  AttrCanUseHostPointerForRegisteredMem = 91,
  AttrHostRegisterSupported = 99,
  AttrCooperativeLaunch = 95,
  AttrMaxSharedMemoryPerBlockOptin = 97,
  AttrMaxBlocksPerMultiprocessor = 106,
  AttrMaxPersistingL2CacheSize = 108,
  AttrMaxAccessPolicyWindowSize = 109,
  AttrReservedSharedMemoryPerBlock = 111,
  AttrMemoryPoolsSupported = 115,
  // The driver's CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED (no cudaDeviceAttr
  // name; cudaDeviceGetAttribute answers it as the driver does).
  AttrVirtualMemoryManagementSupported = 102,
  AttrMemoryPoolSupportedHandleTypes = 119,
};

// cudaFuncCache
enum FuncCache : int { PreferNone = 0, PreferShared = 1, PreferL1 = 2, PreferEqual = 3 };
// cudaFuncAttribute (driver_types.h): 10 to 15 are the thread-block cluster attributes.
enum FuncAttribute : int {
  FuncAttrMaxDynamicSharedMemorySize = 8,
  FuncAttrPreferredSharedMemoryCarveout = 9,
  FuncAttrClusterDimMustBeSet = 10,
  FuncAttrRequiredClusterWidth = 11,
  FuncAttrRequiredClusterHeight = 12,
  FuncAttrRequiredClusterDepth = 13,
  FuncAttrNonPortableClusterSizeAllowed = 14,
  FuncAttrClusterSchedulingPolicyPreference = 15,
  FuncAttrMax = 16,
};

// The wrapper nvcc's host code passes to __cudaRegisterFatBinary (section .nvFatBinSegment).
struct FatbinWrapper {
  int magic;  // kFatbinWrapperMagic
  int version;
  const unsigned long long* data;  // the fatbinary (header + entries)
  void* filename_or_fatbins;
};
constexpr int kFatbinWrapperMagic = 0x466243b1;
constexpr int kFatbinWrapperLinked = 2;  // -rdc=true: filename_or_fatbins lists each unit's fatbinary


// --- CUDA arrays, texture and surface objects (driver_types.h, texture_types.h) ---
enum ChannelFormatKind : int { ChannelSigned = 0, ChannelUnsigned = 1, ChannelFloat = 2, ChannelNone = 3 };
struct ChannelFormatDesc {
  int x, y, z, w;         // bits per channel
  ChannelFormatKind f;
};
struct Extent {
  size_t width, height, depth;
};
struct Pos {
  size_t x, y, z;
};
struct PitchedPtr {
  void* ptr;
  size_t pitch, xsize, ysize;
};
struct Memcpy3DParms {
  void* srcArray;
  Pos srcPos;
  PitchedPtr srcPtr;
  void* dstArray;
  Pos dstPos;
  PitchedPtr dstPtr;
  Extent extent;
  MemcpyKind kind;
};
// cudaMemcpy3DPeerParms: cudaMemcpy3DParms' sides with a device each, and no kind.
struct Memcpy3DPeerParms {
  void* srcArray;
  Pos srcPos;
  PitchedPtr srcPtr;
  int srcDevice;
  void* dstArray;
  Pos dstPos;
  PitchedPtr dstPtr;
  int dstDevice;
  Extent extent;
};
// CUDA graphs' node parameters (cudaKernelNodeParams, cudaMemsetParams, cudaHostNodeParams)
// and cudaGraphExecUpdate's result.
struct KernelNodeParams {
  void* func;
  Dim3 gridDim, blockDim;
  unsigned sharedMemBytes;
  void** kernelParams;
  void** extra;
};
struct MemsetParams {
  void* dst;
  size_t pitch;
  unsigned value, elementSize;
  size_t width, height;
};
struct HostNodeParams {
  void (*fn)(void*);
  void* userData;
};
enum GraphExecUpdateResult : int { GraphExecUpdateSuccess = 0, GraphExecUpdateError = 1,
                                   GraphExecUpdateErrorTopologyChanged = 2, GraphExecUpdateErrorNodeTypeChanged = 3,
                                   GraphExecUpdateErrorParametersChanged = 5,
                                   GraphExecUpdateErrorNotSupported = 6 };
// cudaGraphInstantiateWithParams: flags in; the failing node and the outcome out
// (cudaGraphInstantiateResult: 0 success, 1 error, 2 a cycle, 3 a node not supported).
struct GraphInstantiateParams {
  unsigned long long flags;
  void* uploadStream;
  void* errNode_out;
  int result_out;
};
enum GraphInstantiateResult : int { GraphInstantiateSuccess = 0, GraphInstantiateError = 1,
                                    GraphInstantiateInvalidStructure = 2 };
inline constexpr unsigned long long GraphInstantiateFlagUpload = 2;

struct GraphExecUpdateResultInfo {
  GraphExecUpdateResult result;
  void* errorNode;
  void* errorFromNode;
};
// cudaGraphAddNode's node parameters (cudaGraphNodeParams): the type and one struct per
// type (cudaKernelNodeParamsV2, cudaMemsetParamsV2 and cudaHostNodeParamsV2 are laid out as
// their first versions); cudaGraphEdgeData.
enum GraphNodeType : int { GraphNodeTypeKernel = 0, GraphNodeTypeMemcpy = 1, GraphNodeTypeMemset = 2,
                           GraphNodeTypeHost = 3, GraphNodeTypeGraph = 4, GraphNodeTypeEmpty = 5,
                           GraphNodeTypeWaitEvent = 6, GraphNodeTypeEventRecord = 7,
                           GraphNodeTypeExtSemaphoreSignal = 8, GraphNodeTypeExtSemaphoreWait = 9,
                           GraphNodeTypeMemAlloc = 10, GraphNodeTypeMemFree = 11, GraphNodeTypeConditional = 13 };
enum GraphConditionalNodeType : int { GraphCondTypeIf = 0, GraphCondTypeWhile = 1, GraphCondTypeSwitch = 2 };
inline constexpr unsigned GraphCondAssignDefault = 1;
struct ConditionalNodeParams {
  uint64_t handle;
  int type;  // GraphConditionalNodeType
  unsigned size;
  void** phGraph_out;  // out: the node's body graphs
};
struct MemcpyNodeParams {
  int flags;
  int reserved[3];
  Memcpy3DParms copyParams;
};
enum GraphChildGraphNodeOwnership : int { GraphChildGraphOwnershipClone = 0, GraphChildGraphOwnershipMove = 1 };
struct ChildGraphNodeParams {
  void* graph;
  int ownership;  // GraphChildGraphNodeOwnership
};
struct EventNodeParams {  // cudaEventRecordNodeParams, cudaEventWaitNodeParams
  void* event;
};
struct MemFreeNodeParams {
  void* dptr;
};
struct GraphEdgeData {
  unsigned char from_port, to_port, type, reserved[5];
};
enum StreamCaptureStatus : int { StreamCaptureStatusNone = 0, StreamCaptureStatusActive = 1,
                                 StreamCaptureStatusInvalidated = 2 };
inline constexpr unsigned StreamAddCaptureDependencies = 0, StreamSetCaptureDependencies = 1;
// Stream-ordered allocation (driver_types.h): pools, their properties and attributes, and
// graph memory nodes.
enum MemPoolAttr : int { MemPoolReuseFollowEventDependencies = 1, MemPoolReuseAllowOpportunistic = 2,
                         MemPoolReuseAllowInternalDependencies = 3, MemPoolAttrReleaseThreshold = 4,
                         MemPoolAttrReservedMemCurrent = 5, MemPoolAttrReservedMemHigh = 6,
                         MemPoolAttrUsedMemCurrent = 7, MemPoolAttrUsedMemHigh = 8 };
enum GraphMemAttr : int { GraphMemAttrUsedMemCurrent = 0, GraphMemAttrUsedMemHigh = 1,
                          GraphMemAttrReservedMemCurrent = 2, GraphMemAttrReservedMemHigh = 3 };
enum MemLocationType : int {
  MemLocationTypeInvalid = 0,
  MemLocationTypeDevice = 1,
  MemLocationTypeHost = 2,
  MemLocationTypeHostNuma = 3,
  MemLocationTypeHostNumaCurrent = 4
};
enum MemAllocationType : int {
  MemAllocationTypeInvalid = 0,
  MemAllocationTypePinned = 1,
  MemAllocationTypeManaged = 2
};
enum MemAccessFlags : int { MemAccessFlagsProtNone = 0, MemAccessFlagsProtRead = 1, MemAccessFlagsProtReadWrite = 3 };
struct MemLocation {
  int type;  // MemLocationType
  int id;
};
// cudaMemcpyAttributes (cudaMemcpyBatchAsync): srcAccessOrder is cudaMemcpySrcAccessOrder
// (1 stream, 2 during the call, 3 any; 0 invalid).
struct MemcpyAttributes {
  int srcAccessOrder;
  MemLocation srcLocHint, dstLocHint;
  unsigned flags;
};
struct MemPoolProps {
  int allocType;    // MemAllocationType
  int handleTypes;  // cudaMemAllocationHandleType: 0 = none
  MemLocation location;
  void* win32SecurityAttributes;
  size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};
struct MemAccessDesc {
  MemLocation location;
  int flags;  // MemAccessFlags
};
struct MemAllocNodeParams {
  MemPoolProps poolProps;
  const MemAccessDesc* accessDescs;
  size_t accessDescCount;
  size_t bytesize;
  void* dptr;  // out
};
// cudaGraphAddNode's parameters (the per-type structs are above).
struct GraphNodeParams {
  int type;  // GraphNodeType
  int reserved0[3];
  union {
    long long reserved1[29];
    KernelNodeParams kernel;
    MemcpyNodeParams memcpy;
    MemsetParams memset;
    HostNodeParams host;
    ChildGraphNodeParams graph;
    EventNodeParams eventWait;
    EventNodeParams eventRecord;
    MemAllocNodeParams alloc;
    MemFreeNodeParams free;
    ConditionalNodeParams conditional;
  };
  long long reserved2;
};
// cudaLaunchKernelEx's configuration (cudaLaunchConfig_t) and attributes.
enum LaunchAttributeId : int { LaunchAttributeIgnore = 0, LaunchAttributeAccessPolicyWindow = 1,
                               LaunchAttributeCooperative = 2, LaunchAttributeSynchronizationPolicy = 3,
                               LaunchAttributeClusterDimension = 4,
                               LaunchAttributeClusterSchedulingPolicyPreference = 5,
                               LaunchAttributeProgrammaticStreamSerialization = 6,
                               LaunchAttributeProgrammaticEvent = 7, LaunchAttributePriority = 8,
                               LaunchAttributeMemSyncDomainMap = 9, LaunchAttributeMemSyncDomain = 10,
                               LaunchAttributePreferredClusterDimension = 11,
                               LaunchAttributeLaunchCompletionEvent = 12,
                               LaunchAttributeDeviceUpdatableKernelNode = 13,
                               LaunchAttributePreferredSharedMemoryCarveout = 14 };
// cudaAccessPolicyWindow (driver_types.h): hitProp/missProp are cudaAccessProperty values
// (0 normal, 1 streaming, 2 persisting).
struct AccessPolicyWindow {
  void* base_ptr;
  size_t num_bytes;
  float hitRatio;
  int hitProp;
  int missProp;
};
// cudaLimit (driver_types.h): the ones warpsim models beyond the stack and the heap.
constexpr int LimitDevRuntimePendingLaunchCount = 4;
constexpr int LimitPersistingL2CacheSize = 6;

// cudaLaunchAttributeValue, which is also cudaStreamAttrValue and cudaKernelNodeAttrValue.
union LaunchAttributeValue {
  char pad[64];
  AccessPolicyWindow accessPolicyWindow;
  int cooperative;
  int syncPolicy;  // cudaSynchronizationPolicy
  struct {
    unsigned x, y, z;
  } clusterDim;
  int clusterSchedulingPolicyPreference;
  int programmaticStreamSerializationAllowed;
  int priority;
  struct {
    unsigned char default_, remote;
  } memSyncDomainMap;
  int memSyncDomain;
  unsigned sharedMemCarveout;
};

struct LaunchAttribute {
  int id;  // LaunchAttributeId
  char pad[8 - sizeof(int)];
  LaunchAttributeValue val;
};
struct LaunchConfig {
  Dim3 gridDim, blockDim;
  size_t dynamicSmemBytes;
  void* stream;
  LaunchAttribute* attrs;
  unsigned numAttrs;
};
// cudaMallocArray/cudaMalloc3DArray flags.
enum ArrayFlags : unsigned { ArrayLayered = 1, ArraySurfaceLoadStore = 2, ArrayCubemap = 4, ArrayTextureGather = 8 };
enum ResourceType : int { ResourceArray = 0, ResourceMipmappedArray = 1, ResourceLinear = 2, ResourcePitch2D = 3 };
struct ResourceDesc {
  ResourceType resType;
  union {
    struct {
      void* array;
    } array;
    struct {
      void* mipmap;
    } mipmap;
    struct {
      void* devPtr;
      ChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      ChannelFormatDesc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
    struct {
      int reserved[32];
    } reserved;
  } res;
  unsigned flags;
};
struct TextureDesc {
  int addressMode[3];     // cudaTextureAddressMode
  int filterMode;         // cudaTextureFilterMode
  int readMode;           // cudaTextureReadMode
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};

}  // namespace warpsim::cuda
