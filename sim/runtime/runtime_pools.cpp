// Stream-ordered allocation (cudaMallocAsync, cudaFreeAsync, memory pools) and graph memory
// nodes. An asynchronous allocation or free runs the queued launches first (runtime.hpp)
// and takes effect at the call, one legal order of its stream; what the program can observe besides the
// memory itself (addresses reused after a free, the pools' used/reserved figures and their
// release at a synchronize) follows what an H100 does (mem_pools.expected).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime {

namespace {

uint64_t addr(const void* p) { return reinterpret_cast<uint64_t>(p); }
void* ptr(uint64_t a) { return reinterpret_cast<void*>(a); }

void check_location(const cuda::MemLocation& loc, const char* call) {
  if (loc.type != cuda::MemLocationTypeDevice)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: location type {} (warpsim's pools live on the device: location type 1)",
                               call, loc.type));
  check_device(loc.id, call);
}

// Graph memory is reserved as pool memory is (nothing for nothing in use).
uint64_t graph_chunks(uint64_t bytes) { return bytes ? MemPool::chunk_bytes(bytes) : 0; }

}  // namespace

// ---- pools ---------------------------------------------------------------------------------

void* Runtime::default_pool() {
  if (!default_pool_) {
    auto p = std::make_unique<MemPool>();
    default_pool_ = p.get();
    pools_[default_pool_] = std::move(p);
  }
  return default_pool_;
}

void* Runtime::current_pool() { return current_pool_ ? current_pool_ : default_pool(); }

MemPool& Runtime::pool(void* handle, const char* call) {
  auto it = pools_.find(handle);
  if (it == pools_.end())
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} is not a live memory pool", call, handle));
  return *it->second;
}

void Runtime::set_current_pool(void* handle, const char* call) { current_pool_ = &pool(handle, call); }

void* Runtime::create_pool(const cuda::MemPoolProps* props, const char* call) {
  if (!props) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: poolProps is NULL", call));
  if (props->allocType != cuda::MemAllocationTypePinned)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: allocType {} (the pinned type, 1, is the one CUDA accepts)", call,
                               props->allocType));
  // A device that does not exist is an invalid value here, in both APIs (an H200:
  // docs/measurements/h200_driver_context_streams_2026-11-30.txt), not an invalid device.
  try {
    check_location(props->location, call);
  } catch (const ApiError& e) {
    throw ApiError(cuda::ErrorInvalidValue, e.what());
  }
  auto p = std::make_unique<MemPool>(props->maxSize);
  if (props->handleTypes != 0) ipc_pool_created(*p, props->handleTypes, call);  // shareable (runtime_ipc_pools.cpp)
  void* h = p.get();
  pools_[h] = std::move(p);
  return h;
}

void Runtime::destroy_pool(void* handle, const char* call) {
  MemPool& p = pool(handle, call);
  if (&p == default_pool_)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: the device's default pool cannot be destroyed", call));
  if (current_pool_ == &p) current_pool_ = nullptr;  // the device falls back to its default pool
  p.trim(0, free_chunk());
  ipc_pool_destroyed(p);
  // CUDA lets live allocations outlive the pool's handle; their pool goes when they do.
  if (!p.empty()) doomed_pools_.push_back(std::move(pools_.at(handle)));
  pools_.erase(handle);
}

MemPool* Runtime::find_pool(const std::function<bool(const MemPool&)>& pred) {
  for (auto& [h, pool] : pools_)
    if (pred(*pool)) return pool.get();
  for (auto& pool : doomed_pools_)
    if (pred(*pool)) return pool.get();
  return nullptr;
}

MemPool::Unreserve Runtime::free_chunk() {
  return [this](uint64_t base) {
    device_->free(base);
    ipc_pool_chunk_freed(base);  // a shareable pool's part of its memfd
  };
}

bool Runtime::free_pool_allocation(uint64_t p, const char* call) {
  if (ipc_pool_free_imported(p, call)) return true;  // a pointer imported from another process's pool
  MemPool* pool = find_pool([p](const MemPool& m) { return m.owns(p); });
  if (!pool) {
    if (find_pool([p](const MemPool& m) { return m.reserves(p); }))
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}({}): not a live allocation of its memory pool (freed already, or inside one)",
                                 call, ptr(p)));
    return false;
  }
  pool->release(p);
  for (auto it = doomed_pools_.begin(); it != doomed_pools_.end(); ++it)
    if (it->get() == pool && pool->empty()) {
      pool->trim(0, free_chunk());
      doomed_pools_.erase(it);
      break;
    }
  return true;
}

