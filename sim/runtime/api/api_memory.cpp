// Memory entry points: device, pinned host and managed allocations, copies, symbols.
#include <fmt/format.h>

#include <cstdlib>

#include "sim/runtime/driver/process_context.hpp"

using namespace warpsim::runtime;
using warpsim::runtime::api::call;
using warpsim::runtime::api::ordered_call;
using Kind = warpsim::cuda::MemcpyKind;

namespace {
Kind kind_of(int k) { return static_cast<Kind>(k); }
}  // namespace

WARPSIM_API int cudaMalloc(void** ptr, size_t bytes) {
  return call("cudaMalloc", [&](Runtime& rt) {
    rt.check_unsafe_during_capture("cudaMalloc");
    if (!ptr) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaMalloc: devPtr is NULL");
    *ptr = rt.malloc(bytes);
  });
}

WARPSIM_API int cudaMallocAsync(void** ptr, size_t bytes, void* stream) {
  if (ptr) *ptr = nullptr;
  return call("cudaMallocAsync", [&](Runtime& rt) {
    if (!ptr) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaMallocAsync: devPtr is NULL");
    *ptr = rt.malloc_async(bytes, nullptr, stream, "cudaMallocAsync");
  });
}

WARPSIM_API int cudaMallocAsync_ptsz(void** ptr, size_t bytes, void* stream) {
  return cudaMallocAsync(ptr, bytes, stream);
}

WARPSIM_API int cudaMallocFromPoolAsync(void** ptr, size_t bytes, void* pool, void* stream) {
  if (ptr) *ptr = nullptr;
  return call("cudaMallocFromPoolAsync", [&](Runtime& rt) {
    if (!ptr) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaMallocFromPoolAsync: ptr is NULL");
    if (!pool) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaMallocFromPoolAsync: memPool is NULL");
    *ptr = rt.malloc_async(bytes, pool, stream, "cudaMallocFromPoolAsync");
  });
}

WARPSIM_API int cudaMallocFromPoolAsync_ptsz(void** ptr, size_t bytes, void* pool, void* stream) {
  return cudaMallocFromPoolAsync(ptr, bytes, pool, stream);
}

WARPSIM_API int cudaMallocManaged(void** ptr, size_t bytes, unsigned /*flags*/) {
  return call("cudaMallocManaged", [&](Runtime& rt) {
    rt.check_unsafe_during_capture("cudaMallocManaged");
    if (!ptr) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaMallocManaged: devPtr is NULL");
    *ptr = rt.malloc_managed(bytes);
  });
}

WARPSIM_API int cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
  return call("cudaMallocPitch", [&](Runtime& rt) {
    rt.check_unsafe_during_capture("cudaMallocPitch");
    uint64_t p = 0;
    *ptr = rt.malloc_pitch(&p, width, height);
    *pitch = p;
  });
}

WARPSIM_API int cudaFree(void* ptr) {
  return call("cudaFree", [&](Runtime& rt) {
    rt.check_unsafe_during_capture("cudaFree");
    rt.synchronize();
    rt.free(ptr);
  });
}

WARPSIM_API int cudaFreeAsync(void* ptr, void* stream) {
  return call("cudaFreeAsync", [&](Runtime& rt) { rt.free_async(ptr, stream, "cudaFreeAsync"); });
}

WARPSIM_API int cudaFreeAsync_ptsz(void* ptr, void* stream) { return cudaFreeAsync(ptr, stream); }

WARPSIM_API int cudaMallocHost(void** ptr, size_t bytes) {
  return call("cudaMallocHost", [&](Runtime& rt) {
    rt.check_unsafe_during_capture("cudaMallocHost");
    if (!ptr) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaMallocHost: ptr is NULL");
    *ptr = rt.malloc_host(bytes, 0, "cudaMallocHost");
  });
}

WARPSIM_API int cudaHostAlloc(void** ptr, size_t bytes, unsigned flags) {
  return call("cudaHostAlloc", [&](Runtime& rt) {
    rt.check_unsafe_during_capture("cudaHostAlloc");
    if (!ptr) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaHostAlloc: pHost is NULL");
    *ptr = rt.malloc_host(bytes, flags, "cudaHostAlloc");
  });
}

