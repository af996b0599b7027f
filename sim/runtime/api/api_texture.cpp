// CUDA arrays, copies to and from them, and texture and surface objects.
#include <fmt/format.h>

#include <algorithm>

#include "sim/runtime/driver/process_context.hpp"

using namespace warpsim::runtime;
using warpsim::runtime::api::call;
namespace cuda = warpsim::cuda;

namespace {
cuda::MemcpyKind kind_of(int k) { return static_cast<cuda::MemcpyKind>(k); }
}  // namespace

// The one entry point that returns a struct.
WARPSIM_API cuda::ChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f) {
  return {x, y, z, w, static_cast<cuda::ChannelFormatKind>(f)};
}

WARPSIM_API int cudaMallocArray(void** array, const cuda::ChannelFormatDesc* desc, size_t width, size_t height,
                                unsigned flags) {
  return call("cudaMallocArray", [&](Runtime& rt) {
    if (!array) throw ApiError(cuda::ErrorInvalidValue, "cudaMallocArray: array is NULL");
    *array = rt.malloc_array(desc, cuda::Extent{width, height, 0}, flags, "cudaMallocArray");
  });
}

WARPSIM_API int cudaMalloc3DArray(void** array, const cuda::ChannelFormatDesc* desc, cuda::Extent extent,
                                  unsigned flags) {
  return call("cudaMalloc3DArray", [&](Runtime& rt) {
    if (!array) throw ApiError(cuda::ErrorInvalidValue, "cudaMalloc3DArray: array is NULL");
    *array = rt.malloc_array(desc, extent, flags, "cudaMalloc3DArray");
  });
}

WARPSIM_API int cudaFreeArray(void* array) {
  return call("cudaFreeArray", [&](Runtime& rt) {
    rt.synchronize();
    rt.free_array(array);
  });
}

WARPSIM_API int cudaArrayGetInfo(cuda::ChannelFormatDesc* desc, cuda::Extent* extent, unsigned* flags, void* array) {
  return call("cudaArrayGetInfo", [&](Runtime& rt) { rt.array_info(desc, extent, flags, array); });
}

WARPSIM_API int cudaGetChannelDesc(cuda::ChannelFormatDesc* desc, const void* array) {
  return call("cudaGetChannelDesc", [&](Runtime& rt) {
    if (!desc) throw ApiError(cuda::ErrorInvalidValue, "cudaGetChannelDesc: desc is NULL");
    rt.array_info(desc, nullptr, nullptr, array);
  });
}

// --- Copies: one box copy behind every form (x offsets and widths in bytes) ---

namespace {

Runtime::CopySide array_side(const void* array, size_t x, size_t y) {
  Runtime::CopySide s;
  s.array = const_cast<void*>(array);
  s.x = x;
  s.y = y;
  return s;
}
Runtime::CopySide linear_side(const void* ptr, size_t pitch) {
  Runtime::CopySide s;
  s.ptr = const_cast<void*>(ptr);
  s.pitch = pitch;
  s.rows = 1;
  return s;
}

int to_array_2d(const char* name, void* dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                size_t width, size_t height, int kind, void* stream, bool async) {
  return call(name, [&](Runtime& rt) {
    if (async) rt.check_stream(stream, name);
    else rt.synchronize();
    rt.copy_box(array_side(dst, wOffset, hOffset), linear_side(src, spitch), width, height, 1, kind_of(kind), name);
  });
}

int from_array_2d(const char* name, void* dst, size_t dpitch, const void* src, size_t wOffset, size_t hOffset,
                  size_t width, size_t height, int kind, void* stream, bool async) {
  return call(name, [&](Runtime& rt) {
    if (async) rt.check_stream(stream, name);
    else rt.synchronize();
    rt.copy_box(linear_side(dst, dpitch), array_side(src, wOffset, hOffset), width, height, 1, kind_of(kind), name);
  });
}

// The deprecated 1D forms: `count` bytes from (wOffset, hOffset) on, row after row.
int linear_array(const char* name, bool to_array, void* array, size_t wOffset, size_t hOffset, void* ptr, size_t count,
                 int kind, void* stream, bool async) {
  return call(name, [&](Runtime& rt) {
    if (async) rt.check_stream(stream, name);
    else rt.synchronize();
    cuda::Extent e{};
    cuda::ChannelFormatDesc d{};
    rt.array_info(&d, &e, nullptr, array);
    const size_t texel = size_t(d.x + d.y + d.z + d.w) / 8;
    const size_t row = e.width * texel;
    size_t x = wOffset, y = hOffset, done = 0;
    while (done < count) {
      if (x >= row) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: offset past the end of the row", name));
      const size_t n = std::min(count - done, row - x);
      char* p = static_cast<char*>(ptr) + done;
      if (to_array) rt.copy_box(array_side(array, x, y), linear_side(p, n), n, 1, 1, kind_of(kind), name);
      else rt.copy_box(linear_side(p, n), array_side(array, x, y), n, 1, 1, kind_of(kind), name);
      done += n;
      x = 0;
      ++y;
    }
  });
}

}  // namespace

