// CUDA graphs and stream capture (see runtime_graph.hpp). Work is serialised on the one
// simulated device, so a graph runs its nodes one after another in a dependency order; what
// the program observes (results, simulated time, events) is what in-order streams give.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime {

GraphNode* Graph::add(GraphNode node) {
  nodes.push_back(std::make_unique<GraphNode>(std::move(node)));
  index[nodes.back().get()] = nodes.size() - 1;
  return nodes.back().get();
}

void Graph::remove_last() {
  index.erase(nodes.back().get());
  nodes.pop_back();
}

void Graph::erase(const GraphNode* n) {
  const size_t i = index_of(n);
  if (i == nodes.size()) return;
  for (auto& m : nodes) m->deps.erase(std::remove(m->deps.begin(), m->deps.end(), n), m->deps.end());
  for (auto it = clone_of.begin(); it != clone_of.end();) it = it->second == n ? clone_of.erase(it) : std::next(it);
  nodes.erase(nodes.begin() + std::ptrdiff_t(i));
  index.clear();
  for (size_t j = 0; j < nodes.size(); ++j) index[nodes[j].get()] = j;
}

size_t Graph::index_of(const GraphNode* n) const {
  auto it = index.find(n);
  return it == index.end() ? nodes.size() : it->second;
}

namespace {

// The live object a graph or executable-graph handle names, or cudaErrorInvalidValue.
template <class T>
T& live(const std::map<const void*, std::unique_ptr<T>>& registry, const void* handle, const char* call,
        const char* what) {
  auto it = registry.find(handle);
  if (it == registry.end())
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} is not a live {}", call, handle, what));
  return *it->second;
}

}  // namespace

Graph* Runtime::create_graph() {
  auto g = std::make_unique<Graph>();
  Graph* h = g.get();
  graphs_[h] = std::move(g);
  return h;
}

Graph& Runtime::graph(const void* handle, const char* call) { return live(graphs_, handle, call, "graph"); }

bool Runtime::owns_node(const GraphNode* n) const {
  for (const auto& [h, g] : graphs_)
    if (g->owns(n)) return true;
  return false;
}

void Runtime::destroy_graph(const void* handle) {
  Graph& g = graph(handle, "cudaGraphDestroy");
  if (capture_origin_.count(&g))
    throw ApiError(cuda::ErrorIllegalState, "cudaGraphDestroy: the graph is still being captured");
  drop_user_objects(g.user_objects);
  graphs_.erase(handle);
}

GraphNode* Runtime::add_node(const void* handle, GraphNode node, void* const* deps, size_t ndeps, const char* call) {
  Graph& g = graph(handle, call);
  if (ndeps && !deps) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} dependencies but no array", call, ndeps));
  node.deps.clear();
  for (size_t i = 0; i < ndeps; ++i) {
    const auto* d = static_cast<const GraphNode*>(deps[i]);
    if (!g.owns(d))
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: dependency {} ({}) is not a node of graph {}", call, i, deps[i], handle));
    if (std::find(node.deps.begin(), node.deps.end(), d) == node.deps.end()) node.deps.push_back(d);
  }
  return g.add(std::move(node));
}

GraphNode Runtime::kernel_node(const cuda::KernelNodeParams* p, const char* call) {
  if (!p) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: kernel node parameters are NULL", call));
  if (p->extra)
    throw ApiError(cuda::ErrorNotSupported, fmt::format("{}: kernel arguments in the 'extra' form", call));
  const isa::Kernel& k = kernel_for(p->func, call);
  GraphNode n;
  n.kind = GraphNode::Kind::Kernel;
  n.fn = p->func;
  n.grid = p->gridDim;
  n.block = p->blockDim;
  n.shared = p->sharedMemBytes;
  // The arguments' values are taken now, as CUDA does: later changes to them do not matter.
  for (size_t i = 0; i < k.params.size(); ++i) {
    if (!p->kernelParams || !p->kernelParams[i])
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: argument {} ('{}') of {} is missing", call, i, k.params[i].name, k.name));
    const auto* b = static_cast<const uint8_t*>(p->kernelParams[i]);
    n.args.emplace_back(b, b + k.params[i].size);
  }
  return n;
}