WARPSIM_API int cudaFreeHost(void* ptr) {
  return call("cudaFreeHost", [&](Runtime& rt) {
    rt.check_unsafe_during_capture("cudaFreeHost");
    rt.free_host(ptr);
  });
}

// Registered host memory is mapped for kernels at its own address (unified addressing).
WARPSIM_API int cudaHostRegister(void* ptr, size_t bytes, unsigned flags) {
  return call("cudaHostRegister", [&](Runtime& rt) { rt.host_register(ptr, bytes, flags); });
}
WARPSIM_API int cudaHostUnregister(void* ptr) {
  return call("cudaHostUnregister", [&](Runtime& rt) { rt.host_unregister(ptr); });
}
WARPSIM_API int cudaHostGetDevicePointer(void** dev, void* host, unsigned flags) {
  return call("cudaHostGetDevicePointer", [&](Runtime& rt) {
    if (!dev) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaHostGetDevicePointer: pDevice is NULL");
    *dev = rt.host_device_pointer(host, flags);
  });
}
WARPSIM_API int cudaHostGetFlags(unsigned* flags, void* host) {
  return call("cudaHostGetFlags", [&](Runtime& rt) {
    if (!flags) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaHostGetFlags: pFlags is NULL");
    *flags = rt.host_flags(host);
  });
}

WARPSIM_API int cudaMemcpy(void* dst, const void* src, size_t bytes, int kind) {
  return call("cudaMemcpy", [&](Runtime& rt) {
    rt.synchronize();
    rt.memcpy(dst, src, bytes, kind_of(kind), "cudaMemcpy");
  });
}

WARPSIM_API int cudaMemcpyAsync(void* dst, const void* src, size_t bytes, int kind, void* stream) {
  return ordered_call("cudaMemcpyAsync", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaMemcpyAsync");
    if (rt.capturing(stream)) {
      rt.capture(stream, rt.linear_copy_node(dst, src, bytes, kind_of(kind)));
      return;
    }
    rt.memcpy_async(dst, src, bytes, kind_of(kind), "cudaMemcpyAsync");
  });
}

// Peer copies between devices: the simulated machine has one device, so both must be 0,
// and the copy is a device-to-device copy.
namespace {
void peer_copy(Runtime& rt, void* dst, int dst_dev, const void* src, int src_dev, size_t bytes, const char* call,
               bool async = false) {
  if (dst_dev != 0 || src_dev != 0)
    throw ApiError(warpsim::cuda::ErrorInvalidDevice,
                   fmt::format("{}: devices {} and {} (the simulated machine has device 0 only)", call, dst_dev,
                               src_dev));
  if (async) rt.memcpy_async(dst, src, bytes, Kind::DeviceToDevice, call);
  else rt.memcpy(dst, src, bytes, Kind::DeviceToDevice, call);
}
}  // namespace

WARPSIM_API int cudaMemcpyPeer(void* dst, int dst_dev, const void* src, int src_dev, size_t bytes) {
  return call("cudaMemcpyPeer", [&](Runtime& rt) {
    rt.synchronize();
    peer_copy(rt, dst, dst_dev, src, src_dev, bytes, "cudaMemcpyPeer");
  });
}

WARPSIM_API int cudaMemcpyPeerAsync(void* dst, int dst_dev, const void* src, int src_dev, size_t bytes,
                                    void* stream) {
  return ordered_call("cudaMemcpyPeerAsync", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaMemcpyPeerAsync");
    rt.no_capture(stream, "cudaMemcpyPeerAsync");
    peer_copy(rt, dst, dst_dev, src, src_dev, bytes, "cudaMemcpyPeerAsync", true);
  });
}

WARPSIM_API int cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                             int kind) {
  return call("cudaMemcpy2D",
              [&](Runtime& rt) {
                rt.synchronize();
                rt.memcpy_2d(dst, dpitch, src, spitch, width, height, kind_of(kind));
              });
}

