// Driver API: initialisation, the device (one, ordinal 0) and contexts.
#include <fmt/format.h>

#include <cstring>

#include "sim/runtime/driver/driver_context.hpp"

using namespace warpsim::runtime;
using namespace warpsim::runtime::driver;
namespace cuda = warpsim::cuda;
namespace cu = warpsim::cu;

namespace {
constexpr int kDriverVersion = 13000;  // the CUDA version this driver stands in for
}  // namespace

WARPSIM_DRIVER_API int cuInit(unsigned flags) {
  return check("cuInit", Needs::Nothing, [&] {
    if (flags != 0) throw ApiError(cuda::ErrorInvalidValue, fmt::format("cuInit: flags must be 0, not {}", flags));
    initialize();
  });
}

WARPSIM_DRIVER_API int cuDriverGetVersion(int* version) {
  return check("cuDriverGetVersion", Needs::Nothing, [&] {
    require(version, "cuDriverGetVersion", "driverVersion");
    *version = kDriverVersion;
  });
}

WARPSIM_DRIVER_API int cuDeviceGetCount(int* count) {
  return check("cuDeviceGetCount", Needs::Init, [&] {
    require(count, "cuDeviceGetCount", "count");
    *count = 1;
  });
}

WARPSIM_DRIVER_API int cuDeviceGet(int* device, int ordinal) {
  return check("cuDeviceGet", Needs::Init, [&] {
    require(device, "cuDeviceGet", "device");
    check_device(ordinal, "cuDeviceGet");
    *device = 0;
  });
}

WARPSIM_DRIVER_API int cuDeviceGetName(char* name, int len, int device) {
  return call("cuDeviceGetName", Needs::Init, [&](Runtime& rt) {
    require(name, "cuDeviceGetName", "name");
    check_device(device, "cuDeviceGetName");
    if (len <= 0) throw ApiError(cuda::ErrorInvalidValue, fmt::format("cuDeviceGetName: len {}", len));
    cuda::DeviceProp p{};
    rt.device_properties(&p);
    std::strncpy(name, p.name, size_t(len));
    name[len - 1] = '\0';
  }, api::Sticky::Ignore);
}

WARPSIM_DRIVER_API int cuDeviceGetAttribute(int* value, int attr, int device) {
  // CUdevice_attribute numbers are cudaDeviceAttr's.
  return call("cuDeviceGetAttribute", Needs::Init, [&](Runtime& rt) {
    require(value, "cuDeviceGetAttribute", "pi");
    check_device(device, "cuDeviceGetAttribute");
    *value = rt.device_attribute(attr);
  }, api::Sticky::Ignore);
}

WARPSIM_DRIVER_API int cuDeviceTotalMem_v2(size_t* bytes, int device) {
  return call("cuDeviceTotalMem", Needs::Init, [&](Runtime& rt) {
    require(bytes, "cuDeviceTotalMem", "bytes");
    check_device(device, "cuDeviceTotalMem");
    cuda::DeviceProp p{};
    rt.device_properties(&p);
    *bytes = p.totalGlobalMem;
  }, api::Sticky::Ignore);
}

WARPSIM_DRIVER_API int cuDeviceComputeCapability(int* major, int* minor, int device) {
  return call("cuDeviceComputeCapability", Needs::Init, [&](Runtime& rt) {
    require(major, "cuDeviceComputeCapability", "major");
    require(minor, "cuDeviceComputeCapability", "minor");
    check_device(device, "cuDeviceComputeCapability");
    cuda::DeviceProp p{};
    rt.device_properties(&p);
    *major = p.major;
    *minor = p.minor;
  }, api::Sticky::Ignore);
}

WARPSIM_DRIVER_API int cuDeviceGetUuid_v2(char* uuid, int device) {
  return call("cuDeviceGetUuid", Needs::Init, [&](Runtime& rt) {
    require(uuid, "cuDeviceGetUuid", "uuid");
    check_device(device, "cuDeviceGetUuid");
    cuda::DeviceProp p{};
    rt.device_properties(&p);
    std::memcpy(uuid, p.uuid, sizeof p.uuid);
  }, api::Sticky::Ignore);
}
WARPSIM_DRIVER_API int cuDeviceGetUuid(char* uuid, int device) { return cuDeviceGetUuid_v2(uuid, device); }

// --- Contexts ---

namespace {
int create(const char* name, void** ctx, int device) {
  return check(name, Needs::Init, [&] {
    require(ctx, name, "pctx");
    check_device(device, name);
    *ctx = create_context();
  });
}
}  // namespace

WARPSIM_DRIVER_API int cuCtxCreate_v2(void** ctx, unsigned /*flags*/, int device) {
  return create("cuCtxCreate", ctx, device);
}
WARPSIM_DRIVER_API int cuCtxCreate_v3(void** ctx, void* /*affinity*/, int /*count*/, unsigned /*flags*/, int device) {
  return create("cuCtxCreate", ctx, device);
}
// CUDA 13's cuCtxCreate: the parameters ask for execution affinity or CIG sharing, which
// one simulated device has no use for; NULL or zeroed parameters are the common case.
WARPSIM_DRIVER_API int cuCtxCreate_v4(void** ctx, void* /*params*/, unsigned /*flags*/, int device) {
  return create("cuCtxCreate", ctx, device);
}

WARPSIM_DRIVER_API int cuCtxDestroy_v2(void* ctx) {
  return call("cuCtxDestroy", Needs::Init, [&](Runtime& rt) { destroy_context_and_contents(rt, ctx, "cuCtxDestroy"); },
              api::Sticky::Ignore);
}