GraphNode Runtime::memcpy_node(const cuda::Memcpy3DParms* p, const char* call) const {
  if (!p) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: copy parameters are NULL", call));
  GraphNode n;
  n.kind = GraphNode::Kind::Memcpy;
  n.copy = *p;
  return n;
}

GraphNode Runtime::linear_copy_node(void* dst, const void* src, uint64_t bytes, cuda::MemcpyKind kind) const {
  GraphNode n;
  n.kind = GraphNode::Kind::Memcpy;
  n.linear = true;
  n.dst = dst;
  n.src = src;
  n.bytes = bytes;
  n.copy_kind = kind;
  return n;
}

GraphNode Runtime::host_node(void (*fn)(void*), void* user, const char* call) const {
  if (!fn) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: no host function", call));
  GraphNode n;
  n.kind = GraphNode::Kind::Host;
  n.host = {fn, user};
  return n;
}

GraphNode Runtime::memset_node(const cuda::MemsetParams* p, const char* call) const {
  if (!p) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: memset parameters are NULL", call));
  if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: element size {} (1, 2 or 4)", call, p->elementSize));
  if (p->height > 1 && p->pitch < p->width * p->elementSize)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: pitch {} is less than a row of {} elements of {} bytes",
                                                        call, p->pitch, p->width, p->elementSize));
  GraphNode n;
  n.kind = GraphNode::Kind::Memset;
  n.set = *p;
  return n;
}

Graph* Runtime::clone_graph(const void* handle) {
  const Graph& g = graph(handle, "cudaGraphClone");
  for (const auto& n : g.nodes)
    if (n->kind == GraphNode::Kind::Conditional)  // as CUDA 13 on an H100
      throw ApiError(cuda::ErrorNotSupported, "cudaGraphClone: a graph with conditional nodes cannot be cloned");
  Graph* c = create_graph();
  for (const auto& n : g.nodes) {
    GraphNode copy = *n;
    if (copy.kind == GraphNode::Kind::Child) copy.child = clone_graph(copy.child);  // its own copy
    for (auto& d : copy.deps) d = c->nodes[g.index_of(d)].get();  // earlier nodes: already cloned
    c->clone_of[n.get()] = c->add(std::move(copy));
  }
  c->user_objects = g.user_objects;
  hold_user_objects(c->user_objects);
  return c;
}

GraphExec* Runtime::instantiate(const void* handle, unsigned long long flags) {
  const Graph& g = graph(handle, "cudaGraphInstantiate");
  std::unique_ptr<GraphExec> e = build_exec(g, false);
  e->flags = flags & ~cuda::GraphInstantiateFlagUpload;  // an upload is done, not kept (as an H200 answers)
  e->user_objects = g.user_objects;
  hold_user_objects(e->user_objects);
  GraphExec* h = e.get();
  execs_[h] = std::move(e);
  return h;
}

std::unique_ptr<GraphExec> Runtime::build_exec(const Graph& g, bool body) {
  // Kahn's algorithm, always taking the earliest-created ready node: a fixed order.
  const size_t n = g.nodes.size();
  auto e = std::make_unique<GraphExec>();
  e->by_creation.assign(n, 0);
  e->dep_index.resize(n);
  std::vector<size_t> waiting(n, 0);
  std::vector<std::vector<size_t>> users(n);
  for (size_t i = 0; i < n; ++i)
    for (const GraphNode* d : g.nodes[i]->deps) {
      const size_t from = g.index_of(d);
      e->dep_index[i].push_back(from);
      users[from].push_back(i);
      ++waiting[i];
    }
  std::vector<bool> done(n, false);
  for (size_t placed = 0; placed < n; ++placed) {
    size_t next = n;
    for (size_t i = 0; i < n && next == n; ++i)
      if (!done[i] && waiting[i] == 0) next = i;
    if (next == n)
      throw GraphCycleError(cuda::ErrorInvalidValue, "cudaGraphInstantiate: the graph's dependencies form a cycle");
    done[next] = true;
    for (size_t u : users[next]) --waiting[u];
    e->position[g.nodes[next].get()] = e->order.size();
    e->by_creation[next] = e->order.size();
    e->order.push_back(*g.nodes[next]);
  }
  for (GraphNode& node : e->order) {
    using K = GraphNode::Kind;
    if (body && node.kind != K::Kernel && node.kind != K::Empty && node.kind != K::Memcpy && node.kind != K::Memset &&
        node.kind != K::Conditional)
      throw ApiError(cuda::ErrorInvalidValue,
                     "cudaGraphInstantiate: a conditional node's body may hold only kernel, empty, memcpy, memset and "
                     "conditional nodes");
    if (node.kind == K::Child) {
      node.body_execs = {build_exec(graph(node.child, "cudaGraphInstantiate"), false)};
      continue;
    }
    if (node.kind != K::Conditional) continue;
    node.body_execs.clear();
    for (void* b : *node.bodies) node.body_execs.push_back(build_exec(graph(b, "cudaGraphInstantiate"), true));
  }
  return e;
}

