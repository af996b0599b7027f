// User objects (cudaUserObjectCreate/Retain/Release, cudaGraphRetainUserObject/
// ReleaseUserObject): reference counts held by the program and by graphs, clones and
// executable graphs, and the destructor run when the last reference goes. Calls drain the
// launch queue before they run (process_context.cpp), so a graph's work has run by the time
// its destruction releases what it held; the destructor then runs after the call, outside
// the runtime's lock (api::run_due_destructors). Checked against an H200:
// tests/750_runtime/programs/graph_node_attributes.expected.
#include <fmt/format.h>

#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime {

void* Runtime::create_user_object(void* ptr, void (*destroy)(void*), unsigned refs, unsigned flags,
                                  const char* call) {
  if (flags != 1)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: flags {} (cudaUserObjectNoDestructorSync, 1, is the only one)", call, flags));
  if (refs == 0) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: initialRefcount is 0", call));
  if (!destroy) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: destroy is NULL", call));
  auto o = std::make_unique<UserObject>();
  o->ptr = ptr;
  o->destroy = destroy;
  o->refs = refs;
  const void* handle = o.get();
  user_objects_[handle] = std::move(o);
  return const_cast<void*>(handle);
}

Runtime::UserObject& Runtime::user_object(const void* handle, const char* call) {
  const auto it = user_objects_.find(handle);
  if (it == user_objects_.end())
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} is not a live user object", call, handle));
  return *it->second;
}

void Runtime::drop_user_object(const void* handle, uint64_t count) {
  const auto it = user_objects_.find(handle);
  if (it == user_objects_.end()) return;
  UserObject& o = *it->second;
  o.refs -= std::min(o.refs, count);
  if (o.refs > 0) return;
  due_destructors_.emplace_back(o.destroy, o.ptr);
  user_objects_.erase(it);
}

void Runtime::retain_user_object(const void* handle, unsigned count, const char* call) {
  if (count == 0) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: count is 0", call));
  user_object(handle, call).refs += count;
}

void Runtime::release_user_object(const void* handle, unsigned count, const char* call) {
  if (count == 0) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: count is 0", call));
  UserObject& o = user_object(handle, call);
  if (count > o.refs)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: {} references released, but the object has {} in all", call, count, o.refs));
  drop_user_object(handle, count);
}

void Runtime::graph_retain_user_object(const void* graph_handle, const void* handle, unsigned count, unsigned flags,
                                       const char* call) {
  if (!graph_handle) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: graph is NULL", call));
  if (!handle) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: object is NULL", call));
  if (flags > 1)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: flags {} (0, or cudaGraphUserObjectMove)", call, flags));
  if (count == 0) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: count is 0", call));
  Graph& g = graph(graph_handle, call);
  UserObject& o = user_object(handle, call);
  if (flags == 1 && count > o.refs)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: {} references moved to the graph, but the object has {}", call, count, o.refs));
  if (flags == 0) o.refs += count;  // new references; a move hands over the caller's
  g.user_objects[handle] += count;
}

void Runtime::graph_release_user_object(const void* graph_handle, const void* handle, unsigned count,
                                        const char* call) {
  if (count == 0) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: count is 0", call));
  Graph& g = graph(graph_handle, call);
  user_object(handle, call);
  const auto it = g.user_objects.find(handle);
  const uint64_t held = it == g.user_objects.end() ? 0 : it->second;
  if (count > held)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: {} references released, but the graph holds {}", call, count, held));
  if ((it->second -= count) == 0) g.user_objects.erase(it);
  drop_user_object(handle, count);
}

void Runtime::hold_user_objects(const std::map<const void*, uint64_t>& held) {
  for (const auto& [handle, count] : held)
    if (auto it = user_objects_.find(handle); it != user_objects_.end()) it->second->refs += count;
}

void Runtime::drop_user_objects(const std::map<const void*, uint64_t>& held) {
  for (const auto& [handle, count] : held) drop_user_object(handle, count);
}

}  // namespace warpsim::runtime
