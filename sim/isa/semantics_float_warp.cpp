// Full-warp fast paths of float instructions in round-to-nearest, in a file of their own:
// semantics_float.cpp is compiled with -frounding-math (its directed-rounding
// instructions change the FPU's mode), which keeps GCC from vectorising these loops. They
// run only while the mode is round-to-nearest.
#include <bit>
#include <cmath>
#include <cstdint>

#include "sim/isa/semantics_internal.hpp"

namespace warpsim::isa::detail {

// On CPUs with FMA3 the x86-64-v3 clone (eight lanes an instruction) is chosen when the
// program loads. The operands are narrowed into arrays first: so written, every loop
// vectorises (narrowing and computing in one loop does not).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void fma_f32_full_warp(uint64_t* d, const uint64_t* a, const uint64_t* b, const uint64_t* c) {
  uint32_t x[kWarpLanes], y[kWarpLanes], z[kWarpLanes];
  for (int l = 0; l < kWarpLanes; ++l) {
    x[l] = uint32_t(a[l]);
    y[l] = uint32_t(b[l]);
    z[l] = uint32_t(c[l]);
  }
  // d may alias a source (an accumulator, d = a * b + d): every lane is computed first.
  float r[kWarpLanes];
  for (int l = 0; l < kWarpLanes; ++l)
    r[l] = std::fma(std::bit_cast<float>(x[l]), std::bit_cast<float>(y[l]), std::bit_cast<float>(z[l]));
  for (int l = 0; l < kWarpLanes; ++l) d[l] = std::bit_cast<uint32_t>(r[l]);
}

}  // namespace warpsim::isa::detail
