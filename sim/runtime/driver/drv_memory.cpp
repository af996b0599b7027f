// Driver API: device, pinned and managed memory, copies and memsets (linear, 2D and 3D,
// with CUDA arrays), arrays and texture/surface objects. Device pointers (CUdeviceptr) are
// the simulated device's addresses, as the runtime's are.
#include <fmt/format.h>

#include "sim/runtime/driver/driver_context.hpp"

using namespace warpsim::runtime;
using namespace warpsim::runtime::driver;
namespace cuda = warpsim::cuda;
namespace cu = warpsim::cu;
using Kind = cuda::MemcpyKind;

namespace {

void* ptr(cu::DevicePtr p) { return reinterpret_cast<void*>(p); }

}  // namespace

WARPSIM_DRIVER_API int cuMemAlloc_v2(cu::DevicePtr* dptr, size_t bytes) {
  return call("cuMemAlloc", Needs::Context, [&](Runtime& rt) {
    require(dptr, "cuMemAlloc", "dptr");
    if (bytes == 0) throw ApiError(cuda::ErrorInvalidValue, "cuMemAlloc: bytesize is 0");
    *dptr = reinterpret_cast<cu::DevicePtr>(rt.malloc(bytes, "cuMemAlloc"));
    own(rt, Owned::DeviceMemory, ptr(*dptr));
  });
}

WARPSIM_DRIVER_API int cuMemAllocPitch_v2(cu::DevicePtr* dptr, size_t* pitch, size_t width, size_t height,
                                          unsigned element_bytes) {
  return call("cuMemAllocPitch", Needs::Context, [&](Runtime& rt) {
    require(dptr, "cuMemAllocPitch", "dptr");
    require(pitch, "cuMemAllocPitch", "pPitch");
    if (element_bytes != 4 && element_bytes != 8 && element_bytes != 16)
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("cuMemAllocPitch: ElementSizeBytes {} (4, 8 or 16)", element_bytes));
    uint64_t p = 0;
    *dptr = reinterpret_cast<cu::DevicePtr>(rt.malloc_pitch(&p, width, height));
    *pitch = p;
    own(rt, Owned::DeviceMemory, ptr(*dptr));
  });
}

WARPSIM_DRIVER_API int cuMemAllocManaged(cu::DevicePtr* dptr, size_t bytes, unsigned /*flags*/) {
  return call("cuMemAllocManaged", Needs::Context, [&](Runtime& rt) {
    require(dptr, "cuMemAllocManaged", "dptr");
    *dptr = reinterpret_cast<cu::DevicePtr>(rt.malloc_managed(bytes));
    own(rt, Owned::DeviceMemory, ptr(*dptr));
  });
}

WARPSIM_DRIVER_API int cuMemFree_v2(cu::DevicePtr dptr) {
  return call("cuMemFree", Needs::Context, [&](Runtime& rt) {
    rt.synchronize();
    rt.free(ptr(dptr));
  });
}

WARPSIM_DRIVER_API int cuMemGetInfo_v2(size_t* free_bytes, size_t* total_bytes) {
  return call("cuMemGetInfo", Needs::Context, [&](Runtime& rt) {
    uint64_t f = 0, t = 0;
    rt.mem_get_info(&f, &t);
    if (free_bytes) *free_bytes = f;
    if (total_bytes) *total_bytes = t;
  });
}

WARPSIM_DRIVER_API int cuMemAllocHost_v2(void** host, size_t bytes) {
  return call("cuMemAllocHost", Needs::Context, [&](Runtime& rt) {
    require(host, "cuMemAllocHost", "pp");
    *host = rt.malloc_host(bytes, 0, "cuMemAllocHost");
    own(rt, Owned::HostMemory, *host);
  });
}

WARPSIM_DRIVER_API int cuMemHostAlloc(void** host, size_t bytes, unsigned flags) {
  // CU_MEMHOSTALLOC_* are cudaHostAlloc*'s numbers.
  return call("cuMemHostAlloc", Needs::Context, [&](Runtime& rt) {
    require(host, "cuMemHostAlloc", "pp");
    *host = rt.malloc_host(bytes, flags, "cuMemHostAlloc");
    own(rt, Owned::HostMemory, *host);
  });
}

