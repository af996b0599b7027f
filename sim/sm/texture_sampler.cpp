#include "sim/sm/texture_sampler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace warpsim::sm {

using isa::TexGeom;

namespace {

float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h >> 15) << 31;
  const uint32_t exp = (h >> 10) & 0x1F, man = h & 0x3FF;
  if (exp == 0) {
    const float v = std::ldexp(float(man), -24);  // zero or subnormal
    return sign ? -v : v;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7F800000u | (man << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}

// The nearest half-precision value (ties to even), as a float.
float round_to_half(float v) {
  if (!std::isfinite(v)) return v;
  const float a = std::fabs(v);
  if (a >= 65520.0f) return std::copysign(INFINITY, v);
  int e = 0;
  std::frexp(a, &e);                  // a = m * 2^e, m in [0.5, 1)
  const int ulp_exp = std::max(e - 11, -24);  // 11 significant bits; subnormals below 2^-14
  const float ulp = std::ldexp(1.0f, ulp_exp);
  return std::copysign(std::nearbyint(a / ulp) * ulp, v);
}

// The float nearest to d, ties away from zero: how the H100's filter rounds its exact sum
// (tools/runtime/texture_ground_truth.sh, texture_probe.cu: 512 of 512 filtered values).
float round_half_away(double d) {
  float f = float(d);  // nearest, ties to even
  const double err = d - double(f);
  if (err != 0 && std::isfinite(f)) {
    const float g = std::nextafter(f, err > 0 ? INFINITY : -INFINITY);
    if (std::fabs(double(g) - d) == std::fabs(err) && std::fabs(g) > std::fabs(f)) f = g;
  }
  return f;
}

float as_float(uint64_t bits) { return std::bit_cast<float>(uint32_t(bits)); }
int64_t as_s32(uint64_t bits) { return int32_t(uint32_t(bits)); }

const char* geom_name(TexGeom g) {
  switch (g) {
    case TexGeom::D1: return "1d";
    case TexGeom::D2: return "2d";
    case TexGeom::D3: return "3d";
    case TexGeom::A1D: return "a1d";
    case TexGeom::A2D: return "a2d";
    case TexGeom::Cube: return "cube";
    default: return "acube";
  }
}

std::string describe(const TexResource& r) {
  const char* kind = r.kind == TexResource::Kind::Linear ? "linear memory"
                     : r.kind == TexResource::Kind::Pitch2D ? "pitched 2D memory"
                                                            : "a CUDA array";
  if (r.cubemap) return fmt::format("a cube map{} of {}x{} ({})", r.layers > 6 ? " array" : "", r.width, r.height, kind);
  if (r.layers) return fmt::format("a layered {}D texture of {} layers ({})", r.dims, r.layers, kind);
  return fmt::format("a {}D texture ({})", r.dims, kind);
}

// Whether a fetch of geometry g fits the resource.
bool geometry_fits(TexGeom g, const TexResource& r) {
  switch (g) {
    case TexGeom::D1: return r.dims == 1 && !r.layers;
    case TexGeom::D2: return r.dims == 2 && !r.layers;
    case TexGeom::D3: return r.dims == 3;
    case TexGeom::A1D: return r.dims == 1 && r.layers && !r.cubemap;
    case TexGeom::A2D: return r.dims == 2 && r.layers && !r.cubemap;
    case TexGeom::Cube: return r.cubemap && r.layers == 6;
    case TexGeom::ACube: return r.cubemap;
  }
  return false;
}

bool layered(TexGeom g) { return g == TexGeom::A1D || g == TexGeom::A2D || g == TexGeom::ACube; }

// Coordinates that address texels within a layer or face (the layer index comes first).
uint32_t axes_of(TexGeom g) { return g == TexGeom::D3 ? 3 : (g == TexGeom::D1 || g == TexGeom::A1D) ? 1 : 2; }

// An index along one axis after the address mode; false: outside, the border applies.
// Wrap and mirror need normalised coordinates; without them they act as clamp.
bool address(int64_t i, uint64_t n, TexAddressMode m, bool normalized, uint64_t& out) {
  const int64_t sn = int64_t(n);
  if (!normalized && (m == TexAddressMode::Wrap || m == TexAddressMode::Mirror)) m = TexAddressMode::Clamp;
  switch (m) {
    case TexAddressMode::Clamp: out = uint64_t(std::clamp<int64_t>(i, 0, sn - 1)); return true;
    case TexAddressMode::Border:
      if (i < 0 || i >= sn) return false;
      out = uint64_t(i);
      return true;
    case TexAddressMode::Wrap: out = uint64_t(((i % sn) + sn) % sn); return true;
    case TexAddressMode::Mirror: {
      const int64_t p = 2 * sn, k = ((i % p) + p) % p;
      out = uint64_t(k < sn ? k : p - 1 - k);
      return true;
    }
  }
  return false;
}

// floor() of a coordinate as an index, safe for huge values, infinities and NaN.
int64_t floor_index(double u) {
  if (std::isnan(u)) return 0;
  return int64_t(std::floor(std::clamp(u, -1.0e12, 1.0e12)));
}

// Cube-map face and face coordinates in [0, 1] for direction (x, y, z) (Programming Guide,
// "Cubemap Textures").
void cube_face(float x, float y, float z, uint32_t& face, float& s, float& t) {
  // Ties go to z, then y (measured: (0.1, 0.1, 0.1) reads face +z on an H100).
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  if (az >= ax && az >= ay) {
    face = z >= 0 ? 4 : 5;
    s = ((z >= 0 ? x : -x) / az + 1) / 2;
    t = (-y / az + 1) / 2;
  } else if (ay >= ax) {
    face = y >= 0 ? 2 : 3;
    s = (x / ay + 1) / 2;
    t = ((y >= 0 ? z : -z) / ay + 1) / 2;
  } else {
    face = x >= 0 ? 0 : 1;
    s = ((x >= 0 ? -z : z) / ax + 1) / 2;
    t = (-y / ax + 1) / 2;
  }
  if (!(ax > 0 || ay > 0 || az > 0)) s = t = 0.5f;  // the zero vector: face 0's centre
}

}  // namespace

