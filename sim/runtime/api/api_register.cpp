// Entry points nvcc's generated host code calls before main() and at each <<<>>> launch
// (crt/host_runtime.h and crt/device_functions.h of CUDA 13).
#include <cstdio>
#include <cstdlib>

#include "sim/runtime/driver/process_context.hpp"

using namespace warpsim::runtime;
using warpsim::runtime::api::call;
using warpsim::runtime::api::ordered_call;
using Dim3 = warpsim::cuda::Dim3;

WARPSIM_API void** __cudaRegisterFatBinary(void* fat_cubin) {
  void** handle = nullptr;
  api::registration_call("__cudaRegisterFatBinary", [&](Runtime& rt) { handle = rt.register_fatbin(fat_cubin); });
  return handle;
}

WARPSIM_API void __cudaRegisterFatBinaryEnd(void** /*handle*/) {}

WARPSIM_API void __cudaUnregisterFatBinary(void** handle) {
  api::finish_queued_at_exit();  // nvcc's code calls this at exit only
  api::registration_call("__cudaUnregisterFatBinary", [&](Runtime& rt) { rt.unregister_fatbin(handle); });
}

WARPSIM_API char __cudaInitModule(void** handle) {
  if (api::registration_call("__cudaInitModule", [&](Runtime& rt) { rt.init_module(handle); }) == 0) return 1;
  // nvcc's code would go on to read the variable through a null pointer: stop cleanly.
  std::fprintf(stderr, "warpsim: the program's __managed__ variables have no storage (the reason is above); "
                       "stopping\n");
  std::exit(1);
}

WARPSIM_API void __cudaRegisterFunction(void** handle, const char* host_fn, char* /*device_fn*/,
                                        const char* device_name, int /*thread_limit*/, void* /*tid*/, void* /*bid*/,
                                        void* /*block_dim*/, void* /*grid_dim*/, int* /*warp_size*/) {
  api::registration_call("__cudaRegisterFunction",
                         [&](Runtime& rt) { rt.register_function(handle, host_fn, device_name); });
}

WARPSIM_API void __cudaRegisterVar(void** handle, char* host_var, char* /*device_address*/, const char* device_name,
                                   int /*ext*/, size_t size, int constant, int /*global*/) {
  api::registration_call("__cudaRegisterVar",
                         [&](Runtime& rt) { rt.register_var(handle, host_var, device_name, size, constant != 0, false); });
}

WARPSIM_API void __cudaRegisterManagedVar(void** handle, void** host_var_ptr_address, char* /*device_address*/,
                                          const char* device_name, int /*ext*/, size_t size, int constant,
                                          int /*global*/) {
  api::registration_call("__cudaRegisterManagedVar",
                         [&](Runtime& rt) { rt.register_var(handle, host_var_ptr_address, device_name, size, constant != 0, true); });
}

WARPSIM_API void __cudaRegisterTexture(void**, const void*, const void**, const char*, int, int, int) {
  api::unsupported("__cudaRegisterTexture (texture references)");
}

WARPSIM_API void __cudaRegisterSurface(void**, const void*, const void**, const char*, int, int) {
  api::unsupported("__cudaRegisterSurface (surface references)");
}

WARPSIM_API unsigned __cudaPushCallConfiguration(Dim3 grid, Dim3 block, size_t shared, void* stream) {
  ordered_call("__cudaPushCallConfiguration", [&](Runtime& rt) { rt.push_call_configuration(grid, block, shared, stream); },
       api::Sticky::Ignore);
  return 0;
}

WARPSIM_API int __cudaPopCallConfiguration(Dim3* grid, Dim3* block, size_t* shared, void* stream) {
  return ordered_call("__cudaPopCallConfiguration",
      [&](Runtime& rt) {
        uint64_t sh = 0;
        rt.pop_call_configuration(grid, block, &sh, static_cast<void**>(stream));
        *shared = sh;
      },
      api::Sticky::Ignore);
}

WARPSIM_API int __cudaGetKernel(const void** kernel, const void* host_fn) {
  return ordered_call("__cudaGetKernel", [&](Runtime& rt) { *kernel = rt.kernel_handle(host_fn); }, api::Sticky::Ignore);
}

WARPSIM_API int cudaGetKernel(const void** kernel, const void* host_fn) {
  return ordered_call("cudaGetKernel", [&](Runtime& rt) { *kernel = rt.kernel_handle(host_fn); });
}

WARPSIM_API int cudaGetFuncBySymbol(const void** func, const void* host_fn) {
  return ordered_call("cudaGetFuncBySymbol", [&](Runtime& rt) { *func = rt.kernel_handle(host_fn); });
}

WARPSIM_API int cudaLaunchKernel(const void* func, Dim3 grid, Dim3 block, void** args, size_t shared, void* stream) {
  return ordered_call("cudaLaunchKernel", [&](Runtime& rt) { rt.launch(func, grid, block, args, shared, stream); });
}

WARPSIM_API int cudaLaunchKernel_ptsz(const void* func, Dim3 grid, Dim3 block, void** args, size_t shared,
                                      void* stream) {
  return cudaLaunchKernel(func, grid, block, args, shared, stream);
}