WARPSIM_DRIVER_API int cuMemFreeHost(void* host) {
  return call("cuMemFreeHost", Needs::Context, [&](Runtime& rt) { rt.free_host(host); });
}

WARPSIM_DRIVER_API int cuMemHostRegister_v2(void* host, size_t bytes, unsigned flags) {
  return call("cuMemHostRegister", Needs::Context, [&](Runtime& rt) { rt.host_register(host, bytes, flags); });
}

WARPSIM_DRIVER_API int cuMemHostUnregister(void* host) {
  return call("cuMemHostUnregister", Needs::Context, [&](Runtime& rt) { rt.host_unregister(host); });
}

WARPSIM_DRIVER_API int cuMemHostGetDevicePointer_v2(cu::DevicePtr* dptr, void* host, unsigned flags) {
  return call("cuMemHostGetDevicePointer", Needs::Context, [&](Runtime& rt) {
    require(dptr, "cuMemHostGetDevicePointer", "pdptr");
    *dptr = reinterpret_cast<cu::DevicePtr>(rt.host_device_pointer(host, flags));
  });
}

// --- Linear copies and memsets. Work runs when issued, so the Async forms are the same
// copies on a checked stream (not recorded by stream capture: cudaErrorStreamCaptureUnsupported).

namespace {

int copy(const char* name, void* dst, const void* src, size_t bytes, Kind kind, void* stream, bool async) {
  return call(name, Needs::Context, [&](Runtime& rt) {
    if (async) {
      rt.check_stream(stream, name);
      rt.no_capture(stream, name);
    } else {
      rt.synchronize();
    }
    rt.memcpy(dst, src, bytes, kind, name);
  });
}

int set(const char* name, cu::DevicePtr dst, size_t pitch, uint32_t value, unsigned element_bytes, size_t width,
        size_t height, void* stream, bool async) {
  return call(name, Needs::Context, [&](Runtime& rt) {
    if (async) {
      rt.check_stream(stream, name);
      rt.no_capture(stream, name);
    }
    rt.memset_elements(ptr(dst), pitch, value, element_bytes, width, height, name);
  });
}

}  // namespace

WARPSIM_DRIVER_API int cuMemcpyHtoD_v2(cu::DevicePtr dst, const void* src, size_t bytes) {
  return copy("cuMemcpyHtoD", ptr(dst), src, bytes, Kind::HostToDevice, nullptr, false);
}
WARPSIM_DRIVER_API int cuMemcpyDtoH_v2(void* dst, cu::DevicePtr src, size_t bytes) {
  return copy("cuMemcpyDtoH", dst, ptr(src), bytes, Kind::DeviceToHost, nullptr, false);
}
WARPSIM_DRIVER_API int cuMemcpyDtoD_v2(cu::DevicePtr dst, cu::DevicePtr src, size_t bytes) {
  return copy("cuMemcpyDtoD", ptr(dst), ptr(src), bytes, Kind::DeviceToDevice, nullptr, false);
}
WARPSIM_DRIVER_API int cuMemcpy(cu::DevicePtr dst, cu::DevicePtr src, size_t bytes) {
  return copy("cuMemcpy", ptr(dst), ptr(src), bytes, Kind::Default, nullptr, false);
}
WARPSIM_DRIVER_API int cuMemcpyHtoDAsync_v2(cu::DevicePtr dst, const void* src, size_t bytes, void* stream) {
  return copy("cuMemcpyHtoDAsync", ptr(dst), src, bytes, Kind::HostToDevice, stream, true);
}
WARPSIM_DRIVER_API int cuMemcpyDtoHAsync_v2(void* dst, cu::DevicePtr src, size_t bytes, void* stream) {
  return copy("cuMemcpyDtoHAsync", dst, ptr(src), bytes, Kind::DeviceToHost, stream, true);
}
WARPSIM_DRIVER_API int cuMemcpyDtoDAsync_v2(cu::DevicePtr dst, cu::DevicePtr src, size_t bytes, void* stream) {
  return copy("cuMemcpyDtoDAsync", ptr(dst), ptr(src), bytes, Kind::DeviceToDevice, stream, true);
}
WARPSIM_DRIVER_API int cuMemcpyAsync(cu::DevicePtr dst, cu::DevicePtr src, size_t bytes, void* stream) {
  return copy("cuMemcpyAsync", ptr(dst), ptr(src), bytes, Kind::Default, stream, true);
}