bool TextureSampler::float_result(const TextureObject& t) const {
  return t.res.format.kind == ChannelKind::Float || t.read == TexReadMode::NormalizedFloat;
}

void TextureSampler::border_texel(const TextureObject& t, Texel& out) const {
  for (int c = 0; c < 4; ++c) {
    out.f[c] = t.border[c];
    out.raw[c] = t.border[c];
    out.u[c] = float_result(t) ? std::bit_cast<uint32_t>(t.border[c]) : uint32_t(int32_t(t.border[c]));
  }
}

bool TextureSampler::read_texel(const TextureObject& t, uint64_t x, uint64_t y, uint64_t slice, Texel& out,
                                std::string& err, uint64_t* addr) const {
  const TexResource& r = t.res;
  const TexelFormat& f = r.format;
  const uint32_t tb = f.bytes();
  const uint64_t a = r.base + x * tb + y * r.pitch + slice * r.slice;
  const bool cached = last_ && gm_.releases() == last_releases_ && last_->contains(a, tb);
  const mem::GlobalMemory::Allocation* al = cached ? last_ : gm_.find(a, tb);
  last_ = al;
  last_releases_ = gm_.releases();
  if (!al) {
    err = fmt::format("texture fetch reads {:#x}, which is not allocated device memory (was the memory behind the "
                      "texture object freed?)",
                      a);
    return false;
  }
  if (addr) *addr = a;
  uint8_t bytes[16];
  gm_.read(*al, a, bytes, tb);
  const bool normalized = t.read == TexReadMode::NormalizedFloat;
  for (int c = 0; c < 4; ++c) {
    if (c >= f.channels) {  // missing channels read as 0 (measured on an H100)
      out.f[c] = 0.0f;
      out.raw[c] = 0.0;
      out.u[c] = 0u;
      continue;
    }
    uint32_t raw = 0;
    std::memcpy(&raw, bytes + c * (f.bits / 8), f.bits / 8);
    if (f.kind == ChannelKind::Float) {
      const float v = f.bits == 16 ? half_to_float(uint16_t(raw)) : std::bit_cast<float>(raw);
      out.f[c] = v;
      out.raw[c] = v;
      out.u[c] = std::bit_cast<uint32_t>(v);
      continue;
    }
    int64_t value = raw;
    if (f.kind == ChannelKind::Signed)  // sign-extend the channel
      value = int64_t(int32_t(raw << (32 - f.bits)) >> (32 - f.bits));
    out.raw[c] = double(value);
    if (normalized) {
      const double top = f.kind == ChannelKind::Signed ? double((uint64_t(1) << (f.bits - 1)) - 1)
                                                       : double((uint64_t(1) << f.bits) - 1);
      out.f[c] = float(std::max(-1.0, double(value) / top));
      out.u[c] = std::bit_cast<uint32_t>(out.f[c]);
    } else {
      out.f[c] = float(value);
      out.u[c] = uint32_t(value);
    }
  }
  return true;
}

