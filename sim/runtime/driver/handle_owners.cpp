#include "sim/runtime/driver/handle_owners.hpp"

#include <fmt/format.h>

#include <mutex>
#include <unordered_map>

#include "sim/runtime/driver/driver_context.hpp"

namespace warpsim::runtime::driver {

namespace {

struct Owners {
  std::mutex mutex;
  std::unordered_map<const void*, void*> of;  // handle -> the context that made it
  std::unordered_multimap<const void*, const void*> functions;  // module -> its noted functions
};

// The driver layer's record of makers (process-wide, as the handles are).
Owners& owners() {
  static Owners* o = new Owners;
  return *o;
}

}  // namespace

void note_owner(const void* handle) { note_owner(handle, current_context()); }

void note_owner(const void* handle, void* ctx) {
  if (!handle) return;
  Owners& o = owners();
  std::lock_guard lock(o.mutex);
  if (ctx) o.of[handle] = ctx;
  else o.of.erase(handle);
}

void note_function(const void* function, const void* module) {
  if (!function) return;
  Owners& o = owners();
  std::lock_guard lock(o.mutex);
  auto it = o.of.find(module);
  if (it == o.of.end()) {
    o.of.erase(function);
    return;
  }
  o.of[function] = it->second;
  o.functions.emplace(module, function);
}

void* owner_of(const void* handle) {
  Owners& o = owners();
  std::lock_guard lock(o.mutex);
  auto it = o.of.find(handle);
  return it == o.of.end() ? nullptr : it->second;
}

void forget_owner(const void* handle) {
  Owners& o = owners();
  std::lock_guard lock(o.mutex);
  o.of.erase(handle);
  auto [first, last] = o.functions.equal_range(handle);
  for (auto it = first; it != last; ++it) o.of.erase(it->second);
  o.functions.erase(first, last);
}

void* stream_context(const void* stream) {
  void* ctx = stream ? owner_of(stream) : nullptr;
  return ctx ? ctx : current_context();
}

void require_same_context(const void* a_ctx, const char* a_what, const void* b_ctx, const char* b_what,
                          const char* call) {
  if (!a_ctx || !b_ctx || a_ctx == b_ctx) return;
  throw ApiError(cuda::ErrorInvalidResourceHandle,
                 fmt::format("{}: {} belongs to context {} and {} to context {}; they must belong to one context",
                             call, a_what, a_ctx, b_what, b_ctx));
}

}  // namespace warpsim::runtime::driver