WARPSIM_DRIVER_API int cuMemsetD8_v2(cu::DevicePtr dst, unsigned char value, size_t n) {
  return set("cuMemsetD8", dst, 0, value, 1, n, 1, nullptr, false);
}
WARPSIM_DRIVER_API int cuMemsetD16_v2(cu::DevicePtr dst, unsigned short value, size_t n) {
  return set("cuMemsetD16", dst, 0, value, 2, n, 1, nullptr, false);
}
WARPSIM_DRIVER_API int cuMemsetD32_v2(cu::DevicePtr dst, unsigned value, size_t n) {
  return set("cuMemsetD32", dst, 0, value, 4, n, 1, nullptr, false);
}
WARPSIM_DRIVER_API int cuMemsetD8Async(cu::DevicePtr dst, unsigned char value, size_t n, void* stream) {
  return set("cuMemsetD8Async", dst, 0, value, 1, n, 1, stream, true);
}
WARPSIM_DRIVER_API int cuMemsetD16Async(cu::DevicePtr dst, unsigned short value, size_t n, void* stream) {
  return set("cuMemsetD16Async", dst, 0, value, 2, n, 1, stream, true);
}
WARPSIM_DRIVER_API int cuMemsetD32Async(cu::DevicePtr dst, unsigned value, size_t n, void* stream) {
  return set("cuMemsetD32Async", dst, 0, value, 4, n, 1, stream, true);
}
WARPSIM_DRIVER_API int cuMemsetD2D8_v2(cu::DevicePtr dst, size_t pitch, unsigned char value, size_t w, size_t h) {
  return set("cuMemsetD2D8", dst, pitch, value, 1, w, h, nullptr, false);
}
WARPSIM_DRIVER_API int cuMemsetD2D16_v2(cu::DevicePtr dst, size_t pitch, unsigned short value, size_t w, size_t h) {
  return set("cuMemsetD2D16", dst, pitch, value, 2, w, h, nullptr, false);
}
WARPSIM_DRIVER_API int cuMemsetD2D32_v2(cu::DevicePtr dst, size_t pitch, unsigned value, size_t w, size_t h) {
  return set("cuMemsetD2D32", dst, pitch, value, 4, w, h, nullptr, false);
}

// --- 2D and 3D copies, between host, device and arrays ---

namespace {

Runtime::CopySide side(cu::MemoryType type, const void* host, cu::DevicePtr device, void* array, size_t x, size_t y,
                       size_t z, size_t pitch, size_t rows, const char* call, const char* which) {
  Runtime::CopySide s;
  s.x = x, s.y = y, s.z = z;
  switch (type) {
    case cu::MemoryTypeArray: s.array = array; return s;
    case cu::MemoryTypeHost: s.ptr = const_cast<void*>(host); break;
    case cu::MemoryTypeDevice:
    case cu::MemoryTypeUnified: s.ptr = ptr(device); break;
    default:
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: {}MemoryType {} is not a CUmemorytype", call, which, int(type)));
  }
  s.pitch = pitch;
  s.rows = rows;
  return s;
}

Kind kind_of(cu::MemoryType src, cu::MemoryType dst) {
  auto on_host = [](cu::MemoryType t) { return t == cu::MemoryTypeHost; };
  if (src == cu::MemoryTypeUnified || dst == cu::MemoryTypeUnified) return Kind::Default;
  if (on_host(src)) return on_host(dst) ? Kind::HostToHost : Kind::HostToDevice;
  return on_host(dst) ? Kind::DeviceToHost : Kind::DeviceToDevice;
}

int copy_2d(const char* name, const cu::Memcpy2D* p, void* stream, bool async) {
  return call(name, Needs::Context, [&](Runtime& rt) {
    require(p, name, "pCopy");
    if (async) {
      rt.check_stream(stream, name);
      rt.no_capture(stream, name);
    } else {
      rt.synchronize();
    }
    const auto src = side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY, 0,
                          p->srcPitch ? p->srcPitch : p->WidthInBytes, p->Height, name, "src");
    const auto dst = side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, 0,
                          p->dstPitch ? p->dstPitch : p->WidthInBytes, p->Height, name, "dst");
    rt.copy_box(dst, src, p->WidthInBytes, p->Height, 1, kind_of(p->srcMemoryType, p->dstMemoryType), name);
  });
}