// cudaMemcpyArrayToArray: `count` bytes from src's (wOffsetSrc bytes, hOffsetSrc) on, row
// after row, to dst's (wOffsetDst, hOffsetDst) on; both must hold them (else nothing is
// copied), and only device-to-device (or default) copies are allowed, as on an H200.
WARPSIM_API int cudaMemcpyArrayToArray(void* dst, size_t wOffsetDst, size_t hOffsetDst, const void* src,
                                       size_t wOffsetSrc, size_t hOffsetSrc, size_t count, int kind) {
  const char* name = "cudaMemcpyArrayToArray";
  return call(name, [&](Runtime& rt) {
    if (kind != cuda::DeviceToDevice && kind != cuda::Default)
      throw ApiError(cuda::ErrorInvalidMemcpyDirection,
                     fmt::format("{}: kind {} (between arrays: cudaMemcpyDeviceToDevice or Default)", name, kind));
    rt.synchronize();
    struct Walk {
      size_t row, x, y;
    };
    const auto walk = [&](const void* array, size_t x, size_t y) {
      cuda::Extent e{};
      cuda::ChannelFormatDesc d{};
      rt.array_info(&d, &e, nullptr, array);
      const size_t row = e.width * (size_t(d.x + d.y + d.z + d.w) / 8);
      const size_t rows = std::max<size_t>(e.height, 1) * std::max<size_t>(e.depth, 1);
      if (x >= row || y >= rows || y * row + x + count > row * rows)
        throw ApiError(cuda::ErrorInvalidValue,
                       fmt::format("{}: {} bytes from byte {} of row {} run past the array's {} rows of {} bytes", name,
                                   count, x, y, rows, row));
      return Walk{row, x, y};
    };
    Walk d = walk(dst, wOffsetDst, hOffsetDst), s = walk(src, wOffsetSrc, hOffsetSrc);
    for (size_t done = 0; done < count;) {
      const size_t n = std::min({count - done, d.row - d.x, s.row - s.x});
      rt.copy_box(array_side(dst, d.x, d.y), array_side(src, s.x, s.y), n, 1, 1, cuda::DeviceToDevice, name);
      done += n;
      for (Walk* w : {&d, &s})
        if ((w->x += n) == w->row) w->x = 0, ++w->y;
    }
  });
}

WARPSIM_API int cudaMemcpyArrayToArray_ptds(void* dst, size_t wOffsetDst, size_t hOffsetDst, const void* src,
                                            size_t wOffsetSrc, size_t hOffsetSrc, size_t count, int kind) {
  return cudaMemcpyArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count, kind);
}

// cudaDeviceGetTexture1DLinearMaxWidth: the most elements of `desc`'s size a 1D texture over
// linear memory may have. An H200 answered 2^30 for 1- and 4-byte texels and 2^28 for
// 16-byte ones, 4 GiB at most (cc 9.0); other devices' limits were not measured, and
// asking is cudaErrorNotSupported, as for their other linear-texture limits.
WARPSIM_API int cudaDeviceGetTexture1DLinearMaxWidth(size_t* width, const cuda::ChannelFormatDesc* desc, int device) {
  const char* name = "cudaDeviceGetTexture1DLinearMaxWidth";
  return call(name, [&](Runtime& rt) {
    check_device(device, name);
    if (!width || !desc) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: an argument is NULL", name));
    const size_t bytes = size_t(desc->x + desc->y + desc->z + desc->w) / 8;
    if (bytes == 0) throw ApiError(cuda::ErrorInvalidChannelDescriptor, fmt::format("{}: a texel of 0 bytes", name));
    if (rt.spec().cc_major() != 9)
      throw ApiError(cuda::ErrorNotSupported,
                     fmt::format("{}: known for cc 9.0 only (an H200's answers); the {} is cc {}.{}", name,
                                 rt.spec().name, rt.spec().cc_major(), rt.spec().cc_minor()));
    *width = std::min(size_t(1) << 30, (size_t(1) << 32) / bytes);
  });
}

