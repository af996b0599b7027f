// CUDA graphs inspected and edited after they are built (runtime_graph_edit.cpp): node types,
// roots, edges and dependencies; edges added and removed; nodes destroyed; each kind's
// parameters read and replaced, in the graph and in an executable graph; nodes switched off
// and on; a clone's nodes; instantiation with parameters, its flags, and upload.
#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "sim/runtime/driver/driver_context.hpp"

using namespace warpsim::runtime;
using warpsim::runtime::api::call;
using warpsim::runtime::driver::require;
namespace cuda = warpsim::cuda;

namespace {

using Kind = GraphNode::Kind;

int node_type(Kind k) {
  switch (k) {
    case Kind::Kernel: return cuda::GraphNodeTypeKernel;
    case Kind::Memcpy: return cuda::GraphNodeTypeMemcpy;
    case Kind::Memset: return cuda::GraphNodeTypeMemset;
    case Kind::Host: return cuda::GraphNodeTypeHost;
    case Kind::Empty: return cuda::GraphNodeTypeEmpty;
    case Kind::MemAlloc: return cuda::GraphNodeTypeMemAlloc;
    case Kind::MemFree: return cuda::GraphNodeTypeMemFree;
    case Kind::Conditional: return cuda::GraphNodeTypeConditional;
    case Kind::Child: return cuda::GraphNodeTypeGraph;
    case Kind::EventRecord: return cuda::GraphNodeTypeEventRecord;
    case Kind::EventWait: return cuda::GraphNodeTypeWaitEvent;
  }
  return cuda::GraphNodeTypeEmpty;
}

// The list calls' convention (cudaGraphGetNodes): without an array, the count; with one of
// *count entries, the first *count nodes, NULL past the end, and *count the number written.
template <class Fill>
void list(size_t* count, size_t n, bool query, const char* call, Fill fill) {
  if (!count) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: the count pointer is NULL", call));
  if (query) {
    *count = n;
    return;
  }
  for (size_t i = 0; i < *count; ++i) fill(i, i < n);
  *count = std::min(*count, n);
}

void no_edge_data(cuda::GraphEdgeData* data, size_t i) {
  if (data) data[i] = cuda::GraphEdgeData{};
}

// A node's dependencies or dependents, as cudaGraphNodeGetDependencies(/DependentNodes) give them.
int node_list(const char* name, void* node, void** out, cuda::GraphEdgeData* data, size_t* count, bool dependents) {
  return call(name, [&](Runtime& rt) {
    Runtime::NodeRef r = rt.find_node(node, name);
    const std::vector<const GraphNode*> v = dependents ? rt.dependents(*r.graph, r.node) : r.node->deps;
    list(count, v.size(), !out, name, [&](size_t i, bool some) {
      out[i] = some ? const_cast<GraphNode*>(v[i]) : nullptr;
      no_edge_data(data, i);
    });
  });
}

cuda::Memcpy3DParms copy_params(const GraphNode& n) {
  if (!n.linear) return n.copy;
  // A 1D copy reads back as an H200 gives it: the pointers, no pitch, a one-row extent.
  cuda::Memcpy3DParms p{};
  p.srcPtr.ptr = const_cast<void*>(n.src);
  p.dstPtr.ptr = n.dst;
  p.extent = {n.bytes, 1, 1};
  p.kind = n.copy_kind;
  return p;
}

int instantiate_with_params(void** exec, void* graph, cuda::GraphInstantiateParams* p) {
  const char* name = "cudaGraphInstantiateWithParams";
  return call(name, [&](Runtime& rt) {
    require(exec, name, "pGraphExec");
    require(p, name, "instantiateParams");
    p->errNode_out = nullptr;
    if (p->flags & cuda::GraphInstantiateFlagUpload) rt.check_stream(p->uploadStream, name);
    try {
      *exec = rt.instantiate(graph, p->flags);
      p->result_out = cuda::GraphInstantiateSuccess;
    } catch (const GraphCycleError&) {
      p->result_out = cuda::GraphInstantiateInvalidStructure;
      throw;
    } catch (const ApiError&) {
      p->result_out = cuda::GraphInstantiateError;
      throw;
    }
  });
}

int upload(void* exec, void* stream) {
  // Uploading prepares the GPU's copy of the graph: nothing the simulated device needs.
  return call("cudaGraphUpload", [&](Runtime& rt) {
    rt.exec(exec, "cudaGraphUpload");
    rt.check_stream(stream, "cudaGraphUpload");
  });
}

}  // namespace

