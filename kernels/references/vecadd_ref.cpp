// vecAddKernel (kernels/vecadd): C[i] = A[i] + B[i] for the threads with i < n.
#include <algorithm>

#include "kernels/references/reference.hpp"

namespace warpsim::ref {

void vecadd(ReferenceContext& ctx) {
  ctx.expect_args(4);
  auto A = ctx.buffer<float>(0);
  auto B = ctx.buffer<float>(1);
  auto C = ctx.buffer<float>(2);
  int64_t n = std::min<int64_t>(ctx.integer(3), static_cast<int64_t>(ctx.threads()));
  ctx.require(n <= static_cast<int64_t>(std::min({A.size(), B.size(), C.size()})),
              fmt::format("n = {} exceeds the buffers", n));
  for (int64_t i = 0; i < n; ++i) C[i] = A[i] + B[i];
}

}  // namespace warpsim::ref
