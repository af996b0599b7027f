// fmaChains<K> (kernels/ilp): K chains a = a*b + c (fused, as nvcc emits), n steps each
// from 0, then pa[i] += a[0], ..., += a[K-1] in that order.
#include <cmath>

#include "kernels/references/reference.hpp"

namespace warpsim::ref {

template <int K>
void fma_chains(ReferenceContext& ctx) {
  ctx.expect_args(4);
  auto pa = ctx.buffer<float>(0);
  float b = static_cast<float>(ctx.real(1));
  float c = static_cast<float>(ctx.real(2));
  int64_t n = ctx.integer(3);
  ctx.require(pa.size() >= ctx.threads(), "pa is smaller than the number of threads");
  float a = 0;  // every chain computes the same value
  for (int64_t it = 0; it < n; ++it) a = std::fma(a, b, c);
  for (uint64_t i = 0; i < ctx.threads(); ++i) {
    float sum = pa[i];
    for (int k = 0; k < K; ++k) sum += a;
    pa[i] = sum;
  }
}

template void fma_chains<1>(ReferenceContext&);
template void fma_chains<2>(ReferenceContext&);
template void fma_chains<4>(ReferenceContext&);
template void fma_chains<8>(ReferenceContext&);
template void fma_chains<16>(ReferenceContext&);

}  // namespace warpsim::ref
