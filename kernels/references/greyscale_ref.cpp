// colorToGreyscaleConversion (kernels/greyscale): Pout = 0.21 r + 0.71 g + 0.07 b, in the
// operation order nvcc emits (mul g, fma r, fma b; then truncation to an integer), so the
// bytes match exactly.
#include <cmath>

#include "kernels/references/reference.hpp"

namespace warpsim::ref {

void greyscale(ReferenceContext& ctx) {
  ctx.expect_args(4);
  auto Pout = ctx.buffer<uint8_t>(0);
  auto Pin = ctx.buffer<uint8_t>(1);
  int64_t width = ctx.integer(2);
  int64_t height = ctx.integer(3);
  uint64_t pixels = static_cast<uint64_t>(width) * static_cast<uint64_t>(height);
  ctx.require(width > 0 && height > 0 && Pout.size() >= pixels && Pin.size() >= 3 * pixels,
              fmt::format("{}x{} pixels need {} output and {} input bytes", width, height, pixels, 3 * pixels));
  for (uint64_t p = 0; p < pixels; ++p) {
    float r = Pin[3 * p], g = Pin[3 * p + 1], b = Pin[3 * p + 2];
    float grey = std::fma(b, 0.07f, std::fma(r, 0.21f, g * 0.71f));
    Pout[p] = static_cast<uint8_t>(static_cast<uint32_t>(grey));
  }
}

}  // namespace warpsim::ref