int copy_3d(const char* name, const cu::Memcpy3D* p, void* stream, bool async) {
  return call(name, Needs::Context, [&](Runtime& rt) {
    require(p, name, "pCopy");
    if (p->srcLOD || p->dstLOD)
      throw ApiError(cuda::ErrorNotSupported, fmt::format("{}: mipmap levels (srcLOD/dstLOD) are not supported", name));
    if (async) {
      rt.check_stream(stream, name);
      rt.no_capture(stream, name);
    } else {
      rt.synchronize();
    }
    const size_t spitch = p->srcPitch ? p->srcPitch : p->WidthInBytes, dpitch = p->dstPitch ? p->dstPitch : p->WidthInBytes;
    const size_t srows = p->srcHeight ? p->srcHeight : p->Height, drows = p->dstHeight ? p->dstHeight : p->Height;
    const auto src = side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY, p->srcZ,
                          spitch, srows, name, "src");
    const auto dst = side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, p->dstZ,
                          dpitch, drows, name, "dst");
    rt.copy_box(dst, src, p->WidthInBytes, p->Height, std::max<size_t>(p->Depth, 1),
                kind_of(p->srcMemoryType, p->dstMemoryType), name);
  });
}

}  // namespace

WARPSIM_DRIVER_API int cuMemcpy2D_v2(const cu::Memcpy2D* p) { return copy_2d("cuMemcpy2D", p, nullptr, false); }
WARPSIM_DRIVER_API int cuMemcpy2DUnaligned_v2(const cu::Memcpy2D* p) {
  return copy_2d("cuMemcpy2DUnaligned", p, nullptr, false);
}
WARPSIM_DRIVER_API int cuMemcpy2DAsync_v2(const cu::Memcpy2D* p, void* stream) {
  return copy_2d("cuMemcpy2DAsync", p, stream, true);
}
WARPSIM_DRIVER_API int cuMemcpy3D_v2(const cu::Memcpy3D* p) { return copy_3d("cuMemcpy3D", p, nullptr, false); }
WARPSIM_DRIVER_API int cuMemcpy3DAsync_v2(const cu::Memcpy3D* p, void* stream) {
  return copy_3d("cuMemcpy3DAsync", p, stream, true);
}

// --- CUDA arrays and texture/surface objects ---

namespace {

// A CUarray_format with its channel count as the runtime's channel description.
cuda::ChannelFormatDesc channel_desc(int format, unsigned channels, const char* call) {
  int bits = 0;
  cuda::ChannelFormatKind kind = cuda::ChannelUnsigned;
  switch (format) {
    case cu::FormatUnsignedInt8: bits = 8; break;
    case cu::FormatUnsignedInt16: bits = 16; break;
    case cu::FormatUnsignedInt32: bits = 32; break;
    case cu::FormatSignedInt8: bits = 8, kind = cuda::ChannelSigned; break;
    case cu::FormatSignedInt16: bits = 16, kind = cuda::ChannelSigned; break;
    case cu::FormatSignedInt32: bits = 32, kind = cuda::ChannelSigned; break;
    case cu::FormatHalf: bits = 16, kind = cuda::ChannelFloat; break;
    case cu::FormatFloat: bits = 32, kind = cuda::ChannelFloat; break;
    default:
      throw ApiError(cuda::ErrorNotSupported,
                     fmt::format("{}: CUarray_format {:#x} is not supported (8/16/32-bit integers, half, float)", call,
                                 format));
  }
  if (channels != 1 && channels != 2 && channels != 4)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: NumChannels {} (1, 2 or 4)", call, channels));
  return {bits, channels > 1 ? bits : 0, channels > 2 ? bits : 0, channels > 2 ? bits : 0, kind};
}

int format_of(const cuda::ChannelFormatDesc& d) {
  const bool is_float = d.f == cuda::ChannelFloat, is_signed = d.f == cuda::ChannelSigned;
  switch (d.x) {
    case 8: return is_signed ? cu::FormatSignedInt8 : cu::FormatUnsignedInt8;
    case 16: return is_float ? cu::FormatHalf : is_signed ? cu::FormatSignedInt16 : cu::FormatUnsignedInt16;
    default: return is_float ? cu::FormatFloat : is_signed ? cu::FormatSignedInt32 : cu::FormatUnsignedInt32;
  }
}

}  // namespace