WARPSIM_DRIVER_API int cuCtxGetCurrent(void** ctx) {
  return check("cuCtxGetCurrent", Needs::Init, [&] {
    require(ctx, "cuCtxGetCurrent", "pctx");
    *ctx = current_context();
  });
}

WARPSIM_DRIVER_API int cuCtxSetCurrent(void* ctx) {
  return check("cuCtxSetCurrent", Needs::Init, [&] { set_current(ctx, "cuCtxSetCurrent"); });
}

WARPSIM_DRIVER_API int cuCtxPushCurrent_v2(void* ctx) {
  return check("cuCtxPushCurrent", Needs::Init, [&] { push_current(ctx, "cuCtxPushCurrent"); });
}

WARPSIM_DRIVER_API int cuCtxPopCurrent_v2(void** ctx) {
  return check("cuCtxPopCurrent", Needs::Init, [&] {
    void* top = pop_current("cuCtxPopCurrent");
    if (ctx) *ctx = top;
  });
}

WARPSIM_DRIVER_API int cuCtxGetDevice(int* device) {
  return check("cuCtxGetDevice", Needs::Context, [&] {
    require(device, "cuCtxGetDevice", "device");
    *device = 0;
  });
}

WARPSIM_DRIVER_API int cuCtxGetApiVersion(void* ctx, unsigned* version) {
  return check("cuCtxGetApiVersion", Needs::Init, [&] {
    require(version, "cuCtxGetApiVersion", "version");
    if (ctx && !is_context(ctx))
      throw ApiError(cuda::ErrorDeviceUninitialized, fmt::format("cuCtxGetApiVersion: {} is not a live context", ctx));
    *version = 3020;  // the context API version every CUDA since 3.2 reports
  });
}

WARPSIM_DRIVER_API int cuCtxGetFlags(unsigned* flags) {
  return check("cuCtxGetFlags", Needs::Context, [&] {
    require(flags, "cuCtxGetFlags", "flags");
    *flags = 0;
  });
}

WARPSIM_DRIVER_API int cuCtxSynchronize() {
  return call("cuCtxSynchronize", Needs::Context, [](Runtime& rt) {
    rt.synchronize();
    rt.release_pool_memory();
  });
}

WARPSIM_DRIVER_API int cuCtxSetCacheConfig(int config) {
  // CUfunc_cache numbers are cudaFuncCache's.
  return call("cuCtxSetCacheConfig", Needs::Context, [&](Runtime& rt) { rt.set_cache_config(nullptr, config); });
}

WARPSIM_DRIVER_API int cuCtxGetCacheConfig(int* config) {
  return call("cuCtxGetCacheConfig", Needs::Context, [&](Runtime& rt) {
    require(config, "cuCtxGetCacheConfig", "pconfig");
    *config = rt.device_cache_config();
  });
}

WARPSIM_DRIVER_API int cuCtxSetLimit(int limit, size_t value) {
  // CUlimit numbers are cudaLimit's.
  return call("cuCtxSetLimit", Needs::Context, [&](Runtime& rt) { rt.set_limit(limit, value, "cuCtxSetLimit"); });
}

WARPSIM_DRIVER_API int cuCtxGetLimit(size_t* value, int limit) {
  return call("cuCtxGetLimit", Needs::Context, [&](Runtime& rt) {
    require(value, "cuCtxGetLimit", "pvalue");
    *value = rt.limit(limit);
  });
}

WARPSIM_DRIVER_API int cuCtxGetStreamPriorityRange(int* least, int* greatest) {
  return call("cuCtxGetStreamPriorityRange", Needs::Context, [&](Runtime& rt) {
    const auto [l, g] = rt.stream_priority_range();
    if (least) *least = l;
    if (greatest) *greatest = g;
  });
}

WARPSIM_DRIVER_API int cuCtxResetPersistingL2Cache() {
  return call("cuCtxResetPersistingL2Cache", Needs::Context, [](Runtime& rt) { rt.reset_persisting_l2(); });
}

// --- The primary context (what the runtime API uses) ---

WARPSIM_DRIVER_API int cuDevicePrimaryCtxRetain(void** ctx, int device) {
  return check("cuDevicePrimaryCtxRetain", Needs::Init, [&] {
    require(ctx, "cuDevicePrimaryCtxRetain", "pctx");
    check_device(device, "cuDevicePrimaryCtxRetain");
    *ctx = primary_context();
  });
}

WARPSIM_DRIVER_API int cuDevicePrimaryCtxRelease_v2(int device) {
  return check("cuDevicePrimaryCtxRelease", Needs::Init, [&] { check_device(device, "cuDevicePrimaryCtxRelease"); });
}

WARPSIM_DRIVER_API int cuDevicePrimaryCtxSetFlags_v2(int device, unsigned /*flags*/) {
  return check("cuDevicePrimaryCtxSetFlags", Needs::Init, [&] { check_device(device, "cuDevicePrimaryCtxSetFlags"); });
}

WARPSIM_DRIVER_API int cuDevicePrimaryCtxGetState(int device, unsigned* flags, int* active) {
  return check("cuDevicePrimaryCtxGetState", Needs::Init, [&] {
    check_device(device, "cuDevicePrimaryCtxGetState");
    if (flags) *flags = 0;
    if (active) *active = 1;
  });
}

WARPSIM_DRIVER_API int cuDevicePrimaryCtxReset_v2(int device) {
  // As cudaDeviceReset: a fresh device, the sticky error cleared.
  return call("cuDevicePrimaryCtxReset", Needs::Init, [&](Runtime& rt) {
    check_device(device, "cuDevicePrimaryCtxReset");
    rt.reset();
  }, api::Sticky::Ignore);
}
