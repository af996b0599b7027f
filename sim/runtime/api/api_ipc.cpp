// CUDA IPC between processes that each run under warpsim: interprocess memory and events
// (Runtime::ipc_*, runtime_ipc.cpp; handles passed by value, as CUDA declares them) and
// memory pools shared through a POSIX file descriptor (runtime_ipc_pools.cpp).
#include "sim/runtime/driver/process_context.hpp"

using namespace warpsim::runtime;
using warpsim::cuda::IpcHandle;
using warpsim::runtime::api::call;

WARPSIM_API int cudaIpcGetMemHandle(IpcHandle* handle, void* ptr) {
  return call("cudaIpcGetMemHandle", [&](Runtime& rt) { rt.ipc_get_mem_handle(handle, ptr); });
}

WARPSIM_API int cudaIpcOpenMemHandle(void** ptr, IpcHandle handle, unsigned flags) {
  return call("cudaIpcOpenMemHandle", [&](Runtime& rt) {
    if (!ptr) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaIpcOpenMemHandle: devPtr is NULL");
    *ptr = rt.ipc_open_mem_handle(&handle, flags);
  });
}

WARPSIM_API int cudaIpcCloseMemHandle(void* ptr) {
  return call("cudaIpcCloseMemHandle", [&](Runtime& rt) { rt.ipc_close_mem_handle(ptr); });
}

WARPSIM_API int cudaIpcGetEventHandle(IpcHandle* handle, void* event) {
  return call("cudaIpcGetEventHandle", [&](Runtime& rt) { rt.ipc_get_event_handle(handle, event); });
}

WARPSIM_API int cudaIpcOpenEventHandle(void** event, IpcHandle handle) {
  return call("cudaIpcOpenEventHandle", [&](Runtime& rt) {
    if (!event) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaIpcOpenEventHandle: event is NULL");
    *event = rt.ipc_open_event_handle(&handle);
  });
}

WARPSIM_API int cudaMemPoolExportToShareableHandle(void* handle, void* pool, int handle_type, unsigned flags) {
  return call("cudaMemPoolExportToShareableHandle", [&](Runtime& rt) {
    rt.ipc_pool_export(handle, pool, handle_type, flags, "cudaMemPoolExportToShareableHandle");
  });
}

WARPSIM_API int cudaMemPoolImportFromShareableHandle(void** pool, void* handle, int handle_type, unsigned flags) {
  return call("cudaMemPoolImportFromShareableHandle", [&](Runtime& rt) {
    if (!pool) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaMemPoolImportFromShareableHandle: memPool is NULL");
    *pool = rt.ipc_pool_import(handle, handle_type, flags, "cudaMemPoolImportFromShareableHandle");
  });
}

WARPSIM_API int cudaMemPoolExportPointer(void* data, void* ptr) {
  return call("cudaMemPoolExportPointer",
              [&](Runtime& rt) { rt.ipc_pool_export_pointer(data, ptr, "cudaMemPoolExportPointer"); });
}

WARPSIM_API int cudaMemPoolImportPointer(void** ptr, void* pool, void* data) {
  return call("cudaMemPoolImportPointer", [&](Runtime& rt) {
    if (!ptr) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaMemPoolImportPointer: ptr is NULL");
    *ptr = rt.ipc_pool_import_pointer(pool, data, "cudaMemPoolImportPointer");
  });
}
