// The C entry points' one shared piece: the process's CUDA context. The runtime API is
// process-wide by definition (no handle is passed), so this layer, and only this layer,
// keeps one Runtime per process, created from the WARPSIM_* environment on first use. It
// lives in libcuda.so.1 (the driver API, sim/runtime/driver/), which libcudart.so.13
// (sim/runtime/api/) is linked against, so that both APIs of a program share it.
// Every entry point runs its body through `call`, which serialises calls, returns the
// sticky error after a kernel fault, turns ApiError into its code and prints its message
// on stderr once, and records the last error for cudaGetLastError. Before its body it
// runs the launches the program queued (Runtime::drain); `ordered_call` is for the
// stream-ordered calls that queue behind them instead.
#pragma once
#include <functional>
#include <string>

#include "sim/runtime/cuda_abi.hpp"
#include "sim/runtime/runtime.hpp"

#define WARPSIM_API extern "C" __attribute__((visibility("default")))

// libcudart.so.12 is built from api/ too, with WARPSIM_CUDART_12 defined (api12/ holds the
// entry points whose CUDA 12 form differs). An entry point whose CUDA 13 form CUDA 12
// calls by another name (cudaGraphAddNode is CUDA 12's cudaGraphAddNode_v2) is defined as
// WARPSIM_ABI_NAME(its 13 name, its 12 name).
#ifdef WARPSIM_CUDART_12
#define WARPSIM_ABI_NAME(name13, name12) name12
#else
#define WARPSIM_ABI_NAME(name13, name12) name13
#endif

namespace warpsim::runtime::api {

enum class Sticky { Check, Ignore };  // Ignore: calls that still work after a fault

int call(const char* name, const std::function<void(Runtime&)>& body, Sticky sticky = Sticky::Check);
// A runtime API call that is stream work itself (a launch, an event record, a stream wait,
// a memory hint, the <<<>>> configuration and kernel lookups of nvcc's launch stubs): it
// leaves the queued launches queued, and its own launch queues behind them.
int ordered_call(const char* name, const std::function<void(Runtime&)>& body, Sticky sticky = Sticky::Check);
// The same for a driver API call (sim/runtime/driver/): its error is returned, not kept for
// cudaGetLastError. Returns the runtime's code; the driver layer translates it.
int driver_call(const char* name, const std::function<void(Runtime&)>& body, Sticky sticky = Sticky::Check);
// Runs the destructors of user objects whose last reference went in the call just made
// (Runtime::take_due_destructors), outside the runtime's lock, on this thread; returns rc.
int run_due_destructors(int rc);
// Whether the program has called the runtime API (which initialises the driver and makes
// the primary context current, so that driver calls may follow without cuInit/cuCtx*).
bool runtime_api_used();
// The registration nvcc's code makes before main(): it neither counts as using the runtime
// API (a driver program built by nvcc registers its fatbinary too) nor sets its last error.
int registration_call(const char* name, const std::function<void(Runtime&)>& body);
// Runs the launches still queued at exit for the report, their device printf dropped as on
// a GPU, and says so on stderr. nvcc's exit handler unregisters the program's fatbinary
// before warpsim's own exit handler runs, so __cudaUnregisterFatBinary calls this first.
void finish_queued_at_exit();
// Prints "warpsim: MESSAGE" on stderr, once per distinct message.
void print_message(const std::string& message);
// For cudaGetLastError / cudaPeekAtLastError.
int last_error(bool clear);
// Prints "warpsim: NAME is not supported" once per name; returns cudaErrorNotSupported.
int unsupported(const char* name);
// The driver API's: "warpsim: NAME is not supported by warpsim's CUDA driver" once;
// returns cudaErrorNotSupported (the same number as CUDA_ERROR_NOT_SUPPORTED).
int driver_unsupported(const char* name);
// The runtime, or null if the environment's config is bad (the reason is printed).
Runtime* instance();

}  // namespace warpsim::runtime::api
