// The matrix multiplications (kernels/matmul): P = M * N for Width x Width row-major
// matrices, accumulated in k order with fused multiply-adds as nvcc compiles
// `Pvalue += M[...] * N[...]`, so the result is bit-exact for every variant (the tiled
// kernels visit k in the same order; the bounds-checked one adds 0*0 for padding).
#include <cmath>

#include "kernels/references/reference.hpp"

namespace warpsim::ref {

namespace {

// The multiplication itself. std::fma is a libm call per element unless the compiler may use
// the FMA instruction, so on CPUs with it (x86-64-v3) a clone that inlines and vectorises it
// is chosen when the program loads; both give the same bits (an fma rounds once either way).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void multiply(const float* M, const float* N, float* P, int64_t width) {
  // Row by row, k outermost within the row: every P element still accumulates in k order
  // (the same bits), but N is read along its rows, which caches and vectorises.
  for (int64_t row = 0; row < width; ++row) {
    float* p = P + row * width;
    for (int64_t col = 0; col < width; ++col) p[col] = 0;
    for (int64_t k = 0; k < width; ++k) {
      const float m = M[row * width + k];
      const float* n = N + k * width;
      for (int64_t col = 0; col < width; ++col) p[col] = std::fma(m, n[col], p[col]);
    }
  }
}

}  // namespace

void matmul(ReferenceContext& ctx) {
  ctx.expect_args(4);
  auto M = ctx.buffer<float>(0);
  auto N = ctx.buffer<float>(1);
  auto P = ctx.buffer<float>(2);
  int64_t width = ctx.integer(3);
  uint64_t elems = static_cast<uint64_t>(width) * static_cast<uint64_t>(width);
  ctx.require(width > 0 && M.size() >= elems && N.size() >= elems && P.size() >= elems,
              fmt::format("Width = {} needs {} elements in M, N and P", width, elems));
  multiply(M.data(), N.data(), P.data(), width);
}

}  // namespace warpsim::ref
