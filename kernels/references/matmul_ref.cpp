// The matrix multiplications (kernels/matmul): P = M * N for Width x Width row-major
// matrices, accumulated in k order with fused multiply-adds as nvcc compiles
// `Pvalue += M[...] * N[...]`, so the result is bit-exact for every variant (the tiled
// kernels visit k in the same order; the bounds-checked one adds 0*0 for padding).
#include <cmath>

#include "kernels/references/reference.hpp"

namespace warpsim::ref {

void matmul(ReferenceContext& ctx) {
  ctx.expect_args(4);
  auto M = ctx.buffer<float>(0);
  auto N = ctx.buffer<float>(1);
  auto P = ctx.buffer<float>(2);
  int64_t width = ctx.integer(3);
  uint64_t elems = static_cast<uint64_t>(width) * static_cast<uint64_t>(width);
  ctx.require(width > 0 && M.size() >= elems && N.size() >= elems && P.size() >= elems,
              fmt::format("Width = {} needs {} elements in M, N and P", width, elems));
  for (int64_t row = 0; row < width; ++row) {
    for (int64_t col = 0; col < width; ++col) {
      float p = 0;
      for (int64_t k = 0; k < width; ++k) p = std::fma(M[row * width + k], N[k * width + col], p);
      P[row * width + col] = p;
    }
  }
}

}  // namespace warpsim::ref