GraphExec& Runtime::exec(const void* handle, const char* call) {
  return live(execs_, handle, call, "executable graph");
}

void Runtime::destroy_exec(const void* handle) {
  drop_user_objects(exec(handle, "cudaGraphExecDestroy").user_objects);
  execs_.erase(handle);
}

void Runtime::exec_set_kernel_params(const void* handle, const void* node, const cuda::KernelNodeParams* p) {
  const char* call = "cudaGraphExecKernelNodeSetParams";
  GraphNode& target = exec_node(handle, node, GraphNode::Kind::Kernel, call);
  GraphNode fresh = kernel_node(p, call);
  if (fresh.fn != target.fn)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: the kernel function cannot change", call));
  exec_set_node_params(handle, node, std::move(fresh), call);
}

cuda::GraphExecUpdateResult Runtime::exec_update(const void* exec_handle, const void* graph_handle,
                                                 const void** error_node) {
  GraphExec& e = exec(exec_handle, "cudaGraphExecUpdate");
  const Graph& g = graph(graph_handle, "cudaGraphExecUpdate");
  const cuda::GraphExecUpdateResult r = update_check(e, g, error_node);
  if (r != cuda::GraphExecUpdateSuccess) return r;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    GraphNode& target = e.order[e.by_creation[i]];
    target = *g.nodes[i];
    if (target.kind == GraphNode::Kind::Child)
      target.body_execs = {build_exec(graph(target.child, "cudaGraphExecUpdate"), false)};
  }
  return cuda::GraphExecUpdateSuccess;
}

cuda::GraphExecUpdateResult Runtime::update_check(const GraphExec& e, const Graph& g, const void** error_node) {
  *error_node = nullptr;
  if (g.nodes.size() != e.order.size()) return cuda::GraphExecUpdateErrorTopologyChanged;
  // Node i of the new graph stands for node i (by creation) of the instantiated one.
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const GraphNode& fresh = *g.nodes[i];
    const GraphNode& target = e.order[e.by_creation[i]];
    std::vector<size_t> deps;
    for (const GraphNode* d : fresh.deps) deps.push_back(g.index_of(d));
    *error_node = &fresh;
    if (fresh.kind != target.kind) return cuda::GraphExecUpdateErrorNodeTypeChanged;
    if (fresh.kind == GraphNode::Kind::Conditional) return cuda::GraphExecUpdateErrorNotSupported;
    if (deps != e.dep_index[i]) return cuda::GraphExecUpdateErrorTopologyChanged;
    if (fresh.kind == GraphNode::Kind::Kernel && fresh.fn != target.fn) return cuda::GraphExecUpdateErrorParametersChanged;
    if ((fresh.kind == GraphNode::Kind::MemAlloc || fresh.kind == GraphNode::Kind::MemFree) &&
        (fresh.dst != target.dst || fresh.allocation != target.allocation))
      return cuda::GraphExecUpdateErrorParametersChanged;  // memory nodes cannot change
    if (fresh.kind == GraphNode::Kind::Child) {
      const cuda::GraphExecUpdateResult r =
          update_check(*target.body_execs.at(0), graph(fresh.child, "cudaGraphExecUpdate"), error_node);
      if (r != cuda::GraphExecUpdateSuccess) return r;
    }
  }
  *error_node = nullptr;
  return cuda::GraphExecUpdateSuccess;
}

