// The texture unit's arithmetic for one thread: texture coordinates to texel addresses
// (normalised coordinates, the address modes, cube-map face selection, layers), the texel
// read and its conversion (element type or normalised float), linear filtering with the
// hardware's 8-bit weights, tld4 gathers, and the byte-addressed surface loads and stores.
// Follows the CUDA Programming Guide's "Texture Fetching" appendix.
#pragma once
#include <cstdint>
#include <string>

#include "sim/isa/ir.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/sm/texture_objects.hpp"

namespace warpsim::sm {

// One lane's access: the result bits (tex/tld4/suld) and the first texel's device address
// (for the memory model; `touched` is false when no texel was read: border or zero mode).
struct TexelAccess {
  uint64_t v[4] = {0, 0, 0, 0};
  uint64_t addr = 0;
  bool touched = false;
};

class TextureSampler {
 public:
  explicit TextureSampler(mem::GlobalMemory& gm) : gm_(gm) {}

  // tex/tld4: `coords` are the coordinate registers (.s32 or .f32 bits; the layer first
  // for a1d/a2d/acube). Returns an empty string, or what went wrong (the caller faults).
  std::string fetch(const TextureObject& t, const isa::Instr& in, const uint64_t coords[4], TexelAccess& out) const;
  // suld.b / sust.b: x in bytes, y and z in texels (the layer first for a1d/a2d).
  std::string surface_load(const TextureObject& s, const isa::Instr& in, const uint64_t coords[4],
                           TexelAccess& out) const;
  std::string surface_store(const TextureObject& s, const isa::Instr& in, const uint64_t coords[4],
                            const uint64_t values[4], TexelAccess& out);

 private:
  struct Texel {
    float f[4];      // channel values as floats (the result of a float or normalised read)
    double raw[4];   // integer channels' values before normalisation (filtering)
    uint32_t u[4];   // result bits
  };
  // Reads texel (x, y, slice) (indices already in range); `err` set when memory is gone.
  bool read_texel(const TextureObject& t, uint64_t x, uint64_t y, uint64_t slice, Texel& out, std::string& err,
                  uint64_t* addr) const;
  void border_texel(const TextureObject& t, Texel& out) const;
  bool float_result(const TextureObject& t) const;
  // Resolves a surface access: the byte address, or false (zero mode, out of range) with
  // `err` empty; `err` set for a trap.
  bool surface_address(const TextureObject& s, const isa::Instr& in, const uint64_t coords[4], uint64_t& addr,
                       std::string& err) const;

  mem::GlobalMemory& gm_;
  // The allocation of the last texel read (a footprint's and a warp's texels usually share
  // one), valid while no allocation was released (kernels free device-heap blocks).
  mutable const mem::GlobalMemory::Allocation* last_ = nullptr;
  mutable uint64_t last_releases_ = 0;
};

}  // namespace warpsim::sm
