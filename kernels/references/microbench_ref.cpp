// pointer_chase (kernels/microbench): the final index of the chain j <- next[j] & mask.
// The cycle count it also writes is timing, not a result, so it is not checked.
#include <fmt/format.h>

#include <algorithm>

#include "kernels/references/reference.hpp"

namespace warpsim::ref {

void pointer_chase(ReferenceContext& ctx) {
  ctx.expect_args(5);
  auto next = ctx.buffer<uint32_t>(0);
  const uint32_t mask = static_cast<uint32_t>(ctx.integer(1));
  const int64_t steps = ctx.integer(2);
  auto out = ctx.buffer<uint32_t>(3);
  ctx.require(uint64_t(mask) < next.size(), "mask must index inside next");
  uint32_t j = 0;
  for (int64_t i = 0; i < steps; ++i) j = next[j] & mask;
  out[0] = j;
}

// scattered_stores: thread t stores float(t) at out[(t & mask) * stride + (t >> shift)].
void scattered_stores(ReferenceContext& ctx) {
  ctx.expect_args(4);
  auto out = ctx.buffer<float>(0);
  const uint64_t mask = static_cast<uint64_t>(ctx.integer(1));
  const int64_t shift = ctx.integer(2);
  const uint64_t stride = static_cast<uint64_t>(ctx.integer(3));
  ctx.require(shift >= 0 && shift < 32 && stride >= 1 && mask + 1 == (uint64_t(1) << shift),
              "shift must be in [0, 32), stride at least 1, and mask + 1 = 2^shift");
  for (uint64_t t = 0; t < ctx.threads(); ++t) {
    const uint64_t i = uint64_t(uint32_t(uint32_t(t) & uint32_t(mask)) * uint32_t(stride) + (uint32_t(t) >> shift));
    ctx.require(i < out.size(), fmt::format("thread {} stores element {}; out has {}", t, i, out.size()));
    out[i] = static_cast<float>(uint32_t(t));
  }
}

// block_launch: out[b] = b for every block b.
void block_index(ReferenceContext& ctx) {
  ctx.expect_args(1);
  auto out = ctx.buffer<int32_t>(0);
  const uint64_t blocks = ctx.grid().count();
  ctx.require(out.size() >= blocks, fmt::format("{} blocks need {} elements; out has {}", blocks, blocks, out.size()));
  for (uint64_t b = 0; b < blocks; ++b) out[b] = static_cast<int32_t>(b);
}

}  // namespace warpsim::ref