WARPSIM_DRIVER_API int cuArrayCreate_v2(void** array, const cu::ArrayDescriptor* d) {
  return call("cuArrayCreate", Needs::Context, [&](Runtime& rt) {
    require(array, "cuArrayCreate", "pHandle");
    require(d, "cuArrayCreate", "pAllocateArray");
    const cuda::ChannelFormatDesc desc = channel_desc(d->Format, d->NumChannels, "cuArrayCreate");
    *array = rt.malloc_array(&desc, cuda::Extent{d->Width, d->Height, 0}, 0, "cuArrayCreate");
  });
}

WARPSIM_DRIVER_API int cuArray3DCreate_v2(void** array, const cu::Array3DDescriptor* d) {
  return call("cuArray3DCreate", Needs::Context, [&](Runtime& rt) {
    require(array, "cuArray3DCreate", "pHandle");
    require(d, "cuArray3DCreate", "pAllocateArray");
    const cuda::ChannelFormatDesc desc = channel_desc(d->Format, d->NumChannels, "cuArray3DCreate");
    // CUDA_ARRAY3D_* flags are cudaArray*'s numbers (layered 1, surface load/store 2, ...).
    *array = rt.malloc_array(&desc, cuda::Extent{d->Width, d->Height, d->Depth}, d->Flags, "cuArray3DCreate");
  });
}

WARPSIM_DRIVER_API int cuArrayDestroy(void* array) {
  return call("cuArrayDestroy", Needs::Context, [&](Runtime& rt) {
    rt.synchronize();
    rt.free_array(array);
  });
}

WARPSIM_DRIVER_API int cuArrayGetDescriptor_v2(cu::ArrayDescriptor* d, void* array) {
  return call("cuArrayGetDescriptor", Needs::Context, [&](Runtime& rt) {
    require(d, "cuArrayGetDescriptor", "pArrayDescriptor");
    cuda::ChannelFormatDesc desc{};
    cuda::Extent extent{};
    rt.array_info(&desc, &extent, nullptr, array);
    d->Width = extent.width;
    d->Height = extent.height;
    d->Format = static_cast<cu::ArrayFormat>(format_of(desc));
    d->NumChannels = desc.w ? 4 : desc.y ? 2 : 1;
  });
}

namespace {

cuda::ResourceDesc resource(const cu::ResourceDesc* r, const char* call) {
  require(r, call, "pResDesc");
  cuda::ResourceDesc out{};
  out.resType = static_cast<cuda::ResourceType>(r->resType);
  out.flags = r->flags;
  switch (r->resType) {
    case cu::ResourceArray: out.res.array.array = r->res.array.hArray; break;
    case cu::ResourceLinear:
      out.res.linear.devPtr = ptr(r->res.linear.devPtr);
      out.res.linear.desc = channel_desc(r->res.linear.format, r->res.linear.numChannels, call);
      out.res.linear.sizeInBytes = r->res.linear.sizeInBytes;
      break;
    case cu::ResourcePitch2D:
      out.res.pitch2D.devPtr = ptr(r->res.pitch2D.devPtr);
      out.res.pitch2D.desc = channel_desc(r->res.pitch2D.format, r->res.pitch2D.numChannels, call);
      out.res.pitch2D.width = r->res.pitch2D.width;
      out.res.pitch2D.height = r->res.pitch2D.height;
      out.res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
      break;
    default:
      throw ApiError(cuda::ErrorNotSupported, fmt::format("{}: resource type {} (mipmapped arrays are not supported)",
                                                          call, int(r->resType)));
  }
  return out;
}

// Integer channels of 8 or 16 bits, which textures may return as normalised floats.
bool promotes_to_float(const Runtime& rt, const cuda::ResourceDesc& r) {
  cuda::ChannelFormatDesc d{};
  if (r.resType == cuda::ResourceLinear) d = r.res.linear.desc;
  else if (r.resType == cuda::ResourcePitch2D) d = r.res.pitch2D.desc;
  else rt.array_info(&d, nullptr, nullptr, r.res.array.array);
  return d.f != cuda::ChannelFloat && (d.x == 8 || d.x == 16);
}

}  // namespace

