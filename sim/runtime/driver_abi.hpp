// The binary interface of NVIDIA's CUDA driver API (libcuda.so.1, cuda.h of CUDA 13) that
// warpsim's driver entry points take: the struct layouts and enum values programs pass.
// Written from the toolkit's documented header, without including it (the build needs no
// CUDA); tests/750_runtime/abi_test.cpp checks every layout against cuda.h where it exists.
#pragma once
#include <cstddef>
#include <cstdint>

namespace warpsim::cu {

using DevicePtr = unsigned long long;  // CUdeviceptr

// CUresult values the driver layer returns beyond those it shares with the runtime's
// cudaError_t (codes from 100 up are the same numbers in both).
enum Result : int {
  Success = 0,
  ErrorInvalidValue = 1,
  ErrorOutOfMemory = 2,
  ErrorNotInitialized = 3,
  ErrorDeinitialized = 4,
  ErrorInvalidDevice = 101,
  ErrorInvalidContext = 201,
  ErrorInvalidHandle = 400,
  ErrorNotFound = 500,
  ErrorNotSupported = 801,
};

enum MemoryType : int { MemoryTypeHost = 1, MemoryTypeDevice = 2, MemoryTypeArray = 3, MemoryTypeUnified = 4 };

enum ArrayFormat : int {
  FormatUnsignedInt8 = 0x01,
  FormatUnsignedInt16 = 0x02,
  FormatUnsignedInt32 = 0x03,
  FormatSignedInt8 = 0x08,
  FormatSignedInt16 = 0x09,
  FormatSignedInt32 = 0x0a,
  FormatHalf = 0x10,
  FormatFloat = 0x20,
};

struct Memcpy2D {  // CUDA_MEMCPY2D
  size_t srcXInBytes, srcY;
  MemoryType srcMemoryType;
  const void* srcHost;
  DevicePtr srcDevice;
  void* srcArray;
  size_t srcPitch;
  size_t dstXInBytes, dstY;
  MemoryType dstMemoryType;
  void* dstHost;
  DevicePtr dstDevice;
  void* dstArray;
  size_t dstPitch;
  size_t WidthInBytes, Height;
};

struct Memcpy3D {  // CUDA_MEMCPY3D
  size_t srcXInBytes, srcY, srcZ, srcLOD;
  MemoryType srcMemoryType;
  const void* srcHost;
  DevicePtr srcDevice;
  void* srcArray;
  void* reserved0;
  size_t srcPitch, srcHeight;
  size_t dstXInBytes, dstY, dstZ, dstLOD;
  MemoryType dstMemoryType;
  void* dstHost;
  DevicePtr dstDevice;
  void* dstArray;
  void* reserved1;
  size_t dstPitch, dstHeight;
  size_t WidthInBytes, Height, Depth;
};

struct ArrayDescriptor {  // CUDA_ARRAY_DESCRIPTOR
  size_t Width, Height;
  ArrayFormat Format;
  unsigned NumChannels;
};

struct Array3DDescriptor {  // CUDA_ARRAY3D_DESCRIPTOR
  size_t Width, Height, Depth;
  ArrayFormat Format;
  unsigned NumChannels;
  unsigned Flags;
};

enum ResourceType : int { ResourceArray = 0, ResourceMipmappedArray = 1, ResourceLinear = 2, ResourcePitch2D = 3 };
struct ResourceDesc {  // CUDA_RESOURCE_DESC
  ResourceType resType;
  union {
    struct {
      void* hArray;
    } array;
    struct {
      void* hMipmappedArray;
    } mipmap;
    struct {
      DevicePtr devPtr;
      ArrayFormat format;
      unsigned numChannels;
      size_t sizeInBytes;
    } linear;
    struct {
      DevicePtr devPtr;
      ArrayFormat format;
      unsigned numChannels;
      size_t width, height, pitchInBytes;
    } pitch2D;
    struct {
      int reserved[32];
    } reserved;
  } res;
  unsigned flags;
};

// CUDA_TEXTURE_DESC flags (CU_TRSF_*).
constexpr unsigned kReadAsInteger = 0x01, kNormalizedCoordinates = 0x02, kSrgb = 0x10,
                   kDisableTrilinearOptimization = 0x20, kSeamlessCubemap = 0x40;
struct TextureDesc {  // CUDA_TEXTURE_DESC
  int addressMode[3];  // CUaddress_mode: the runtime's cudaTextureAddressMode values
  int filterMode;      // CUfilter_mode
  unsigned flags;      // CU_TRSF_*
  unsigned maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  float borderColor[4];
  int reserved[12];
};

// Virtual memory management (cuMemCreate and its family). CUmemLocation and CUmemAccessDesc
// are the runtime's cudaMemLocation and cudaMemAccessDesc (cuda_abi.hpp).
using MemGenericAllocationHandle = unsigned long long;  // CUmemGenericAllocationHandle
enum MemAllocationType : int { MemAllocationTypeInvalid = 0, MemAllocationTypePinned = 1 };
enum MemAllocationGranularity : int { MemGranularityMinimum = 0, MemGranularityRecommended = 1 };
enum MemAllocationCompType : unsigned char { MemAllocationCompNone = 0, MemAllocationCompGeneric = 1 };
struct MemAllocationProp {  // CUmemAllocationProp
  int type;                  // MemAllocationType
  int requestedHandleTypes;  // CUmemAllocationHandleType bits (none: 0)
  struct {
    int type;  // CUmemLocationType: the runtime's MemLocationType
    int id;
  } location;
  void* win32HandleMetaData;
  struct {
    unsigned char compressionType;  // MemAllocationCompType
    unsigned char gpuDirectRDMACapable;
    unsigned short usage;
    unsigned char reserved[4];
  } allocFlags;
};

// cuLaunchKernel's `extra` markers (CU_LAUNCH_PARAM_*).
inline void* const kLaunchParamEnd = reinterpret_cast<void*>(0x00);
inline void* const kLaunchParamBufferPointer = reinterpret_cast<void*>(0x01);
inline void* const kLaunchParamBufferSize = reinterpret_cast<void*>(0x02);

// CUfunction_attribute.
enum FunctionAttribute : int {
  FuncMaxThreadsPerBlock = 0,
  FuncSharedSizeBytes = 1,
  FuncConstSizeBytes = 2,
  FuncLocalSizeBytes = 3,
  FuncNumRegs = 4,
  FuncPtxVersion = 5,
  FuncBinaryVersion = 6,
  FuncCacheModeCa = 7,
  FuncMaxDynamicSharedSizeBytes = 8,
  FuncPreferredSharedMemoryCarveout = 9,
};

// CUjit_option values cuModuleLoadDataEx and cuLinkCreate read or write here.
enum JitOption : int {
  JitInfoLogBuffer = 3,
  JitInfoLogBufferSizeBytes = 4,
  JitErrorLogBuffer = 5,
  JitErrorLogBufferSizeBytes = 6,
};
enum JitInputType : int { JitInputCubin = 0, JitInputPtx = 1, JitInputFatbinary = 2, JitInputObject = 3,
                          JitInputLibrary = 4 };

}  // namespace warpsim::cu