std::string TextureSampler::fetch(const TextureObject& t, const isa::Instr& in, const uint64_t coords[4],
                                  TexelAccess& out) const {
  const TexResource& r = t.res;
  const TexGeom g = in.geom;
  if (t.surface) return "tex through a surface object (use suld/sust)";
  if (!geometry_fits(g, r))
    return fmt::format("{}.{} fetch from {}", in.op == isa::Op::Tld4 ? "tld4" : "tex", geom_name(g), describe(r));
  const uint64_t extent[3] = {r.width, r.height, r.depth};
  const bool gather = in.op == isa::Op::Tld4;
  std::string err;
  Texel tx{};

  // The slice (3D z, layer, or cube face) is resolved per texel below; layers clamp.
  const int first = layered(g) ? 1 : 0;
  uint64_t layer = 0;
  if (layered(g)) {
    // The layer is unsigned and clamps to the last one (layer -1 reads the last: H100).
    const uint64_t count = g == TexGeom::ACube ? r.layers / 6 : r.layers;
    layer = std::min<uint64_t>(uint32_t(coords[0]), count - 1);
  }
  const uint32_t axes = axes_of(g);
  const bool is_cube = g == TexGeom::Cube || g == TexGeom::ACube;

  auto slice_of = [&](uint64_t z) -> uint64_t { return g == TexGeom::D3 ? z : layer; };

  if (in.stype == isa::DType::S32) {  // integer coordinates: one texel, no filtering
    uint64_t idx[3] = {0, 0, 0};
    bool inside = true;
    for (uint32_t a = 0; a < axes; ++a) {
      const int64_t i = as_s32(coords[first + a]);
      if (r.kind == TexResource::Kind::Linear) {
        if (i < 0 || uint64_t(i) >= extent[a]) inside = false;  // tex1Dfetch: zero outside
        else idx[a] = uint64_t(i);
      } else if (!address(i, extent[a], t.address[a], false, idx[a])) {
        inside = false;
      }
    }
    if (!inside) {
      if (r.kind == TexResource::Kind::Linear) tx = Texel{};
      else border_texel(t, tx);
    } else {
      if (!read_texel(t, idx[0], idx[1], slice_of(idx[2]), tx, err, &out.addr)) return err;
      out.touched = true;
    }
    for (int c = 0; c < 4; ++c) out.v[c] = tx.u[c];
    return {};
  }

  // Floating-point coordinates.
  float u[3] = {0, 0, 0};
  bool normalized = t.normalized_coords;
  TexAddressMode mode[3] = {t.address[0], t.address[1], t.address[2]};
  if (is_cube) {
    uint32_t face = 0;
    cube_face(as_float(coords[first]), as_float(coords[first + 1]), as_float(coords[first + 2]), face, u[0], u[1]);
    layer = layer * 6 + face;
    normalized = true;
    mode[0] = mode[1] = TexAddressMode::Clamp;
  } else {
    for (uint32_t a = 0; a < axes; ++a) u[a] = as_float(coords[first + a]);
  }
  // Normalised coordinates become texel coordinates in fixed point: the coordinate keeps 24
  // fractional bits, truncated (so 1/3 of 3 texels is just below texel 1, as on an H100).
  double x[3] = {u[0], u[1], u[2]};
  for (uint32_t a = 0; a < axes; ++a)
    if (normalized && std::isfinite(u[a])) x[a] = std::floor(double(u[a]) * 16777216.0) / 16777216.0 * double(extent[a]);

  const bool linear = gather || (t.filter == TexFilterMode::Linear && float_result(t));
  if (!linear) {
    uint64_t idx[3] = {0, 0, 0};
    bool inside = true;
    for (uint32_t a = 0; a < axes; ++a)
      if (!address(floor_index(x[a]), extent[a], mode[a], normalized, idx[a])) inside = false;
    if (!inside) border_texel(t, tx);
    else {
      if (!read_texel(t, idx[0], idx[1], slice_of(idx[2]), tx, err, &out.addr)) return err;
      out.touched = true;
    }
    for (int c = 0; c < 4; ++c) out.v[c] = tx.u[c];
    return {};
  }

  // Linear filtering (and tld4's footprint): the texels around x - 0.5, each axis weighted
  // by its fraction in 9-bit fixed point with 8 fractional bits (Programming Guide), and
  // each corner by a weight derived from those below (measured on an H100:
  // tools/runtime/texture_ground_truth.sh).
  int64_t i0[3] = {0, 0, 0};
  int64_t w[3] = {0, 0, 0};  // weight of the upper texel, in 1/256
  for (uint32_t a = 0; a < axes; ++a) {
    const double xb = x[a] - 0.5;
    i0[a] = floor_index(xb);
    const double frac = std::isfinite(xb) ? xb - std::floor(xb) : 0.0;
    w[a] = int64_t(std::floor(frac * 256.0 + 0.5));
  }
  const uint32_t corners = 1u << axes;
  Texel corner[8];
  for (uint32_t k = 0; k < corners; ++k) {
    uint64_t idx[3] = {0, 0, 0};
    bool inside = true;
    for (uint32_t a = 0; a < axes; ++a)
      if (!address(i0[a] + ((k >> a) & 1), extent[a], mode[a], normalized, idx[a])) inside = false;
    if (!inside) {
      border_texel(t, corner[k]);
      continue;
    }
    uint64_t addr = 0;
    if (!read_texel(t, idx[0], idx[1], slice_of(idx[2]), corner[k], err, &addr)) return err;
    if (!out.touched) out.addr = addr, out.touched = true;
  }
  if (gather) {
    // tld4: the chosen component of (i0, j1), (i1, j1), (i1, j0), (i0, j0).
    static constexpr uint32_t order[4] = {2, 3, 1, 0};  // corner bits: x = bit 0, y = bit 1
    const uint32_t comp = in.tex_mode;
    for (int c = 0; c < 4; ++c) {
      const Texel& s = corner[order[c]];
      out.v[c] = float_result(t) ? std::bit_cast<uint32_t>(s.f[comp]) : s.u[comp];
    }
    return {};
  }
  // Corner weights in 1/256 that always sum to 1 (measured on an H100 with one-hot texels,
  // tests/750_runtime/programs/rotate_probe.cu): only the product of the two upper weights
  // is rounded (half up), and the other corners are what is left of each axis weight, as in
  // (1-a)(1-b) = 1 - a - b + ab. For 3D, x and z pair first and each pair's weight is then
  // split along y the same way (the order that gives all eight measured 3D fetches).
  auto product = [](int64_t a, int64_t b) { return (a * b + 128) / 256; };
  auto split = [&](int64_t whole, int64_t upper_share, int64_t& lower, int64_t& upper) {
    upper = product(whole, upper_share);
    lower = whole - upper;
  };
  int64_t q[8] = {256, 0, 0, 0, 0, 0, 0, 0};
  if (axes == 1) {
    q[0] = 256 - w[0];
    q[1] = w[0];
  } else {
    // x and the second axis paired (y for 2D, z for 3D): corner bit 0 is x, bit 1 the other.
    const int64_t a = w[0], b = axes == 2 ? w[1] : w[2];
    int64_t pair[4];
    pair[3] = product(a, b);
    pair[1] = a - pair[3];
    pair[2] = b - pair[3];
    pair[0] = 256 - a - b + pair[3];
    if (axes == 2) {
      for (int k = 0; k < 4; ++k) q[k] = pair[k];
    } else {
      for (int k = 0; k < 4; ++k) {  // k: bit 0 x, bit 1 z; corner index: bit 0 x, bit 1 y, bit 2 z
        const uint32_t lo = (k & 1) | ((k & 2) << 1);
        split(pair[k], w[1], q[lo], q[lo | 2]);
      }
    }
  }
  float weight[8];
  for (uint32_t k = 0; k < corners; ++k) weight[k] = float(q[k]) / 256.0f;
  const TexelFormat& f = r.format;
  const bool int_normalized = t.read == TexReadMode::NormalizedFloat && f.kind != ChannelKind::Float;
  for (int c = 0; c < 4; ++c) {
    if (int_normalized) {
      // 8- and 16-bit integers are filtered as integers and normalised after; a 16-bit
      // result is rounded to an integer first (H100). The 8-bit datapath keeps a few more
      // fraction bits than modelled here (within 1e-5).
      double acc = 0;
      for (uint32_t k = 0; k < corners; ++k) acc += double(weight[k]) * corner[k].raw[c];
      if (f.bits == 16) acc = std::floor(acc + 0.5);
      const double top = f.kind == ChannelKind::Signed ? double((uint64_t(1) << (f.bits - 1)) - 1)
                                                       : double((uint64_t(1) << f.bits) - 1);
      out.v[c] = std::bit_cast<uint32_t>(float(std::max(-1.0, acc / top)));
      continue;
    }
    // The weighted sum is exact (8-bit weights times 24-bit values fit a double's 53 bits for
    // texels within 2^20 of each other) and rounded once.
    double sum = 0;
    for (uint32_t k = 0; k < corners; ++k) sum += double(weight[k]) * double(corner[k].f[c]);
    float acc = round_half_away(sum);
    if (f.kind == ChannelKind::Float && f.bits == 16) acc = round_to_half(acc);  // a half texture filters in half
    out.v[c] = std::bit_cast<uint32_t>(acc);
  }
  return {};
}

