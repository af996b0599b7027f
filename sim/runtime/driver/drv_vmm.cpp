// Driver API: virtual memory management (cuMemCreate, cuMemAddressReserve, cuMemMap,
// cuMemSetAccess and their family) on the simulated device's global memory
// (Device::create_physical and the calls beside it). The answers, refusals included, are an
// H100's (tests/750_runtime/programs/vmm.expected). Allocations exportable through POSIX
// file descriptors are shared with other processes (runtime_ipc_vmm.cpp). Not modelled,
// each refused with CUDA_ERROR_NOT_SUPPORTED and its reason: read-only access, memory on
// the host, other handle types, compression, GPUDirect RDMA and sparse tile pools.
#include <fmt/format.h>

#include <cstring>

#include "sim/runtime/driver/driver_context.hpp"

using namespace warpsim::runtime;
using namespace warpsim::runtime::driver;
namespace cuda = warpsim::cuda;
namespace cu = warpsim::cu;

namespace {

[[noreturn]] void refuse(cuda::Error code, const char* call, const std::string& why) {
  throw ApiError(code, fmt::format("{}: {}", call, why));
}

constexpr int kHandlePosixFd = 1;  // CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR

// cuMemCreate's properties: pinned device memory on device 0, nothing warpsim lacks.
void check_properties(const cu::MemAllocationProp* prop, const char* call) {
  require(prop, call, "prop");
  if (prop->type != cu::MemAllocationTypePinned)
    refuse(cuda::ErrorInvalidValue, call, fmt::format("prop->type {} (CU_MEM_ALLOCATION_TYPE_PINNED is 1)", prop->type));
  if (prop->location.type != cuda::MemLocationTypeDevice)
    refuse(cuda::ErrorNotSupported, call,
           fmt::format("prop->location.type {}: memory on the host is not modelled (only CU_MEM_LOCATION_TYPE_DEVICE)",
                       prop->location.type));
  if (prop->location.id != 0)
    refuse(cuda::ErrorInvalidDevice, call, fmt::format("device {} (the simulated GPU is device 0)", prop->location.id));
  if (prop->requestedHandleTypes & ~kHandlePosixFd)
    refuse(cuda::ErrorNotSupported, call,
           fmt::format("requestedHandleTypes {:#x}: warpsim exports memory to other processes through POSIX file "
                       "descriptors only (CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR 1)",
                       prop->requestedHandleTypes));
  if (prop->allocFlags.gpuDirectRDMACapable)
    refuse(cuda::ErrorNotSupported, call, "allocFlags.gpuDirectRDMACapable: GPUDirect RDMA is not modelled");
  if (prop->allocFlags.usage != 0)
    refuse(cuda::ErrorNotSupported, call,
           fmt::format("allocFlags.usage {:#x}: tile pools and hardware decompression are not modelled",
                       prop->allocFlags.usage));
}

// "" from the device is success; anything else is why it refused.
void ok_or(const std::string& why, cuda::Error code, const char* call) {
  if (!why.empty()) refuse(code, call, why);
}

}  // namespace

// The physical allocation calls (granularity, create, release, properties, export and
// import) act on a device, not a context: they need cuInit only, as cuda-samples'
// memMapIPCDrv relies on (its parent destroys its contexts and then allocates and exports,
// and its child unmaps and frees its reservation after destroying its context, on an
// H200), and so do unmapping and freeing a reservation. Reserving, mapping and setting
// access still need a current context.
WARPSIM_DRIVER_API int cuMemGetAllocationGranularity(size_t* granularity, const cu::MemAllocationProp* prop,
                                                     int option) {
  // An H100's driver answers this for any type and device; so does warpsim.
  return call("cuMemGetAllocationGranularity", Needs::Init, [&](Runtime&) {
    require(granularity, "cuMemGetAllocationGranularity", "granularity");
    require(prop, "cuMemGetAllocationGranularity", "prop");
    if (option != cu::MemGranularityMinimum && option != cu::MemGranularityRecommended)
      refuse(cuda::ErrorInvalidValue, "cuMemGetAllocationGranularity", fmt::format("option {}", option));
    *granularity = warpsim::Device::vmm_granularity();
  });
}

WARPSIM_DRIVER_API int cuMemCreate(cu::MemGenericAllocationHandle* handle, size_t size,
                                   const cu::MemAllocationProp* prop, unsigned long long flags) {
  return call("cuMemCreate", Needs::Init, [&](Runtime& rt) {
    require(handle, "cuMemCreate", "handle");
    if (flags != 0) refuse(cuda::ErrorInvalidValue, "cuMemCreate", fmt::format("flags {} (must be 0)", flags));
    check_properties(prop, "cuMemCreate");
    // A compressible allocation is made plain, as on a device without compression: the
    // program sees compressionType 0 in cuMemGetAllocationPropertiesFromHandle.
    const uint64_t g = warpsim::Device::vmm_granularity();
    if (size == 0 || size % g != 0)
      refuse(cuda::ErrorInvalidValue, "cuMemCreate",
             fmt::format("size {} is not a multiple of the granularity ({} bytes)", size, g));
    uint64_t id = 0;
    if (prop->requestedHandleTypes & kHandlePosixFd) id = rt.vmm_create_shareable(size);  // in a memfd
    else ok_or(rt.device().create_physical(size, &id), cuda::ErrorMemoryAllocation, "cuMemCreate");
    *handle = id;
  });
}