WARPSIM_API int cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                  size_t height, int kind, void* stream) {
  return call("cudaMemcpy2DAsync", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaMemcpy2DAsync");
    rt.no_capture(stream, "cudaMemcpy2DAsync");
    rt.memcpy_2d(dst, dpitch, src, spitch, width, height, kind_of(kind));
  });
}

WARPSIM_API int cudaMemset(void* dst, int value, size_t bytes) {
  return call("cudaMemset", [&](Runtime& rt) { rt.memset(dst, value, bytes); });
}

WARPSIM_API int cudaMemsetAsync(void* dst, int value, size_t bytes, void* stream) {
  return call("cudaMemsetAsync", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaMemsetAsync");
    if (rt.capturing(stream)) {
      warpsim::cuda::MemsetParams p{dst, 0, unsigned(value) & 0xFFu, 1, bytes, 1};
      rt.capture(stream, rt.memset_node(&p, "cudaMemsetAsync"));
      return;
    }
    rt.memset(dst, value, bytes);
  });
}

WARPSIM_API int cudaMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height) {
  return call("cudaMemset2D", [&](Runtime& rt) { rt.memset_2d(dst, pitch, value, width, height); });
}

// In stream order, which is issue order: cudaMemset2D's work (a memset node when captured).
WARPSIM_API int cudaMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height, void* stream) {
  return call("cudaMemset2DAsync", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaMemset2DAsync");
    if (rt.capturing(stream)) {
      warpsim::cuda::MemsetParams p{dst, pitch, unsigned(value) & 0xFFu, 1, width, height};
      rt.capture(stream, rt.memset_node(&p, "cudaMemset2DAsync"));
      return;
    }
    rt.memset_2d(dst, pitch, value, width, height);
  });
}

WARPSIM_API int cudaMalloc3D(warpsim::cuda::PitchedPtr* p, warpsim::cuda::Extent extent) {
  return call("cudaMalloc3D", [&](Runtime& rt) {
    if (!p) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaMalloc3D: pitchedDevPtr is NULL");
    *p = rt.malloc_3d(extent);
  });
}

WARPSIM_API int cudaMemset3D(warpsim::cuda::PitchedPtr p, int value, warpsim::cuda::Extent extent) {
  return call("cudaMemset3D", [&](Runtime& rt) { rt.memset_3d(p, value, extent, "cudaMemset3D"); });
}

// In stream order, which is issue order; captured as one 2D memset node a slice.
WARPSIM_API int cudaMemset3DAsync(warpsim::cuda::PitchedPtr p, int value, warpsim::cuda::Extent extent, void* stream) {
  return call("cudaMemset3DAsync", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaMemset3DAsync");
    if (rt.capturing(stream)) {
      rt.check_memset_3d(p, extent, "cudaMemset3DAsync");
      for (size_t z = 0; z < extent.depth; ++z) {
        void* slice = static_cast<char*>(p.ptr) + z * p.pitch * p.ysize;
        warpsim::cuda::MemsetParams m{slice, p.pitch, unsigned(value) & 0xFFu, 1, extent.width, extent.height};
        rt.capture(stream, rt.memset_node(&m, "cudaMemset3DAsync"));
      }
      return;
    }
    rt.memset_3d(p, value, extent, "cudaMemset3DAsync");
  });
}

WARPSIM_API int cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  return call("cudaMemGetInfo", [&](Runtime& rt) {
    uint64_t f = 0, t = 0;
    rt.mem_get_info(&f, &t);
    if (free_bytes) *free_bytes = f;
    if (total_bytes) *total_bytes = t;
  });
}

#ifndef WARPSIM_CUDART_12  // CUDA 12's struct is shorter (api12/)
WARPSIM_API int cudaPointerGetAttributes(warpsim::cuda::PointerAttributes* attr, const void* ptr) {
  return call("cudaPointerGetAttributes", [&](Runtime& rt) { rt.pointer_attributes(attr, ptr); });
}
#endif

// Managed-memory hints (runtime_managed_advice.cpp): every managed byte is already where the
// next user needs it; the advice and the last prefetch location are kept for
// cudaMemRangeGetAttribute. CUDA 13 passes a cudaMemLocation; CUDA 12's unsuffixed calls a
// device (cudaCpuDeviceId, -1, for the host) and its _v2 calls the location (api12/).