WARPSIM_API int cudaGraphNodeGetType(void* node, int* type) {
  return call("cudaGraphNodeGetType", [&](Runtime& rt) {
    require(type, "cudaGraphNodeGetType", "pType");
    *type = node_type(rt.find_node(node, "cudaGraphNodeGetType").node->kind);
  });
}

WARPSIM_API int cudaGraphGetRootNodes(void* graph, void** roots, size_t* count) {
  return call("cudaGraphGetRootNodes", [&](Runtime& rt) {
    const Graph& g = rt.graph(graph, "cudaGraphGetRootNodes");
    std::vector<GraphNode*> v;
    for (const auto& n : g.nodes)
      if (n->deps.empty()) v.push_back(n.get());
    list(count, v.size(), !roots, "cudaGraphGetRootNodes",
         [&](size_t i, bool some) { roots[i] = some ? v[i] : nullptr; });
  });
}

WARPSIM_API int WARPSIM_ABI_NAME(cudaGraphGetEdges, cudaGraphGetEdges_v2)(void* graph, void** from, void** to,
                                                                          cuda::GraphEdgeData* data, size_t* count) {
  return call("cudaGraphGetEdges", [&](Runtime& rt) {
    const auto edges = rt.graph_edges(graph, "cudaGraphGetEdges");
    if (!from != !to) throw ApiError(cuda::ErrorInvalidValue, "cudaGraphGetEdges: one of from and to is NULL");
    list(count, edges.size(), !from, "cudaGraphGetEdges", [&](size_t i, bool some) {
      from[i] = some ? const_cast<GraphNode*>(edges[i].first) : nullptr;
      to[i] = some ? const_cast<GraphNode*>(edges[i].second) : nullptr;
      no_edge_data(data, i);
    });
  });
}

WARPSIM_API int WARPSIM_ABI_NAME(cudaGraphNodeGetDependencies, cudaGraphNodeGetDependencies_v2)(
    void* node, void** deps, cuda::GraphEdgeData* data, size_t* count) {
  return node_list("cudaGraphNodeGetDependencies", node, deps, data, count, false);
}

WARPSIM_API int WARPSIM_ABI_NAME(cudaGraphNodeGetDependentNodes, cudaGraphNodeGetDependentNodes_v2)(
    void* node, void** out, cuda::GraphEdgeData* data, size_t* count) {
  return node_list("cudaGraphNodeGetDependentNodes", node, out, data, count, true);
}

WARPSIM_API int WARPSIM_ABI_NAME(cudaGraphAddDependencies, cudaGraphAddDependencies_v2)(
    void* graph, void* const* from, void* const* to, const cuda::GraphEdgeData* data, size_t n) {
  return call("cudaGraphAddDependencies",
              [&](Runtime& rt) { rt.add_dependencies(graph, from, to, data, n, "cudaGraphAddDependencies"); });
}

WARPSIM_API int WARPSIM_ABI_NAME(cudaGraphRemoveDependencies, cudaGraphRemoveDependencies_v2)(
    void* graph, void* const* from, void* const* to, const cuda::GraphEdgeData* data, size_t n) {
  return call("cudaGraphRemoveDependencies",
              [&](Runtime& rt) { rt.remove_dependencies(graph, from, to, data, n, "cudaGraphRemoveDependencies"); });
}

WARPSIM_API int cudaGraphDestroyNode(void* node) {
  return call("cudaGraphDestroyNode", [&](Runtime& rt) { rt.destroy_node(node); });
}

// --- A node's parameters, in the graph ---

WARPSIM_API int cudaGraphKernelNodeGetParams(void* node, cuda::KernelNodeParams* p) {
  const char* name = "cudaGraphKernelNodeGetParams";
  return call(name, [&](Runtime& rt) {
    require(p, name, "pNodeParams");
    const GraphNode& n = rt.node_of_kind(node, Kind::Kernel, name);
    n.arg_view.clear();
    for (const auto& a : n.args) n.arg_view.push_back(const_cast<uint8_t*>(a.data()));
    *p = {};
    p->func = const_cast<void*>(n.fn);
    p->gridDim = n.grid;
    p->blockDim = n.block;
    p->sharedMemBytes = unsigned(n.shared);
    p->kernelParams = n.arg_view.data();
  });
}