WARPSIM_API int cudaMemcpy2DToArray(void* dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                    size_t width, size_t height, int kind) {
  return to_array_2d("cudaMemcpy2DToArray", dst, wOffset, hOffset, src, spitch, width, height, kind, nullptr, false);
}
WARPSIM_API int cudaMemcpy2DToArrayAsync(void* dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                         size_t width, size_t height, int kind, void* stream) {
  return to_array_2d("cudaMemcpy2DToArrayAsync", dst, wOffset, hOffset, src, spitch, width, height, kind, stream,
                     true);
}
WARPSIM_API int cudaMemcpy2DFromArray(void* dst, size_t dpitch, const void* src, size_t wOffset, size_t hOffset,
                                      size_t width, size_t height, int kind) {
  return from_array_2d("cudaMemcpy2DFromArray", dst, dpitch, src, wOffset, hOffset, width, height, kind, nullptr,
                       false);
}
WARPSIM_API int cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, const void* src, size_t wOffset, size_t hOffset,
                                           size_t width, size_t height, int kind, void* stream) {
  return from_array_2d("cudaMemcpy2DFromArrayAsync", dst, dpitch, src, wOffset, hOffset, width, height, kind, stream,
                       true);
}
WARPSIM_API int cudaMemcpy2DArrayToArray(void* dst, size_t wOffsetDst, size_t hOffsetDst, const void* src,
                                         size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height, int kind) {
  return call("cudaMemcpy2DArrayToArray", [&](Runtime& rt) {
    rt.synchronize();
    rt.copy_box(array_side(dst, wOffsetDst, hOffsetDst), array_side(src, wOffsetSrc, hOffsetSrc), width, height, 1,
                kind_of(kind), "cudaMemcpy2DArrayToArray");
  });
}
WARPSIM_API int cudaMemcpyToArray(void* dst, size_t wOffset, size_t hOffset, const void* src, size_t count, int kind) {
  return linear_array("cudaMemcpyToArray", true, dst, wOffset, hOffset, const_cast<void*>(src), count, kind, nullptr,
                      false);
}
WARPSIM_API int cudaMemcpyToArrayAsync(void* dst, size_t wOffset, size_t hOffset, const void* src, size_t count,
                                       int kind, void* stream) {
  return linear_array("cudaMemcpyToArrayAsync", true, dst, wOffset, hOffset, const_cast<void*>(src), count, kind,
                      stream, true);
}
WARPSIM_API int cudaMemcpyFromArray(void* dst, const void* src, size_t wOffset, size_t hOffset, size_t count,
                                    int kind) {
  return linear_array("cudaMemcpyFromArray", false, const_cast<void*>(src), wOffset, hOffset, dst, count, kind,
                      nullptr, false);
}
WARPSIM_API int cudaMemcpyFromArrayAsync(void* dst, const void* src, size_t wOffset, size_t hOffset, size_t count,
                                         int kind, void* stream) {
  return linear_array("cudaMemcpyFromArrayAsync", false, const_cast<void*>(src), wOffset, hOffset, dst, count, kind,
                      stream, true);
}
WARPSIM_API int cudaMemcpy3D(const cuda::Memcpy3DParms* p) {
  return call("cudaMemcpy3D", [&](Runtime& rt) {
    rt.synchronize();
    rt.memcpy_3d(p, "cudaMemcpy3D");
  });
}
WARPSIM_API int cudaMemcpy3DAsync(const cuda::Memcpy3DParms* p, void* stream) {
  return call("cudaMemcpy3DAsync", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaMemcpy3DAsync");
    rt.no_capture(stream, "cudaMemcpy3DAsync");
    rt.memcpy_3d(p, "cudaMemcpy3DAsync");
  });
}

