// CUDA IPC (interprocess memory and events) between processes that each run under warpsim
// (Runtime::ipc_*, runtime_ipc.cpp). Handles are passed by value, as CUDA declares them.
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