void* Runtime::malloc_async(uint64_t bytes, void* pool_handle, void* stream, const char* call) {
  check_stream(stream, call);
  if (bytes == 0) return nullptr;
  if (capturing(stream)) {
    // A captured allocation becomes an allocation node, whose address is valid at once.
    Graph* g = capturing_.at(stream);
    GraphNode n;
    n.kind = GraphNode::Kind::MemAlloc;
    capture(stream, std::move(n));
    GraphNode& node = *g->nodes.back();
    attach_graph_allocation(*g, node, bytes, call);
    return node.dst;
  }
  MemPool& p = pool_handle ? pool(pool_handle, call) : *static_cast<MemPool*>(current_pool());
  if (p.imported)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: pool {} was imported from another process; its memory comes from "
                               "importing the exporter's pointers (cudaMemPoolImportPointer, cuMemPoolImportPointer)",
                               call, static_cast<void*>(&p)));
  const auto reserve = [&](uint64_t chunk) {
    const uint64_t base = allocate_device(chunk, fmt::format("{} (the pool's chunk for {} bytes)", call, bytes));
    if (p.handle_types) ipc_pool_chunk_reserved(p, base, chunk);
    return base;
  };
  const auto at = p.allocate(bytes, reserve);
  if (!at)
    throw ApiError(cuda::ErrorMemoryAllocation,
                   fmt::format("{}: {} bytes would pass the pool's maxSize ({} reserved)", call, bytes, p.reserved()));
  return ptr(*at);
}

void Runtime::free_async(void* p, void* stream, const char* call) {
  check_stream(stream, call);
  if (!p) return;
  if (capturing(stream)) {
    if (!graph_allocations_.count(addr(p)))
      throw ApiError(cuda::ErrorStreamCaptureUnsupported,
                     fmt::format("{}({}) in a stream capture: warpsim captures frees of graph "
                                 "allocations (stream-ordered allocations in a capture) only",
                                 call, p));
    GraphNode n;
    n.kind = GraphNode::Kind::MemFree;
    n.dst = p;
    capture(stream, std::move(n));
    return;
  }
  if (free_pool_allocation(addr(p), call)) return;
  if (!graph_allocations_.count(addr(p))) {
    const auto a = device_allocation(p);
    if (!a || a->first != addr(p))
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}({}): not an address a stream-ordered or a plain allocation returned", call, p));
  }
  this->free(p);  // cudaMalloc'd memory and graph allocations may be freed this way too
}

void Runtime::pool_set_attribute(void* handle, int attr, const void* value, const char* call) {
  MemPool& p = pool(handle, call);
  if (!value) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: value is NULL", call));
  auto u64 = [&] {
    uint64_t v;
    std::memcpy(&v, value, sizeof v);
    return v;
  };
  auto i32 = [&] {
    int v;
    std::memcpy(&v, value, sizeof v);
    return v;
  };
  switch (attr) {
    case cuda::MemPoolReuseFollowEventDependencies: p.reuse_follow_event_dependencies = i32(); return;
    case cuda::MemPoolReuseAllowOpportunistic: p.reuse_allow_opportunistic = i32(); return;
    case cuda::MemPoolReuseAllowInternalDependencies: p.reuse_allow_internal_dependencies = i32(); return;
    case cuda::MemPoolAttrReleaseThreshold: p.release_threshold = u64(); return;
    case cuda::MemPoolAttrReservedMemHigh:
    case cuda::MemPoolAttrUsedMemHigh:
      if (u64() != 0)
        throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: a high-water mark can only be reset (to 0)", call));
      if (attr == cuda::MemPoolAttrUsedMemHigh) p.reset_used_high();
      else p.reset_reserved_high();
      return;
    default:
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: attribute {} is read-only or not a pool attribute", call, attr));
  }
}

void Runtime::pool_get_attribute(void* handle, int attr, void* value, const char* call) {
  MemPool& p = pool(handle, call);
  if (!value) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: value is NULL", call));
  auto put = [&](auto v) { std::memcpy(value, &v, sizeof v); };
  switch (attr) {
    case cuda::MemPoolReuseFollowEventDependencies: put(p.reuse_follow_event_dependencies); return;
    case cuda::MemPoolReuseAllowOpportunistic: put(p.reuse_allow_opportunistic); return;
    case cuda::MemPoolReuseAllowInternalDependencies: put(p.reuse_allow_internal_dependencies); return;
    case cuda::MemPoolAttrReleaseThreshold: put(p.release_threshold); return;
    case cuda::MemPoolAttrReservedMemCurrent: put(p.reserved()); return;
    case cuda::MemPoolAttrReservedMemHigh: put(p.reserved_high()); return;
    case cuda::MemPoolAttrUsedMemCurrent: put(p.used()); return;
    case cuda::MemPoolAttrUsedMemHigh: put(p.used_high()); return;
    default:
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} is not a pool attribute", call, attr));
  }
}

