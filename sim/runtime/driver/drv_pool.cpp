// Driver API: stream-ordered allocation and memory pools (cuMemAllocAsync, cuMemFreeAsync,
// cuMemPool*, cuDevice*MemPool), the runtime's (runtime_pools.cpp; pools shared with other
// processes through POSIX file descriptors, runtime_ipc_pools.cpp) under the driver's names.
// A CUmemoryPool is a cudaMemPool_t and CUmemPoolProps, CUmemAccessDesc, CUmemLocation and
// the pool attributes are the runtime's layouts and numbers (abi_test.cpp), so a pool made
// through either API works with the other's calls, as in CUDA.
#include "sim/runtime/driver/driver_context.hpp"

using namespace warpsim::runtime;
using namespace warpsim::runtime::driver;
namespace cu = warpsim::cu;
namespace cuda = warpsim::cuda;

namespace {

void* as_ptr(cu::DevicePtr p) { return reinterpret_cast<void*>(p); }

// pool null: the device's current pool (cuMemAllocAsync); from_pool: the call names one.
// 0 bytes: CUDA_SUCCESS and a pointer of 0, as on an H200 (cuMemAlloc refuses them).
int alloc_async(const char* name, cu::DevicePtr* dptr, size_t bytes, void* pool, bool from_pool, void* stream) {
  return call(name, Needs::Context, [&](Runtime& rt) {
    require(dptr, name, "dptr");
    *dptr = 0;
    if (from_pool) require(pool, name, "pool");
    *dptr = reinterpret_cast<cu::DevicePtr>(rt.malloc_async(bytes, pool, stream, name));
  });
}

}  // namespace

WARPSIM_DRIVER_API int cuDeviceGetDefaultMemPool(void** pool, int device) {
  return call("cuDeviceGetDefaultMemPool", Needs::Init, [&](Runtime& rt) {
    require(pool, "cuDeviceGetDefaultMemPool", "pool_out");
    check_device(device, "cuDeviceGetDefaultMemPool");
    *pool = rt.default_pool();
  });
}

WARPSIM_DRIVER_API int cuDeviceGetMemPool(void** pool, int device) {
  return call("cuDeviceGetMemPool", Needs::Init, [&](Runtime& rt) {
    require(pool, "cuDeviceGetMemPool", "pool");
    check_device(device, "cuDeviceGetMemPool");
    *pool = rt.current_pool();
  });
}

WARPSIM_DRIVER_API int cuDeviceSetMemPool(int device, void* pool) {
  return call("cuDeviceSetMemPool", Needs::Init, [&](Runtime& rt) {
    check_device(device, "cuDeviceSetMemPool");
    rt.set_current_pool(pool, "cuDeviceSetMemPool");
  });
}

WARPSIM_DRIVER_API int cuMemPoolCreate(void** pool, const cuda::MemPoolProps* props) {
  return call("cuMemPoolCreate", Needs::Init, [&](Runtime& rt) {
    require(pool, "cuMemPoolCreate", "pool");
    *pool = rt.create_pool(props, "cuMemPoolCreate");
  });
}

WARPSIM_DRIVER_API int cuMemPoolDestroy(void* pool) {
  return call("cuMemPoolDestroy", Needs::Init, [&](Runtime& rt) { rt.destroy_pool(pool, "cuMemPoolDestroy"); });
}

WARPSIM_DRIVER_API int cuMemPoolSetAttribute(void* pool, int attr, void* value) {
  return call("cuMemPoolSetAttribute", Needs::Init,
              [&](Runtime& rt) { rt.pool_set_attribute(pool, attr, value, "cuMemPoolSetAttribute"); });
}

WARPSIM_DRIVER_API int cuMemPoolGetAttribute(void* pool, int attr, void* value) {
  return call("cuMemPoolGetAttribute", Needs::Init,
              [&](Runtime& rt) { rt.pool_get_attribute(pool, attr, value, "cuMemPoolGetAttribute"); });
}

WARPSIM_DRIVER_API int cuMemPoolTrimTo(void* pool, size_t keep) {
  return call("cuMemPoolTrimTo", Needs::Init, [&](Runtime& rt) { rt.pool_trim(pool, keep, "cuMemPoolTrimTo"); });
}

