// Stream attributes (cudaStreamSetAttribute, cudaStreamGetAttribute, cudaStreamCopyAttributes
// and the driver's cuStream* forms). Measured on an H200
// (tests/750_runtime/programs/graph_node_attributes.expected): a stream's synchronization
// policy reads -1 until set, and a copy takes the window, the policy and the priority.
#include <fmt/format.h>

#include <algorithm>

#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime {

void Runtime::set_stream_attribute(const void* stream, int attr, const cuda::LaunchAttributeValue& v,
                                   const char* call) {
  check_stream(stream, call);
  StreamAttributes& a = stream_attributes_[stream_key(stream)];
  switch (attr) {
    case cuda::LaunchAttributeAccessPolicyWindow: set_stream_window(stream, v.accessPolicyWindow, call); return;
    case cuda::LaunchAttributeSynchronizationPolicy:
      // How the host waits: nothing here depends on it.
      a.sync_policy = checked_launch_attribute(attr, v, call).syncPolicy;
      return;
    case cuda::LaunchAttributePriority:
      if (special_stream(stream))
        throw ApiError(cuda::ErrorNotSupported,
                       fmt::format("{}: the default stream's priority is 0 in warpsim and cannot be set", call));
      streams_.at(stream).priority = checked_launch_attribute(attr, v, call).priority;
      return;
    case cuda::LaunchAttributeMemSyncDomain:
      // Launches run one at a time: fences order everything.
      a.mem_sync_domain = checked_launch_attribute(attr, v, call).memSyncDomain;
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
  const auto it = stream_attributes_.find(stream_key(stream));
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
  const auto it = stream_attributes_.find(stream_key(src));
  stream_attributes_[stream_key(dst)] = it == stream_attributes_.end() ? StreamAttributes{} : it->second;
  if (!special_stream(dst)) streams_.at(dst).priority = from.priority;
}

}  // namespace warpsim::runtime
