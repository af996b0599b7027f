// Launch attributes of graph kernel nodes (cudaGraphKernelNodeGetAttribute, SetAttribute,
// CopyAttributes), also those a captured cudaLaunchKernelEx or cooperative launch brings, and
// the checks of an attribute's value that nodes, streams and launches share.
// An H200 (tests/750_runtime/programs/graph_node_attributes.expected) reads zeros for an
// attribute never set, clamps a priority to the device's range, refuses a window CUDA's
// launch would refuse, and runs a node made cooperative or given a cluster shape so.
#include <fmt/format.h>

#include <algorithm>

#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime {

cuda::LaunchAttributeValue Runtime::checked_launch_attribute(int attr, const cuda::LaunchAttributeValue& v,
                                                             const char* call) const {
  cuda::LaunchAttributeValue kept = v;
  switch (attr) {
    case cuda::LaunchAttributeAccessPolicyWindow: checked_window(v.accessPolicyWindow, call); break;
    case cuda::LaunchAttributeCooperative: kept.cooperative = v.cooperative != 0; break;
    case cuda::LaunchAttributeSynchronizationPolicy:
      if (v.syncPolicy < 1 || v.syncPolicy > 4)
        throw ApiError(cuda::ErrorInvalidValue,
                       fmt::format("{}: synchronization policy {} (1 auto, 2 spin, 3 yield, 4 blocking sync)", call,
                                   v.syncPolicy));
      break;
    case cuda::LaunchAttributeClusterSchedulingPolicyPreference:
      if (v.clusterSchedulingPolicyPreference < 0 || v.clusterSchedulingPolicyPreference > 2)
        throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: cluster scheduling policy {} (0 default, 1 spread, "
                                                            "2 load balancing)",
                                                            call, v.clusterSchedulingPolicyPreference));
      break;
    case cuda::LaunchAttributePriority: {
      const auto [least, greatest] = stream_priority_range();
      kept.priority = std::clamp(v.priority, greatest, least);
      break;
    }
    case cuda::LaunchAttributeMemSyncDomain:
      if (v.memSyncDomain < 0 || v.memSyncDomain > 1)
        throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: memory synchronization domain {} (0 default, "
                                                            "1 remote)",
                                                            call, v.memSyncDomain));
      break;
    case cuda::LaunchAttributePreferredSharedMemoryCarveout:
      if (v.sharedMemCarveout > 100 && v.sharedMemCarveout != 0xFFFFFFFFu)
        throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: carveout {} (0-100 percent, or -1)", call,
                                                            v.sharedMemCarveout));
      break;
    default: break;  // a cluster shape is checked when a launch uses it; the rest take any value
  }
  return kept;
}

void Runtime::set_node_attribute(GraphNode& n, int attr, const cuda::LaunchAttributeValue& v, const char* call) const {
  switch (attr) {
    case cuda::LaunchAttributeAccessPolicyWindow:
    case cuda::LaunchAttributeCooperative:
    case cuda::LaunchAttributeClusterDimension:
    case cuda::LaunchAttributeClusterSchedulingPolicyPreference:
    case cuda::LaunchAttributePriority:
    case cuda::LaunchAttributeMemSyncDomain:
    case cuda::LaunchAttributeMemSyncDomainMap:
    case cuda::LaunchAttributePreferredClusterDimension:
    case cuda::LaunchAttributeDeviceUpdatableKernelNode:
    case cuda::LaunchAttributePreferredSharedMemoryCarveout: break;
    default:
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: attribute {} is not a kernel node attribute", call, attr));
  }
  n.attributes[attr] = checked_launch_attribute(attr, v, call);
}

cuda::LaunchAttributeValue Runtime::kernel_node_attribute(const void* node, int attr, const char* call) {
  GraphNode& n = node_of_kind(node, GraphNode::Kind::Kernel, call);
  GraphNode probe;  // the attribute's number is checked as a set would check it
  set_node_attribute(probe, attr, cuda::LaunchAttributeValue{}, call);
  const auto it = n.attributes.find(attr);
  return it == n.attributes.end() ? cuda::LaunchAttributeValue{} : it->second;
}

void Runtime::set_kernel_node_attribute(const void* node, int attr, const cuda::LaunchAttributeValue& v,
                                        const char* call) {
  set_node_attribute(node_of_kind(node, GraphNode::Kind::Kernel, call), attr, v, call);
}

void Runtime::copy_kernel_node_attributes(const void* dst, const void* src, const char* call) {
  const GraphNode& from = node_of_kind(src, GraphNode::Kind::Kernel, call);
  GraphNode& to = node_of_kind(dst, GraphNode::Kind::Kernel, call);
  to.attributes = from.attributes;
}

}  // namespace warpsim::runtime
