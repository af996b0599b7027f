// CUDA graphs: building them node by node or by stream capture, instantiating, updating and
// launching them (runtime_graphs.cpp). A launch runs the nodes in order; host nodes are
// called here, outside the runtime's lock, since they may call the runtime themselves.
#include "sim/runtime/driver/process_context.hpp"

using namespace warpsim::runtime;
using warpsim::runtime::api::call;
namespace cuda = warpsim::cuda;

namespace {

int add(const char* name, void** node, void* graph, void* const* deps, size_t ndeps,
        const std::function<GraphNode(Runtime&)>& make) {
  return call(name, [&](Runtime& rt) {
    if (!node) throw ApiError(cuda::ErrorInvalidValue, std::string(name) + ": pGraphNode is NULL");
    *node = rt.add_node(graph, make(rt), deps, ndeps, name);
  });
}

// Runs an executable graph's nodes in order, a child graph's nodes in place of its node.
int run_nodes(const std::vector<GraphNode>& nodes, void* stream) {
  for (const GraphNode& n : nodes) {
    if (!n.enabled) continue;  // cudaGraphNodeSetEnabled(.., 0): as an empty node
    int rc = 0;
    if (n.kind == GraphNode::Kind::Host) {
      if (n.host.fn) n.host.fn(n.host.userData);
    } else if (n.kind == GraphNode::Kind::Child) {
      rc = run_nodes(n.body_execs.at(0)->order, stream);
    } else {
      rc = call("cudaGraphLaunch", [&](Runtime& rt) { rt.run_node(n, stream); });
    }
    if (rc != 0) return rc;
  }
  return 0;
}

int launch_graph(void* exec, void* stream) {
  std::vector<GraphNode> nodes;
  int rc = call("cudaGraphLaunch", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaGraphLaunch");
    if (rt.capturing(stream)) {  // as CUDA 13 on an H200 (capture_graph_launch.cu)
      rt.invalidate_capture(stream);
      throw ApiError(cuda::ErrorStreamCaptureUnsupported,
                     "cudaGraphLaunch: a graph launch cannot be captured (cudaErrorStreamCaptureUnsupported, as on the "
                     "GPU); the stream's capture is invalidated");
    }
    const GraphExec& e = rt.exec(exec, "cudaGraphLaunch");
    rt.check_graph_allocations(e);
    rt.reset_conditions(e);
    nodes = e.order;
  });
  return rc != 0 ? rc : run_nodes(nodes, stream);
}

}  // namespace

WARPSIM_API int cudaGraphCreate(void** graph, unsigned flags) {
  return call("cudaGraphCreate", [&](Runtime& rt) {
    if (!graph || flags != 0) throw ApiError(cuda::ErrorInvalidValue, "cudaGraphCreate: pGraph is NULL or flags not 0");
    *graph = rt.create_graph();
  });
}

WARPSIM_API int cudaGraphDestroy(void* graph) {
  return api::run_due_destructors(
      call("cudaGraphDestroy", [&](Runtime& rt) { rt.destroy_graph(graph); }, api::Sticky::Ignore));
}

WARPSIM_API int cudaGraphAddKernelNode(void** node, void* graph, void* const* deps, size_t ndeps,
                                       const cuda::KernelNodeParams* p) {
  return add("cudaGraphAddKernelNode", node, graph, deps, ndeps,
             [&](Runtime& rt) { return rt.kernel_node(p, "cudaGraphAddKernelNode"); });
}

WARPSIM_API int cudaGraphAddMemcpyNode(void** node, void* graph, void* const* deps, size_t ndeps,
                                       const cuda::Memcpy3DParms* p) {
  return add("cudaGraphAddMemcpyNode", node, graph, deps, ndeps,
             [&](Runtime& rt) { return rt.memcpy_node(p, "cudaGraphAddMemcpyNode"); });
}

WARPSIM_API int cudaGraphAddMemcpyNode1D(void** node, void* graph, void* const* deps, size_t ndeps, void* dst,
                                         const void* src, size_t bytes, int kind) {
  return add("cudaGraphAddMemcpyNode1D", node, graph, deps, ndeps, [&](Runtime& rt) {
    return rt.linear_copy_node(dst, src, bytes, static_cast<cuda::MemcpyKind>(kind));
  });
}

