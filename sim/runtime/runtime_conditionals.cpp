// Conditional graph nodes (IF, WHILE, SWITCH), the generic cudaGraphAddNode, and stream
// capture into an existing graph with the dependencies a program sets (runtime_graph.hpp).
// A condition is a 32-bit word of device memory: kernels write it with
// cudaGraphSetConditional (sim/sm/warp_calls.cpp), the node reads it when it is reached.
#include <fmt/format.h>

#include <algorithm>

#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime {

const char* node_type_name(int t) {
  switch (t) {
    case cuda::GraphNodeTypeKernel: return "kernel";
    case cuda::GraphNodeTypeMemcpy: return "memcpy";
    case cuda::GraphNodeTypeMemset: return "memset";
    case cuda::GraphNodeTypeHost: return "host";
    case cuda::GraphNodeTypeGraph: return "child graph";
    case cuda::GraphNodeTypeEmpty: return "empty";
    case cuda::GraphNodeTypeWaitEvent: return "event wait";
    case cuda::GraphNodeTypeEventRecord: return "event record";
    case cuda::GraphNodeTypeExtSemaphoreSignal: return "external semaphore signal";
    case cuda::GraphNodeTypeExtSemaphoreWait: return "external semaphore wait";
    case cuda::GraphNodeTypeMemAlloc: return "memory allocation";
    case cuda::GraphNodeTypeMemFree: return "memory free";
    case cuda::GraphNodeTypeConditional: return "conditional";
  }
  return "unknown";
}

namespace {
constexpr uint32_t kConditionsPerChunk = 1024;  // 4 KiB of device memory

// Whether running `e` can launch a kernel (which alone can change a condition).
bool launches_kernels(const GraphExec& e) {
  for (const GraphNode& n : e.order) {
    if (n.kind == GraphNode::Kind::Kernel) return true;
    for (const auto& b : n.body_execs)
      if (launches_kernels(*b)) return true;
  }
  return false;
}
}  // namespace

uint64_t Runtime::create_condition(const void* handle, unsigned default_value, unsigned flags) {
  graph(handle, "cudaGraphConditionalHandleCreate");
  if (flags & ~cuda::GraphCondAssignDefault)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("cudaGraphConditionalHandleCreate: flags {:#x} (0 or cudaGraphCondAssignDefault)", flags));
  if (!condition_chunk_ || conditions_in_chunk_ == kConditionsPerChunk) {
    condition_chunk_ = allocate_device(kConditionsPerChunk * 4, "cudaGraphConditionalHandleCreate");
    conditions_in_chunk_ = 0;
  }
  const uint64_t h = condition_chunk_ + uint64_t(conditions_in_chunk_++) * 4;
  conditions_[h] = {default_value, (flags & cuda::GraphCondAssignDefault) != 0};
  // The default is applied at launches only, with the flag; until a kernel sets it the
  // condition is 0 (an H100: an IF whose handle lacks the flag never ran its body).
  const uint32_t zero = 0;
  device_->copy_to_device(h, &zero, 4);
  return h;
}

GraphNode Runtime::node_from_params(const void* handle, cuda::GraphNodeParams* p, const char* call) {
  graph(handle, call);
  if (!p) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: nodeParams is NULL", call));
  switch (p->type) {
    case cuda::GraphNodeTypeEmpty: return GraphNode{};
    case cuda::GraphNodeTypeGraph:
      return p->graph.ownership == cuda::GraphChildGraphOwnershipMove ? child_node_moved(p->graph.graph, handle, call)
                                                                      : child_node(p->graph.graph, call);
    case cuda::GraphNodeTypeConditional: break;
    default: return params_node(p, call);  // the types cudaGraphNodeSetParams takes too
  }
  cuda::ConditionalNodeParams& c = p->conditional;
  auto it = conditions_.find(c.handle);
  if (it == conditions_.end())
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: conditional handle {:#x} is not from cudaGraphConditionalHandleCreate", call, c.handle));
  const bool size_ok = c.type == cuda::GraphCondTypeIf       ? c.size == 1 || c.size == 2
                       : c.type == cuda::GraphCondTypeWhile  ? c.size == 1
                       : c.type == cuda::GraphCondTypeSwitch ? c.size >= 1
                                                             : false;
  if (!size_ok)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: conditional type {} with size {} (IF: 1 or 2 bodies, WHILE: 1, SWITCH: 1 or more)",
                               call, c.type, c.size));
  GraphNode n;
  n.kind = GraphNode::Kind::Conditional;
  n.condition = c.handle;
  n.cond_type = c.type;
  n.bodies = std::make_shared<std::vector<void*>>();
  for (unsigned i = 0; i < c.size; ++i) n.bodies->push_back(create_graph());
  c.phGraph_out = n.bodies->data();
  return n;
}

void Runtime::reset_conditions(const GraphExec& e) {
  for (const GraphNode& n : e.order) {
    if (n.kind != GraphNode::Kind::Conditional) continue;
    auto it = conditions_.find(n.condition);
    if (it == conditions_.end())
      throw ApiError(cuda::ErrorInvalidValue,
                     "cudaGraphLaunch: the graph's conditional handle was made before cudaDeviceReset");
    const Condition& c = it->second;
    if (c.assign_default) device_->copy_to_device(n.condition, &c.default_value, 4);
    for (const auto& b : n.body_execs) reset_conditions(*b);
  }
}

