// The memory-access examples (kernels/memory, kernels/ilp copies, the transpose copies).
#include <algorithm>

#include "kernels/references/reference.hpp"

namespace warpsim::ref {

// dest = src, element for element (memcpyIlp, copyWords, transpose's copy kernels). The
// two buffers must have the same size, which the kernel must cover.
void copy(ReferenceContext& ctx) {
  auto dest = ctx.buffer<float>(0);
  auto src = ctx.buffer<float>(1);
  ctx.require(dest.size() == src.size(),
              fmt::format("dest has {} elements, src {}; they must match", dest.size(), src.size()));
  std::copy(src.begin(), src.end(), dest.begin());
}

// offsetCopy: thread t copies element t + offset.
void offset_copy(ReferenceContext& ctx) {
  ctx.expect_args(3);
  auto odata = ctx.buffer<float>(0);
  auto idata = ctx.buffer<float>(1);
  int64_t offset = ctx.integer(2);
  uint64_t last = ctx.threads() + static_cast<uint64_t>(offset);
  ctx.require(offset >= 0 && odata.size() >= last && idata.size() >= last,
              fmt::format("offset {} with {} threads needs {} elements", offset, ctx.threads(), last));
  for (uint64_t t = 0; t < ctx.threads(); ++t) odata[t + offset] = idata[t + offset];
}

// strideCopy: thread t copies element t * stride.
void stride_copy(ReferenceContext& ctx) {
  ctx.expect_args(3);
  auto odata = ctx.buffer<float>(0);
  auto idata = ctx.buffer<float>(1);
  int64_t stride = ctx.integer(2);
  uint64_t need = (ctx.threads() - 1) * static_cast<uint64_t>(stride) + 1;
  ctx.require(stride >= 1 && odata.size() >= need && idata.size() >= need,
              fmt::format("stride {} with {} threads needs {} elements", stride, ctx.threads(), need));
  for (uint64_t t = 0; t < ctx.threads(); ++t) odata[t * stride] = idata[t * stride];
}

namespace {
// The key of record i in an array of {key, value, flag} records of int.
int32_t record_key(std::span<const int32_t> records, uint64_t i) { return records[3 * i]; }
}  // namespace

// bar(record* AoS_data, SoA SoA_data, int* key_out, int* key_better_out).
void aos_soa_bar(ReferenceContext& ctx) {
  ctx.expect_args(4);
  auto records = ctx.buffer<int32_t>(0);
  auto keys = ctx.struct_buffer<int32_t>(1, 0);
  auto key_out = ctx.buffer<int32_t>(2);
  auto key_better_out = ctx.buffer<int32_t>(3);
  uint64_t n = ctx.threads();
  ctx.require(records.size() >= 3 * n && keys.size() >= n && key_out.size() >= n && key_better_out.size() >= n,
              fmt::format("{} threads need {} record ints and {} keys", n, 3 * n, n));
  for (uint64_t i = 0; i < n; ++i) {
    key_out[i] = record_key(records, i);
    key_better_out[i] = keys[i];
  }
}

// readKeysAoS(record* AoS_data, int* key_out).
void aos_keys(ReferenceContext& ctx) {
  ctx.expect_args(2);
  auto records = ctx.buffer<int32_t>(0);
  auto key_out = ctx.buffer<int32_t>(1);
  uint64_t n = ctx.threads();
  ctx.require(records.size() >= 3 * n && key_out.size() >= n, fmt::format("{} threads need {} record ints", n, 3 * n));
  for (uint64_t i = 0; i < n; ++i) key_out[i] = record_key(records, i);
}

// readKeysSoA(SoA SoA_data, int* key_out).
void soa_keys(ReferenceContext& ctx) {
  ctx.expect_args(2);
  auto keys = ctx.struct_buffer<int32_t>(0, 0);
  auto key_out = ctx.buffer<int32_t>(1);
  uint64_t n = ctx.threads();
  ctx.require(keys.size() >= n && key_out.size() >= n, fmt::format("{} threads need {} keys", n, n));
  for (uint64_t i = 0; i < n; ++i) key_out[i] = keys[i];
}

// mem_access (note, section 1): A[tid] += 2.
void mem_access_contiguous(ReferenceContext& ctx) {
  ctx.expect_args(1);
  auto A = ctx.buffer<float>(0);
  ctx.require(A.size() >= ctx.threads(), "A is smaller than the number of threads");
  for (uint64_t t = 0; t < ctx.threads(); ++t) A[t] += 2;
}

// mem_access (note, section 1): A[tid*2] += 2.
void mem_access_strided(ReferenceContext& ctx) {
  ctx.expect_args(1);
  auto A = ctx.buffer<float>(0);
  ctx.require(A.size() >= 2 * ctx.threads() - 1, "A needs 2 * threads - 1 elements");
  for (uint64_t t = 0; t < ctx.threads(); ++t) A[2 * t] += 2;
}

}  // namespace warpsim::ref