namespace {
// A peer copy on the one device: the devices checked, device memory (or arrays) on both
// sides, as an H200 requires (a host pointer is cudaErrorInvalidValue), then
// cudaMemcpy3D's copy.
void peer_copy(Runtime& rt, const cuda::Memcpy3DPeerParms* p, const char* call) {
  if (!p) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: the parameters are NULL", call));
  check_device(p->srcDevice, call);
  check_device(p->dstDevice, call);
  auto device_side = [&](const void* array, const void* ptr, const char* side) {
    if (array) return;
    cuda::PointerAttributes a{};
    rt.pointer_attributes(&a, ptr);
    if (a.type != cuda::Device && a.type != cuda::Managed)
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: the {} {} is not device memory", call, side, ptr));
  };
  device_side(p->srcArray, p->srcPtr.ptr, "source");
  device_side(p->dstArray, p->dstPtr.ptr, "destination");
  cuda::Memcpy3DParms c{};
  c.srcArray = p->srcArray;
  c.srcPos = p->srcPos;
  c.srcPtr = p->srcPtr;
  c.dstArray = p->dstArray;
  c.dstPos = p->dstPos;
  c.dstPtr = p->dstPtr;
  c.extent = p->extent;
  c.kind = cuda::MemcpyKind::Default;
  rt.memcpy_3d(&c, call);
}
}  // namespace

WARPSIM_API int cudaMemcpy3DPeer(const cuda::Memcpy3DPeerParms* p) {
  return call("cudaMemcpy3DPeer", [&](Runtime& rt) {
    rt.synchronize();
    peer_copy(rt, p, "cudaMemcpy3DPeer");
  });
}
WARPSIM_API int cudaMemcpy3DPeerAsync(const cuda::Memcpy3DPeerParms* p, void* stream) {
  return call("cudaMemcpy3DPeerAsync", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaMemcpy3DPeerAsync");
    rt.no_capture(stream, "cudaMemcpy3DPeerAsync");
    peer_copy(rt, p, "cudaMemcpy3DPeerAsync");
  });
}
WARPSIM_API int cudaMemcpy3DPeer_ptds(const cuda::Memcpy3DPeerParms* p) { return cudaMemcpy3DPeer(p); }
WARPSIM_API int cudaMemcpy3DPeerAsync_ptsz(const cuda::Memcpy3DPeerParms* p, void* stream) {
  return cudaMemcpy3DPeerAsync(p, stream);
}

// --- Texture and surface objects ---

#ifndef WARPSIM_CUDART_12  // CUDA 12's cudaResourceDesc is shorter (api12/)
WARPSIM_API int cudaCreateTextureObject(unsigned long long* obj, const cuda::ResourceDesc* res,
                                        const cuda::TextureDesc* tex, const void* view) {
  return call("cudaCreateTextureObject", [&](Runtime& rt) {
    if (!obj) throw ApiError(cuda::ErrorInvalidValue, "cudaCreateTextureObject: pTexObject is NULL");
    *obj = rt.create_texture(res, tex, view);
  });
}
#endif
WARPSIM_API int cudaDestroyTextureObject(unsigned long long obj) {
  return call("cudaDestroyTextureObject", [&](Runtime& rt) { rt.destroy_texture(obj, false); });
}
#ifndef WARPSIM_CUDART_12  // CUDA 12's cudaResourceDesc is shorter (api12/)
WARPSIM_API int cudaGetTextureObjectResourceDesc(cuda::ResourceDesc* out, unsigned long long obj) {
  return call("cudaGetTextureObjectResourceDesc", [&](Runtime& rt) { rt.texture_resource_desc(out, obj, false); });
}
#endif
WARPSIM_API int cudaGetTextureObjectTextureDesc(cuda::TextureDesc* out, unsigned long long obj) {
  return call("cudaGetTextureObjectTextureDesc", [&](Runtime& rt) { rt.texture_desc(out, obj); });
}
#ifndef WARPSIM_CUDART_12  // CUDA 12's cudaResourceDesc is shorter (api12/)
WARPSIM_API int cudaCreateSurfaceObject(unsigned long long* obj, const cuda::ResourceDesc* res) {
  return call("cudaCreateSurfaceObject", [&](Runtime& rt) {
    if (!obj) throw ApiError(cuda::ErrorInvalidValue, "cudaCreateSurfaceObject: pSurfObject is NULL");
    *obj = rt.create_surface(res);
  });
}
#endif
WARPSIM_API int cudaDestroySurfaceObject(unsigned long long obj) {
  return call("cudaDestroySurfaceObject", [&](Runtime& rt) { rt.destroy_texture(obj, true); });
}
#ifndef WARPSIM_CUDART_12  // CUDA 12's cudaResourceDesc is shorter (api12/)
WARPSIM_API int cudaGetSurfaceObjectResourceDesc(cuda::ResourceDesc* out, unsigned long long obj) {
  return call("cudaGetSurfaceObjectResourceDesc", [&](Runtime& rt) { rt.texture_resource_desc(out, obj, true); });
}
#endif