bool TextureSampler::surface_address(const TextureObject& s, const isa::Instr& in, const uint64_t coords[4],
                                     uint64_t& addr, std::string& err) const {
  const TexResource& r = s.res;
  const TexGeom g = in.geom;
  const char* what = in.op == isa::Op::Suld ? "suld" : "sust";
  if (!s.surface) {
    err = fmt::format("{} through a texture object (surfaces need cudaCreateSurfaceObject)", what);
    return false;
  }
  if (!geometry_fits(g, r)) {
    err = fmt::format("{}.{} on {}", what, geom_name(g), describe(r));
    return false;
  }
  const uint64_t size = uint64_t(isa::dtype_bytes(in.type)) * in.vec;
  const int first = layered(g) ? 1 : 0;
  const uint32_t axes = axes_of(g);
  const uint64_t row_bytes = r.width * r.format.bytes();
  int64_t pos[3] = {0, 0, 0};
  for (uint32_t a = 0; a < axes; ++a) pos[a] = as_s32(coords[first + a]);
  int64_t layer = layered(g) ? as_s32(coords[0]) : 0;
  const int64_t limit[3] = {int64_t(row_bytes) - int64_t(size), int64_t(r.height) - 1, int64_t(r.depth) - 1};
  const int64_t layer_limit = r.layers ? int64_t(r.layers) - 1 : 0;
  if (pos[0] % int64_t(size) != 0) {
    err = fmt::format("misaligned {} of {} bytes at x = {} bytes (x must be a multiple of the access size)", what,
                      size, pos[0]);
    return false;
  }
  bool inside = layer >= 0 && layer <= layer_limit;
  for (uint32_t a = 0; a < axes; ++a) inside = inside && pos[a] >= 0 && pos[a] <= limit[a];
  if (!inside) {
    const auto mode = static_cast<isa::SurfClamp>(in.tex_mode);
    if (mode == isa::SurfClamp::Zero) return false;
    if (mode == isa::SurfClamp::Trap) {
      err = fmt::format("{} out of range: x = {} bytes{}{}{} on a surface of {}x{}x{} texels of {} bytes{}", what,
                        pos[0], axes > 1 ? fmt::format(", y = {}", pos[1]) : "",
                        axes > 2 ? fmt::format(", z = {}", pos[2]) : "",
                        layered(g) ? fmt::format(", layer {}", layer) : "", r.width, r.height, r.depth,
                        r.format.bytes(), r.layers ? fmt::format(", {} layers", r.layers) : "");
      return false;
    }
    for (uint32_t a = 0; a < axes; ++a) pos[a] = std::clamp<int64_t>(pos[a], 0, limit[a]);
    pos[0] -= pos[0] % int64_t(size);
    layer = std::clamp<int64_t>(layer, 0, layer_limit);
  }
  const uint64_t slice = g == TexGeom::D3 ? uint64_t(pos[2]) : uint64_t(layer);
  addr = r.base + uint64_t(pos[0]) + uint64_t(pos[1]) * r.pitch + slice * r.slice;
  return true;
}