#ifdef WARPSIM_CUDART_12
WARPSIM_API int cudaMemPrefetchAsync(const void* ptr, size_t bytes, int device, void* stream) {
  return ordered_call("cudaMemPrefetchAsync", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaMemPrefetchAsync");
    rt.mem_prefetch(ptr, bytes, Runtime::device_location(device), 0, "cudaMemPrefetchAsync");
  });
}
WARPSIM_API int cudaMemAdvise(const void* ptr, size_t bytes, int advice, int device) {
  return ordered_call("cudaMemAdvise", [&](Runtime& rt) {
    rt.mem_advise(ptr, bytes, advice, Runtime::device_location(device), "cudaMemAdvise");
  });
}
#else
WARPSIM_API int cudaMemPrefetchAsync(const void* ptr, size_t bytes, warpsim::cuda::MemLocation where, unsigned flags,
                                     void* stream) {
  return ordered_call("cudaMemPrefetchAsync", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaMemPrefetchAsync");
    rt.mem_prefetch(ptr, bytes, where, flags, "cudaMemPrefetchAsync");
  });
}
WARPSIM_API int cudaMemAdvise(const void* ptr, size_t bytes, int advice, warpsim::cuda::MemLocation where) {
  return ordered_call("cudaMemAdvise", [&](Runtime& rt) { rt.mem_advise(ptr, bytes, advice, where, "cudaMemAdvise"); });
}
#endif

WARPSIM_API int cudaMemRangeGetAttribute(void* data, size_t data_size, int attr, const void* ptr, size_t bytes) {
  return call("cudaMemRangeGetAttribute", [&](Runtime& rt) {
    rt.mem_range_attribute(data, data_size, attr, ptr, bytes, "cudaMemRangeGetAttribute");
  });
}

WARPSIM_API int cudaMemRangeGetAttributes(void** data, size_t* data_sizes, int* attrs, size_t n, const void* ptr,
                                          size_t bytes) {
  return call("cudaMemRangeGetAttributes", [&](Runtime& rt) {
    rt.mem_range_attributes(data, data_sizes, attrs, n, ptr, bytes, "cudaMemRangeGetAttributes");
  });
}

WARPSIM_API int cudaMemcpyToSymbol(const void* symbol, const void* src, size_t bytes, size_t offset, int kind) {
  return call("cudaMemcpyToSymbol",
              [&](Runtime& rt) {
                rt.synchronize();
                rt.memcpy_to_symbol(symbol, src, bytes, offset, kind_of(kind));
              });
}

WARPSIM_API int cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t bytes, size_t offset, int kind,
                                        void* stream) {
  return call("cudaMemcpyToSymbolAsync", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaMemcpyToSymbolAsync");
    rt.no_capture(stream, "cudaMemcpyToSymbolAsync");
    rt.memcpy_to_symbol(symbol, src, bytes, offset, kind_of(kind));
  });
}

WARPSIM_API int cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t bytes, size_t offset, int kind) {
  return call("cudaMemcpyFromSymbol",
              [&](Runtime& rt) {
                rt.synchronize();
                rt.memcpy_from_symbol(dst, symbol, bytes, offset, kind_of(kind));
              });
}

WARPSIM_API int cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t bytes, size_t offset, int kind,
                                          void* stream) {
  return call("cudaMemcpyFromSymbolAsync", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaMemcpyFromSymbolAsync");
    rt.no_capture(stream, "cudaMemcpyFromSymbolAsync");
    rt.memcpy_from_symbol(dst, symbol, bytes, offset, kind_of(kind));
  });
}

WARPSIM_API int cudaGetSymbolAddress(void** dev_ptr, const void* symbol) {
  return call("cudaGetSymbolAddress", [&](Runtime& rt) {
    *dev_ptr = reinterpret_cast<void*>(rt.symbol(symbol, "cudaGetSymbolAddress").first);
  });
}

WARPSIM_API int cudaGetSymbolSize(size_t* size, const void* symbol) {
  return call("cudaGetSymbolSize", [&](Runtime& rt) { *size = rt.symbol(symbol, "cudaGetSymbolSize").second; });
}
