// The driver API's own state on top of the process context: whether cuInit was called, the
// contexts the program made, each thread's stack of current contexts, and what each made
// context owns. Every context is a view of the one simulated device (process_context.hpp):
// what one context allocates another can use, which CUDA would refuse; but what a
// context allocated or loaded through the driver API goes with it when it is destroyed,
// as in CUDA (docs/runtime.md, "Driver API").
#pragma once
#include <functional>

#include "sim/runtime/driver/process_context.hpp"
#include "sim/runtime/driver_abi.hpp"

#define WARPSIM_DRIVER_API extern "C" __attribute__((visibility("default")))

namespace warpsim::runtime::driver {

// CUresult for one of the runtime's cudaError_t codes (from 100 up they are the same).
int to_result(int cuda_error);

enum class Needs {
  Nothing,  // cuInit, cuDriverGetVersion, cuGetErrorName/String
  Init,     // device queries: cuInit first (or any runtime API call)
  Context,  // everything that works in a context: a current one on this thread
};
// Runs a driver call's body: CUDA_ERROR_NOT_INITIALIZED or _INVALID_CONTEXT when what it
// needs is missing, else process_context's driver_call, its code translated.
int call(const char* name, Needs needs, const std::function<void(Runtime&)>& body,
         api::Sticky sticky = api::Sticky::Check);
// The same for a call with nothing to check but its arguments (no Runtime needed).
int check(const char* name, Needs needs, const std::function<void()>& body);

// CUDA_ERROR_INVALID_VALUE naming the call and the argument when `p` is NULL.
void require(const void* p, const char* call, const char* what);

void initialize();  // cuInit
bool initialized();

// Contexts. Handles are stable addresses; the primary context is one of them.
void* primary_context();
void* create_context();                   // cuCtxCreate: made current on this thread
void destroy_context(void* ctx, const char* call);
bool is_context(const void* ctx);
void* current_context();                  // null when none (the primary after a runtime call)
void set_current(void* ctx, const char* call);  // replaces the top; null unbinds it
void push_current(void* ctx, const char* call);
void* pop_current(const char* call);

// What a made context (not the primary, whose memory cudaDeviceReset and
// cuDevicePrimaryCtxReset free) allocated or loaded through the driver API, freed when it is
// destroyed. own() records `handle` for the current context; whatever `rt` releases later,
// by any call, is forgotten (Runtime::set_release_observer).
enum class Owned { DeviceMemory, HostMemory, Module };
void own(Runtime& rt, Owned kind, void* handle);
// cuCtxDestroy: the context stops being current (destroy_context) and what it owned is
// freed on `rt`.
void destroy_context_and_contents(Runtime& rt, void* ctx, const char* call);

}  // namespace warpsim::runtime::driver
