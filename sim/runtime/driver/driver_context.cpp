#include "sim/runtime/driver/driver_context.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "sim/runtime/driver/handle_owners.hpp"

namespace warpsim::runtime::driver {

namespace {

struct DriverState {
  std::mutex mutex;
  std::atomic<bool> initialized{false};
  char primary = 0;                         // its address is the primary context's handle
  std::deque<std::unique_ptr<char>> made;   // storage behind cuCtxCreate's handles
  std::vector<void*> live;                  // contexts not destroyed, the primary among them
  std::map<void*, std::vector<std::pair<Owned, void*>>> owned;  // made context -> what it allocated or loaded
};

// The driver layer's one process-wide object (the driver API's state is process-wide).
DriverState& state() {
  static DriverState* s = [] {
    auto* d = new DriverState;
    d->live.push_back(&d->primary);
    return d;
  }();
  return *s;
}

thread_local std::vector<void*> t_stack;  // this thread's current contexts, the top last

void require_context(void* ctx, const char* call) {
  if (!is_context(ctx))
    throw ApiError(cuda::ErrorInvalidResourceHandle, fmt::format("{}: {} is not a live context", call, ctx));
}

}  // namespace

int to_result(int code) {
  if (code >= 100 || code <= 4) return code;  // the same numbers (success, invalid value, out of memory, ...)
  if (code == cuda::ErrorInvalidDeviceFunction) return cu::ErrorInvalidHandle;
  return cu::ErrorInvalidValue;  // the runtime's argument errors (pitch, symbol, pointer, direction, ...)
}

void require(const void* p, const char* call, const char* what) {
  if (!p) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} is NULL", call, what));
}

void initialize() { state().initialized = true; }
bool initialized() { return state().initialized || api::runtime_api_used(); }

int call(const char* name, Needs needs, const std::function<void(Runtime&)>& body, api::Sticky sticky) {
  if (needs != Needs::Nothing && !initialized()) {
    api::print_message(fmt::format("{}: the driver is not initialised (call cuInit first)", name));
    return cu::ErrorNotInitialized;
  }
  if (needs == Needs::Context && !current_context()) {
    api::print_message(fmt::format("{}: no current context on this thread (cuCtxCreate, cuCtxSetCurrent or "
                                   "cuDevicePrimaryCtxRetain with cuCtxSetCurrent first)",
                                   name));
    return cu::ErrorInvalidContext;
  }
  return to_result(api::driver_call(name, body, sticky));
}

int check(const char* name, Needs needs, const std::function<void()>& body) {
  return call(name, needs, [&](Runtime&) { body(); }, api::Sticky::Ignore);
}

void* primary_context() { return &state().primary; }

void* create_context() {
  DriverState& s = state();
  std::lock_guard lock(s.mutex);
  s.made.push_back(std::make_unique<char>());
  s.live.push_back(s.made.back().get());
  t_stack.push_back(s.made.back().get());
  return s.made.back().get();
}

bool is_context(const void* ctx) {
  DriverState& s = state();
  std::lock_guard lock(s.mutex);
  return ctx && std::find(s.live.begin(), s.live.end(), ctx) != s.live.end();
}

void destroy_context(void* ctx, const char* call) {
  require_context(ctx, call);
  DriverState& s = state();
  if (ctx == &s.primary)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: the primary context is released with cuDevicePrimaryCtxRelease", call));
  {
    std::lock_guard lock(s.mutex);
    s.live.erase(std::find(s.live.begin(), s.live.end(), ctx));
  }
  // The destroyed context stops being current on this thread (other threads' stacks are
  // theirs: a later call there finds it dead).
  std::erase(t_stack, ctx);
}

namespace {

// What the runtime released, however the program released it (cuMemFree, cudaFree, a
// reset): it no longer belongs to any context, and its address may be handed out again.
void forget(const void* handle) {
  DriverState& s = state();
  std::lock_guard lock(s.mutex);
  if (!handle) s.owned.clear();
  for (auto& [ctx, list] : s.owned) std::erase_if(list, [&](const auto& o) { return o.second == handle; });
}

}  // namespace

void own(Runtime& rt, Owned kind, void* handle) {
  void* ctx = current_context();
  DriverState& s = state();
  if (!ctx || ctx == &s.primary || !handle) return;
  rt.set_release_observer(forget);
  std::lock_guard lock(s.mutex);
  s.owned[ctx].emplace_back(kind, handle);
}

void destroy_context_and_contents(Runtime& rt, void* ctx, const char* call) {
  destroy_context(ctx, call);
  std::vector<std::pair<Owned, void*>> list;
  {
    DriverState& s = state();
    std::lock_guard lock(s.mutex);
    if (auto it = s.owned.find(ctx); it != s.owned.end()) {
      list = std::move(it->second);
      s.owned.erase(it);
    }
  }
  // Newest first, as a program would release them; each is still live (released ones were
  // forgotten).
  for (auto it = list.rbegin(); it != list.rend(); ++it) {
    try {
      switch (it->first) {
        case Owned::DeviceMemory: rt.free(it->second); break;
        case Owned::HostMemory: rt.free_host(it->second); break;
        case Owned::Module:
          rt.unload_module(it->second, call);
          forget_owner(it->second);
          break;
      }
    } catch (const ApiError&) {
    }
  }
}

void* current_context() {
  while (!t_stack.empty() && !is_context(t_stack.back())) t_stack.pop_back();
  if (!t_stack.empty()) return t_stack.back();
  // The runtime API makes the primary context current on every thread that uses it.
  return api::runtime_api_used() ? primary_context() : nullptr;
}

void set_current(void* ctx, const char* call) {
  if (!ctx) {
    if (!t_stack.empty()) t_stack.pop_back();
    return;
  }
  require_context(ctx, call);
  if (t_stack.empty())
    t_stack.push_back(ctx);
  else
    t_stack.back() = ctx;
}

void push_current(void* ctx, const char* call) {
  require_context(ctx, call);
  t_stack.push_back(ctx);
}

void* pop_current(const char* call) {
  if (t_stack.empty())
    throw ApiError(cuda::ErrorDeviceUninitialized, fmt::format("{}: no context is current on this thread", call));
  void* top = t_stack.back();
  t_stack.pop_back();
  return top;
}

}  // namespace warpsim::runtime::driver