WARPSIM_DRIVER_API int cuMemRelease(cu::MemGenericAllocationHandle handle) {
  return call("cuMemRelease", Needs::Init, [&](Runtime& rt) {
    ok_or(rt.device().release_physical(handle), cuda::ErrorInvalidValue, "cuMemRelease");
  });
}

WARPSIM_DRIVER_API int cuMemGetAllocationPropertiesFromHandle(cu::MemAllocationProp* prop,
                                                              cu::MemGenericAllocationHandle handle) {
  return call("cuMemGetAllocationPropertiesFromHandle", Needs::Init, [&](Runtime& rt) {
    require(prop, "cuMemGetAllocationPropertiesFromHandle", "prop");
    if (!rt.device().physical_bytes(handle))
      refuse(cuda::ErrorInvalidValue, "cuMemGetAllocationPropertiesFromHandle",
             fmt::format("{:#x} is not a live allocation handle", handle));
    *prop = cu::MemAllocationProp{};
    prop->type = cu::MemAllocationTypePinned;
    prop->location.type = cuda::MemLocationTypeDevice;
    prop->location.id = 0;
    prop->requestedHandleTypes = rt.vmm_shareable(handle) ? kHandlePosixFd : 0;
  });
}

// Shareable allocations (Runtime::vmm_*, runtime_ipc_vmm.cpp): the handle is an int file
// descriptor, passed to another process as the program likes (cuda-samples use a Unix socket).
WARPSIM_DRIVER_API int cuMemExportToShareableHandle(void* shareable, cu::MemGenericAllocationHandle handle, int type,
                                                    unsigned long long flags) {
  return call("cuMemExportToShareableHandle", Needs::Init, [&](Runtime& rt) {
    require(shareable, "cuMemExportToShareableHandle", "shareableHandle");
    if (type != kHandlePosixFd)
      refuse(cuda::ErrorInvalidValue, "cuMemExportToShareableHandle",
             fmt::format("handle type {} (CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR is 1)", type));
    if (flags) refuse(cuda::ErrorInvalidValue, "cuMemExportToShareableHandle", "flags must be 0");
    const int fd = rt.vmm_export(handle);
    std::memcpy(shareable, &fd, sizeof fd);
  });
}

WARPSIM_DRIVER_API int cuMemImportFromShareableHandle(cu::MemGenericAllocationHandle* handle, void* os_handle,
                                                      int type) {
  return call("cuMemImportFromShareableHandle", Needs::Init, [&](Runtime& rt) {
    require(handle, "cuMemImportFromShareableHandle", "handle");
    if (type != kHandlePosixFd)
      refuse(cuda::ErrorInvalidValue, "cuMemImportFromShareableHandle",
             fmt::format("handle type {} (CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR is 1)", type));
    *handle = rt.vmm_import(static_cast<int>(reinterpret_cast<intptr_t>(os_handle)));
  });
}

WARPSIM_DRIVER_API int cuMemRetainAllocationHandle(cu::MemGenericAllocationHandle* handle, void* addr) {
  return call("cuMemRetainAllocationHandle", Needs::Context, [&](Runtime& rt) {
    require(handle, "cuMemRetainAllocationHandle", "handle");
    const auto m = rt.device().mapping_at(reinterpret_cast<warpsim::DevPtr>(addr));
    if (!m)
      refuse(cuda::ErrorInvalidValue, "cuMemRetainAllocationHandle",
             fmt::format("{} is not in memory cuMemMap mapped", addr));
    ok_or(rt.device().retain_physical(m->first), cuda::ErrorInvalidValue, "cuMemRetainAllocationHandle");
    *handle = m->first;
  });
}

WARPSIM_DRIVER_API int cuMemAddressReserve(cu::DevicePtr* ptr, size_t size, size_t alignment, cu::DevicePtr addr,
                                           unsigned long long flags) {
  return call("cuMemAddressReserve", Needs::Context, [&](Runtime& rt) {
    require(ptr, "cuMemAddressReserve", "ptr");
    if (flags != 0) refuse(cuda::ErrorInvalidValue, "cuMemAddressReserve", fmt::format("flags {} (must be 0)", flags));
    uint64_t base = 0;
    ok_or(rt.device().reserve(size, alignment, addr, &base), cuda::ErrorInvalidValue, "cuMemAddressReserve");
    *ptr = base;
  });
}

