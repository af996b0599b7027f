// Conditional graph nodes, cudaGraphAddNode, and capture into a graph with the program's
// own dependencies (runtime_conditionals.cpp).
#include <fmt/format.h>

#include "sim/runtime/driver/process_context.hpp"

using namespace warpsim::runtime;
using warpsim::runtime::api::call;
namespace cuda = warpsim::cuda;

namespace {

// Edges other than plain full dependencies (programmatic ports, ...) are refused.
void check_edges(const cuda::GraphEdgeData* edges, size_t n, const char* name) {
  if (!edges) return;
  for (size_t i = 0; i < n; ++i)
    if (edges[i].from_port || edges[i].to_port || edges[i].type)
      throw ApiError(cuda::ErrorNotSupported,
                     fmt::format("{}: edge {} has port {}->{} and type {}; warpsim supports default edges only", name, i,
                                 edges[i].from_port, edges[i].to_port, edges[i].type));
}

}  // namespace

WARPSIM_API int cudaGraphConditionalHandleCreate(uint64_t* handle, void* graph, unsigned default_value,
                                                 unsigned flags) {
  return call("cudaGraphConditionalHandleCreate", [&](Runtime& rt) {
    if (!handle) throw ApiError(cuda::ErrorInvalidValue, "cudaGraphConditionalHandleCreate: pHandle_out is NULL");
    *handle = rt.create_condition(graph, default_value, flags);
  });
}

WARPSIM_API int WARPSIM_ABI_NAME(cudaGraphAddNode, cudaGraphAddNode_v2)(void** node, void* graph, void* const* deps,
                                                                        const cuda::GraphEdgeData* edges, size_t ndeps,
                                                                        cuda::GraphNodeParams* params) {
  return call("cudaGraphAddNode", [&](Runtime& rt) {
    if (!node) throw ApiError(cuda::ErrorInvalidValue, "cudaGraphAddNode: pGraphNode is NULL");
    check_edges(edges, ndeps, "cudaGraphAddNode");
    // Memory nodes place their allocation in the graph as they are added (runtime_pools.cpp).
    if (params && params->type == cuda::GraphNodeTypeMemAlloc) {
      *node = rt.add_mem_alloc_node(graph, deps, ndeps, &params->alloc);
      return;
    }
    if (params && params->type == cuda::GraphNodeTypeMemFree) {
      *node = rt.add_mem_free_node(graph, deps, ndeps, params->free.dptr);
      return;
    }
    *node = rt.add_node(graph, rt.node_from_params(graph, params, "cudaGraphAddNode"), deps, ndeps, "cudaGraphAddNode");
  });
}

WARPSIM_API int cudaStreamBeginCaptureToGraph(void* stream, void* graph, void* const* deps,
                                              const cuda::GraphEdgeData* edges, size_t ndeps, int mode) {
  return call("cudaStreamBeginCaptureToGraph", [&](Runtime& rt) {
    check_edges(edges, ndeps, "cudaStreamBeginCaptureToGraph");
    rt.begin_capture_to_graph(stream, graph, deps, ndeps, mode);
  });
}
WARPSIM_API int cudaStreamBeginCaptureToGraph_ptsz(void* stream, void* graph, void* const* deps,
                                                   const cuda::GraphEdgeData* edges, size_t ndeps, int mode) {
  return cudaStreamBeginCaptureToGraph(stream, graph, deps, edges, ndeps, mode);
}

WARPSIM_API int WARPSIM_ABI_NAME(cudaStreamGetCaptureInfo,
                                 cudaStreamGetCaptureInfo_v3)(void* stream, int* status, unsigned long long* id,
                                                              void** graph, const void* const** deps,
                                                              const cuda::GraphEdgeData** edges, size_t* ndeps) {
  return call("cudaStreamGetCaptureInfo", [&](Runtime& rt) {
    if (!status) throw ApiError(cuda::ErrorInvalidValue, "cudaStreamGetCaptureInfo: captureStatus_out is NULL");
    uint64_t capture_id = 0;
    size_t n = 0;
    *status = rt.capture_info(stream, &capture_id, graph, deps, &n);
    if (id) *id = capture_id;
    if (ndeps) *ndeps = n;
    if (edges) *edges = nullptr;  // CUDA: NULL when every edge is a default one
  });
}
WARPSIM_API int WARPSIM_ABI_NAME(cudaStreamGetCaptureInfo_ptsz,
                                 cudaStreamGetCaptureInfo_v3_ptsz)(void* stream, int* status, unsigned long long* id,
                                                                   void** graph, const void* const** deps,
                                                                   const cuda::GraphEdgeData** edges, size_t* ndeps) {
  return WARPSIM_ABI_NAME(cudaStreamGetCaptureInfo, cudaStreamGetCaptureInfo_v3)(stream, status, id, graph, deps, edges,
                                                                                 ndeps);
}

WARPSIM_API int WARPSIM_ABI_NAME(cudaStreamUpdateCaptureDependencies,
                                 cudaStreamUpdateCaptureDependencies_v2)(void* stream, void* const* deps,
                                                                         const cuda::GraphEdgeData* edges, size_t ndeps,
                                                                         unsigned flags) {
  return call("cudaStreamUpdateCaptureDependencies", [&](Runtime& rt) {
    check_edges(edges, ndeps, "cudaStreamUpdateCaptureDependencies");
    rt.update_capture_dependencies(stream, deps, ndeps, flags);
  });
}
WARPSIM_API int WARPSIM_ABI_NAME(cudaStreamUpdateCaptureDependencies_ptsz,
                                 cudaStreamUpdateCaptureDependencies_v2_ptsz)(void* stream, void* const* deps,
                                                                              const cuda::GraphEdgeData* edges,
                                                                              size_t ndeps, unsigned flags) {
  return WARPSIM_ABI_NAME(cudaStreamUpdateCaptureDependencies, cudaStreamUpdateCaptureDependencies_v2)(
      stream, deps, edges, ndeps, flags);
}