WARPSIM_DRIVER_API int cuTexObjectCreate(unsigned long long* object, const cu::ResourceDesc* res,
                                         const cu::TextureDesc* tex, const void* view) {
  return call("cuTexObjectCreate", Needs::Context, [&](Runtime& rt) {
    require(object, "cuTexObjectCreate", "pTexObject");
    require(tex, "cuTexObjectCreate", "pTexDesc");
    const cuda::ResourceDesc r = resource(res, "cuTexObjectCreate");
    cuda::TextureDesc t{};
    for (int i = 0; i < 3; ++i) t.addressMode[i] = tex->addressMode[i];
    t.filterMode = tex->filterMode;
    // Without CU_TRSF_READ_AS_INTEGER the driver promotes 8- and 16-bit integer texels to
    // [0, 1] floats (cudaReadModeNormalizedFloat); other formats are read as they are.
    t.readMode = (tex->flags & cu::kReadAsInteger) || !promotes_to_float(rt, r) ? 0 : 1;
    t.sRGB = (tex->flags & cu::kSrgb) ? 1 : 0;
    for (int i = 0; i < 4; ++i) t.borderColor[i] = tex->borderColor[i];
    t.normalizedCoords = (tex->flags & cu::kNormalizedCoordinates) ? 1 : 0;
    t.maxAnisotropy = tex->maxAnisotropy;
    t.mipmapFilterMode = tex->mipmapFilterMode;
    t.mipmapLevelBias = tex->mipmapLevelBias;
    t.minMipmapLevelClamp = tex->minMipmapLevelClamp;
    t.maxMipmapLevelClamp = tex->maxMipmapLevelClamp;
    t.disableTrilinearOptimization = (tex->flags & cu::kDisableTrilinearOptimization) ? 1 : 0;
    t.seamlessCubemap = (tex->flags & cu::kSeamlessCubemap) ? 1 : 0;
    if (view)
      throw ApiError(cuda::ErrorNotSupported, "cuTexObjectCreate: resource views (pResViewDesc) are not supported");
    *object = rt.create_texture(&r, &t, nullptr);
  });
}

WARPSIM_DRIVER_API int cuTexObjectDestroy(unsigned long long object) {
  return call("cuTexObjectDestroy", Needs::Context, [&](Runtime& rt) { rt.destroy_texture(object, false); });
}

WARPSIM_DRIVER_API int cuSurfObjectCreate(unsigned long long* object, const cu::ResourceDesc* res) {
  return call("cuSurfObjectCreate", Needs::Context, [&](Runtime& rt) {
    require(object, "cuSurfObjectCreate", "pSurfObject");
    const cuda::ResourceDesc r = resource(res, "cuSurfObjectCreate");
    *object = rt.create_surface(&r);
  });
}

WARPSIM_DRIVER_API int cuSurfObjectDestroy(unsigned long long object) {
  return call("cuSurfObjectDestroy", Needs::Context, [&](Runtime& rt) { rt.destroy_texture(object, true); });
}

// --- Pointer queries and managed-memory hints ---

WARPSIM_DRIVER_API int cuPointerGetAttribute(void* data, int attribute, cu::DevicePtr p) {
  return call("cuPointerGetAttribute", Needs::Context, [&](Runtime& rt) {
    require(data, "cuPointerGetAttribute", "data");
    cuda::PointerAttributes a{};
    rt.pointer_attributes(&a, ptr(p));
    const bool known = a.type != cuda::Unregistered;
    auto need_known = [&] {
      if (!known)
        throw ApiError(cuda::ErrorInvalidValue,
                       fmt::format("cuPointerGetAttribute: {:#x} is not memory CUDA allocated or registered", p));
    };
    switch (attribute) {
      case 1: need_known(); *static_cast<void**>(data) = current_context(); break;  // CONTEXT
      case 2:  // MEMORY_TYPE: host for pinned memory, device for device and managed memory
        need_known();
        *static_cast<unsigned*>(data) = a.type == cuda::Host ? cu::MemoryTypeHost : cu::MemoryTypeDevice;
        break;
      case 3:
        need_known();
        *static_cast<cu::DevicePtr*>(data) = reinterpret_cast<cu::DevicePtr>(a.devicePointer);
        break;
      case 4: need_known(); *static_cast<void**>(data) = a.hostPointer; break;
      case 8: need_known(); *static_cast<int*>(data) = a.type == cuda::Managed; break;  // IS_MANAGED
      case 9: need_known(); *static_cast<int*>(data) = 0; break;                        // DEVICE_ORDINAL
      case 13: *static_cast<int*>(data) = known; break;                                 // MAPPED
      default:
        throw ApiError(cuda::ErrorNotSupported,
                       fmt::format("cuPointerGetAttribute: attribute {} is not supported by warpsim", attribute));
    }
  });
}