// ---- stream capture ---------------------------------------------------------------------

bool Runtime::capturing(const void* stream) const { return capturing_.count(stream) != 0; }

void Runtime::invalidate_capture(const void* stream) {
  auto it = capturing_.find(stream);
  if (it != capturing_.end()) invalidated_captures_.insert(it->second);
}

bool Runtime::capture_invalidated(const void* stream) const {
  auto it = capturing_.find(stream);
  return it != capturing_.end() && invalidated_captures_.count(it->second);
}

namespace {
ApiError invalidated(const char* call) {
  return ApiError(cuda::ErrorStreamCaptureInvalidated,
                  fmt::format("{}: the stream's capture was invalidated by an earlier operation it could not capture",
                              call));
}
}  // namespace

void Runtime::no_capture(const void* stream, const char* call) {
  if (!capturing(stream)) return;
  invalidate_capture(stream);
  throw ApiError(cuda::ErrorStreamCaptureUnsupported,
                   fmt::format("{} on a capturing stream is not supported by warpsim's stream capture (kernel "
                               "launches, cudaMemcpyAsync, cudaMemsetAsync, cudaLaunchHostFunc and events are)",
                               call));
}

void Runtime::begin_capture(const void* stream, int mode) {
  check_stream(stream, "cudaStreamBeginCapture");
  if (special_stream(stream))
    throw ApiError(cuda::ErrorStreamCaptureUnsupported,
                   "cudaStreamBeginCapture: the default stream cannot be captured; use a stream from cudaStreamCreate");
  if (capturing(stream))
    throw ApiError(cuda::ErrorIllegalState, fmt::format("cudaStreamBeginCapture: stream {} is already capturing", stream));
  Graph* g = create_graph();
  capture_made_.insert(g);
  capturing_[stream] = g;
  capture_origin_[g] = stream;
  capture_owners_[g] = {std::this_thread::get_id(), mode};
  capture_ids_[stream] = next_capture_id_++;
}

Graph* Runtime::end_capture(const void* stream) {
  check_stream(stream, "cudaStreamEndCapture");
  auto it = capturing_.find(stream);
  if (it == capturing_.end())
    throw ApiError(cuda::ErrorIllegalState, fmt::format("cudaStreamEndCapture: stream {} is not capturing", stream));
  Graph* g = it->second;
  const bool ruined = invalidated_captures_.count(g) != 0;
  if (capture_origin_.at(g) != stream)
    throw ApiError(cuda::ErrorStreamCaptureUnmatched,
                   fmt::format("cudaStreamEndCapture: stream {} joined the capture; end it on the stream that began it",
                               stream));
  for (auto s = capturing_.begin(); s != capturing_.end();) s = s->second == g ? capturing_.erase(s) : std::next(s);
  for (auto e = captured_events_.begin(); e != captured_events_.end();)
    e = e->second == g ? captured_events_.erase(e) : std::next(e);
  for (auto s = capture_deps_.begin(); s != capture_deps_.end();)
    s = capturing_.count(s->first) ? std::next(s) : capture_deps_.erase(s);
  for (auto s = capture_ids_.begin(); s != capture_ids_.end();)
    s = capturing_.count(s->first) ? std::next(s) : capture_ids_.erase(s);
  capture_origin_.erase(g);
  capture_owners_.erase(g);
  const bool made = capture_made_.erase(g) != 0;
  if (ruined) {
    invalidated_captures_.erase(g);
    if (made) {  // a graph given to cudaStreamBeginCaptureToGraph stays the program's
      drop_user_objects(g->user_objects);
      graphs_.erase(g);
    }
    throw invalidated("cudaStreamEndCapture");
  }
  return g;
}

std::vector<const GraphNode*> Runtime::next_capture_deps(const void* stream, const Graph& g) const {
  auto set = capture_deps_.find(stream);
  if (set != capture_deps_.end()) return set->second;
  if (g.nodes.empty()) return {};
  return {g.nodes.back().get()};
}