// Its shape errors are cudaErrorInvalidValue, as on an H200 (grid_sync.expected).
WARPSIM_API int cudaLaunchCooperativeKernel(const void* func, Dim3 grid, Dim3 block, void** args, size_t shared,
                                            void* stream) {
  return ordered_call("cudaLaunchCooperativeKernel", [&](Runtime& rt) {
    try {
      rt.launch(func, grid, block, args, shared, stream, true);
    } catch (const ApiError& e) {
      if (e.code() == warpsim::cuda::ErrorInvalidConfiguration) throw ApiError(warpsim::cuda::ErrorInvalidValue, e.what());
      throw;
    }
  });
}

WARPSIM_API int cudaLaunchCooperativeKernel_ptsz(const void* func, Dim3 grid, Dim3 block, void** args, size_t shared,
                                                 void* stream) {
  return cudaLaunchCooperativeKernel(func, grid, block, args, shared, stream);
}

WARPSIM_API int cudaLaunchKernelExC(const warpsim::cuda::LaunchConfig* config, const void* func, void** args) {
  return ordered_call("cudaLaunchKernelExC", [&](Runtime& rt) { rt.launch_ex(config, func, args); });
}

WARPSIM_API int cudaLaunchKernelExC_ptsz(const warpsim::cuda::LaunchConfig* config, const void* func, void** args) {
  return cudaLaunchKernelExC(config, func, args);
}

WARPSIM_API int __cudaLaunchKernel(const void* kernel, Dim3 grid, Dim3 block, void** args, size_t shared,
                                   void* stream) {
  return cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

WARPSIM_API int __cudaLaunchKernel_ptsz(const void* kernel, Dim3 grid, Dim3 block, void** args, size_t shared,
                                        void* stream) {
  return cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

WARPSIM_API int cudaFuncGetAttributes(warpsim::cuda::FuncAttributes* attr, const void* func) {
  return call("cudaFuncGetAttributes", [&](Runtime& rt) { rt.func_attributes(attr, func); });
}

WARPSIM_API int cudaFuncSetCacheConfig(const void* func, int config) {
  return call("cudaFuncSetCacheConfig", [&](Runtime& rt) { rt.set_cache_config(func, config); });
}

WARPSIM_API int cudaFuncSetAttribute(const void* func, int attr, int value) {
  return call("cudaFuncSetAttribute", [&](Runtime& rt) { rt.set_func_attribute(func, attr, value); });
}

WARPSIM_API int cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func, int block_size,
                                                              size_t dynamic_shared) {
  return call("cudaOccupancyMaxActiveBlocksPerMultiprocessor",
              [&](Runtime& rt) { *blocks = rt.occupancy_blocks_per_sm(func, block_size, dynamic_shared); });
}

// Thread block clusters (cc 9.0): how many clusters of the config's shape (its
// cudaLaunchAttributeClusterDimension, or the kernel's own) can run at once, and the
// largest cluster that can run at all.
WARPSIM_API int cudaOccupancyMaxActiveClusters(int* clusters, const void* func,
                                               const warpsim::cuda::LaunchConfig* config) {
  return call("cudaOccupancyMaxActiveClusters", [&](Runtime& rt) {
    if (!clusters) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaOccupancyMaxActiveClusters: numClusters is NULL");
    *clusters = rt.max_active_clusters(func, config);
  });
}

WARPSIM_API int cudaOccupancyMaxPotentialClusterSize(int* size, const void* func,
                                                     const warpsim::cuda::LaunchConfig* config) {
  return call("cudaOccupancyMaxPotentialClusterSize", [&](Runtime& rt) {
    if (!size) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaOccupancyMaxPotentialClusterSize: clusterSize is NULL");
    *size = rt.max_potential_cluster_size(func, config);
  });
}

WARPSIM_API int cudaOccupancyAvailableDynamicSMemPerBlock(size_t* bytes, const void* func, int blocks,
                                                         int block_size) {
  return call("cudaOccupancyAvailableDynamicSMemPerBlock", [&](Runtime& rt) {
    const uint64_t b = rt.available_dynamic_shared(func, blocks, block_size);
    if (!bytes)
      throw ApiError(warpsim::cuda::ErrorInvalidValue,
                     "cudaOccupancyAvailableDynamicSMemPerBlock: dynamicSmemSize is NULL");
    *bytes = b;
  });
}

WARPSIM_API int cudaFuncGetName(const char** name, const void* func) {
  return call("cudaFuncGetName", [&](Runtime& rt) {
    if (!name) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaFuncGetName: name is NULL");
    *name = rt.function_name(func);
  });
}

WARPSIM_API int cudaFuncGetParamInfo(const void* func, size_t index, size_t* offset, size_t* size) {
  return call("cudaFuncGetParamInfo", [&](Runtime& rt) {
    const auto [o, s] = rt.param_info(func, index);
    if (offset) *offset = o;
    if (size) *size = s;
  });
}

WARPSIM_API int cudaFuncSetSharedMemConfig(const void* func, int config) {
  return call("cudaFuncSetSharedMemConfig",
              [&](Runtime& rt) { rt.set_shared_mem_config(func, config, "cudaFuncSetSharedMemConfig"); });
}

WARPSIM_API int cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void* func, int block_size,
                                                                       size_t dynamic_shared, unsigned /*flags*/) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, func, block_size, dynamic_shared);
}
