// Memory pools and graph memory (runtime_pools.cpp): the device's default and current pool,
// pools the program creates, their attributes, access and trimming, graph allocation and
// free nodes, and the device's graph-memory figures.
#include <fmt/format.h>

#include "sim/runtime/driver/process_context.hpp"

using namespace warpsim::runtime;
using warpsim::runtime::api::call;
namespace cuda = warpsim::cuda;

WARPSIM_API int cudaDeviceGetDefaultMemPool(void** pool, int device) {
  return call("cudaDeviceGetDefaultMemPool", [&](Runtime& rt) {
    check_device(device, "cudaDeviceGetDefaultMemPool");
    if (!pool) throw ApiError(cuda::ErrorInvalidValue, "cudaDeviceGetDefaultMemPool: memPool is NULL");
    *pool = rt.default_pool();
  });
}

WARPSIM_API int cudaDeviceGetMemPool(void** pool, int device) {
  return call("cudaDeviceGetMemPool", [&](Runtime& rt) {
    check_device(device, "cudaDeviceGetMemPool");
    if (!pool) throw ApiError(cuda::ErrorInvalidValue, "cudaDeviceGetMemPool: memPool is NULL");
    *pool = rt.current_pool();
  });
}

WARPSIM_API int cudaDeviceSetMemPool(int device, void* pool) {
  return call("cudaDeviceSetMemPool", [&](Runtime& rt) {
    check_device(device, "cudaDeviceSetMemPool");
    rt.set_current_pool(pool, "cudaDeviceSetMemPool");
  });
}

namespace {
// CUDA 13's pools by location and allocation type: a device location's pinned pools are the
// device's (the calls above). Host locations and managed pools, which an H200 has, are not
// modelled: cudaErrorNotSupported. Anything else is cudaErrorInvalidValue, as on an H200
// (tests/750_runtime/programs/mem_pool_locations.expected).
void check_pool_location(const cuda::MemLocation* loc, int type, const char* call) {
  if (!loc) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: location is NULL", call));
  const bool host = loc->type >= cuda::MemLocationTypeHost && loc->type <= cuda::MemLocationTypeHostNumaCurrent;
  if (type != cuda::MemAllocationTypePinned && type != cuda::MemAllocationTypeManaged)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} is not a cudaMemAllocationType", call, type));
  if (host || type == cuda::MemAllocationTypeManaged)
    throw ApiError(cuda::ErrorNotSupported,
                   fmt::format("{}: warpsim models the device's pinned memory pools only (location type {}, "
                               "allocation type {})", call, loc->type, type));
  if (loc->type != cuda::MemLocationTypeDevice)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: location type {}", call, loc->type));
  if (loc->id != 0)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: device {} does not exist (warpsim simulates one device, 0)", call, loc->id));
}
}  // namespace

WARPSIM_API int cudaMemGetDefaultMemPool(void** pool, cuda::MemLocation* location, int type) {
  return call("cudaMemGetDefaultMemPool", [&](Runtime& rt) {
    if (!pool) throw ApiError(cuda::ErrorInvalidValue, "cudaMemGetDefaultMemPool: memPool is NULL");
    check_pool_location(location, type, "cudaMemGetDefaultMemPool");
    *pool = rt.default_pool();
  });
}

WARPSIM_API int cudaMemGetMemPool(void** pool, cuda::MemLocation* location, int type) {
  return call("cudaMemGetMemPool", [&](Runtime& rt) {
    if (!pool) throw ApiError(cuda::ErrorInvalidValue, "cudaMemGetMemPool: memPool is NULL");
    check_pool_location(location, type, "cudaMemGetMemPool");
    *pool = rt.current_pool();
  });
}

WARPSIM_API int cudaMemSetMemPool(cuda::MemLocation* location, int type, void* pool) {
  return call("cudaMemSetMemPool", [&](Runtime& rt) {
    if (!pool) throw ApiError(cuda::ErrorInvalidValue, "cudaMemSetMemPool: memPool is NULL");
    // Every pool here is a device's pinned pool: another type does not match it.
    if (type != cuda::MemAllocationTypePinned)
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("cudaMemSetMemPool: allocation type {} for a pinned memory pool", type));
    check_pool_location(location, type, "cudaMemSetMemPool");
    rt.set_current_pool(pool, "cudaMemSetMemPool");
  });
}

WARPSIM_API int cudaMemPoolCreate(void** pool, const cuda::MemPoolProps* props) {
  return call("cudaMemPoolCreate", [&](Runtime& rt) {
    if (!pool) throw ApiError(cuda::ErrorInvalidValue, "cudaMemPoolCreate: memPool is NULL");
    *pool = rt.create_pool(props, "cudaMemPoolCreate");
  });
}

WARPSIM_API int cudaMemPoolDestroy(void* pool) {
  return call("cudaMemPoolDestroy", [&](Runtime& rt) { rt.destroy_pool(pool, "cudaMemPoolDestroy"); });
}

WARPSIM_API int cudaMemPoolSetAttribute(void* pool, int attr, void* value) {
  return call("cudaMemPoolSetAttribute", [&](Runtime& rt) { rt.pool_set_attribute(pool, attr, value, "cudaMemPoolSetAttribute"); });
}

