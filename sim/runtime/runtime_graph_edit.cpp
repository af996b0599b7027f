// CUDA graphs inspected and edited after they are built (see runtime_graph.hpp): nodes
// found by handle, edges added and removed, nodes destroyed, a node's parameters replaced in
// the graph or in an executable graph, nodes switched off and on; child graph and event
// nodes; nodes from cudaGraphNodeParams; the DOT picture. The errors are those an H200
// gives (tests/750_runtime/programs/graph_editing.cu, graph_child_event.cu, graph_add_node.cu).
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <string>

#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime {

namespace {

const char* kind_name(GraphNode::Kind k) {
  switch (k) {
    case GraphNode::Kind::Empty: return "an empty";
    case GraphNode::Kind::Kernel: return "a kernel";
    case GraphNode::Kind::Memcpy: return "a memcpy";
    case GraphNode::Kind::Memset: return "a memset";
    case GraphNode::Kind::Host: return "a host";
    case GraphNode::Kind::MemAlloc: return "a memory allocation";
    case GraphNode::Kind::MemFree: return "a memory free";
    case GraphNode::Kind::Conditional: return "a conditional";
    case GraphNode::Kind::Child: return "a child graph";
    case GraphNode::Kind::EventRecord: return "an event record";
    case GraphNode::Kind::EventWait: return "an event wait";
  }
  return "a";
}

bool has_edge(const GraphNode& to, const GraphNode* from) {
  return std::find(to.deps.begin(), to.deps.end(), from) != to.deps.end();
}

}  // namespace

Runtime::NodeRef Runtime::find_node(const void* node, const char* call) {
  const auto* n = static_cast<const GraphNode*>(node);
  for (auto& [h, g] : graphs_) {
    const size_t i = g->index_of(n);
    if (i != g->nodes.size()) return {g.get(), g->nodes[i].get()};
  }
  throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} is not a node of a live graph", call, node));
}

GraphNode& Runtime::node_of_kind(const void* node, GraphNode::Kind kind, const char* call) {
  GraphNode& n = *find_node(node, call).node;
  if (n.kind != kind)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: {} is {} node, not {} node", call, node, kind_name(n.kind), kind_name(kind)));
  return n;
}

void Runtime::set_node_params(const void* node, GraphNode fresh, const char* call) {
  GraphNode& n = node_of_kind(node, fresh.kind, call);
  fresh.deps = std::move(n.deps);
  fresh.attributes = std::move(n.attributes);  // new parameters keep the node's launch attributes
  n = std::move(fresh);
}

Graph& Runtime::edge_graph(const void* handle, void* const* from, void* const* to, size_t count, const char* call) {
  Graph& g = graph(handle, call);
  if (count && (!from || !to)) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: from or to is NULL", call));
  if (capture_origin_.count(&g))
    throw ApiError(cuda::ErrorIllegalState, fmt::format("{}: the graph is being captured", call));
  return g;
}

void Runtime::add_dependencies(const void* handle, void* const* from, void* const* to,
                               const cuda::GraphEdgeData* edges, size_t count, const char* call) {
  Graph& g = edge_graph(handle, from, to, count, call);
  // Every edge is checked before any is added: a refused call changes nothing.
  std::vector<std::pair<GraphNode*, const GraphNode*>> adds;  // (to, from)
  for (size_t i = 0; i < count; ++i) {
    const auto* f = static_cast<const GraphNode*>(from[i]);
    const size_t ti = g.index_of(static_cast<const GraphNode*>(to[i]));
    if (!g.owns(f) || ti == g.nodes.size())
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: edge {} ({} -> {}) names a node of another graph", call,
                                                          i, from[i], to[i]));
    GraphNode* t = g.nodes[ti].get();
    if (f == t)
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: edge {} leads from {} to itself", call, i, from[i]));
    const bool twice =
        std::any_of(adds.begin(), adds.end(), [&](const auto& a) { return a.first == t && a.second == f; });
    if (has_edge(*t, f) || twice)
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: edge {} ({} -> {}) is already in the graph", call, i, from[i], to[i]));
    if (edges && (edges[i].from_port || edges[i].to_port || edges[i].type))
      throw ApiError(cuda::ErrorNotSupported,
                     fmt::format("{}: edge {} has edge data other than the default (ports and type 0), which warpsim "
                                 "does not model",
                                 call, i));
    adds.push_back({t, f});
  }
  for (auto& [t, f] : adds) t->deps.push_back(f);
}

