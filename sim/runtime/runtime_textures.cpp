// CUDA arrays and texture/surface objects. An array's texels live densely in device memory
// (x fastest, then rows, then slices: 3D depth, layers or cube faces), so it counts
// against the device's memory and its traffic goes through the simulated memory system.
// Texture and surface objects are entries of the device's TextureTable that kernels name
// by handle; the descriptors the program passed are kept to answer the Get* queries.
#include <fmt/format.h>

#include <cstring>

#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime {

namespace {

DevPtr addr(const void* p) { return reinterpret_cast<DevPtr>(p); }

// A texel format CUDA accepts: 1, 2 or 4 channels of equal width (8, 16 or 32 bits; floats
// of 16 or 32 bits).
sm::TexelFormat texel_format(const cuda::ChannelFormatDesc& d, const char* call) {
  const int bits[4] = {d.x, d.y, d.z, d.w};
  int n = 0;
  while (n < 4 && bits[n] > 0) ++n;
  bool ok = n == 1 || n == 2 || n == 4;
  for (int i = n; i < 4; ++i) ok = ok && bits[i] == 0;
  for (int i = 1; i < n; ++i) ok = ok && bits[i] == bits[0];
  ok = ok && (bits[0] == 8 || bits[0] == 16 || bits[0] == 32);
  ok = ok && (d.f == cuda::ChannelSigned || d.f == cuda::ChannelUnsigned || d.f == cuda::ChannelFloat);
  ok = ok && (d.f != cuda::ChannelFloat || bits[0] != 8);
  if (!ok)
    throw ApiError(cuda::ErrorInvalidChannelDescriptor,
                   fmt::format("{}: channel format {{x {}, y {}, z {}, w {}, kind {}}} is not one warpsim supports (1, 2 "
                               "or 4 channels of 8, 16 or 32 bits, signed, unsigned or float)",
                               call, d.x, d.y, d.z, d.w, int(d.f)));
  sm::TexelFormat f;
  f.channels = uint8_t(n);
  f.bits = uint8_t(bits[0]);
  f.kind = static_cast<sm::ChannelKind>(d.f);
  return f;
}

}  // namespace

void* Runtime::malloc_array(const cuda::ChannelFormatDesc* desc, cuda::Extent extent, unsigned flags, const char* call) {
  if (!desc) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: the channel descriptor is NULL", call));
  const sm::TexelFormat fmt = texel_format(*desc, call);
  const bool layered = flags & cuda::ArrayLayered, cube = flags & cuda::ArrayCubemap;
  if (flags & ~unsigned(cuda::ArrayLayered | cuda::ArraySurfaceLoadStore | cuda::ArrayCubemap |
                        cuda::ArrayTextureGather))
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: flags {:#x} are not supported", call, flags));
  if (extent.width == 0)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: width 0", call));
  if ((layered || cube) && extent.depth == 0)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: a layered or cube-map array needs depth (the layers)", call));
  if (cube && (extent.width != extent.height || extent.depth % 6 != 0 || (!layered && extent.depth != 6)))
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: a cube map needs width == height and depth 6 (6 x layers for a layered one); got "
                               "{}x{}x{}",
                               call, extent.width, extent.height, extent.depth));
  sm::TexResource r;
  r.kind = sm::TexResource::Kind::Array;
  r.format = fmt;
  r.width = extent.width;
  r.height = std::max<uint64_t>(extent.height, 1);
  r.depth = (layered || cube) ? 1 : std::max<uint64_t>(extent.depth, 1);
  r.layers = (layered || cube) ? extent.depth : 0;
  r.cubemap = cube;
  r.dims = (layered || cube) ? (extent.height ? 2 : 1) : extent.depth ? 3 : extent.height ? 2 : 1;
  r.pitch = r.width * fmt.bytes();
  uint64_t slices = r.layers ? r.layers : r.depth, bytes = 0;
  if (__builtin_mul_overflow(r.pitch, r.height, &r.slice) || __builtin_mul_overflow(r.slice, slices, &bytes))
    throw ApiError(cuda::ErrorMemoryAllocation, fmt::format("{}: the array's size overflows 64 bits", call));
  r.base = addr(this->malloc(bytes));
  handles_.push_back(std::make_unique<char>());
  const void* h = handles_.back().get();
  ArrayEntry e;
  e.base = r.base;
  e.desc = *desc;
  e.extent = extent;
  e.flags = flags;
  e.res = r;
  arrays_.emplace(h, e);
  device_->set_label(r.base, fmt::format("CUDA array {}", h));
  return const_cast<void*>(h);
}

const Runtime::ArrayEntry& Runtime::array_entry(const void* array, const char* call) const {
  auto it = arrays_.find(array);
  if (it == arrays_.end())
    throw ApiError(cuda::ErrorInvalidResourceHandle,
                   fmt::format("{}: {} is not a CUDA array (or it was freed)", call, array));
  return it->second;
}

void Runtime::free_array(void* array) {
  if (!array) return;
  const ArrayEntry& e = array_entry(array, "cudaFreeArray");
  device_->free(e.base);
  arrays_.erase(array);
}