WARPSIM_API int cudaMemPoolGetAttribute(void* pool, int attr, void* value) {
  return call("cudaMemPoolGetAttribute", [&](Runtime& rt) { rt.pool_get_attribute(pool, attr, value, "cudaMemPoolGetAttribute"); });
}

WARPSIM_API int cudaMemPoolTrimTo(void* pool, size_t keep) {
  return call("cudaMemPoolTrimTo", [&](Runtime& rt) { rt.pool_trim(pool, keep, "cudaMemPoolTrimTo"); });
}

WARPSIM_API int cudaMemPoolSetAccess(void* pool, const cuda::MemAccessDesc* descs, size_t count) {
  return call("cudaMemPoolSetAccess", [&](Runtime& rt) { rt.pool_set_access(pool, descs, count, "cudaMemPoolSetAccess"); });
}

WARPSIM_API int cudaMemPoolGetAccess(int* flags, void* pool, cuda::MemLocation* location) {
  return call("cudaMemPoolGetAccess", [&](Runtime& rt) {
    if (!flags) throw ApiError(cuda::ErrorInvalidValue, "cudaMemPoolGetAccess: flags is NULL");
    *flags = rt.pool_get_access(pool, location, "cudaMemPoolGetAccess");
  });
}

WARPSIM_API int cudaGraphAddMemAllocNode(void** node, void* graph, void* const* deps, size_t ndeps,
                                         cuda::MemAllocNodeParams* params) {
  return call("cudaGraphAddMemAllocNode", [&](Runtime& rt) {
    if (!node) throw ApiError(cuda::ErrorInvalidValue, "cudaGraphAddMemAllocNode: pGraphNode is NULL");
    *node = rt.add_mem_alloc_node(graph, deps, ndeps, params);
  });
}

WARPSIM_API int cudaGraphAddMemFreeNode(void** node, void* graph, void* const* deps, size_t ndeps, void* ptr) {
  return call("cudaGraphAddMemFreeNode", [&](Runtime& rt) {
    if (!node) throw ApiError(cuda::ErrorInvalidValue, "cudaGraphAddMemFreeNode: pGraphNode is NULL");
    *node = rt.add_mem_free_node(graph, deps, ndeps, ptr);
  });
}

namespace {
// The node behind a handle, if it is a node of a live graph and of the given kind.
const GraphNode& memory_node(Runtime& rt, void* node, GraphNode::Kind kind, const char* name) {
  const auto* n = static_cast<const GraphNode*>(node);
  if (!n || !rt.owns_node(n) || n->kind != kind)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: {} is not a {} node of a live graph", name, node,
                               kind == GraphNode::Kind::MemAlloc ? "memory allocation" : "memory free"));
  return *n;
}
}  // namespace

WARPSIM_API int cudaGraphMemAllocNodeGetParams(void* node, cuda::MemAllocNodeParams* params) {
  return call("cudaGraphMemAllocNodeGetParams", [&](Runtime& rt) {
    const GraphNode& n = memory_node(rt, node, GraphNode::Kind::MemAlloc, "cudaGraphMemAllocNodeGetParams");
    if (!params) throw ApiError(cuda::ErrorInvalidValue, "cudaGraphMemAllocNodeGetParams: params_out is NULL");
    *params = {};
    params->poolProps.allocType = cuda::MemAllocationTypePinned;
    params->poolProps.location = {cuda::MemLocationTypeDevice, 0};
    params->bytesize = n.bytes;
    params->dptr = n.dst;
  });
}

WARPSIM_API int cudaGraphMemFreeNodeGetParams(void* node, void** ptr) {
  return call("cudaGraphMemFreeNodeGetParams", [&](Runtime& rt) {
    const GraphNode& n = memory_node(rt, node, GraphNode::Kind::MemFree, "cudaGraphMemFreeNodeGetParams");
    if (!ptr) throw ApiError(cuda::ErrorInvalidValue, "cudaGraphMemFreeNodeGetParams: dptr_out is NULL");
    *ptr = n.dst;
  });
}

WARPSIM_API int cudaDeviceGraphMemTrim(int device) {
  return call("cudaDeviceGraphMemTrim", [&](Runtime& rt) {
    check_device(device, "cudaDeviceGraphMemTrim");
    rt.graph_memory_trim();
  });
}

WARPSIM_API int cudaDeviceGetGraphMemAttribute(int device, int attr, void* value) {
  return call("cudaDeviceGetGraphMemAttribute", [&](Runtime& rt) {
    check_device(device, "cudaDeviceGetGraphMemAttribute");
    if (!value) throw ApiError(cuda::ErrorInvalidValue, "cudaDeviceGetGraphMemAttribute: value is NULL");
    *static_cast<unsigned long long*>(value) = rt.graph_memory_attribute(attr);
  });
}

WARPSIM_API int cudaDeviceSetGraphMemAttribute(int device, int attr, void* value) {
  return call("cudaDeviceSetGraphMemAttribute", [&](Runtime& rt) {
    check_device(device, "cudaDeviceSetGraphMemAttribute");
    if (!value) throw ApiError(cuda::ErrorInvalidValue, "cudaDeviceSetGraphMemAttribute: value is NULL");
    rt.set_graph_memory_attribute(attr, *static_cast<const unsigned long long*>(value));
  });
}
