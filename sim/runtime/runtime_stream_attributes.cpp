// Stream attributes (cudaStreamSetAttribute, cudaStreamGetAttribute, cudaStreamCopyAttributes
// and the driver's cuStream* forms). Measured on an H200
// (tests/750_runtime/programs/graph_node_attributes.expected): a stream's synchronization
// policy reads -1 until set, and a copy takes the window, the policy and the priority.
#include <fmt/format.h>

#include <algorithm>

#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime {

namespace {

const void* attributes_key(const void* stream) { return Runtime::special_stream(stream) ? nullptr : stream; }

}  // namespace

void Runtime::set_stream_attribute(const void* stream, int attr, const cuda::LaunchAttributeValue& v,
                                   const char* call) {
  check_stream(stream, call);
  StreamAttributes& a = stream_attributes_[attributes_key(stream)];
  switch (attr) {
    case cuda::LaunchAttributeAccessPolicyWindow: set_stream_window(stream, v.accessPolicyWindow, call); return;
    case cuda::LaunchAttributeSynchronizationPolicy:
      if (v.syncPolicy < 1 || v.syncPolicy > 4)
        throw ApiError(cuda::ErrorInvalidValue,
                       fmt::format("{}: synchronization policy {} (1 auto, 2 spin, 3 yield, 4 blocking sync)", call,
                                   v.syncPolicy));
      a.sync_policy = v.syncPolicy;  // how the host waits: nothing here depends on it
      return;
    case cuda::LaunchAttributePriority: {
      if (special_stream(stream))
        throw ApiError(cuda::ErrorNotSupported,
                       fmt::format("{}: the default stream's priority is 0 in warpsim and cannot be set", call));
      const auto [least, greatest] = stream_priority_range();
      streams_.at(stream).priority = std::clamp(v.priority, greatest, least);
      return;
    }
    case cuda::LaunchAttributeMemSyncDomain:
      if (v.memSyncDomain < 0 || v.memSyncDomain > 1)
        throw ApiError(cuda::ErrorInvalidValue,
                       fmt::format("{}: memory synchronization domain {} (0 default, 1 remote)", call, v.memSyncDomain));
      a.mem_sync_domain = v.memSyncDomain;  // launches run one at a time: fences order everything
      return;
    case cuda::LaunchAttributeMemSyncDomainMap:
      a.domain_map_default = v.memSyncDomainMap.default_;
      a.domain_map_remote = v.memSyncDomainMap.remote;
      return;
    default:
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: attribute {} is not a stream attribute", call, attr));
  }
}

cuda::LaunchAttributeValue Runtime::stream_attribute(const void* stream, int attr, const char* call) const {
  const StreamProperties props = stream_properties(stream, call);
  const auto it = stream_attributes_.find(attributes_key(stream));
  const StreamAttributes a = it == stream_attributes_.end() ? StreamAttributes{} : it->second;
  cuda::LaunchAttributeValue v{};
  switch (attr) {
    case cuda::LaunchAttributeAccessPolicyWindow: v.accessPolicyWindow = stream_window(stream); break;
    case cuda::LaunchAttributeSynchronizationPolicy: v.syncPolicy = a.sync_policy; break;
    case cuda::LaunchAttributePriority: v.priority = props.priority; break;
    case cuda::LaunchAttributeMemSyncDomain: v.memSyncDomain = a.mem_sync_domain; break;
    case cuda::LaunchAttributeMemSyncDomainMap:
      v.memSyncDomainMap.default_ = a.domain_map_default;
      v.memSyncDomainMap.remote = a.domain_map_remote;
      break;
    default:
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: attribute {} is not a stream attribute", call, attr));
  }
  return v;
}

void Runtime::copy_stream_attributes(const void* dst, const void* src, const char* call) {
  check_stream(dst, call);
  const StreamProperties from = stream_properties(src, call);
  cuda::LaunchAttributeValue w{};
  w.accessPolicyWindow = stream_window(src);
  set_stream_window(dst, w.accessPolicyWindow, call);
  const auto it = stream_attributes_.find(attributes_key(src));
  stream_attributes_[attributes_key(dst)] = it == stream_attributes_.end() ? StreamAttributes{} : it->second;
  if (!special_stream(dst)) streams_.at(dst).priority = from.priority;
}

}  // namespace warpsim::runtime
