// The transposes (kernels/transpose): idata is height rows of width floats; odata is
// width rows of height floats with odata[x][y] = idata[y][x].
#include "kernels/references/reference.hpp"

namespace warpsim::ref {

void transpose(ReferenceContext& ctx) {
  ctx.expect_args(5);
  auto odata = ctx.buffer<float>(0);
  auto idata = ctx.buffer<float>(1);
  int64_t width = ctx.integer(2);
  int64_t height = ctx.integer(3);
  uint64_t elems = static_cast<uint64_t>(width) * static_cast<uint64_t>(height);
  ctx.require(width > 0 && height > 0 && odata.size() >= elems && idata.size() >= elems,
              fmt::format("{}x{} needs {} elements in both buffers", width, height, elems));
  for (int64_t y = 0; y < height; ++y)
    for (int64_t x = 0; x < width; ++x) odata[x * height + y] = idata[y * width + x];
}

}  // namespace warpsim::ref