void Runtime::run_conditional(const GraphNode& n, void* stream) {
  auto value = [&] {
    uint32_t v = 0;
    device_->copy_from_device(&v, n.condition, 4);
    return v;
  };
  auto run = [&](size_t body) {
    for (const GraphNode& m : n.body_execs.at(body)->order) run_node(m, stream);
  };
  switch (n.cond_type) {
    case cuda::GraphCondTypeIf:
      if (value() != 0) run(0);
      else if (n.body_execs.size() == 2) run(1);
      return;
    case cuda::GraphCondTypeWhile:
      // A body without kernels cannot change the condition: the GPU would loop until its
      // watchdog; here the launch stops with the watchdog's error at once.
      if (value() != 0 && !launches_kernels(*n.body_execs.at(0)))
        throw ApiError(cuda::ErrorLaunchTimeout,
                       fmt::format("cudaGraphLaunch: the WHILE node of condition {:#x} loops forever (its condition "
                                   "is {} and its body launches no kernel that could change it)",
                                   n.condition, value()));
      while (value() != 0) run(0);
      return;
    case cuda::GraphCondTypeSwitch:
      if (const uint32_t v = value(); v < n.body_execs.size()) run(v);
      return;
  }
}

void Runtime::begin_capture_to_graph(const void* stream, const void* handle, void* const* deps, size_t ndeps,
                                     int mode) {
  check_stream(stream, "cudaStreamBeginCaptureToGraph");
  Graph& g = graph(handle, "cudaStreamBeginCaptureToGraph");
  if (special_stream(stream))
    throw ApiError(cuda::ErrorStreamCaptureUnsupported,
                   "cudaStreamBeginCaptureToGraph: the default stream cannot be captured; use a stream from "
                   "cudaStreamCreate");
  if (capturing(stream))
    throw ApiError(cuda::ErrorIllegalState,
                   fmt::format("cudaStreamBeginCaptureToGraph: stream {} is already capturing", stream));
  if (capture_origin_.count(&g))
    throw ApiError(cuda::ErrorIllegalState, "cudaStreamBeginCaptureToGraph: the graph is being captured already");
  if (ndeps && !deps) throw ApiError(cuda::ErrorInvalidValue, "cudaStreamBeginCaptureToGraph: dependencies are NULL");
  std::vector<const GraphNode*> start;
  for (size_t i = 0; i < ndeps; ++i) {
    const auto* d = static_cast<const GraphNode*>(deps[i]);
    if (!g.owns(d))
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("cudaStreamBeginCaptureToGraph: dependency {} is not a node of the graph", deps[i]));
    start.push_back(d);
  }
  capturing_[stream] = &g;
  capture_origin_[&g] = stream;
  capture_owners_[&g] = {std::this_thread::get_id(), mode};
  capture_ids_[stream] = next_capture_id_++;
  capture_deps_[stream] = std::move(start);
}

cuda::StreamCaptureStatus Runtime::capture_info(const void* stream, uint64_t* id, void** graph_out,
                                                const void* const** deps, size_t* ndeps) {
  check_stream(stream, "cudaStreamGetCaptureInfo");
  auto it = capturing_.find(stream);
  if (it == capturing_.end()) return cuda::StreamCaptureStatusNone;
  Graph* g = it->second;
  if (id) *id = capture_ids_.at(stream);
  if (invalidated_captures_.count(g)) return cuda::StreamCaptureStatusInvalidated;
  if (graph_out) *graph_out = g;
  // Kept for the stream, so that the array handed out stays valid.
  auto set = capture_deps_.find(stream);
  if (set == capture_deps_.end()) set = capture_deps_.emplace(stream, next_capture_deps(stream, *g)).first;
  if (deps) *deps = reinterpret_cast<const void* const*>(set->second.data());
  if (ndeps) *ndeps = set->second.size();
  return cuda::StreamCaptureStatusActive;
}

void Runtime::update_capture_dependencies(const void* stream, void* const* deps, size_t ndeps, unsigned flags) {
  check_stream(stream, "cudaStreamUpdateCaptureDependencies");
  auto it = capturing_.find(stream);
  if (it == capturing_.end())
    throw ApiError(cuda::ErrorIllegalState,
                   fmt::format("cudaStreamUpdateCaptureDependencies: stream {} is not capturing", stream));
  if (flags != cuda::StreamAddCaptureDependencies && flags != cuda::StreamSetCaptureDependencies)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("cudaStreamUpdateCaptureDependencies: flags {} (cudaStreamAddCaptureDependencies or "
                               "cudaStreamSetCaptureDependencies)",
                               flags));
  if (ndeps && !deps) throw ApiError(cuda::ErrorInvalidValue, "cudaStreamUpdateCaptureDependencies: dependencies are NULL");
  const Graph& g = *it->second;
  std::vector<const GraphNode*> now;
  if (flags == cuda::StreamAddCaptureDependencies) now = next_capture_deps(stream, g);
  for (size_t i = 0; i < ndeps; ++i) {
    const auto* d = static_cast<const GraphNode*>(deps[i]);
    if (!g.owns(d))
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("cudaStreamUpdateCaptureDependencies: {} is not a node of the capture's graph", deps[i]));
    if (std::find(now.begin(), now.end(), d) == now.end()) now.push_back(d);
  }
  capture_deps_[stream] = std::move(now);
}

}  // namespace warpsim::runtime
