// Driver API: libraries (cuLibrary*, loaded once for every context, at first use) and the
// kernel handles they hand out (cuKernel*). A CUkernel stands for its library module's
// CUfunction (Runtime::library_kernel), so cuLaunchKernel and every cuFunc* call take it as
// well, and an attribute set through either handle is the kernel's, as on an H200
// (tests/750_runtime/programs/library_api.expected).
#include <fmt/format.h>

#include "sim/runtime/driver/driver_context.hpp"
#include "sim/runtime/driver/function_attributes.hpp"

using namespace warpsim::runtime;
using namespace warpsim::runtime::driver;
namespace cuda = warpsim::cuda;
namespace cu = warpsim::cu;

namespace {


}  // namespace

WARPSIM_DRIVER_API int cuLibraryLoadData(void** library, const void* code, int* jit, void** jit_values, unsigned n_jit,
                                         int* options, void** values, unsigned n_options) {
  return call("cuLibraryLoadData", Needs::Init, [&](Runtime& rt) {
    require(library, "cuLibraryLoadData", "library");
    check_library_options("cuLibraryLoadData", n_jit, jit, jit_values, n_options, options, values, false);
    *library = rt.load_library(code, "cuLibraryLoadData");
  });
}

WARPSIM_DRIVER_API int cuLibraryLoadFromFile(void** library, const char* path, int* jit, void** jit_values,
                                             unsigned n_jit, int* options, void** values, unsigned n_options) {
  return call("cuLibraryLoadFromFile", Needs::Init, [&](Runtime& rt) {
    require(library, "cuLibraryLoadFromFile", "library");
    require(path, "cuLibraryLoadFromFile", "fileName");
    check_library_options("cuLibraryLoadFromFile", n_jit, jit, jit_values, n_options, options, values, true);
    *library = rt.load_library_file(path, "cuLibraryLoadFromFile");
  });
}

WARPSIM_DRIVER_API int cuLibraryUnload(void* library) {
  return call("cuLibraryUnload", Needs::Init, [&](Runtime& rt) { rt.unload_library(library, "cuLibraryUnload"); });
}

WARPSIM_DRIVER_API int cuLibraryGetKernel(void** kernel, void* library, const char* name) {
  return call("cuLibraryGetKernel", Needs::Init, [&](Runtime& rt) {
    require(kernel, "cuLibraryGetKernel", "pKernel");
    *kernel = rt.library_kernel(library, name, "cuLibraryGetKernel");
  });
}

WARPSIM_DRIVER_API int cuLibraryGetKernelCount(unsigned* count, void* library) {
  return call("cuLibraryGetKernelCount", Needs::Init, [&](Runtime& rt) {
    require(count, "cuLibraryGetKernelCount", "count");
    *count = rt.library_kernel_count(library, "cuLibraryGetKernelCount");
  });
}

WARPSIM_DRIVER_API int cuLibraryEnumerateKernels(void** kernels, unsigned n, void* library) {
  return call("cuLibraryEnumerateKernels", Needs::Init, [&](Runtime& rt) {
    require(kernels, "cuLibraryEnumerateKernels", "kernels");
    const auto all = rt.library_kernels(library, "cuLibraryEnumerateKernels");
    for (size_t i = 0; i < all.size() && i < n; ++i) kernels[i] = all[i];
  });
}

WARPSIM_DRIVER_API int cuLibraryGetModule(void** module, void* library) {
  return call("cuLibraryGetModule", Needs::Context, [&](Runtime& rt) {
    require(module, "cuLibraryGetModule", "pMod");
    *module = rt.library_module(library, "cuLibraryGetModule");
  });
}

namespace {

int library_variable(const char* name, cu::DevicePtr* dptr, size_t* bytes, void* library, const char* symbol,
                     bool managed) {
  return call(name, Needs::Context, [&](Runtime& rt) {
    if (!dptr && !bytes) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: dptr and bytes are both NULL", name));
    const auto [address, size] = rt.library_global(library, symbol, managed, name);
    if (dptr) *dptr = address;
    if (bytes) *bytes = size;
  });
}

}  // namespace

WARPSIM_DRIVER_API int cuLibraryGetGlobal(cu::DevicePtr* dptr, size_t* bytes, void* library, const char* name) {
  return library_variable("cuLibraryGetGlobal", dptr, bytes, library, name, false);
}

WARPSIM_DRIVER_API int cuLibraryGetManaged(cu::DevicePtr* dptr, size_t* bytes, void* library, const char* name) {
  return library_variable("cuLibraryGetManaged", dptr, bytes, library, name, true);
}

WARPSIM_DRIVER_API int cuLibraryGetUnifiedFunction(void** fptr, void* library, const char* symbol) {
  return call("cuLibraryGetUnifiedFunction", Needs::Init, [&](Runtime& rt) {
    require(fptr, "cuLibraryGetUnifiedFunction", "fptr");
    rt.library_unified_function(library, symbol, "cuLibraryGetUnifiedFunction");
  });
}

// --- Kernels ---

WARPSIM_DRIVER_API int cuKernelGetFunction(void** function, void* kernel) {
  return call("cuKernelGetFunction", Needs::Context, [&](Runtime& rt) {
    require(function, "cuKernelGetFunction", "pFunc");
    *function = rt.kernel_function(kernel, "cuKernelGetFunction");
  });
}

WARPSIM_DRIVER_API int cuKernelGetLibrary(void** library, void* kernel) {
  return call("cuKernelGetLibrary", Needs::Init, [&](Runtime& rt) {
    require(library, "cuKernelGetLibrary", "pLib");
    *library = rt.kernel_library(kernel, "cuKernelGetLibrary");
  });
}

WARPSIM_DRIVER_API int cuKernelGetName(const char** name, void* kernel) {
  return call("cuKernelGetName", Needs::Init, [&](Runtime& rt) {
    require(name, "cuKernelGetName", "name");
    require(kernel, "cuKernelGetName", "hfunc");
    *name = rt.function_name(kernel);
  });
}

WARPSIM_DRIVER_API int cuKernelGetParamInfo(void* kernel, size_t index, size_t* offset, size_t* size) {
  return call("cuKernelGetParamInfo", Needs::Init, [&](Runtime& rt) {
    const auto [o, s] = rt.param_info(kernel, index, "cuKernelGetParamInfo");
    if (offset) *offset = o;
    if (size) *size = s;
  });
}

WARPSIM_DRIVER_API int cuKernelGetAttribute(int* value, int attribute, void* kernel, int dev) {
  return call("cuKernelGetAttribute", Needs::Init, [&](Runtime& rt) {
    require(value, "cuKernelGetAttribute", "pi");
    check_device(dev, "cuKernelGetAttribute");
    *value = function_attribute(rt, attribute, kernel, "cuKernelGetAttribute");
  });
}

WARPSIM_DRIVER_API int cuKernelSetAttribute(int attribute, int value, void* kernel, int dev) {
  return call("cuKernelSetAttribute", Needs::Init, [&](Runtime& rt) {
    check_device(dev, "cuKernelSetAttribute");
    rt.set_func_attribute(kernel, attribute, value, "cuKernelSetAttribute");
  });
}

WARPSIM_DRIVER_API int cuKernelSetCacheConfig(void* kernel, int config, int dev) {
  return call("cuKernelSetCacheConfig", Needs::Init, [&](Runtime& rt) {
    check_device(dev, "cuKernelSetCacheConfig");
    rt.kernel_for(kernel, "cuKernelSetCacheConfig");
    rt.set_cache_config(kernel, config);
  });
}
