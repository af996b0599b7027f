// Library management (CUDA 12): cudaLibraryLoadData/LoadFromFile, the kernels and variables
// of a library, cudaKernelSetAttributeForDevice. cudaLibrary_t and cudaKernel_t are the
// driver's CUlibrary and CUkernel (drv_library.cpp); a kernel handle is launched with
// cudaLaunchKernel and queried with cudaFuncGetAttributes like a host stub.
#include <fmt/format.h>

#include "sim/runtime/driver/driver_context.hpp"

using namespace warpsim::runtime;
using warpsim::runtime::api::call;
using warpsim::runtime::driver::require;
namespace cuda = warpsim::cuda;

WARPSIM_API int cudaLibraryLoadData(void** library, const void* code, int* jit, void** jit_values, unsigned n_jit,
                                    int* options, void** values, unsigned n_options) {
  return call("cudaLibraryLoadData", [&](Runtime& rt) {
    require(library, "cudaLibraryLoadData", "library");
    check_library_options("cudaLibraryLoadData", n_jit, jit, jit_values, n_options, options, values, false);
    *library = rt.load_library(code, "cudaLibraryLoadData");
  });
}

WARPSIM_API int cudaLibraryLoadFromFile(void** library, const char* path, int* jit, void** jit_values, unsigned n_jit,
                                        int* options, void** values, unsigned n_options) {
  return call("cudaLibraryLoadFromFile", [&](Runtime& rt) {
    require(library, "cudaLibraryLoadFromFile", "library");
    require(path, "cudaLibraryLoadFromFile", "fileName");
    check_library_options("cudaLibraryLoadFromFile", n_jit, jit, jit_values, n_options, options, values, true);
    *library = rt.load_library_file(path, "cudaLibraryLoadFromFile");
  });
}

WARPSIM_API int cudaLibraryUnload(void* library) {
  return call("cudaLibraryUnload", [&](Runtime& rt) { rt.unload_library(library, "cudaLibraryUnload"); });
}

WARPSIM_API int cudaLibraryGetKernel(void** kernel, void* library, const char* name) {
  return call("cudaLibraryGetKernel", [&](Runtime& rt) {
    require(kernel, "cudaLibraryGetKernel", "pKernel");
    *kernel = rt.library_kernel(library, name, "cudaLibraryGetKernel");
  });
}

WARPSIM_API int cudaLibraryGetKernelCount(unsigned* count, void* library) {
  return call("cudaLibraryGetKernelCount", [&](Runtime& rt) {
    require(count, "cudaLibraryGetKernelCount", "count");
    *count = rt.library_kernel_count(library, "cudaLibraryGetKernelCount");
  });
}

WARPSIM_API int cudaLibraryEnumerateKernels(void** kernels, unsigned n, void* library) {
  return call("cudaLibraryEnumerateKernels", [&](Runtime& rt) {
    require(kernels, "cudaLibraryEnumerateKernels", "kernels");
    const auto all = rt.library_kernels(library, "cudaLibraryEnumerateKernels");
    for (size_t i = 0; i < all.size() && i < n; ++i) kernels[i] = all[i];
  });
}

namespace {

int library_variable(const char* name, void** dptr, size_t* bytes, void* library, const char* symbol, bool managed) {
  return call(name, [&](Runtime& rt) {
    if (!dptr && !bytes) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: dptr and bytes are both NULL", name));
    const auto [address, size] = rt.library_global(library, symbol, managed, name);
    if (dptr) *dptr = reinterpret_cast<void*>(address);
    if (bytes) *bytes = size;
  });
}

}  // namespace

WARPSIM_API int cudaLibraryGetGlobal(void** dptr, size_t* bytes, void* library, const char* name) {
  return library_variable("cudaLibraryGetGlobal", dptr, bytes, library, name, false);
}

WARPSIM_API int cudaLibraryGetManaged(void** dptr, size_t* bytes, void* library, const char* name) {
  return library_variable("cudaLibraryGetManaged", dptr, bytes, library, name, true);
}

WARPSIM_API int cudaLibraryGetUnifiedFunction(void** fptr, void* library, const char* symbol) {
  return call("cudaLibraryGetUnifiedFunction", [&](Runtime& rt) {
    require(fptr, "cudaLibraryGetUnifiedFunction", "fptr");
    rt.library_unified_function(library, symbol, "cudaLibraryGetUnifiedFunction");
  });
}

WARPSIM_API int cudaKernelSetAttributeForDevice(void* kernel, int attr, int value, int device) {
  return call("cudaKernelSetAttributeForDevice", [&](Runtime& rt) {
    check_device(device, "cudaKernelSetAttributeForDevice");
    rt.set_func_attribute(kernel, attr, value, "cudaKernelSetAttributeForDevice");
  });
}