std::string TextureSampler::surface_load(const TextureObject& s, const isa::Instr& in, const uint64_t coords[4],
                                         TexelAccess& out) const {
  std::string err;
  uint64_t addr = 0;
  if (!surface_address(s, in, coords, addr, err)) return err;  // empty: zero mode, nothing read
  const uint32_t eb = uint32_t(isa::dtype_bytes(in.type));
  const mem::GlobalMemory::Allocation* al = gm_.find(addr, uint64_t(eb) * in.vec);
  if (!al) return fmt::format("suld reads {:#x}, which is not allocated device memory (was the array freed?)", addr);
  for (uint32_t e = 0; e < in.vec; ++e) {
    uint64_t v = 0;
    gm_.read(*al, addr + e * eb, &v, eb);
    out.v[e] = v;
  }
  out.addr = addr;
  out.touched = true;
  return {};
}

std::string TextureSampler::surface_store(const TextureObject& s, const isa::Instr& in, const uint64_t coords[4],
                                          const uint64_t values[4], TexelAccess& out) {
  std::string err;
  uint64_t addr = 0;
  if (!surface_address(s, in, coords, addr, err)) return err;
  const uint32_t eb = uint32_t(isa::dtype_bytes(in.type));
  mem::GlobalMemory::Allocation* al = gm_.find(addr, uint64_t(eb) * in.vec);
  if (!al) return fmt::format("sust writes {:#x}, which is not allocated device memory (was the array freed?)", addr);
  for (uint32_t e = 0; e < in.vec; ++e) gm_.write(*al, addr + e * eb, &values[e], eb);
  out.addr = addr;
  out.touched = true;
  return {};
}

}  // namespace warpsim::sm