void Runtime::pool_trim(void* handle, uint64_t keep, const char* call) {
  pool(handle, call).trim(keep, free_chunk());
}

void Runtime::pool_set_access(void* handle, const cuda::MemAccessDesc* descs, size_t count, const char* call) {
  MemPool& p = pool(handle, call);
  if (count && !descs) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: the descriptor list is NULL", call));
  for (size_t i = 0; i < count; ++i) {
    check_location(descs[i].location, call);
    // Less than read-write for the owning device is "not supported" (an H200, both APIs).
    if (descs[i].flags == cuda::MemAccessFlagsProtNone || descs[i].flags == cuda::MemAccessFlagsProtRead)
      throw ApiError(cuda::ErrorNotSupported,
                     fmt::format("{}: the owning device's access is always read-write (flags 3)", call));
    if (descs[i].flags != cuda::MemAccessFlagsProtReadWrite)
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: access flags {} (0, 1 or 3)", call, descs[i].flags));
    p.access_flags = descs[i].flags;
  }
}

int Runtime::pool_get_access(void* handle, const cuda::MemLocation* location, const char* call) {
  MemPool& p = pool(handle, call);
  if (!location) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: location is NULL", call));
  check_location(*location, call);
  return p.access_flags;
}

void Runtime::release_pool_memory() {
  for (auto& [h, p] : pools_)
    if (p->reserved() > p->release_threshold) p->trim(p->release_threshold, free_chunk());
}

// ---- graph memory ----------------------------------------------------------------------------

std::shared_ptr<GraphAllocation> Runtime::new_graph_allocation(Graph& g, const GraphNode& node, uint64_t bytes,
                                                               const char* call) {
  // The node's ancestors: an earlier allocation of this graph whose every allocation node
  // has its free node among them is free by the time this node runs; its address is reused.
  std::set<const GraphNode*> before;
  std::vector<const GraphNode*> todo(node.deps.begin(), node.deps.end());
  while (!todo.empty()) {
    const GraphNode* n = todo.back();
    todo.pop_back();
    if (!before.insert(n).second) continue;
    todo.insert(todo.end(), n->deps.begin(), n->deps.end());
  }
  for (const auto& n : g.nodes) {
    if (n->kind != GraphNode::Kind::MemAlloc || !n->allocation || n->allocation->bytes < bytes) continue;
    const auto& a = n->allocation;
    const auto rec = graph_allocations_.find(a->address);
    if (rec == graph_allocations_.end() || rec->second.nodes != a.get() || rec->second.live)
      continue;  // the old device's (before cudaDeviceReset), or a launch left it allocated
    size_t allocs = 0, frees = 0;
    for (const auto& m : g.nodes) allocs += m->kind == GraphNode::Kind::MemAlloc && m->allocation == a;
    for (const GraphNode* m : before) frees += m->kind == GraphNode::Kind::MemFree && addr(m->dst) == a->address;
    if (frees >= allocs) return a;
  }
  // A fresh address.
  auto a = std::make_shared<GraphAllocation>();
  a->address = allocate_device(bytes, call);
  a->bytes = bytes;
  graph_allocations_[a->address] = {a.get(), bytes, false};
  a->on_release = [this](GraphAllocation& g) {
    auto it = graph_allocations_.find(g.address);
    if (it == graph_allocations_.end() || it->second.nodes != &g) return;  // a device before cudaDeviceReset
    it->second.nodes = nullptr;
    if (it->second.live) return;  // the program's until cudaFree (graph_memory_freed)
    graph_allocations_.erase(it);
    device_->free(g.address);
  };
  return a;
}

void Runtime::attach_graph_allocation(Graph& g, GraphNode& node, uint64_t bytes, const char* call) {
  try {
    node.allocation = new_graph_allocation(g, node, bytes, call);
  } catch (...) {
    g.remove_last();
    throw;
  }
  node.dst = ptr(node.allocation->address);
  node.bytes = bytes;
}