void Runtime::capture(const void* stream, GraphNode node) {
  Graph* g = capturing_.at(stream);
  if (invalidated_captures_.count(g)) throw invalidated("an operation on a capturing stream");
  // Issued in order: each operation depends on the one recorded before it, or on the
  // dependencies the program set for the stream.
  node.deps = next_capture_deps(stream, *g);
  const GraphNode* added = g->add(std::move(node));
  auto set = capture_deps_.find(stream);
  if (set != capture_deps_.end()) set->second = {added};
}

void Runtime::capture_event(const void* event, const void* stream) {
  if (capture_invalidated(stream)) throw invalidated("cudaEventRecord");
  captured_events_[event] = capturing_.at(stream);
}

void Runtime::join_capture(const void* stream, const void* event) {
  auto it = captured_events_.find(event);
  if (it == captured_events_.end()) return;
  if (!capturing_.count(stream)) capture_ids_[stream] = capture_ids_.at(capture_origin_.at(it->second));
  capturing_[stream] = it->second;
}

// ---- running nodes ----------------------------------------------------------------------

void Runtime::run_node(const GraphNode& n, void* stream) {
  switch (n.kind) {
    case GraphNode::Kind::Empty:
    case GraphNode::Kind::Host: return;
    case GraphNode::Kind::MemAlloc: graph_memory_allocated(*n.allocation); return;
    case GraphNode::Kind::MemFree: graph_memory_freed(n.dst, "cudaGraphLaunch"); return;
    case GraphNode::Kind::Conditional: run_conditional(n, stream); return;
    case GraphNode::Kind::EventRecord: record_event(n.event, stream); return;
    case GraphNode::Kind::EventWait: return;  // one device, work in order: the event is complete
    case GraphNode::Kind::Child:
      throw std::logic_error("run_node: a child graph node is run node by node by the API layer (host nodes)");
    case GraphNode::Kind::Kernel: {
      std::vector<void*> argv;
      for (const auto& a : n.args) argv.push_back(const_cast<uint8_t*>(a.data()));
      // Its attributes: cooperative, a cluster shape, an access policy window; the others
      // (priority, memory sync domains, scheduling hints) change nothing when launches run
      // one at a time.
      const auto attr = [&](int id) {
        const auto it = n.attributes.find(id);
        return it == n.attributes.end() ? cuda::LaunchAttributeValue{} : it->second;
      };
      const bool cooperative = attr(cuda::LaunchAttributeCooperative).cooperative != 0;
      const auto c = attr(cuda::LaunchAttributeClusterDimension).clusterDim;
      const cuda::Dim3 cluster{c.x, c.y, c.z};
      const cuda::AccessPolicyWindow w = attr(cuda::LaunchAttributeAccessPolicyWindow).accessPolicyWindow;
      const mem::AccessPolicyWindow window = checked_window(w, "cudaGraphLaunch");
      launch(n.fn, n.grid, n.block, argv.data(), n.shared, stream, cooperative, w.num_bytes ? &window : nullptr,
             c.x ? &cluster : nullptr);
      return;
    }
    case GraphNode::Kind::Memcpy:
      if (n.linear) memcpy(n.dst, n.src, n.bytes, n.copy_kind, "cudaGraphLaunch");
      else memcpy_3d(&n.copy, "cudaGraphLaunch");
      return;
    case GraphNode::Kind::Memset: {
      const cuda::MemsetParams& s = n.set;
      const uint64_t pitch = s.height > 1 ? s.pitch : s.width * s.elementSize;
      if (s.elementSize == 1) {
        memset_2d(s.dst, pitch, int(s.value & 0xFF), s.width, s.height);
        return;
      }
      // 2- and 4-byte elements: one row of the pattern, copied to every row.
      std::vector<uint8_t> row(s.width * s.elementSize);
      for (size_t i = 0; i < s.width; ++i) std::memcpy(&row[i * s.elementSize], &s.value, s.elementSize);
      for (size_t r = 0; r < s.height; ++r)
        memcpy(static_cast<uint8_t*>(s.dst) + r * pitch, row.data(), row.size(), cuda::HostToDevice, "cudaGraphLaunch");
      return;
    }
  }
}

}  // namespace warpsim::runtime
