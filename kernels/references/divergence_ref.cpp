// The divergence examples (kernels/divergence).
#include "kernels/references/reference.hpp"

namespace warpsim::ref {
namespace {

// divergence(M, N, P) of the note: M[j] += 2 where the condition holds, else M[j] *= 2.
template <class Condition>
void update_by_condition(ReferenceContext& ctx, Condition odd) {
  ctx.expect_args(3);
  auto M = ctx.buffer<float>(0);
  ctx.require(M.size() >= ctx.threads(), "M is smaller than the number of threads");
  for (uint64_t j = 0; j < ctx.threads(); ++j) {
    if (odd(static_cast<int32_t>(j)))
      M[j] += 2;
    else
      M[j] *= 2;
  }
}

}  // namespace

void divergence_odd_even(ReferenceContext& ctx) {
  update_by_condition(ctx, [](int32_t j) { return j % 2 != 0; });
}

void divergence_half_warps(ReferenceContext& ctx) {
  update_by_condition(ctx, [](int32_t j) { return (j / 16) % 2 != 0; });
}

void divergence_warps(ReferenceContext& ctx) {
  update_by_condition(ctx, [](int32_t j) { return (j / 32) % 2 != 0; });
}

// per_thread_sum(indices, data, sums): sums[i] = data[indices[i]] + ... + data[indices[i+1]-1],
// added in that order in float as the kernel does.
void per_thread_sum(ReferenceContext& ctx) {
  ctx.expect_args(3);
  auto indices = ctx.buffer<int32_t>(0);
  auto data = ctx.buffer<float>(1);
  auto sums = ctx.buffer<float>(2);
  uint64_t n = ctx.threads();
  ctx.require(indices.size() >= n + 1 && sums.size() >= n,
              fmt::format("{} threads need {} indices and {} sums", n, n + 1, n));
  for (uint64_t i = 0; i < n; ++i) {
    float sum = 0;
    for (int64_t j = indices[i]; j < indices[i + 1]; ++j) {
      ctx.require(j >= 0 && static_cast<uint64_t>(j) < data.size(),
                  fmt::format("indices[{}..{}] reach past data ({} elements)", i, i + 1, data.size()));
      sum += data[j];
    }
    sums[i] = sum;
  }
}

}  // namespace warpsim::ref
