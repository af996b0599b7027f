// Driver API: cuGetProcAddress, the entry-point lookup by name and CUDA version that the
// runtime's cudaGetDriverEntryPoint and libraries use. driver_versions.inc (generated from
// the toolkit's cudaTypedefs.h) says which symbol implements each name at each version; the
// address is that symbol's in this library, implemented or one that says it is not.
#include <dlfcn.h>
#include <fmt/format.h>

#include <cstring>

#include "sim/runtime/driver/driver_context.hpp"
#include "sim/runtime/driver/proc_address.hpp"

using namespace warpsim::runtime;
using namespace warpsim::runtime::driver;
namespace cuda = warpsim::cuda;

namespace {

struct Version {
  const char* name;
  int since;         // the CUDA version (1000 * major + 10 * minor) it appeared in
  bool per_thread;   // the per-thread default stream form
  const char* symbol;
};

constexpr Version kVersions[] = {
#define V(name, since, per_thread, symbol) {name, since, per_thread != 0, symbol},
#include "sim/runtime/driver/driver_versions.inc"
#undef V
};

// This library's own handle (not whichever libcuda.so.1 the process might load by name).
void* self() {
  static void* handle = [] {
    Dl_info info{};
    dladdr(reinterpret_cast<void*>(&self), &info);
    return dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  }();
  return handle;
}

}  // namespace

namespace warpsim::runtime::driver {

ProcAddress find_proc_address(const char* name, int cuda_version, bool per_thread) {
  ProcAddress found;
  if (!name) return found;
  const Version* legacy = nullptr;
  const Version* threaded = nullptr;
  bool known = false;
  for (const Version& v : kVersions) {
    if (std::strcmp(v.name, name) != 0) continue;
    known = true;
    if (v.since > cuda_version) continue;
    (v.per_thread ? threaded : legacy) = &v;  // the table is sorted by version: the last fits best
  }
  if (!known) {
    found.status = ProcStatus::SymbolNotFound;
    return found;
  }
  const Version* v = per_thread && threaded ? threaded : legacy;
  if (!v) {
    found.status = ProcStatus::VersionNotSufficient;
    return found;
  }
  found.symbol = v->symbol;
  found.address = self() ? dlsym(self(), v->symbol) : nullptr;
  found.status = found.address ? ProcStatus::Success : ProcStatus::SymbolNotFound;
  return found;
}

}  // namespace warpsim::runtime::driver

namespace {
// CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM; DEFAULT (0) and LEGACY_STREAM (1) find the
// legacy forms (a program built with per-thread streams gets its forms from cuda.h's names).
constexpr unsigned long long kPerThread = 1ull << 1;

// Allowed before cuInit, as on an H200 (the functions it finds then answer
// CUDA_ERROR_NOT_INITIALIZED until cuInit): libraries such as cuBLAS look up cuInit this way.
int get_proc_address(const char* symbol, void** pfn, int version, unsigned long long flags, int* status) {
  return check("cuGetProcAddress", Needs::Nothing, [&] {
    if (!symbol || !pfn) throw ApiError(cuda::ErrorInvalidValue, "cuGetProcAddress: symbol or pfn is NULL");
    if (flags > 3) throw ApiError(cuda::ErrorInvalidValue, fmt::format("cuGetProcAddress: flags {}", flags));
    const ProcAddress p = find_proc_address(symbol, version, (flags & kPerThread) != 0);
    *pfn = p.address;
    if (status) *status = int(p.status);
    // Not found is a success with the status saying why, as NVIDIA's driver answers (an H100:
    // tests/750_runtime/programs/proc_address.expected); warpsim says it once on stderr.
    if (p.status != ProcStatus::Success)
      api::print_message(fmt::format("cuGetProcAddress: {} {} for CUDA {}.{}", symbol,
                                     p.status == ProcStatus::SymbolNotFound ? "is not a driver entry point"
                                                                            : "did not exist yet",
                                     version / 1000, version % 1000 / 10));
  });
}
}  // namespace

WARPSIM_DRIVER_API int cuGetProcAddress_v2(const char* symbol, void** pfn, int version, unsigned long long flags,
                                           int* status) {
  return get_proc_address(symbol, pfn, version, flags, status);
}

WARPSIM_DRIVER_API int cuGetProcAddress(const char* symbol, void** pfn, int version, unsigned long long flags) {
  return get_proc_address(symbol, pfn, version, flags, nullptr);
}

// NVIDIA's private tables of driver internals (undocumented): not there. NVRTC asks for them
// while it compiles and carries on; NVIDIA's prebuilt libraries need them to initialise.
WARPSIM_DRIVER_API int cuGetExportTable(const void** table, const void* /*table_id*/) {
  if (table) *table = nullptr;
  api::print_message(
      "cuGetExportTable (NVIDIA's private driver tables) is not supported by warpsim's CUDA driver "
      "(CUDA_ERROR_NOT_SUPPORTED): NVRTC carries on without it, but NVIDIA's prebuilt libraries that need it "
      "(cuBLAS, cuFFT, cuSPARSE, cuRAND's host API) fail to initialise; write the kernels in the program instead");
  return cuda::ErrorNotSupported;
}
