// __device__, __constant__ and __managed__ variables: the host's shadow variable names the
// module variable, which lives in the simulated device's memory once its module is loaded;
// a __managed__ one also has host memory at the same address, synced as managed memory is.
#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "sim/runtime/runtime.hpp"
#include "sim/runtime/runtime_module.hpp"

namespace warpsim::runtime {

const Runtime::VarEntry* Runtime::var_entry(const void* host_var) const {
  if (auto it = vars_.find(host_var); it != vars_.end()) return &it->second;
  // nvcc's host code names a __managed__ variable through the pointer the runtime set
  // (`*counter_ptr`), so a symbol call passes the variable's own (managed) address.
  for (const auto& [key, v] : vars_)
    if (v.managed && *static_cast<void* const*>(key) == host_var && host_var) return &v;
  return nullptr;
}

std::pair<DevPtr, uint64_t> Runtime::symbol(const void* host_var, const char* call) {
  const VarEntry* v = var_entry(host_var);
  if (!v)
    throw ApiError(cuda::ErrorInvalidSymbol,
                   fmt::format("{}: {} is not a registered __device__, __constant__ or __managed__ variable", call,
                               host_var));
  Module& m = loaded(*v->module);
  auto s = device_->symbol(*m.module, v->name);
  if (!s)
    throw ApiError(cuda::ErrorInvalidSymbol,
                   fmt::format("{}: the program registered '{}' but its PTX does not declare it", call, v->name));
  return {s->address, s->size};
}

void Runtime::map_managed_variables(Module& m) {
  const isa::Module& mod = *m.module;
  const uint64_t page = uint64_t(::sysconf(_SC_PAGESIZE));
  for (size_t i = 0; i < mod.globals.size(); ++i) {
    const isa::ModuleVar& v = mod.globals[i];
    if (!v.managed) continue;
    // Device allocations start 2 MiB apart, so each variable has pages of its own.
    const uint64_t base = mod.global_addresses[i];
    const auto kept = m.managed_kept.find(v.name);
    if (kept == m.managed_kept.end() || kept->second != base) {
      const uint64_t bytes = (std::max<uint64_t>(v.size, 1) + page - 1) / page * page;
      void* want = reinterpret_cast<void*>(base);
      void* host =
          ::mmap(want, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
      if (host != want) {
        if (host != MAP_FAILED) ::munmap(host, bytes);
        throw ApiError(cuda::ErrorMemoryAllocation,
                       fmt::format("the __managed__ variable '{}' of {}: cannot map its {} bytes at the device "
                                   "address {:#x} in the program",
                                   v.name, m.name, v.size, base));
      }
      if (kept == m.managed_kept.end()) {
        device_->copy_from_device(host, base, v.size);  // its initial value
      } else {  // kept across a reset but placed elsewhere: the value moves
        std::memcpy(host, reinterpret_cast<const void*>(kept->second), v.size);
        ::munmap(reinterpret_cast<void*>(kept->second), v.size);
      }
    }
    // A kept variable's value is in its host memory; the next launch copies it to the device.
    managed_[base] = Managed{v.size, true};
  }
  m.managed_kept.clear();
  for (const auto& [key, v] : vars_) {
    if (!v.managed || v.module != &m) continue;
    auto s = device_->symbol(mod, v.name);
    if (!s || !managed_.count(s->address))
      throw ApiError(cuda::ErrorInvalidSymbol,
                     fmt::format("the program registered the __managed__ variable '{}', which its PTX {}", v.name,
                                 s ? "does not declare .managed" : "does not declare"));
    // The pointer nvcc's host code reads on every use of the variable.
    *static_cast<void**>(const_cast<void*>(key)) = reinterpret_cast<void*>(s->address);
  }
}

void Runtime::init_module(void** handle) { loaded(module_of(handle, "__cudaInitModule")); }

DevPtr Runtime::symbol_span(const void* host_var, uint64_t bytes, uint64_t offset, bool to_symbol,
                            cuda::MemcpyKind kind, const char* call) {
  auto [base, size] = symbol(host_var, call);
  if (offset > size || bytes > size - offset)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} bytes at offset {} exceed the {}-byte variable '{}'",
                                                        call, bytes, offset, size, var_entry(host_var)->name));
  const cuda::MemcpyKind toward = to_symbol ? cuda::HostToDevice : cuda::DeviceToHost;
  if (kind != toward && kind != cuda::DeviceToDevice && kind != cuda::Default)
    throw ApiError(cuda::ErrorInvalidMemcpyDirection,
                   fmt::format("{}: kind must copy {} the device", call, to_symbol ? "to" : "from"));
  return base + offset;
}

void Runtime::memcpy_to_symbol(const void* host_var, const void* src, uint64_t bytes, uint64_t offset,
                               cuda::MemcpyKind kind) {
  const DevPtr at = symbol_span(host_var, bytes, offset, true, kind, "cudaMemcpyToSymbol");
  memcpy(reinterpret_cast<void*>(at), src, bytes, kind, "cudaMemcpyToSymbol");
}

void Runtime::memcpy_from_symbol(void* dst, const void* host_var, uint64_t bytes, uint64_t offset,
                                 cuda::MemcpyKind kind) {
  const DevPtr at = symbol_span(host_var, bytes, offset, false, kind, "cudaMemcpyFromSymbol");
  memcpy(dst, reinterpret_cast<const void*>(at), bytes, kind, "cudaMemcpyFromSymbol");
}

GraphNode Runtime::symbol_copy_node(bool to_symbol, void* ptr, const void* host_var, uint64_t bytes, uint64_t offset,
                                    cuda::MemcpyKind kind, const char* call) {
  const auto at = reinterpret_cast<void*>(symbol_span(host_var, bytes, offset, to_symbol, kind, call));
  return to_symbol ? linear_copy_node(at, ptr, bytes, kind) : linear_copy_node(ptr, at, bytes, kind);
}

}  // namespace warpsim::runtime