void Runtime::array_info(cuda::ChannelFormatDesc* desc, cuda::Extent* extent, unsigned* flags,
                         const void* array) const {
  const ArrayEntry& e = array_entry(array, "cudaArrayGetInfo");
  if (desc) *desc = e.desc;
  if (extent) *extent = e.extent;
  if (flags) *flags = e.flags;
}

void Runtime::copy_box(const CopySide& dst, const CopySide& src, uint64_t width, uint64_t height, uint64_t depth,
                       cuda::MemcpyKind kind, const char* call) {
  if (width == 0 || height == 0 || depth == 0) return;
  // Where row (y, z) of a side starts, after checking the box fits it.
  auto check = [&](const CopySide& s, const char* which) {
    if (s.array) {
      const sm::TexResource& r = array_entry(s.array, call).res;
      const uint64_t slices = r.layers ? r.layers : r.depth;
      if (s.x + width > r.pitch || s.y + height > r.height || s.z + depth > slices)
        throw ApiError(cuda::ErrorInvalidValue,
                       fmt::format("{}: the {} box ({} bytes x {} rows x {} slices at byte {}, row {}, slice {}) does "
                                   "not fit the array ({} bytes x {} rows x {} slices)",
                                   call, which, width, height, depth, s.x, s.y, s.z, r.pitch, r.height, slices));
    } else {
      if (!s.ptr) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: the {} pointer is NULL", call, which));
      if ((height > 1 || depth > 1) && s.x + width > s.pitch)
        throw ApiError(cuda::ErrorInvalidPitchValue,
                       fmt::format("{}: {} bytes per row at byte {} exceed the {} pitch of {} bytes", call, width, s.x,
                                   which, s.pitch));
      if (depth > 1 && s.y + height > s.rows)
        throw ApiError(cuda::ErrorInvalidValue,
                       fmt::format("{}: {} rows at row {} exceed the {} memory's {} rows per slice", call, height, s.y,
                                   which, s.rows));
    }
  };
  check(dst, "destination");
  check(src, "source");
  auto row_at = [&](const CopySide& s, uint64_t y, uint64_t z) -> char* {
    if (s.array) {
      const sm::TexResource& r = array_entry(s.array, call).res;
      return reinterpret_cast<char*>(r.base + s.x + (s.y + y) * r.pitch + (s.z + z) * r.slice);
    }
    return static_cast<char*>(s.ptr) + s.x + (s.y + y) * s.pitch + (s.z + z) * s.pitch * s.rows;
  };
  cuda::MemcpyKind done = kind;
  for (uint64_t z = 0; z < depth; ++z)
    for (uint64_t y = 0; y < height; ++y) done = transfer(row_at(dst, y, z), row_at(src, y, z), width, kind, call);
  account_copy(done, width * height * depth);
}

void Runtime::memcpy_3d(const cuda::Memcpy3DParms* p, const char* call) {
  if (!p) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: the parameters are NULL", call));
  if (!p->srcArray == !p->srcPtr.ptr || !p->dstArray == !p->dstPtr.ptr)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: give exactly one of srcArray/srcPtr and one of dstArray/dstPtr", call));
  // With an array taking part, x positions and the width count its elements.
  uint64_t elem = 1;
  if (p->srcArray) elem = array_entry(p->srcArray, call).res.format.bytes();
  if (p->dstArray) {
    const uint64_t e = array_entry(p->dstArray, call).res.format.bytes();
    if (p->srcArray && e != elem)
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: the arrays' element sizes differ ({} and {} bytes)",
                                                          call, elem, e));
    elem = e;
  }
  CopySide s{p->srcArray, p->srcPos.x * elem, p->srcPos.y, p->srcPos.z, p->srcPtr.ptr, p->srcPtr.pitch, p->srcPtr.ysize};
  CopySide d{p->dstArray, p->dstPos.x * elem, p->dstPos.y, p->dstPos.z, p->dstPtr.ptr, p->dstPtr.pitch, p->dstPtr.ysize};
  copy_box(d, s, p->extent.width * elem, p->extent.height, p->extent.depth, p->kind, call);
}