WARPSIM_API int cudaGraphKernelNodeSetParams(void* node, const cuda::KernelNodeParams* p) {
  const char* name = "cudaGraphKernelNodeSetParams";
  return call(name, [&](Runtime& rt) { rt.set_node_params(node, rt.kernel_node(p, name), name); });
}

WARPSIM_API int cudaGraphMemcpyNodeGetParams(void* node, cuda::Memcpy3DParms* p) {
  const char* name = "cudaGraphMemcpyNodeGetParams";
  return call(name, [&](Runtime& rt) {
    require(p, name, "pNodeParams");
    *p = copy_params(rt.node_of_kind(node, Kind::Memcpy, name));
  });
}

WARPSIM_API int cudaGraphMemcpyNodeSetParams(void* node, const cuda::Memcpy3DParms* p) {
  const char* name = "cudaGraphMemcpyNodeSetParams";
  return call(name, [&](Runtime& rt) { rt.set_node_params(node, rt.memcpy_node(p, name), name); });
}

WARPSIM_API int cudaGraphMemcpyNodeSetParams1D(void* node, void* dst, const void* src, size_t bytes, int kind) {
  const char* name = "cudaGraphMemcpyNodeSetParams1D";
  return call(name, [&](Runtime& rt) {
    rt.set_node_params(node, rt.linear_copy_node(dst, src, bytes, static_cast<cuda::MemcpyKind>(kind)), name);
  });
}

WARPSIM_API int cudaGraphMemcpyNodeSetParamsToSymbol(void* node, const void* symbol, const void* src, size_t bytes,
                                                     size_t offset, int kind) {
  const char* name = "cudaGraphMemcpyNodeSetParamsToSymbol";
  return call(name, [&](Runtime& rt) {
    rt.node_of_kind(node, Kind::Memcpy, name);  // the node is checked before the variable, as on the GPU
    rt.set_node_params(node,
                       rt.symbol_copy_node(true, const_cast<void*>(src), symbol, bytes, offset,
                                           static_cast<cuda::MemcpyKind>(kind), name),
                       name);
  });
}

WARPSIM_API int cudaGraphMemcpyNodeSetParamsFromSymbol(void* node, void* dst, const void* symbol, size_t bytes,
                                                       size_t offset, int kind) {
  const char* name = "cudaGraphMemcpyNodeSetParamsFromSymbol";
  return call(name, [&](Runtime& rt) {
    rt.node_of_kind(node, Kind::Memcpy, name);
    rt.set_node_params(
        node, rt.symbol_copy_node(false, dst, symbol, bytes, offset, static_cast<cuda::MemcpyKind>(kind), name), name);
  });
}

WARPSIM_API int cudaGraphMemsetNodeGetParams(void* node, cuda::MemsetParams* p) {
  const char* name = "cudaGraphMemsetNodeGetParams";
  return call(name, [&](Runtime& rt) {
    require(p, name, "pNodeParams");
    *p = rt.node_of_kind(node, Kind::Memset, name).set;
  });
}

WARPSIM_API int cudaGraphMemsetNodeSetParams(void* node, const cuda::MemsetParams* p) {
  const char* name = "cudaGraphMemsetNodeSetParams";
  return call(name, [&](Runtime& rt) { rt.set_node_params(node, rt.memset_node(p, name), name); });
}

WARPSIM_API int cudaGraphHostNodeGetParams(void* node, cuda::HostNodeParams* p) {
  const char* name = "cudaGraphHostNodeGetParams";
  return call(name, [&](Runtime& rt) {
    require(p, name, "pNodeParams");
    *p = rt.node_of_kind(node, Kind::Host, name).host;
  });
}

WARPSIM_API int cudaGraphHostNodeSetParams(void* node, const cuda::HostNodeParams* p) {
  const char* name = "cudaGraphHostNodeSetParams";
  return call(name, [&](Runtime& rt) {
    rt.set_node_params(node, rt.host_node(p ? p->fn : nullptr, p ? p->userData : nullptr, name), name);
  });
}

WARPSIM_API int cudaGraphChildGraphNodeGetGraph(void* node, void** graph) {
  const char* name = "cudaGraphChildGraphNodeGetGraph";
  return call(name, [&](Runtime& rt) {
    require(graph, name, "pGraph");
    *graph = rt.node_of_kind(node, Kind::Child, name).child;  // the node's own graph, not a copy
  });
}