WARPSIM_API int cudaGraphAddMemsetNode(void** node, void* graph, void* const* deps, size_t ndeps,
                                       const cuda::MemsetParams* p) {
  return add("cudaGraphAddMemsetNode", node, graph, deps, ndeps,
             [&](Runtime& rt) { return rt.memset_node(p, "cudaGraphAddMemsetNode"); });
}

WARPSIM_API int cudaGraphAddHostNode(void** node, void* graph, void* const* deps, size_t ndeps,
                                     const cuda::HostNodeParams* p) {
  return add("cudaGraphAddHostNode", node, graph, deps, ndeps, [&](Runtime& rt) {
    return rt.host_node(p ? p->fn : nullptr, p ? p->userData : nullptr, "cudaGraphAddHostNode");
  });
}

WARPSIM_API int cudaGraphAddEmptyNode(void** node, void* graph, void* const* deps, size_t ndeps) {
  return add("cudaGraphAddEmptyNode", node, graph, deps, ndeps, [](Runtime&) { return GraphNode{}; });
}

WARPSIM_API int cudaGraphAddMemcpyNodeToSymbol(void** node, void* graph, void* const* deps, size_t ndeps,
                                               const void* symbol, const void* src, size_t bytes, size_t offset,
                                               int kind) {
  return add("cudaGraphAddMemcpyNodeToSymbol", node, graph, deps, ndeps, [&](Runtime& rt) {
    return rt.symbol_copy_node(true, const_cast<void*>(src), symbol, bytes, offset,
                               static_cast<cuda::MemcpyKind>(kind), "cudaGraphAddMemcpyNodeToSymbol");
  });
}

WARPSIM_API int cudaGraphAddMemcpyNodeFromSymbol(void** node, void* graph, void* const* deps, size_t ndeps, void* dst,
                                                 const void* symbol, size_t bytes, size_t offset, int kind) {
  return add("cudaGraphAddMemcpyNodeFromSymbol", node, graph, deps, ndeps, [&](Runtime& rt) {
    return rt.symbol_copy_node(false, dst, symbol, bytes, offset, static_cast<cuda::MemcpyKind>(kind),
                               "cudaGraphAddMemcpyNodeFromSymbol");
  });
}

WARPSIM_API int cudaGraphAddChildGraphNode(void** node, void* graph, void* const* deps, size_t ndeps, void* child) {
  return add("cudaGraphAddChildGraphNode", node, graph, deps, ndeps,
             [&](Runtime& rt) { return rt.child_node(child, "cudaGraphAddChildGraphNode"); });
}

WARPSIM_API int cudaGraphAddEventRecordNode(void** node, void* graph, void* const* deps, size_t ndeps, void* event) {
  return add("cudaGraphAddEventRecordNode", node, graph, deps, ndeps, [&](Runtime& rt) {
    return rt.event_node(GraphNode::Kind::EventRecord, event, "cudaGraphAddEventRecordNode");
  });
}

WARPSIM_API int cudaGraphAddEventWaitNode(void** node, void* graph, void* const* deps, size_t ndeps, void* event) {
  return add("cudaGraphAddEventWaitNode", node, graph, deps, ndeps, [&](Runtime& rt) {
    return rt.event_node(GraphNode::Kind::EventWait, event, "cudaGraphAddEventWaitNode");
  });
}

WARPSIM_API int cudaGraphClone(void** clone, void* graph) {
  return call("cudaGraphClone", [&](Runtime& rt) {
    if (!clone) throw ApiError(cuda::ErrorInvalidValue, "cudaGraphClone: pGraphClone is NULL");
    *clone = rt.clone_graph(graph);
  });
}

WARPSIM_API int cudaGraphGetNodes(void* graph, void** nodes, size_t* count) {
  return call("cudaGraphGetNodes", [&](Runtime& rt) {
    if (!count) throw ApiError(cuda::ErrorInvalidValue, "cudaGraphGetNodes: numNodes is NULL");
    const Graph& g = rt.graph(graph, "cudaGraphGetNodes");
    if (!nodes) {
      *count = g.nodes.size();
      return;
    }
    for (size_t i = 0; i < *count; ++i) nodes[i] = i < g.nodes.size() ? g.nodes[i].get() : nullptr;
    *count = std::min(*count, g.nodes.size());
  });
}