// Hints about where managed memory should live (runtime_managed_advice.cpp): the data is
// always coherent here; the advice and the last prefetch location are kept for
// cuMemRangeGetAttribute. The unsuffixed calls take a CUdevice (CU_DEVICE_CPU, -1, for the
// host), the _v2 ones a CUmemLocation.
namespace {
int prefetch(const char* name, cu::DevicePtr ptr, size_t bytes, cuda::MemLocation where, unsigned flags,
             void* stream) {
  return call(name, Needs::Context, [&](Runtime& rt) {
    rt.check_stream(stream, name);
    rt.mem_prefetch(reinterpret_cast<const void*>(ptr), bytes, where, flags, name);
  });
}
}  // namespace
WARPSIM_DRIVER_API int cuMemAdvise(cu::DevicePtr ptr, size_t bytes, int advice, int device) {
  return call("cuMemAdvise", Needs::Context, [&](Runtime& rt) {
    rt.mem_advise(reinterpret_cast<const void*>(ptr), bytes, advice, Runtime::device_location(device),
                  "cuMemAdvise");
  });
}
WARPSIM_DRIVER_API int cuMemAdvise_v2(cu::DevicePtr ptr, size_t bytes, int advice, cuda::MemLocation where) {
  return call("cuMemAdvise", Needs::Context, [&](Runtime& rt) {
    rt.mem_advise(reinterpret_cast<const void*>(ptr), bytes, advice, where, "cuMemAdvise");
  });
}
WARPSIM_DRIVER_API int cuMemPrefetchAsync(cu::DevicePtr ptr, size_t bytes, int device, void* stream) {
  return prefetch("cuMemPrefetchAsync", ptr, bytes, Runtime::device_location(device), 0, stream);
}
WARPSIM_DRIVER_API int cuMemPrefetchAsync_ptsz(cu::DevicePtr ptr, size_t bytes, int device, void* stream) {
  return prefetch("cuMemPrefetchAsync", ptr, bytes, Runtime::device_location(device), 0,
                  Runtime::per_thread_default(stream));
}
WARPSIM_DRIVER_API int cuMemPrefetchAsync_v2(cu::DevicePtr ptr, size_t bytes, cuda::MemLocation where, unsigned flags,
                                             void* stream) {
  return prefetch("cuMemPrefetchAsync", ptr, bytes, where, flags, stream);
}
WARPSIM_DRIVER_API int cuMemPrefetchAsync_v2_ptsz(cu::DevicePtr ptr, size_t bytes, cuda::MemLocation where,
                                                  unsigned flags, void* stream) {
  return prefetch("cuMemPrefetchAsync", ptr, bytes, where, flags, Runtime::per_thread_default(stream));
}
WARPSIM_DRIVER_API int cuMemRangeGetAttribute(void* data, size_t data_size, int attr, cu::DevicePtr ptr, size_t bytes) {
  return call("cuMemRangeGetAttribute", Needs::Context, [&](Runtime& rt) {
    rt.mem_range_attribute(data, data_size, attr, reinterpret_cast<const void*>(ptr), bytes, "cuMemRangeGetAttribute");
  });
}
WARPSIM_DRIVER_API int cuMemRangeGetAttributes(void** data, size_t* data_sizes, int* attrs, size_t n,
                                               cu::DevicePtr ptr, size_t bytes) {
  return call("cuMemRangeGetAttributes", Needs::Context, [&](Runtime& rt) {
    rt.mem_range_attributes(data, data_sizes, attrs, n, reinterpret_cast<const void*>(ptr), bytes,
                            "cuMemRangeGetAttributes");
  });
}