namespace {
int get_event(const char* name, Kind kind, void* node, void** event) {
  return call(name, [&](Runtime& rt) {
    require(event, name, "event_out");
    *event = rt.node_of_kind(node, kind, name).event;
  });
}
int set_event(const char* name, Kind kind, void* node, void* event) {
  return call(name, [&](Runtime& rt) { rt.set_node_params(node, rt.event_node(kind, event, name), name); });
}
int exec_set_event(const char* name, Kind kind, void* exec, void* node, void* event) {
  return call(name, [&](Runtime& rt) { rt.exec_set_node_params(exec, node, rt.event_node(kind, event, name), name); });
}
}  // namespace

WARPSIM_API int cudaGraphEventRecordNodeGetEvent(void* node, void** event) {
  return get_event("cudaGraphEventRecordNodeGetEvent", Kind::EventRecord, node, event);
}
WARPSIM_API int cudaGraphEventRecordNodeSetEvent(void* node, void* event) {
  return set_event("cudaGraphEventRecordNodeSetEvent", Kind::EventRecord, node, event);
}
WARPSIM_API int cudaGraphEventWaitNodeGetEvent(void* node, void** event) {
  return get_event("cudaGraphEventWaitNodeGetEvent", Kind::EventWait, node, event);
}
WARPSIM_API int cudaGraphEventWaitNodeSetEvent(void* node, void* event) {
  return set_event("cudaGraphEventWaitNodeSetEvent", Kind::EventWait, node, event);
}

WARPSIM_API int cudaGraphNodeSetParams(void* node, cuda::GraphNodeParams* p) {
  const char* name = "cudaGraphNodeSetParams";
  return call(name, [&](Runtime& rt) { rt.set_node_params(node, rt.params_node(p, name), name); });
}

// --- A node's parameters, in an executable graph only ---

WARPSIM_API int cudaGraphExecNodeSetParams(void* exec, void* node, cuda::GraphNodeParams* p) {
  const char* name = "cudaGraphExecNodeSetParams";
  return call(name, [&](Runtime& rt) {
    GraphNode fresh = rt.params_node(p, name);
    if (fresh.kind == Kind::Kernel && fresh.fn != rt.exec_node(exec, node, Kind::Kernel, name).fn)
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: the kernel function cannot change", name));
    rt.exec_set_node_params(exec, node, std::move(fresh), name);
  });
}

WARPSIM_API int cudaGraphExecChildGraphNodeSetParams(void* exec, void* node, void* child) {
  return call("cudaGraphExecChildGraphNodeSetParams",
              [&](Runtime& rt) { rt.exec_set_child_graph(exec, node, child); });
}
WARPSIM_API int cudaGraphExecEventRecordNodeSetEvent(void* exec, void* node, void* event) {
  return exec_set_event("cudaGraphExecEventRecordNodeSetEvent", Kind::EventRecord, exec, node, event);
}
WARPSIM_API int cudaGraphExecEventWaitNodeSetEvent(void* exec, void* node, void* event) {
  return exec_set_event("cudaGraphExecEventWaitNodeSetEvent", Kind::EventWait, exec, node, event);
}

WARPSIM_API int cudaGraphExecMemcpyNodeSetParams(void* exec, void* node, const cuda::Memcpy3DParms* p) {
  const char* name = "cudaGraphExecMemcpyNodeSetParams";
  return call(name, [&](Runtime& rt) { rt.exec_set_node_params(exec, node, rt.memcpy_node(p, name), name); });
}

WARPSIM_API int cudaGraphExecMemcpyNodeSetParams1D(void* exec, void* node, void* dst, const void* src, size_t bytes,
                                                   int kind) {
  const char* name = "cudaGraphExecMemcpyNodeSetParams1D";
  return call(name, [&](Runtime& rt) {
    rt.exec_set_node_params(exec, node, rt.linear_copy_node(dst, src, bytes, static_cast<cuda::MemcpyKind>(kind)),
                            name);
  });
}

WARPSIM_API int cudaGraphExecMemcpyNodeSetParamsToSymbol(void* exec, void* node, const void* symbol,
                                                         const void* src, size_t bytes, size_t offset, int kind) {
  const char* name = "cudaGraphExecMemcpyNodeSetParamsToSymbol";
  return call(name, [&](Runtime& rt) {
    rt.exec_node(exec, node, Kind::Memcpy, name);
    rt.exec_set_node_params(exec, node,
                            rt.symbol_copy_node(true, const_cast<void*>(src), symbol, bytes, offset,
                                                static_cast<cuda::MemcpyKind>(kind), name),
                            name);
  });
}