sm::TexResource Runtime::texture_resource(const cuda::ResourceDesc* res, const char* call) const {
  if (!res) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: the resource descriptor is NULL", call));
  sm::TexResource r;
  auto inside = [&](const void* p, uint64_t bytes) {
    auto a = device_allocation(p);
    if (!a || addr(p) + bytes > a->first + a->second)
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: {} bytes at {} are not inside one device allocation", call, bytes, p));
  };
  switch (res->resType) {
    case cuda::ResourceArray: return array_entry(res->res.array.array, call).res;
    case cuda::ResourceMipmappedArray:
      throw ApiError(cuda::ErrorNotSupported, fmt::format("{}: mipmapped arrays are not supported", call));
    case cuda::ResourceLinear: {
      const auto& l = res->res.linear;
      r.kind = sm::TexResource::Kind::Linear;
      r.format = texel_format(l.desc, call);
      r.width = l.sizeInBytes / r.format.bytes();
      if (r.width == 0) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: sizeInBytes holds no texel", call));
      inside(l.devPtr, l.sizeInBytes);
      r.base = addr(l.devPtr);
      r.pitch = r.slice = r.width * r.format.bytes();
      r.dims = 1;
      return r;
    }
    case cuda::ResourcePitch2D: {
      const auto& p = res->res.pitch2D;
      r.kind = sm::TexResource::Kind::Pitch2D;
      r.format = texel_format(p.desc, call);
      r.width = p.width;
      r.height = p.height;
      r.pitch = p.pitchInBytes;
      if (r.width == 0 || r.height == 0 || r.pitch < r.width * r.format.bytes())
        throw ApiError(cuda::ErrorInvalidValue,
                       fmt::format("{}: pitched 2D resource of {}x{} texels of {} bytes with a pitch of {} bytes", call,
                                   r.width, r.height, r.format.bytes(), r.pitch));
      inside(p.devPtr, r.pitch * (r.height - 1) + r.width * r.format.bytes());
      r.base = addr(p.devPtr);
      r.slice = r.pitch * r.height;
      r.dims = 2;
      return r;
    }
  }
  throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: resource type {}", call, int(res->resType)));
}

uint64_t Runtime::create_texture(const cuda::ResourceDesc* res, const cuda::TextureDesc* tex, const void* view) {
  const char* call = "cudaCreateTextureObject";
  if (!tex) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: the texture descriptor is NULL", call));
  if (view) throw ApiError(cuda::ErrorNotSupported, fmt::format("{}: resource views are not supported", call));
  sm::TextureObject o;
  o.res = texture_resource(res, call);
  for (int a = 0; a < 3; ++a) {
    if (tex->addressMode[a] < 0 || tex->addressMode[a] > 3)
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: addressMode[{}] = {}", call, a, tex->addressMode[a]));
    o.address[a] = static_cast<sm::TexAddressMode>(tex->addressMode[a]);
  }
  if (tex->filterMode < 0 || tex->filterMode > 1 || tex->readMode < 0 || tex->readMode > 1)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: filterMode {} / readMode {}", call, tex->filterMode, tex->readMode));
  o.filter = static_cast<sm::TexFilterMode>(tex->filterMode);
  o.read = static_cast<sm::TexReadMode>(tex->readMode);
  if (tex->sRGB) throw ApiError(cuda::ErrorNotSupported, fmt::format("{}: sRGB textures are not supported", call));
  const sm::TexelFormat& f = o.res.format;
  if (o.read == sm::TexReadMode::NormalizedFloat && (f.kind == sm::ChannelKind::Float || f.bits == 32))
    throw ApiError(cuda::ErrorInvalidNormSetting,
                   fmt::format("{}: cudaReadModeNormalizedFloat needs 8- or 16-bit integer channels", call));
  if (o.filter == sm::TexFilterMode::Linear && f.kind != sm::ChannelKind::Float &&
      o.read != sm::TexReadMode::NormalizedFloat)
    throw ApiError(cuda::ErrorInvalidFilterSetting,
                   fmt::format("{}: linear filtering returns floats: use a float format or "
                               "cudaReadModeNormalizedFloat",
                               call));
  o.normalized_coords = tex->normalizedCoords != 0;
  std::memcpy(o.border, tex->borderColor, sizeof(o.border));
  const uint64_t h = device_->textures().add(o);
  texture_descs_[h] = {*res, *tex};
  return h;
}

uint64_t Runtime::create_surface(const cuda::ResourceDesc* res) {
  const char* call = "cudaCreateSurfaceObject";
  if (!res) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: the resource descriptor is NULL", call));
  if (res->resType != cuda::ResourceArray)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: surfaces are CUDA arrays (cudaResourceTypeArray)", call));
  sm::TextureObject o;
  o.surface = true;
  o.res = texture_resource(res, call);
  const uint64_t h = device_->textures().add(o);
  texture_descs_[h] = {*res, {}};
  return h;
}

void Runtime::destroy_texture(uint64_t handle, bool surface) {
  const char* call = surface ? "cudaDestroySurfaceObject" : "cudaDestroyTextureObject";
  const sm::TextureObject* o = device_->textures().find(handle);
  if (!o || o->surface != surface)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} is not a live {} object", call, handle,
                                                        surface ? "surface" : "texture"));
  device_->textures().remove(handle);
  texture_descs_.erase(handle);
}

void Runtime::texture_resource_desc(cuda::ResourceDesc* out, uint64_t handle, bool surface) const {
  const sm::TextureObject* o = device_->textures().find(handle);
  auto it = texture_descs_.find(handle);
  if (!out || !o || o->surface != surface || it == texture_descs_.end())
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{} is not a live {} object", handle,
                                                        surface ? "surface" : "texture"));
  *out = it->second.res;
}

void Runtime::texture_desc(cuda::TextureDesc* out, uint64_t handle) const {
  const sm::TextureObject* o = device_->textures().find(handle);
  auto it = texture_descs_.find(handle);
  if (!out || !o || o->surface || it == texture_descs_.end())
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{} is not a live texture object", handle));
  *out = it->second.tex;
}

}  // namespace warpsim::runtime