void Runtime::remove_dependencies(const void* handle, void* const* from, void* const* to,
                                  const cuda::GraphEdgeData* edges, size_t count, const char* call) {
  Graph& g = edge_graph(handle, from, to, count, call);
  (void)edges;  // every edge warpsim keeps has the default data
  std::vector<std::pair<GraphNode*, const GraphNode*>> removes;
  for (size_t i = 0; i < count; ++i) {
    const auto* f = static_cast<const GraphNode*>(from[i]);
    const size_t ti = g.index_of(static_cast<const GraphNode*>(to[i]));
    if (ti == g.nodes.size() || !has_edge(*g.nodes[ti], f))
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: edge {} ({} -> {}) is not an edge of the graph", call, i, from[i], to[i]));
    removes.push_back({g.nodes[ti].get(), f});
  }
  for (auto& [t, f] : removes) t->deps.erase(std::find(t->deps.begin(), t->deps.end(), f));
}

void Runtime::destroy_node(const void* node) {
  const char* call = "cudaGraphDestroyNode";
  NodeRef r = find_node(node, call);
  if (capture_origin_.count(r.graph))
    throw ApiError(cuda::ErrorIllegalState, fmt::format("{}: the node's graph is being captured", call));
  r.graph->erase(r.node);
}

std::vector<std::pair<const GraphNode*, const GraphNode*>> Runtime::graph_edges(const void* handle, const char* call) {
  const Graph& g = graph(handle, call);
  std::vector<std::pair<const GraphNode*, const GraphNode*>> out;
  for (const auto& n : g.nodes)
    for (const GraphNode* d : n->deps) out.push_back({d, n.get()});
  return out;
}

std::vector<const GraphNode*> Runtime::dependents(const Graph& g, const GraphNode* n) const {
  std::vector<const GraphNode*> out;
  for (const auto& m : g.nodes)
    if (has_edge(*m, n)) out.push_back(m.get());
  return out;
}

GraphNode& Runtime::exec_copy(const void* handle, const void* node, const char* call) {
  GraphExec& e = exec(handle, call);
  auto it = e.position.find(static_cast<const GraphNode*>(node));
  if (it == e.position.end())
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: {} is not a node of the graph this executable graph was made from", call, node));
  return e.order[it->second];
}

GraphNode& Runtime::exec_node(const void* handle, const void* node, GraphNode::Kind kind, const char* call) {
  GraphNode& n = exec_copy(handle, node, call);
  if (n.kind != kind)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: {} is {} node, not {} node", call, node, kind_name(n.kind), kind_name(kind)));
  return n;
}

void Runtime::exec_set_node_params(const void* handle, const void* node, GraphNode fresh, const char* call) {
  GraphNode& n = exec_node(handle, node, fresh.kind, call);
  fresh.deps = std::move(n.deps);
  fresh.enabled = n.enabled;
  fresh.attributes = std::move(n.attributes);
  n = std::move(fresh);
}

GraphNode& Runtime::switchable_exec_node(const void* handle, const void* node, const char* call) {
  GraphNode& n = exec_copy(handle, node, call);
  using K = GraphNode::Kind;
  if (n.kind != K::Kernel && n.kind != K::Memcpy && n.kind != K::Memset)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: {} is {} node; only kernel, memcpy and memset nodes can be disabled", call, node,
                               kind_name(n.kind)));
  return n;
}

namespace {

const char* copy_kind_name(cuda::MemcpyKind k) {
  switch (k) {
    case cuda::HostToHost: return "host to host";
    case cuda::HostToDevice: return "host to device";
    case cuda::DeviceToHost: return "device to host";
    case cuda::DeviceToDevice: return "device to device";
    default: return "default";
  }
}

}  // namespace

