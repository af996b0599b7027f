// Texture and surface objects as the SM's texture unit sees them: where the texels are
// (linear memory, pitched 2D memory or a CUDA array, all in device memory), their format,
// and how a fetch addresses and filters them. The runtime creates them
// (cudaCreateTextureObject/cudaCreateSurfaceObject) in the Device's table; kernels name
// them by handle. The enums carry CUDA's numeric values.
#pragma once
#include <cstdint>
#include <map>
#include <string>

namespace warpsim::sm {

enum class ChannelKind : uint8_t { Signed = 0, Unsigned = 1, Float = 2 };
enum class TexAddressMode : uint8_t { Wrap = 0, Clamp = 1, Mirror = 2, Border = 3 };
enum class TexFilterMode : uint8_t { Point = 0, Linear = 1 };
enum class TexReadMode : uint8_t { ElementType = 0, NormalizedFloat = 1 };

// One texel: 1, 2 or 4 channels of equal width (8, 16 or 32 bits; 16-bit floats are halves).
struct TexelFormat {
  uint8_t channels = 1;
  uint8_t bits = 32;
  ChannelKind kind = ChannelKind::Float;
  uint32_t bytes() const { return uint32_t(channels) * bits / 8; }
};

// Where the texels are. Arrays are stored densely in device memory: x fastest, then rows
// (`pitch` bytes apart), then slices (3D depth, layers, or cube faces: `slice` bytes apart).
struct TexResource {
  enum class Kind : uint8_t { Linear, Pitch2D, Array };
  Kind kind = Kind::Linear;
  uint64_t base = 0;            // device address of texel (0, 0, 0)
  uint64_t width = 0;           // texels per row
  uint64_t height = 1;          // rows (1 for 1D)
  uint64_t depth = 1;           // 3D depth (1 otherwise)
  uint64_t layers = 0;          // layered arrays: layers; cube maps: 6 x layers (0: not layered)
  bool cubemap = false;
  uint64_t pitch = 0;           // bytes between rows
  uint64_t slice = 0;           // bytes between 2D slices
  TexelFormat format;
  uint32_t dims = 1;            // 1, 2 or 3 (a layered array counts its per-layer dimensions)
};

struct TextureObject {
  bool surface = false;  // a surface object (suld/sust), else a texture object (tex/tld4)
  TexResource res;
  TexAddressMode address[3] = {TexAddressMode::Wrap, TexAddressMode::Wrap, TexAddressMode::Wrap};
  TexFilterMode filter = TexFilterMode::Point;
  TexReadMode read = TexReadMode::ElementType;
  bool normalized_coords = false;
  float border[4] = {0, 0, 0, 0};
};

// The objects of one device, by handle. Handles start at 1 and are never reused within a
// table, so a destroyed object's handle is recognised as such.
class TextureTable {
 public:
  uint64_t add(const TextureObject& o) {
    objects_.emplace(next_, o);
    return next_++;
  }
  bool remove(uint64_t handle) { return objects_.erase(handle) != 0; }
  const TextureObject* find(uint64_t handle) const {
    auto it = objects_.find(handle);
    return it == objects_.end() ? nullptr : &it->second;
  }
  bool was_issued(uint64_t handle) const { return handle >= 1 && handle < next_; }
  size_t size() const { return objects_.size(); }

 private:
  std::map<uint64_t, TextureObject> objects_;
  uint64_t next_ = 1;
};

}  // namespace warpsim::sm