WARPSIM_DRIVER_API int cuMemAddressFree(cu::DevicePtr ptr, size_t size) {
  return call("cuMemAddressFree", Needs::Init, [&](Runtime& rt) {
    ok_or(rt.device().unreserve(ptr, size), cuda::ErrorInvalidValue, "cuMemAddressFree");
  });
}

WARPSIM_DRIVER_API int cuMemMap(cu::DevicePtr ptr, size_t size, size_t offset, cu::MemGenericAllocationHandle handle,
                                unsigned long long flags) {
  return call("cuMemMap", Needs::Context, [&](Runtime& rt) {
    if (flags != 0) refuse(cuda::ErrorInvalidValue, "cuMemMap", fmt::format("flags {} (must be 0)", flags));
    warpsim::Device& d = rt.device();
    const uint64_t bytes = d.physical_bytes(handle), g = warpsim::Device::vmm_granularity();
    if (!bytes) refuse(cuda::ErrorInvalidValue, "cuMemMap", fmt::format("{:#x} is not a live allocation handle", handle));
    // An H100 answers CUDA_ERROR_NOT_SUPPORTED for these three.
    if (offset != 0) refuse(cuda::ErrorNotSupported, "cuMemMap", fmt::format("offset {} (must be 0)", offset));
    if (size == 0 || size % g != 0 || ptr % g != 0)
      refuse(cuda::ErrorNotSupported, "cuMemMap",
             fmt::format("address {:#x} and size {} must be multiples of the granularity ({} bytes)", ptr, size, g));
    if (size > bytes)
      refuse(cuda::ErrorNotSupported, "cuMemMap",
             fmt::format("size {} is larger than the allocation ({} bytes)", size, bytes));
    ok_or(d.map_physical(ptr, size, handle), cuda::ErrorInvalidValue, "cuMemMap");
  });
}

WARPSIM_DRIVER_API int cuMemUnmap(cu::DevicePtr ptr, size_t size) {
  return call("cuMemUnmap", Needs::Init, [&](Runtime& rt) {
    rt.synchronize();
    ok_or(rt.device().unmap(ptr, size), cuda::ErrorInvalidValue, "cuMemUnmap");
  });
}

WARPSIM_DRIVER_API int cuMemSetAccess(cu::DevicePtr ptr, size_t size, const cuda::MemAccessDesc* desc, size_t count) {
  return call("cuMemSetAccess", Needs::Context, [&](Runtime& rt) {
    require(desc, "cuMemSetAccess", "desc");
    if (count == 0) refuse(cuda::ErrorInvalidValue, "cuMemSetAccess", "count is 0");
    bool grant = false;
    for (size_t i = 0; i < count; ++i) {
      const cuda::MemAccessDesc& a = desc[i];
      if (a.location.type != cuda::MemLocationTypeDevice || a.location.id != 0)
        refuse(cuda::ErrorInvalidValue, "cuMemSetAccess",
               fmt::format("desc[{}] names location {}/{} (the simulated GPU is device 0)", i, a.location.type,
                           a.location.id));
      if (a.flags == cuda::MemAccessFlagsProtRead)
        refuse(cuda::ErrorNotSupported, "cuMemSetAccess",
               fmt::format("desc[{}]: read-only access is not modelled (CU_MEM_ACCESS_FLAGS_PROT_READWRITE or _NONE)",
                           i));
      if (a.flags != cuda::MemAccessFlagsProtReadWrite && a.flags != cuda::MemAccessFlagsProtNone)
        refuse(cuda::ErrorInvalidValue, "cuMemSetAccess", fmt::format("desc[{}].flags {}", i, a.flags));
      grant = a.flags == cuda::MemAccessFlagsProtReadWrite;
    }
    rt.synchronize();
    ok_or(rt.device().set_access(ptr, size, grant), cuda::ErrorInvalidValue, "cuMemSetAccess");
  });
}

WARPSIM_DRIVER_API int cuMemGetAccess(unsigned long long* flags, const cuda::MemLocation* location, cu::DevicePtr ptr) {
  return call("cuMemGetAccess", Needs::Context, [&](Runtime& rt) {
    require(flags, "cuMemGetAccess", "flags");
    require(location, "cuMemGetAccess", "location");
    if (location->type != cuda::MemLocationTypeDevice || location->id != 0)
      refuse(cuda::ErrorInvalidValue, "cuMemGetAccess",
             fmt::format("location {}/{} (the simulated GPU is device 0)", location->type, location->id));
    const auto m = rt.device().mapping_at(ptr);
    if (!m) refuse(cuda::ErrorInvalidValue, "cuMemGetAccess", fmt::format("nothing is mapped at {:#x}", ptr));
    *flags = m->second ? cuda::MemAccessFlagsProtReadWrite : cuda::MemAccessFlagsProtNone;
  });
}
