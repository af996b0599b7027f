// __device__ and __constant__ variables: the host's shadow variable names the module
// variable, which lives in the simulated device's memory once its module is loaded.
#include <fmt/format.h>

#include "sim/runtime/runtime.hpp"
#include "sim/runtime/runtime_module.hpp"

namespace warpsim::runtime {

std::pair<DevPtr, uint64_t> Runtime::symbol(const void* host_var, const char* call) {
  auto it = vars_.find(host_var);
  if (it == vars_.end())
    throw ApiError(cuda::ErrorInvalidSymbol,
                   fmt::format("{}: {} is not a registered __device__ or __constant__ variable", call, host_var));
  const VarEntry& v = it->second;
  if (v.managed)
    throw ApiError(cuda::ErrorNotSupported,
                   fmt::format("{}: '{}' is a __managed__ variable, which warpsim does not support yet", call, v.name));
  Module& m = loaded(*v.module);
  auto s = device_->symbol(*m.module, v.name);
  if (!s)
    throw ApiError(cuda::ErrorInvalidSymbol,
                   fmt::format("{}: the program registered '{}' but its PTX does not declare it", call, v.name));
  return {s->address, s->size};
}

void Runtime::memcpy_to_symbol(const void* host_var, const void* src, uint64_t bytes, uint64_t offset,
                               cuda::MemcpyKind kind) {
  auto [base, size] = symbol(host_var, "cudaMemcpyToSymbol");
  if (offset > size || bytes > size - offset)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("cudaMemcpyToSymbol: {} bytes at offset {} exceed the {}-byte variable '{}'", bytes,
                               offset, size, vars_.at(host_var).name));
  if (kind != cuda::HostToDevice && kind != cuda::DeviceToDevice && kind != cuda::Default)
    throw ApiError(cuda::ErrorInvalidMemcpyDirection, "cudaMemcpyToSymbol: kind must copy to the device");
  memcpy(reinterpret_cast<void*>(base + offset), src, bytes, kind, "cudaMemcpyToSymbol");
}

void Runtime::memcpy_from_symbol(void* dst, const void* host_var, uint64_t bytes, uint64_t offset,
                                 cuda::MemcpyKind kind) {
  auto [base, size] = symbol(host_var, "cudaMemcpyFromSymbol");
  if (offset > size || bytes > size - offset)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("cudaMemcpyFromSymbol: {} bytes at offset {} exceed the {}-byte variable '{}'", bytes,
                               offset, size, vars_.at(host_var).name));
  if (kind != cuda::DeviceToHost && kind != cuda::DeviceToDevice && kind != cuda::Default)
    throw ApiError(cuda::ErrorInvalidMemcpyDirection, "cudaMemcpyFromSymbol: kind must copy from the device");
  memcpy(dst, reinterpret_cast<const void*>(base + offset), bytes, kind, "cudaMemcpyFromSymbol");
}

}  // namespace warpsim::runtime
