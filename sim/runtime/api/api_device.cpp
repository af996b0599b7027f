// Device, version, limit and synchronisation entry points. There is one device, 0.
#include <fmt/format.h>

#include <cstring>
#include <string_view>

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

// The device's PCI location, as its attributes report it (cudaDevAttrPciDomainId, ...: 0).
constexpr unsigned kPciDomain = 0, kPciBus = 0, kPciDevice = 0;

// A field of hex digits (at most 8), whole.
bool hex_field(std::string_view f, unsigned& out) {
  if (f.empty() || f.size() > 8) return false;
  out = 0;
  for (char c : f) {
    const int d = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
    if (d < 0) return false;
    out = out * 16 + unsigned(d);
  }
  return true;
}

// A PCI bus id as cudaDeviceGetByPCIBusId takes it: [domain:]bus:device[.function], in hex.
// False for anything else.
bool parse_pci_bus_id(std::string_view s, unsigned& domain, unsigned& bus, unsigned& device) {
  unsigned function = 0;
  const size_t dot = s.find('.');
  if (dot != std::string_view::npos && !hex_field(s.substr(dot + 1), function)) return false;
  const std::string_view head = s.substr(0, dot);
  const size_t c1 = head.find(':'), c2 = c1 == std::string_view::npos ? c1 : head.find(':', c1 + 1);
  if (c1 == std::string_view::npos) return false;
  domain = 0;
  if (c2 == std::string_view::npos)
    return hex_field(head.substr(0, c1), bus) && hex_field(head.substr(c1 + 1), device);
  return hex_field(head.substr(0, c1), domain) && hex_field(head.substr(c1 + 1, c2 - c1 - 1), bus) &&
         hex_field(head.substr(c2 + 1), device);
}
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
    rt.check_device_sync_during_capture("cudaDeviceSynchronize");
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

WARPSIM_API int cudaDeviceGetSharedMemConfig(int* config) {
  return call("cudaDeviceGetSharedMemConfig", [&](Runtime& rt) {
    if (!config) throw ApiError(cuda::ErrorInvalidValue, "cudaDeviceGetSharedMemConfig: pConfig is NULL");
    *config = rt.shared_mem_config();
  });
}

WARPSIM_API int cudaDeviceSetSharedMemConfig(int config) {
  return call("cudaDeviceSetSharedMemConfig",
              [&](Runtime& rt) { rt.set_shared_mem_config(nullptr, config, "cudaDeviceSetSharedMemConfig"); });
}

WARPSIM_API int cudaDeviceGetPCIBusId(char* id, int len, int device) {
  return call("cudaDeviceGetPCIBusId", [&](Runtime&) {
    check_device(device, "cudaDeviceGetPCIBusId");
    const std::string s = fmt::format("{:04x}:{:02x}:{:02x}.0", kPciDomain, kPciBus, kPciDevice);
    if (!id || len < int(s.size()) + 1)
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("cudaDeviceGetPCIBusId: a buffer of {} bytes for \"{}\" and its NUL", len, s));
    std::memcpy(id, s.c_str(), s.size() + 1);
  });
}

WARPSIM_API int cudaDeviceGetByPCIBusId(int* device, const char* id) {
  return call("cudaDeviceGetByPCIBusId", [&](Runtime&) {
    unsigned domain = 0, bus = 0, dev = 0;
    if (!device || !id || !parse_pci_bus_id(id, domain, bus, dev))
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("cudaDeviceGetByPCIBusId: \"{}\" is not a PCI bus id", id ? id : "(null)"));
    if (domain != kPciDomain || bus != kPciBus || dev != kPciDevice)
      throw ApiError(cuda::ErrorInvalidDevice, fmt::format("cudaDeviceGetByPCIBusId: no device at {}", id));
    *device = 0;
  });
}

// Peers need two devices; there is one.
WARPSIM_API int cudaDeviceGetP2PAttribute(int* value, int /*attr*/, int src, int dst) {
  return call("cudaDeviceGetP2PAttribute", [&](Runtime&) {
    check_device(src, "cudaDeviceGetP2PAttribute");
    check_device(dst, "cudaDeviceGetP2PAttribute");
    if (!value) throw ApiError(cuda::ErrorInvalidValue, "cudaDeviceGetP2PAttribute: value is NULL");
    throw ApiError(cuda::ErrorInvalidDevice, "cudaDeviceGetP2PAttribute: a device is not its own peer");
  });
}

// Peer access needs a second device; device 0 is not its own peer. The codes are an H200's
// on a machine with one GPU (programs/memory_advice_batches.cu).
WARPSIM_API int cudaDeviceEnablePeerAccess(int peer, unsigned flags) {
  return call("cudaDeviceEnablePeerAccess", [&](Runtime&) {
    check_device(peer, "cudaDeviceEnablePeerAccess");
    if (flags != 0) throw ApiError(cuda::ErrorInvalidValue, "cudaDeviceEnablePeerAccess: flags must be 0");
    throw ApiError(cuda::ErrorPeerAccessUnsupported, "cudaDeviceEnablePeerAccess: device 0 is not its own peer");
  });
}

WARPSIM_API int cudaDeviceDisablePeerAccess(int peer) {
  return call("cudaDeviceDisablePeerAccess", [&](Runtime&) {
    check_device(peer, "cudaDeviceDisablePeerAccess");
    throw ApiError(cuda::ErrorPeerAccessNotEnabled, "cudaDeviceDisablePeerAccess: peer access was never enabled");
  });
}

// The list of devices the runtime may choose from: device 0 is the only one there is.
WARPSIM_API int cudaSetValidDevices(int* devices, int n) {
  return call("cudaSetValidDevices", [&](Runtime&) {
    if (n < 0 || (n > 0 && !devices)) throw ApiError(cuda::ErrorInvalidValue, "cudaSetValidDevices: no array");
    for (int i = 0; i < n; ++i) check_device(devices[i], "cudaSetValidDevices");
  });
}

// Profiler control: the whole run is measured.
WARPSIM_API int cudaProfilerStart() { return call("cudaProfilerStart", [](Runtime&) {}); }
WARPSIM_API int cudaProfilerStop() { return call("cudaProfilerStop", [](Runtime&) {}); }
