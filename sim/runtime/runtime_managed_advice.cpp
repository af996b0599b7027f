// Managed memory's advice (cudaMemAdvise, cudaMemPrefetchAsync and what
// cudaMemRangeGetAttribute(s) reads back), kept per 4 KB page: an H200 counted advice on
// bytes 100-200 of a page for the whole page and not for the next
// (tests/750_runtime/programs/memory_advice_batches.expected, every answer of which this
// reproduces). warpsim's managed memory is coherent between host and device whatever the
// advice; what changes is what the program reads back.
#include <fmt/format.h>

#include <cstring>

#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime {

namespace {

constexpr uint64_t kPage = 4096;
constexpr int kNone = -3, kHost = -1, kInvalidDevice = -2;

// A location's code in PageAdvice (0 the device, -1 the host); ApiError with `code` else.
int8_t location_code(const cuda::MemLocation& where, cuda::Error code, const char* call) {
  if (where.type == cuda::MemLocationTypeDevice && where.id == 0) return 0;
  if (where.type == cuda::MemLocationTypeHost || where.type == cuda::MemLocationTypeHostNumaCurrent ||
      (where.type == cuda::MemLocationTypeHostNuma && where.id == 0))
    return kHost;
  throw ApiError(code, fmt::format("{}: location type {} id {} (the simulated machine has device 0 and the host)", call,
                                   where.type, where.id));
}

}  // namespace

cuda::MemLocation Runtime::device_location(int device) {
  return device == -1 ? cuda::MemLocation{cuda::MemLocationTypeHost, 0}
                      : cuda::MemLocation{cuda::MemLocationTypeDevice, device};
}

std::pair<Runtime::PageAdvice*, size_t> Runtime::advice_pages(const void* ptr, uint64_t bytes, const char* call) {
  const uint64_t a = reinterpret_cast<uint64_t>(ptr);
  if (bytes == 0) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: a range of 0 bytes", call));
  auto it = managed_.upper_bound(a);
  if (it == managed_.begin() || a >= std::prev(it)->first + std::prev(it)->second.bytes)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: {} is not managed memory (cudaMallocManaged or __managed__)", call, ptr));
  --it;
  const uint64_t base = it->first, size = it->second.bytes;
  if (a + bytes > base + size || a + bytes < a)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: {} bytes from {} run past the end of its managed allocation of {} bytes at {:#x}",
                               call, bytes, ptr, size, base));
  auto& pages = managed_advice_[base];
  if (pages.empty()) pages.resize((size + kPage - 1) / kPage);
  const size_t first = (a - base) / kPage, last = (a + bytes - 1 - base) / kPage;
  return {pages.data() + first, last - first + 1};
}

void Runtime::mem_advise(const void* ptr, uint64_t bytes, int advice, cuda::MemLocation where, const char* call) {
  if (advice < 1 || advice > 6)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: advice {} is not a cudaMemoryAdvise", call, advice));
  const auto [pages, n] = advice_pages(ptr, bytes, call);
  const bool needs_location = advice == 3 || advice == 5 || advice == 6;
  const int8_t loc = needs_location ? location_code(where, cuda::ErrorInvalidValue, call) : int8_t(0);
  const uint8_t bit = loc == 0 ? 1 : 2;
  for (size_t i = 0; i < n; ++i) {
    PageAdvice& p = pages[i];
    switch (advice) {
      case 1: p.read_mostly = true; break;
      case 2: p.read_mostly = false; break;
      case 3: p.preferred = loc; break;
      case 4: p.preferred = kNone; break;
      case 5: p.accessed_by |= bit; break;
      case 6: p.accessed_by &= uint8_t(~bit); break;
    }
  }
}

void Runtime::mem_prefetch(const void* ptr, uint64_t bytes, cuda::MemLocation where, unsigned flags, const char* call) {
  const int8_t loc = location_code(where, cuda::ErrorInvalidDevice, call);
  if (flags != 0) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: flags {} (must be 0)", call, flags));
  if (!is_managed(ptr)) return;  // pageable or device memory: nothing to move, nothing to record
  const auto [pages, n] = advice_pages(ptr, bytes, call);
  for (size_t i = 0; i < n; ++i) pages[i].last_prefetch = loc;
}

void Runtime::mem_range_attribute(void* data, uint64_t data_size, int attr, const void* ptr, uint64_t bytes,
                                  const char* call) {
  if (!data) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: data is NULL", call));
  if (attr < 1 || attr > 8)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: attribute {} is not a cudaMemRangeAttribute", call, attr));
  if (attr == 3 ? data_size == 0 || data_size % 4 != 0 : data_size != 4)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: dataSize {} (4, or for cudaMemRangeAttributeAccessedBy a multiple of 4)", call,
                               data_size));
  const auto range = advice_pages(ptr, bytes, call);  // not a structured binding: the lambdas below use it
  const PageAdvice* const pages = range.first;
  const size_t n = range.second;
  // One location shared by every page, else "none" (kNone).
  const auto common = [&](int8_t PageAdvice::*field) {
    const int8_t v = pages[0].*field;
    for (size_t i = 1; i < n; ++i)
      if (pages[i].*field != v) return int8_t(kNone);
    return v;
  };
  const auto as_device = [](int8_t v) { return v == kNone ? kInvalidDevice : int(v); };
  const auto as_type = [](int8_t v) {
    return v == kNone ? int(cuda::MemLocationTypeInvalid) : v == kHost ? int(cuda::MemLocationTypeHost)
                                                                     : int(cuda::MemLocationTypeDevice);
  };
  int32_t out = 0;
  switch (attr) {
    case 1: {
      bool all = true;
      for (size_t i = 0; i < n; ++i) all = all && pages[i].read_mostly;
      out = all;
      break;
    }
    case 2: out = as_device(common(&PageAdvice::preferred)); break;
    case 3: {  // the device first, then the host, that have the advice on every page
      uint8_t all = 3;
      for (size_t i = 0; i < n; ++i) all &= pages[i].accessed_by;
      std::vector<int32_t> ids(data_size / 4, kInvalidDevice);
      size_t k = 0;
      if ((all & 1) && k < ids.size()) ids[k++] = 0;
      if ((all & 2) && k < ids.size()) ids[k++] = kHost;
      std::memcpy(data, ids.data(), data_size);
      return;
    }
    case 4: out = as_device(common(&PageAdvice::last_prefetch)); break;
    case 5: out = as_type(common(&PageAdvice::preferred)); break;
    case 6: out = 0; break;  // device 0, or an id CUDA says to ignore
    case 7: out = as_type(common(&PageAdvice::last_prefetch)); break;
    case 8: out = 0; break;
  }
  std::memcpy(data, &out, 4);
}

void Runtime::mem_range_attributes(void** data, const size_t* data_sizes, const int* attrs, size_t n, const void* ptr,
                                   uint64_t bytes, const char* call) {
  if (n == 0 || !data || !data_sizes || !attrs)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: no attributes, or an array is NULL", call));
  for (size_t i = 0; i < n; ++i) mem_range_attribute(data[i], data_sizes[i], attrs[i], ptr, bytes, call);
}

}  // namespace warpsim::runtime