std::string Runtime::graph_dot(const void* handle, const char* call) {
  std::string out = fmt::format("digraph \"cudaGraph {}\" {{\n  node [shape=box];\n", handle);
  int clusters = 0;
  // Writes graph `g`'s nodes (ids prefix_i) and edges; nested graphs become clusters.
  std::function<void(const Graph&, const std::string&, const std::string&)> emit =
      [&](const Graph& g, const std::string& prefix, const std::string& indent) {
        for (size_t i = 0; i < g.nodes.size(); ++i) {
          const GraphNode& n = *g.nodes[i];
          const std::string id = fmt::format("{}_{}", prefix, i);
          std::string label;
          switch (n.kind) {
            case GraphNode::Kind::Empty: label = "empty"; break;
            case GraphNode::Kind::Kernel:
              label = fmt::format("kernel {}\\ngrid ({},{},{}) block ({},{},{}) shared {}", kernel_for(n.fn, call).name,
                                  n.grid.x, n.grid.y, n.grid.z, n.block.x, n.block.y, n.block.z, n.shared);
              break;
            case GraphNode::Kind::Memcpy:
              label = n.linear ? fmt::format("memcpy {} bytes, {}", n.bytes, copy_kind_name(n.copy_kind))
                               : fmt::format("memcpy 3D {} x {} x {}, {}", n.copy.extent.width, n.copy.extent.height,
                                             n.copy.extent.depth, copy_kind_name(n.copy.kind));
              break;
            case GraphNode::Kind::Memset:
              label = fmt::format("memset {} x {} elements of {} bytes to {:#x}", n.set.width, n.set.height,
                                  n.set.elementSize, n.set.value);
              break;
            case GraphNode::Kind::Host: label = "host function"; break;
            case GraphNode::Kind::MemAlloc:
              label = fmt::format("allocation of {} bytes at {}", n.allocation ? n.allocation->bytes : 0, n.dst);
              break;
            case GraphNode::Kind::MemFree: label = fmt::format("free {}", n.dst); break;
            case GraphNode::Kind::EventRecord: label = fmt::format("event record {}", n.event); break;
            case GraphNode::Kind::EventWait: label = fmt::format("event wait {}", n.event); break;
            case GraphNode::Kind::Child: label = "child graph"; break;
            case GraphNode::Kind::Conditional:
              label = fmt::format("conditional {} on {:#x}",
                                  n.cond_type == cuda::GraphCondTypeIf      ? "IF"
                                  : n.cond_type == cuda::GraphCondTypeWhile ? "WHILE"
                                                                            : "SWITCH",
                                  n.condition);
              break;
          }
          out += fmt::format("{}{} [label=\"{}\"];\n", indent, id, label);
          std::vector<const void*> nested;
          if (n.kind == GraphNode::Kind::Child) nested.push_back(n.child);
          if (n.kind == GraphNode::Kind::Conditional)
            for (void* b : *n.bodies) nested.push_back(b);
          for (size_t b = 0; b < nested.size(); ++b) {
            const std::string sub = fmt::format("{}_{}", id, b);
            out += fmt::format("{}subgraph cluster_{} {{\n{}  label=\"{} of {}\";\n", indent, ++clusters, indent,
                               n.kind == GraphNode::Kind::Child ? "graph" : fmt::format("body {}", b), id);
            const Graph& inner = graph(nested[b], call);
            emit(inner, sub, indent + "  ");
            out += indent + "}\n";
            if (!inner.nodes.empty()) out += fmt::format("{}{} -> {}_0 [style=dashed];\n", indent, id, sub);
          }
        }
        for (size_t i = 0; i < g.nodes.size(); ++i)
          for (const GraphNode* d : g.nodes[i]->deps)
            out += fmt::format("{}{}_{} -> {}_{};\n", indent, prefix, g.index_of(d), prefix, i);
      };
  emit(graph(handle, call), "n", "  ");
  return out + "}\n";
}

