// The sum reductions (kernels/reduction): each block writes the sum of its section to
// Out[blockIdx.x]. Integer sums wrap like the kernel's 32-bit adds; float sums are
// computed in double and rounded once (exact when the data are whole numbers, as the
// specs' "integers": true makes them; otherwise the check's tolerance applies).
#include "kernels/references/reference.hpp"

namespace warpsim::ref {
namespace {

// Out[b] = sum of In[b*section .. (b+1)*section) for every block b.
template <class T>
void section_sums(ReferenceContext& ctx, uint64_t section) {
  auto in = ctx.buffer<T>(0);
  auto out = ctx.buffer<T>(1);
  uint64_t blocks = ctx.grid().count();
  ctx.require(in.size() >= blocks * section,
              fmt::format("{} blocks of {} elements need {} input elements, the buffer has {}", blocks, section,
                          blocks * section, in.size()));
  ctx.require(out.size() >= blocks, fmt::format("the output needs {} elements, it has {}", blocks, out.size()));
  for (uint64_t b = 0; b < blocks; ++b) {
    if constexpr (std::is_same_v<T, float>) {
      double sum = 0;
      for (uint64_t i = 0; i < section; ++i) sum += in[b * section + i];
      out[b] = static_cast<float>(sum);
    } else {
      uint32_t sum = 0;
      for (uint64_t i = 0; i < section; ++i) sum += static_cast<uint32_t>(in[b * section + i]);
      out[b] = static_cast<int32_t>(sum);
    }
  }
}

void sums_by_type(ReferenceContext& ctx, uint64_t section) {
  switch (ctx.buffer_type(0)) {
    case ElemType::F32: section_sums<float>(ctx, section); break;
    case ElemType::S32: section_sums<int32_t>(ctx, section); break;
    default: ctx.fail("argument 0 must be an f32 or s32 buffer");
  }
}

}  // namespace

// Sections of blockDim.x elements: Kirk Fig. 5.13/5.15, Harris reduce0-2.
void block_sums(ReferenceContext& ctx) { sums_by_type(ctx, ctx.block().x); }

// Sections of 2 * blockDim.x elements: Kirk exercise 5.1, Harris reduce3-5.
void block_sums_2x(ReferenceContext& ctx) { sums_by_type(ctx, 2ull * ctx.block().x); }

// Harris reduce6: block b adds the 2*blockDim.x-element chunks b, b + gridDim.x, ... of In.
void grid_stride_sums(ReferenceContext& ctx) {
  ctx.expect_args(3);
  auto in = ctx.buffer<int32_t>(0);
  auto out = ctx.buffer<int32_t>(1);
  int64_t n = ctx.integer(2);
  uint64_t chunk = 2ull * ctx.block().x;
  uint64_t blocks = ctx.grid().x;
  ctx.require(n >= 0 && static_cast<uint64_t>(n) % chunk == 0,
              fmt::format("n = {} must be a multiple of 2 * blockDim.x = {}", n, chunk));
  ctx.require(static_cast<uint64_t>(n) <= in.size(), fmt::format("n = {} exceeds the input ({})", n, in.size()));
  ctx.require(out.size() >= blocks, fmt::format("the output needs {} elements, it has {}", blocks, out.size()));
  for (uint64_t b = 0; b < blocks; ++b) {
    uint32_t sum = 0;
    for (uint64_t start = b * chunk; start < static_cast<uint64_t>(n); start += chunk * blocks)
      for (uint64_t i = 0; i < chunk; ++i) sum += static_cast<uint32_t>(in[start + i]);
    out[b] = static_cast<int32_t>(sum);
  }
}

// Kirk exercise 5.12 as printed (sumReductionEx5_12) and as nvcc compiles it: without
// `volatile`, thread 0 keeps shared[0] in a register and reads shared[16], [8], [4], [2],
// [1] once, before the other threads' unrolled steps store anything (only the last step
// stores). With p[j] the sum of the section's elements j, j+32, j+64, ... (shared[j]
// after the barrier loop), the block writes p0 + p16 + p8 + p4 + p2 + p1 instead of the
// section's sum: the bug the exercise asks about. Section of blockDim.x >= 64 elements.
void ex5_12_as_compiled(ReferenceContext& ctx) {
  ctx.expect_args(3);
  auto in = ctx.buffer<float>(0);
  auto out = ctx.buffer<float>(1);
  uint64_t section = ctx.block().x;
  uint64_t blocks = ctx.grid().count();
  ctx.require(static_cast<uint64_t>(ctx.integer(2)) == section && section >= 64 && (section & (section - 1)) == 0,
              "n must equal blockDim.x, a power of two >= 64");
  ctx.require(in.size() >= blocks * section && out.size() >= blocks, "buffers too small for the grid");
  for (uint64_t b = 0; b < blocks; ++b) {
    double p[32] = {};
    for (uint64_t i = 0; i < section; ++i) p[i % 32] += in[b * section + i];
    out[b] = static_cast<float>(p[0] + p[16] + p[8] + p[4] + p[2] + p[1]);
  }
}

}  // namespace warpsim::ref
