// Driver API: CUDA IPC of memory and events (cuIpc*), the same as the runtime's cudaIpc*
// (runtime_ipc.cpp): handles of either API open with the other's calls. CUdeviceptr and
// CUevent are the runtime's pointers and events; CUipcMemHandle and CUipcEventHandle are the
// same 64 bytes as cudaIpcMemHandle_t and cudaIpcEventHandle_t, passed by value.
#include "sim/runtime/driver/driver_context.hpp"

using namespace warpsim::runtime;
using namespace warpsim::runtime::driver;
namespace cu = warpsim::cu;
using warpsim::cuda::IpcHandle;

namespace {

int open_mem_handle(const char* name, cu::DevicePtr* dptr, const IpcHandle& handle, unsigned flags) {
  return call(name, Needs::Context, [&](Runtime& rt) {
    require(dptr, name, "pdptr");
    *dptr = reinterpret_cast<cu::DevicePtr>(rt.ipc_open_mem_handle(&handle, flags, name));
  });
}

}  // namespace

WARPSIM_DRIVER_API int cuIpcGetMemHandle(IpcHandle* handle, cu::DevicePtr dptr) {
  return call("cuIpcGetMemHandle", Needs::Context, [&](Runtime& rt) {
    rt.ipc_get_mem_handle(handle, reinterpret_cast<const void*>(dptr), "cuIpcGetMemHandle");
  });
}

// cuda.h maps cuIpcOpenMemHandle to _v2 (CUDA 11); the first version is the same call.
WARPSIM_DRIVER_API int cuIpcOpenMemHandle_v2(cu::DevicePtr* dptr, IpcHandle handle, unsigned flags) {
  return open_mem_handle("cuIpcOpenMemHandle", dptr, handle, flags);
}
WARPSIM_DRIVER_API int cuIpcOpenMemHandle(cu::DevicePtr* dptr, IpcHandle handle, unsigned flags) {
  return open_mem_handle("cuIpcOpenMemHandle", dptr, handle, flags);
}

WARPSIM_DRIVER_API int cuIpcCloseMemHandle(cu::DevicePtr dptr) {
  return call("cuIpcCloseMemHandle", Needs::Context, [&](Runtime& rt) {
    rt.ipc_close_mem_handle(reinterpret_cast<void*>(dptr), "cuIpcCloseMemHandle");
  });
}

WARPSIM_DRIVER_API int cuIpcGetEventHandle(IpcHandle* handle, void* event) {
  return call("cuIpcGetEventHandle", Needs::Context,
              [&](Runtime& rt) { rt.ipc_get_event_handle(handle, event, "cuIpcGetEventHandle"); });
}

WARPSIM_DRIVER_API int cuIpcOpenEventHandle(void** event, IpcHandle handle) {
  return call("cuIpcOpenEventHandle", Needs::Context, [&](Runtime& rt) {
    require(event, "cuIpcOpenEventHandle", "phEvent");
    *event = rt.ipc_open_event_handle(&handle, "cuIpcOpenEventHandle");
  });
}