GraphNode* Runtime::add_mem_alloc_node(void* graph_handle, void* const* deps, size_t ndeps,
                                       cuda::MemAllocNodeParams* params) {
  const char* call = "cudaGraphAddMemAllocNode";
  if (!params) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: nodeParams is NULL", call));
  if (params->poolProps.allocType != cuda::MemAllocationTypePinned)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: allocType must be cudaMemAllocationTypePinned", call));
  check_location(params->poolProps.location, call);
  for (size_t i = 0; i < params->accessDescCount; ++i) check_location(params->accessDescs[i].location, call);
  if (params->bytesize == 0) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: bytesize is 0", call));
  GraphNode n;
  n.kind = GraphNode::Kind::MemAlloc;
  GraphNode* node = add_node(graph_handle, std::move(n), deps, ndeps, call);
  attach_graph_allocation(graph(graph_handle, call), *node, params->bytesize, call);
  params->dptr = node->dst;
  return node;
}

GraphNode* Runtime::add_mem_free_node(void* graph_handle, void* const* deps, size_t ndeps, void* p) {
  const char* call = "cudaGraphAddMemFreeNode";
  Graph& g = graph(graph_handle, call);
  auto it = graph_allocations_.find(addr(p));
  if (it == graph_allocations_.end())
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} is not the address of a graph allocation", call, p));
  // A graph frees an allocation once per allocation node of it (once if another graph made it).
  size_t allocs = 0, frees = 0;
  for (const auto& m : g.nodes) {
    allocs += m->kind == GraphNode::Kind::MemAlloc && m->allocation.get() == it->second.nodes;
    frees += m->kind == GraphNode::Kind::MemFree && m->dst == p;
  }
  if (frees >= std::max<size_t>(allocs, 1))
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: the graph already frees {}", call, p));
  GraphNode n;
  n.kind = GraphNode::Kind::MemFree;
  n.dst = p;
  return add_node(graph_handle, std::move(n), deps, ndeps, call);
}

void Runtime::check_graph_allocations(const GraphExec& e) const {
  for (const GraphNode& n : e.order) {
    if (n.kind != GraphNode::Kind::MemAlloc) continue;
    auto it = graph_allocations_.find(n.allocation->address);
    if (it == graph_allocations_.end() || it->second.nodes != n.allocation.get())
      throw ApiError(cuda::ErrorInvalidValue,
                     "cudaGraphLaunch: the graph allocates memory of the context before cudaDeviceReset");
    if (it->second.live)
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("cudaGraphLaunch: the graph's allocation at {} from an earlier launch is not freed yet "
                                 "(free it with cudaFree or a free node before launching the graph again)",
                                 n.dst));
  }
}

void Runtime::graph_memory_allocated(GraphAllocation& a) {
  graph_allocations_.at(a.address).live = true;
  graph_in_use_ += a.bytes;
  graph_reserved_ = std::max(graph_reserved_, graph_chunks(graph_in_use_));
  graph_used_high_ = std::max(graph_used_high_, graph_reserved_);
  graph_reserved_high_ = std::max(graph_reserved_high_, graph_reserved_);
}

void Runtime::graph_memory_freed(void* p, const char* call) {
  auto it = graph_allocations_.find(addr(p));
  if (it == graph_allocations_.end() || !it->second.live)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} is not a live graph allocation", call, p));
  it->second.live = false;
  graph_in_use_ -= it->second.bytes;
  if (!it->second.nodes) {  // no graph refers to it any more: the address goes back
    device_->free(it->first);
    graph_allocations_.erase(it);
  }
}

void Runtime::graph_memory_trim() { graph_reserved_ = std::min(graph_reserved_, graph_chunks(graph_in_use_)); }

// The H100 reports the physical memory mapped for graphs as both "used" and "reserved".
uint64_t Runtime::graph_memory_attribute(int attr) const {
  switch (attr) {
    case cuda::GraphMemAttrUsedMemCurrent:
    case cuda::GraphMemAttrReservedMemCurrent: return graph_reserved_;
    case cuda::GraphMemAttrUsedMemHigh: return graph_used_high_;
    case cuda::GraphMemAttrReservedMemHigh: return graph_reserved_high_;
    default:
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("cudaDeviceGetGraphMemAttribute: {} is not a cudaGraphMemAttributeType", attr));
  }
}

void Runtime::set_graph_memory_attribute(int attr, uint64_t value) {
  if ((attr != cuda::GraphMemAttrUsedMemHigh && attr != cuda::GraphMemAttrReservedMemHigh) || value != 0)
    throw ApiError(cuda::ErrorInvalidValue,
                   "cudaDeviceSetGraphMemAttribute: only the high-water marks can be set, and only reset to 0");
  if (attr == cuda::GraphMemAttrUsedMemHigh) graph_used_high_ = graph_reserved_;
  else graph_reserved_high_ = graph_reserved_;
}

}  // namespace warpsim::runtime
