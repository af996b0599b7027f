// cudaGetDriverEntryPoint: a driver entry point's address by name, from the driver this
// runtime sits on (sim/runtime/driver/drv_proc_address.cpp). As NVIDIA's runtime answers,
// a name with no entry point for the version is cudaSuccess with a NULL function and the
// status saying why.
#include <fmt/format.h>

#include "sim/runtime/driver/process_context.hpp"
#include "sim/runtime/driver/proc_address.hpp"

using namespace warpsim::runtime;
using warpsim::runtime::api::call;
namespace cuda = warpsim::cuda;

namespace {

constexpr unsigned kRuntimeVersion = 13000;  // CUDART_VERSION of the runtime this stands in for
// cudaEnableDefault 0, cudaEnableLegacyStream 1, cudaEnablePerThreadDefaultStream 2.
constexpr unsigned long long kPerThread = 2;

int entry_point(const char* name, const char* symbol, void** fn, unsigned version, unsigned long long flags,
                int* status, bool per_thread_build) {
  return call(name, [&](Runtime&) {
    if (!symbol || !fn) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: symbol or funcPtr is NULL", name));
    if (flags > 3) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: flags {}", name, flags));
    // Default means the program's own build: the _ptsz entry points are what a program built
    // with --default-stream per-thread calls.
    const bool per_thread = (flags & kPerThread) != 0 || (flags == 0 && per_thread_build);
    const driver::ProcAddress p = driver::find_proc_address(symbol, static_cast<int>(version), per_thread);
    *fn = p.address;
    if (status) *status = static_cast<int>(p.status);
  });
}

}  // namespace

WARPSIM_API int cudaGetDriverEntryPoint(const char* symbol, void** fn, unsigned long long flags, int* status) {
  return entry_point("cudaGetDriverEntryPoint", symbol, fn, kRuntimeVersion, flags, status, false);
}
WARPSIM_API int cudaGetDriverEntryPoint_ptsz(const char* symbol, void** fn, unsigned long long flags, int* status) {
  return entry_point("cudaGetDriverEntryPoint", symbol, fn, kRuntimeVersion, flags, status, true);
}
WARPSIM_API int cudaGetDriverEntryPointByVersion(const char* symbol, void** fn, unsigned version,
                                                 unsigned long long flags, int* status) {
  return entry_point("cudaGetDriverEntryPointByVersion", symbol, fn, version, flags, status, false);
}
WARPSIM_API int cudaGetDriverEntryPointByVersion_ptsz(const char* symbol, void** fn, unsigned version,
                                                      unsigned long long flags, int* status) {
  return entry_point("cudaGetDriverEntryPointByVersion", symbol, fn, version, flags, status, true);
}