WARPSIM_DRIVER_API int cuMemPoolSetAccess(void* pool, const cuda::MemAccessDesc* descs, size_t count) {
  return call("cuMemPoolSetAccess", Needs::Init,
              [&](Runtime& rt) { rt.pool_set_access(pool, descs, count, "cuMemPoolSetAccess"); });
}

WARPSIM_DRIVER_API int cuMemPoolGetAccess(int* flags, void* pool, cuda::MemLocation* location) {
  return call("cuMemPoolGetAccess", Needs::Init, [&](Runtime& rt) {
    require(flags, "cuMemPoolGetAccess", "flags");
    *flags = rt.pool_get_access(pool, location, "cuMemPoolGetAccess");
  });
}

WARPSIM_DRIVER_API int cuMemAllocAsync(cu::DevicePtr* dptr, size_t bytes, void* stream) {
  return alloc_async("cuMemAllocAsync", dptr, bytes, nullptr, false, stream);
}
WARPSIM_DRIVER_API int cuMemAllocAsync_ptsz(cu::DevicePtr* dptr, size_t bytes, void* stream) {
  return cuMemAllocAsync(dptr, bytes, stream);
}

WARPSIM_DRIVER_API int cuMemAllocFromPoolAsync(cu::DevicePtr* dptr, size_t bytes, void* pool, void* stream) {
  return alloc_async("cuMemAllocFromPoolAsync", dptr, bytes, pool, true, stream);
}
WARPSIM_DRIVER_API int cuMemAllocFromPoolAsync_ptsz(cu::DevicePtr* dptr, size_t bytes, void* pool, void* stream) {
  return cuMemAllocFromPoolAsync(dptr, bytes, pool, stream);
}

WARPSIM_DRIVER_API int cuMemFreeAsync(cu::DevicePtr dptr, void* stream) {
  return call("cuMemFreeAsync", Needs::Context,
              [&](Runtime& rt) { rt.free_async(as_ptr(dptr), stream, "cuMemFreeAsync"); });
}
WARPSIM_DRIVER_API int cuMemFreeAsync_ptsz(cu::DevicePtr dptr, void* stream) { return cuMemFreeAsync(dptr, stream); }

// Pools shared with other processes: a POSIX file descriptor
// (CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) and CUmemPoolPtrExportData, the runtime's 64
// bytes. Any flags are refused (flags != 0 is 1).
WARPSIM_DRIVER_API int cuMemPoolExportToShareableHandle(void* handle, void* pool, int handle_type,
                                                        unsigned long long flags) {
  return call("cuMemPoolExportToShareableHandle", Needs::Init, [&](Runtime& rt) {
    rt.ipc_pool_export(handle, pool, handle_type, flags != 0, "cuMemPoolExportToShareableHandle");
  });
}

WARPSIM_DRIVER_API int cuMemPoolImportFromShareableHandle(void** pool, void* handle, int handle_type,
                                                          unsigned long long flags) {
  return call("cuMemPoolImportFromShareableHandle", Needs::Init, [&](Runtime& rt) {
    require(pool, "cuMemPoolImportFromShareableHandle", "pool_out");
    *pool = rt.ipc_pool_import(handle, handle_type, flags != 0, "cuMemPoolImportFromShareableHandle");
  });
}

WARPSIM_DRIVER_API int cuMemPoolExportPointer(void* data, cu::DevicePtr ptr) {
  return call("cuMemPoolExportPointer", Needs::Context,
              [&](Runtime& rt) { rt.ipc_pool_export_pointer(data, as_ptr(ptr), "cuMemPoolExportPointer"); });
}

WARPSIM_DRIVER_API int cuMemPoolImportPointer(cu::DevicePtr* ptr, void* pool, void* data) {
  return call("cuMemPoolImportPointer", Needs::Context, [&](Runtime& rt) {
    require(ptr, "cuMemPoolImportPointer", "ptr_out");
    *ptr = reinterpret_cast<cu::DevicePtr>(rt.ipc_pool_import_pointer(pool, data, "cuMemPoolImportPointer"));
  });
}