GraphNode* Runtime::find_in_clone(const void* original, const void* clone) {
  const char* call = "cudaGraphNodeFindInClone";
  Graph& c = graph(clone, call);
  auto it = c.clone_of.find(static_cast<const GraphNode*>(original));
  if (it == c.clone_of.end())
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: graph {} is not a clone of the graph of node {}", call, clone, original));
  return it->second;
}

namespace {
void check_child(const Graph& c, const char* call) {
  for (const auto& n : c.nodes) {
    using K = GraphNode::Kind;
    if (n->kind == K::MemAlloc || n->kind == K::MemFree || n->kind == K::Conditional)
      throw ApiError(cuda::ErrorNotSupported,
                     fmt::format("{}: the child graph holds {} node, which warpsim does not support in a child graph",
                                 call, kind_name(n->kind)));
  }
}
}  // namespace

GraphNode Runtime::child_node(const void* child, const char* call) {
  check_child(graph(child, call), call);
  GraphNode n;
  n.kind = GraphNode::Kind::Child;
  n.child = clone_graph(child);  // later changes to `child` do not reach the node
  return n;
}

GraphNode Runtime::child_node_moved(void* child, const void* parent, const char* call) {
  const Graph& c = graph(child, call);
  check_child(c, call);
  // A graph moved into itself, or into a graph it holds, would run itself forever.
  std::function<bool(const Graph&)> holds_parent = [&](const Graph& g) {
    if (&g == parent) return true;
    for (const auto& n : g.nodes)
      if (n->kind == GraphNode::Kind::Child && holds_parent(graph(n->child, call))) return true;
    return false;
  };
  if (holds_parent(c))
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: graph {} would become a child of itself (it is or holds graph {})", call, child,
                               parent));
  if (capture_origin_.count(&c))
    throw ApiError(cuda::ErrorIllegalState, fmt::format("{}: the child graph is being captured", call));
  GraphNode n;
  n.kind = GraphNode::Kind::Child;
  n.child = child;  // the node's graph from now on
  return n;
}

GraphNode Runtime::params_node(cuda::GraphNodeParams* p, const char* call) {
  if (!p) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: nodeParams is NULL", call));
  switch (p->type) {
    case cuda::GraphNodeTypeKernel: return kernel_node(&p->kernel, call);
    case cuda::GraphNodeTypeMemcpy: return memcpy_node(&p->memcpy.copyParams, call);
    case cuda::GraphNodeTypeMemset: return memset_node(&p->memset, call);
    case cuda::GraphNodeTypeHost: return host_node(p->host.fn, p->host.userData, call);
    case cuda::GraphNodeTypeEventRecord: return event_node(GraphNode::Kind::EventRecord, p->eventRecord.event, call);
    case cuda::GraphNodeTypeWaitEvent: return event_node(GraphNode::Kind::EventWait, p->eventWait.event, call);
    default:
      throw ApiError(cuda::ErrorNotSupported,
                     fmt::format("{}: {} nodes (type {}) are not supported here by warpsim", call,
                                 node_type_name(p->type), p->type));
  }
}

GraphNode Runtime::event_node(GraphNode::Kind kind, void* event, const char* call) const {
  check_event(event, call);
  GraphNode n;
  n.kind = kind;
  n.event = event;
  return n;
}

void Runtime::exec_set_child_graph(const void* handle, const void* node, const void* child) {
  const char* call = "cudaGraphExecChildGraphNodeSetParams";
  GraphNode& n = exec_node(handle, node, GraphNode::Kind::Child, call);
  const Graph& c = graph(child, call);
  const void* error_node = nullptr;
  if (update_check(*n.body_execs.at(0), c, &error_node) != cuda::GraphExecUpdateSuccess)
    throw ApiError(cuda::ErrorGraphExecUpdateFailure,
                   fmt::format("{}: graph {} differs from the node's child graph in its nodes or dependencies{}", call,
                               child, error_node ? fmt::format(" (from node {})", error_node) : std::string()));
  n.body_execs = {build_exec(c, false)};
}

}  // namespace warpsim::runtime
