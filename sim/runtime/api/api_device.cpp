// Device, version, limit and synchronisation entry points. There is one device, 0.
#include <fmt/format.h>

#include "sim/runtime/driver/process_context.hpp"

using namespace warpsim::runtime;
using warpsim::runtime::api::call;
namespace cuda = warpsim::cuda;

#ifdef WARPSIM_CUDART_12
#include "sim/runtime/cuda_abi12.hpp"
#endif

namespace {
// The CUDA version this runtime stands in for (cudaRuntimeGetVersion's encoding); the
// driver under it is CUDA 13's for either runtime.
#ifdef WARPSIM_CUDART_12
constexpr int kRuntimeVersion = warpsim::cuda12::kRuntimeVersion;
#else
constexpr int kRuntimeVersion = warpsim::cuda::kRuntimeVersion;
#endif
constexpr int kDriverVersion = warpsim::cuda::kRuntimeVersion;
}  // namespace

WARPSIM_API int cudaGetDeviceCount(int* count) {
  return call("cudaGetDeviceCount", [&](Runtime&) { *count = 1; }, api::Sticky::Ignore);
}

WARPSIM_API int cudaGetDevice(int* device) {
  return call("cudaGetDevice", [&](Runtime&) { *device = 0; }, api::Sticky::Ignore);
}

WARPSIM_API int cudaSetDevice(int device) {
  return call("cudaSetDevice", [&](Runtime&) { check_device(device, "cudaSetDevice"); });
}

WARPSIM_API int cudaInitDevice(int device, unsigned, unsigned) {
  return call("cudaInitDevice", [&](Runtime&) { check_device(device, "cudaInitDevice"); });
}

WARPSIM_API int cudaChooseDevice(int* device, const void*) {
  return call("cudaChooseDevice", [&](Runtime&) { *device = 0; });
}

WARPSIM_API int cudaSetDeviceFlags(unsigned) { return call("cudaSetDeviceFlags", [](Runtime&) {}); }

WARPSIM_API int cudaGetDeviceFlags(unsigned* flags) {
  return call("cudaGetDeviceFlags", [&](Runtime&) { *flags = 0; });
}

#ifndef WARPSIM_CUDART_12  // CUDA 12 lays the properties out differently (api12/)
WARPSIM_API int cudaGetDeviceProperties(cuda::DeviceProp* prop, int device) {
  return call(
      "cudaGetDeviceProperties",
      [&](Runtime& rt) {
        check_device(device, "cudaGetDeviceProperties");
        rt.device_properties(prop);
      },
      api::Sticky::Ignore);
}
#endif

WARPSIM_API int cudaDeviceGetAttribute(int* value, int attr, int device) {
  return call(
      "cudaDeviceGetAttribute",
      [&](Runtime& rt) {
        check_device(device, "cudaDeviceGetAttribute");
        *value = rt.device_attribute(attr);
      },
      api::Sticky::Ignore);
}

WARPSIM_API int cudaDriverGetVersion(int* version) {
  return call("cudaDriverGetVersion", [&](Runtime&) { *version = kDriverVersion; }, api::Sticky::Ignore);
}

WARPSIM_API int cudaRuntimeGetVersion(int* version) {
  return call("cudaRuntimeGetVersion", [&](Runtime&) { *version = kRuntimeVersion; }, api::Sticky::Ignore);
}

WARPSIM_API int cudaDeviceSynchronize() {
  return call("cudaDeviceSynchronize", [](Runtime& rt) {
    rt.synchronize();
    rt.release_pool_memory();
  });
}

WARPSIM_API int cudaDeviceReset() {
  return call("cudaDeviceReset", [](Runtime& rt) { rt.reset(); }, api::Sticky::Ignore);
}

WARPSIM_API int cudaDeviceSetCacheConfig(int config) {
  return call("cudaDeviceSetCacheConfig", [&](Runtime& rt) { rt.set_cache_config(nullptr, config); });
}

WARPSIM_API int cudaDeviceGetCacheConfig(int* config) {
  return call("cudaDeviceGetCacheConfig", [&](Runtime& rt) {
    if (!config) throw ApiError(cuda::ErrorInvalidValue, "cudaDeviceGetCacheConfig: pCacheConfig is NULL");
    *config = rt.device_cache_config();
  });
}

WARPSIM_API int cudaDeviceSetLimit(int limit, size_t value) {
  return call("cudaDeviceSetLimit", [&](Runtime& rt) { rt.set_limit(limit, value, "cudaDeviceSetLimit"); });
}

WARPSIM_API int cudaDeviceGetLimit(size_t* value, int limit) {
  return call("cudaDeviceGetLimit", [&](Runtime& rt) {
    if (!value) throw ApiError(cuda::ErrorInvalidValue, "cudaDeviceGetLimit: pValue is NULL");
    *value = rt.limit(limit);
  });
}

WARPSIM_API int cudaDeviceCanAccessPeer(int* can, int, int) {
  return call("cudaDeviceCanAccessPeer", [&](Runtime&) { *can = 0; });
}

WARPSIM_API int cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  return call("cudaDeviceGetStreamPriorityRange", [&](Runtime& rt) {
    const auto [l, g] = rt.stream_priority_range();
    if (least) *least = l;
    if (greatest) *greatest = g;
  });
}

// Profiler control: the whole run is measured.
WARPSIM_API int cudaProfilerStart() { return call("cudaProfilerStart", [](Runtime&) {}); }
WARPSIM_API int cudaProfilerStop() { return call("cudaProfilerStop", [](Runtime&) {}); }
