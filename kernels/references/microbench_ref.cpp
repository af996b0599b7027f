// pointer_chase (kernels/microbench): the final index of the chain j <- next[j] & mask.
// The cycle count it also writes is timing, not a result, so it is not checked.
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

}  // namespace warpsim::ref
