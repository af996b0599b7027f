// The driver entry point that implements a name at a CUDA version (cuGetProcAddress), for
// the driver layer and the runtime's cudaGetDriverEntryPoint.
#pragma once

namespace warpsim::runtime::driver {

// cudaDriverEntryPointQueryResult / CUdriverProcAddressQueryResult.
enum class ProcStatus { Success = 0, SymbolNotFound = 1, VersionNotSufficient = 2 };

struct ProcAddress {
  void* address = nullptr;
  const char* symbol = nullptr;
  ProcStatus status = ProcStatus::SymbolNotFound;
};

// `cuda_version` as CUDA encodes it (13000 for 13.0); `per_thread`: the per-thread default
// stream form where the name has one at that version.
ProcAddress find_proc_address(const char* name, int cuda_version, bool per_thread);

}  // namespace warpsim::runtime::driver
