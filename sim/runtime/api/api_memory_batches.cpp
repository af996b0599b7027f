// Batched stream operations (CUDA 12.8 and 13): cudaMemcpyBatchAsync, a list of 1D copies
// with attributes that apply from given indices on, and cudaMemPrefetchBatchAsync, a list of
// prefetches with locations given the same way. Each copy is a cudaMemcpyAsync on the
// stream (a source whose access order is "during the call" is read before the call returns);
// each prefetch a cudaMemPrefetchAsync. The refusals are an H200's
// (tests/750_runtime/programs/memory_advice_batches.expected): the legacy default stream, an
// invalid access order, indices that do not start at 0, rise and stay below the count.
#include <fmt/format.h>

#include <cstdint>

#include "sim/runtime/driver/process_context.hpp"

using namespace warpsim::runtime;
using warpsim::runtime::api::ordered_call;
namespace cuda = warpsim::cuda;

namespace {

// The index scheme both calls share: `n` entries apply from idx[k] on; idx[0] is 0, each
// is larger than the one before, the last below `count`, and n <= count.
void check_indices(const char* call, const size_t* idx, size_t n, size_t count) {
  if (count == 0) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: count is 0", call));
  if (n == 0 || n > count || !idx)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} attribute entries for {} operations", call, n, count));
  for (size_t k = 0; k < n; ++k)
    if ((k == 0 && idx[0] != 0) || (k > 0 && idx[k] <= idx[k - 1]) || idx[k] >= count)
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: index {} is {} (the first 0, then rising, all below {})", call, k, idx[k],
                                 count));
}

// The entry that applies to operation i.
size_t entry_for(const size_t* idx, size_t n, size_t i) {
  size_t k = 0;
  while (k + 1 < n && idx[k + 1] <= i) ++k;
  return k;
}

int memcpy_batch(void* const* dsts, const void* const* srcs, const size_t* sizes, size_t count,
                 cuda::MemcpyAttributes* attrs, size_t* idx, size_t n, size_t* fail, void* stream) {
  const char* name = "cudaMemcpyBatchAsync";
  if (fail) *fail = SIZE_MAX;
  return ordered_call(name, [&](Runtime& rt) {
    if (stream == nullptr || reinterpret_cast<uintptr_t>(stream) == 1)
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: not on the legacy default stream", name));
    rt.check_stream(stream, name);
    rt.no_capture(stream, name);
    if (!dsts || !srcs || !sizes || !attrs)
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: an array is NULL", name));
    check_indices(name, idx, n, count);
    for (size_t k = 0; k < n; ++k)
      if (attrs[k].srcAccessOrder < 1 || attrs[k].srcAccessOrder > 3)
        throw ApiError(cuda::ErrorInvalidValue,
                       fmt::format("{}: attrs[{}].srcAccessOrder is {} (1 stream, 2 during the call, 3 any)", name, k,
                                   attrs[k].srcAccessOrder));
    for (size_t i = 0; i < count; ++i) {
      try {
        if (attrs[entry_for(idx, n, i)].srcAccessOrder == 2) {  // the source is read before the call returns
          rt.synchronize();
          rt.memcpy(dsts[i], srcs[i], sizes[i], cuda::Default, name);
        } else {
          rt.memcpy_async(dsts[i], srcs[i], sizes[i], cuda::Default, name);
        }
      } catch (const ApiError&) {
        if (fail) *fail = i;
        throw;
      }
    }
  });
}

[[maybe_unused]] int prefetch_batch(void** ptrs, size_t* sizes, size_t count, cuda::MemLocation* locs, size_t* idx,
                                    size_t n,
                   unsigned long long flags, void* stream) {
  const char* name = "cudaMemPrefetchBatchAsync";
  return ordered_call(name, [&](Runtime& rt) {
    rt.check_stream(stream, name);
    if (!ptrs || !sizes || !locs) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: an array is NULL", name));
    if (flags != 0) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: flags {} (must be 0)", name, flags));
    check_indices(name, idx, n, count);
    for (size_t i = 0; i < count; ++i) rt.mem_prefetch(ptrs[i], sizes[i], locs[entry_for(idx, n, i)], 0, name);
  });
}

}  // namespace

#ifdef WARPSIM_CUDART_12  // CUDA 12.8's form returns the failing copy's index
WARPSIM_API int cudaMemcpyBatchAsync(void* const* dsts, const void* const* srcs, const size_t* sizes, size_t count,
                                     cuda::MemcpyAttributes* attrs, size_t* idx, size_t n, size_t* fail,
                                     void* stream) {
  return memcpy_batch(dsts, srcs, sizes, count, attrs, idx, n, fail, stream);
}
WARPSIM_API int cudaMemcpyBatchAsync_ptsz(void* const* dsts, const void* const* srcs, const size_t* sizes,
                                          size_t count, cuda::MemcpyAttributes* attrs, size_t* idx, size_t n,
                                          size_t* fail, void* stream) {
  return memcpy_batch(dsts, srcs, sizes, count, attrs, idx, n, fail, Runtime::per_thread_default(stream));
}
#else
WARPSIM_API int cudaMemcpyBatchAsync(void* const* dsts, const void* const* srcs, const size_t* sizes, size_t count,
                                     cuda::MemcpyAttributes* attrs, size_t* idx, size_t n, void* stream) {
  return memcpy_batch(dsts, srcs, sizes, count, attrs, idx, n, nullptr, stream);
}
WARPSIM_API int cudaMemcpyBatchAsync_ptsz(void* const* dsts, const void* const* srcs, const size_t* sizes,
                                          size_t count, cuda::MemcpyAttributes* attrs, size_t* idx, size_t n,
                                          void* stream) {
  return memcpy_batch(dsts, srcs, sizes, count, attrs, idx, n, nullptr, Runtime::per_thread_default(stream));
}
WARPSIM_API int cudaMemPrefetchBatchAsync(void** ptrs, size_t* sizes, size_t count, cuda::MemLocation* locs,
                                          size_t* idx, size_t n, unsigned long long flags, void* stream) {
  return prefetch_batch(ptrs, sizes, count, locs, idx, n, flags, stream);
}
WARPSIM_API int cudaMemPrefetchBatchAsync_ptsz(void** ptrs, size_t* sizes, size_t count, cuda::MemLocation* locs,
                                               size_t* idx, size_t n, unsigned long long flags, void* stream) {
  return prefetch_batch(ptrs, sizes, count, locs, idx, n, flags, Runtime::per_thread_default(stream));
}
#endif