WARPSIM_API int cudaGraphInstantiate(void** exec, void* graph, unsigned long long flags) {
  return call("cudaGraphInstantiate", [&](Runtime& rt) {
    if (!exec) throw ApiError(cuda::ErrorInvalidValue, "cudaGraphInstantiate: pGraphExec is NULL");
    *exec = rt.instantiate(graph, flags);
  });
}

WARPSIM_API int cudaGraphInstantiateWithFlags(void** exec, void* graph, unsigned long long flags) {
  return cudaGraphInstantiate(exec, graph, flags);
}

WARPSIM_API int cudaGraphExecDestroy(void* exec) {
  return api::run_due_destructors(
      call("cudaGraphExecDestroy", [&](Runtime& rt) { rt.destroy_exec(exec); }, api::Sticky::Ignore));
}

WARPSIM_API int cudaGraphExecKernelNodeSetParams(void* exec, void* node, const cuda::KernelNodeParams* p) {
  return call("cudaGraphExecKernelNodeSetParams", [&](Runtime& rt) { rt.exec_set_kernel_params(exec, node, p); });
}

WARPSIM_API int cudaGraphExecUpdate(void* exec, void* graph, cuda::GraphExecUpdateResultInfo* info) {
  return call("cudaGraphExecUpdate", [&](Runtime& rt) {
    const void* error_node = nullptr;
    const cuda::GraphExecUpdateResult r = rt.exec_update(exec, graph, &error_node);
    if (info) *info = {r, const_cast<void*>(error_node), nullptr};
    if (r != cuda::GraphExecUpdateSuccess)
      throw ApiError(cuda::ErrorGraphExecUpdateFailure,
                     "cudaGraphExecUpdate: the graph's nodes or dependencies differ from the executable graph's");
  });
}

WARPSIM_API int cudaGraphLaunch(void* exec, void* stream) { return launch_graph(exec, stream); }
WARPSIM_API int cudaGraphLaunch_ptsz(void* exec, void* stream) { return launch_graph(exec, stream); }

WARPSIM_API int cudaStreamBeginCapture(void* stream, int mode) {
  return call("cudaStreamBeginCapture", [&](Runtime& rt) { rt.begin_capture(stream, mode); });
}
WARPSIM_API int cudaStreamBeginCapture_ptsz(void* stream, int mode) { return cudaStreamBeginCapture(stream, mode); }

WARPSIM_API int cudaThreadExchangeStreamCaptureMode(int* mode) {
  return call("cudaThreadExchangeStreamCaptureMode", [&](Runtime& rt) {
    if (!mode) throw ApiError(cuda::ErrorInvalidValue, "cudaThreadExchangeStreamCaptureMode: mode is NULL");
    *mode = rt.exchange_capture_mode(*mode);
  });
}

WARPSIM_API int cudaStreamEndCapture(void* stream, void** graph) {
  return api::run_due_destructors(call("cudaStreamEndCapture", [&](Runtime& rt) {
    if (graph) *graph = nullptr;  // also when the capture was invalidated (its graph's user objects released)
    Graph* g = rt.end_capture(stream);
    if (graph) *graph = g;
  }));
}
WARPSIM_API int cudaStreamEndCapture_ptsz(void* stream, void** graph) { return cudaStreamEndCapture(stream, graph); }

WARPSIM_API int cudaStreamIsCapturing(void* stream, int* status) {
  return call("cudaStreamIsCapturing", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaStreamIsCapturing");
    if (!status) throw ApiError(cuda::ErrorInvalidValue, "cudaStreamIsCapturing: pCaptureStatus is NULL");
    *status = !rt.capturing(stream)           ? cuda::StreamCaptureStatusNone
              : rt.capture_invalidated(stream) ? cuda::StreamCaptureStatusInvalidated
                                               : cuda::StreamCaptureStatusActive;
  });
}
WARPSIM_API int cudaStreamIsCapturing_ptsz(void* stream, int* status) { return cudaStreamIsCapturing(stream, status); }