WARPSIM_API int cudaGraphExecMemcpyNodeSetParamsFromSymbol(void* exec, void* node, void* dst, const void* symbol,
                                                           size_t bytes, size_t offset, int kind) {
  const char* name = "cudaGraphExecMemcpyNodeSetParamsFromSymbol";
  return call(name, [&](Runtime& rt) {
    rt.exec_node(exec, node, Kind::Memcpy, name);
    rt.exec_set_node_params(
        exec, node, rt.symbol_copy_node(false, dst, symbol, bytes, offset, static_cast<cuda::MemcpyKind>(kind), name),
        name);
  });
}

WARPSIM_API int cudaGraphExecMemsetNodeSetParams(void* exec, void* node, const cuda::MemsetParams* p) {
  const char* name = "cudaGraphExecMemsetNodeSetParams";
  return call(name, [&](Runtime& rt) { rt.exec_set_node_params(exec, node, rt.memset_node(p, name), name); });
}

WARPSIM_API int cudaGraphExecHostNodeSetParams(void* exec, void* node, const cuda::HostNodeParams* p) {
  const char* name = "cudaGraphExecHostNodeSetParams";
  return call(name, [&](Runtime& rt) {
    rt.exec_set_node_params(exec, node, rt.host_node(p ? p->fn : nullptr, p ? p->userData : nullptr, name), name);
  });
}

WARPSIM_API int cudaGraphNodeSetEnabled(void* exec, void* node, unsigned enabled) {
  return call("cudaGraphNodeSetEnabled", [&](Runtime& rt) {
    rt.switchable_exec_node(exec, node, "cudaGraphNodeSetEnabled").enabled = enabled != 0;
  });
}

WARPSIM_API int cudaGraphNodeGetEnabled(void* exec, void* node, unsigned* enabled) {
  return call("cudaGraphNodeGetEnabled", [&](Runtime& rt) {
    const GraphNode& n = rt.switchable_exec_node(exec, node, "cudaGraphNodeGetEnabled");
    require(enabled, "cudaGraphNodeGetEnabled", "isEnabled");
    *enabled = n.enabled ? 1 : 0;
  });
}

// --- Clones, instantiation, upload and a picture ---

WARPSIM_API int cudaGraphDebugDotPrint(void* graph, const char* path, unsigned /*flags: one level of detail*/) {
  const char* name = "cudaGraphDebugDotPrint";
  return call(name, [&](Runtime& rt) {
    require(path, name, "path");
    const std::string dot = rt.graph_dot(graph, name);
    std::FILE* f = std::fopen(path, "w");
    if (!f) throw ApiError(cuda::ErrorOperatingSystem, fmt::format("{}: cannot write {}", name, path));
    const bool ok = std::fwrite(dot.data(), 1, dot.size(), f) == dot.size();
    if (std::fclose(f) != 0 || !ok)
      throw ApiError(cuda::ErrorOperatingSystem, fmt::format("{}: cannot write {}", name, path));
  });
}

WARPSIM_API int cudaGraphNodeFindInClone(void** out, void* original, void* clone) {
  return call("cudaGraphNodeFindInClone", [&](Runtime& rt) {
    require(out, "cudaGraphNodeFindInClone", "pNode");
    *out = rt.find_in_clone(original, clone);
  });
}

WARPSIM_API int cudaGraphInstantiateWithParams(void** exec, void* graph, cuda::GraphInstantiateParams* p) {
  return instantiate_with_params(exec, graph, p);
}
WARPSIM_API int cudaGraphInstantiateWithParams_ptsz(void** exec, void* graph, cuda::GraphInstantiateParams* p) {
  return instantiate_with_params(exec, graph, p);
}

WARPSIM_API int cudaGraphExecGetFlags(void* exec, unsigned long long* flags) {
  return call("cudaGraphExecGetFlags", [&](Runtime& rt) {
    const GraphExec& e = rt.exec(exec, "cudaGraphExecGetFlags");
    require(flags, "cudaGraphExecGetFlags", "flags");
    *flags = e.flags;
  });
}

WARPSIM_API int cudaGraphUpload(void* exec, void* stream) { return upload(exec, stream); }
WARPSIM_API int cudaGraphUpload_ptsz(void* exec, void* stream) { return upload(exec, stream); }
