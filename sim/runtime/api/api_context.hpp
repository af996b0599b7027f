// The C entry points' one shared piece: the process's CUDA context. The runtime API is
// process-wide by definition (no handle is passed), so this layer, and only this layer,
// keeps one Runtime per process, created from the WARPSIM_* environment on first use.
// Every entry point runs its body through `call`, which serialises calls, returns the
// sticky error after a kernel fault, turns ApiError into its code and prints its message
// on stderr once, and records the last error for cudaGetLastError.
#pragma once
#include <functional>

#include "sim/runtime/cuda_abi.hpp"
#include "sim/runtime/runtime.hpp"

#define WARPSIM_API extern "C" __attribute__((visibility("default")))

namespace warpsim::runtime::api {

enum class Sticky { Check, Ignore };  // Ignore: calls that still work after a fault

int call(const char* name, const std::function<void(Runtime&)>& body, Sticky sticky = Sticky::Check);
// For cudaGetLastError / cudaPeekAtLastError.
int last_error(bool clear);
// Prints "warpsim: NAME is not supported" once per name; returns cudaErrorNotSupported.
int unsupported(const char* name);
// The runtime, or null if the environment's config is bad (the reason is printed).
Runtime* instance();

}  // namespace warpsim::runtime::api
