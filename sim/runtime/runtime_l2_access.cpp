// L2 access control: the persisting set-aside (cudaLimitPersistingL2CacheSize), access
// policy windows of streams and launches, and cudaCtxResetPersistingL2Cache. The L2 slices
// apply them (sim/memory/l2_access_policy.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime {

namespace {

const char* property_name(int p) {
  switch (p) {
    case 0: return "cudaAccessPropertyNormal";
    case 1: return "cudaAccessPropertyStreaming";
    case 2: return "cudaAccessPropertyPersisting";
    default: return nullptr;
  }
}

}  // namespace

void Runtime::set_persisting_l2_bytes(uint64_t bytes) {
  persisting_l2_bytes_ = std::min<uint64_t>(bytes, spec().has_l2 ? spec().l2.persisting_max_bytes : 0);
}

mem::AccessPolicyWindow Runtime::checked_window(const cuda::AccessPolicyWindow& w, const char* call) const {
  const uint64_t max_window = spec().has_l2 ? spec().l2.access_policy_max_window_bytes : 0;
  if (w.num_bytes > max_window)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: an access policy window of {} bytes (the device's accessPolicyMaxWindowSize is {})",
                               call, w.num_bytes, max_window));
  if (!(w.hitRatio >= 0.0f && w.hitRatio <= 1.0f))
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: access policy window hitRatio {} (0 to 1)", call, double(w.hitRatio)));
  if (!property_name(w.hitProp))
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: hitProp {} is not a cudaAccessProperty", call, w.hitProp));
  if (w.missProp != 0 && w.missProp != 1)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: missProp {} (cudaAccessPropertyNormal or cudaAccessPropertyStreaming)", call,
                               property_name(w.missProp) ? property_name(w.missProp) : std::to_string(w.missProp)));
  mem::AccessPolicyWindow m;
  m.base = reinterpret_cast<uint64_t>(w.base_ptr);
  m.bytes = w.num_bytes;
  m.hit_ratio = w.hitRatio;
  m.hit = static_cast<mem::AccessProperty>(w.hitProp);
  m.miss = static_cast<mem::AccessProperty>(w.missProp);
  return m;
}

void Runtime::set_stream_window(const void* stream, const cuda::AccessPolicyWindow& w, const char* call) {
  check_stream(stream, call);
  const mem::AccessPolicyWindow m = checked_window(w, call);
  if (m.bytes == 0) stream_windows_.erase(stream_key(stream));
  else stream_windows_[stream_key(stream)] = {w, m};
}

cuda::AccessPolicyWindow Runtime::stream_window(const void* stream) const {
  auto it = stream_windows_.find(stream_key(stream));
  return it == stream_windows_.end() ? cuda::AccessPolicyWindow{} : it->second.first;
}

mem::AccessPolicyWindow Runtime::stream_policy_window(const void* stream) const {
  auto it = stream_windows_.find(stream_key(stream));
  return it == stream_windows_.end() ? mem::AccessPolicyWindow{} : it->second.second;
}

}  // namespace warpsim::runtime
