// Libraries (cudaLibraryLoadData, cuLibraryLoadData and the rest of CUDA 12's
// context-independent loading). A library is a copy of the program's code, loaded as a
// module (runtime_loaded_modules.cpp) when a call first needs it, as CUDA loads lazily:
// an H200 accepted "this is not PTX" and broken PTX at cudaLibraryLoadData and refused them
// at the first cudaLibraryGetKernel (cudaErrorInvalidKernelImage, cudaErrorInvalidPtx;
// tests/750_runtime/programs/library_api.expected). A kernel handle is a handle of its own
// that stands for the module's CUfunction (kernel_aliases_).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "sim/isa/ir.hpp"
#include "sim/runtime/runtime.hpp"
#include "sim/runtime/runtime_module.hpp"

namespace warpsim::runtime {

void check_library_options(const char* call, unsigned n_jit, const int* jit, void** jit_values, unsigned n_lib,
                           const int* lib, void** lib_values, bool file) {
  if (n_jit && (!jit || !jit_values))
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} JIT options but no array of them", call, n_jit));
  if (n_lib && (!lib || !lib_values))
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} library options but no array of them", call, n_lib));
  for (unsigned i = 0; i < n_lib; ++i) {
    if (lib[i] < 0 || lib[i] > 1)
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: libraryOptions[{}] = {} is not a library option", call, i, lib[i]));
    if (lib[i] == 1 && file)
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: the option that the binary is preserved is for code in memory, not a file",
                                 call));
  }
}

void* Runtime::load_library(const void* code, const char* call, uint64_t limit) {
  if (!code) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: code is NULL", call));
  auto lib = std::make_unique<Library>();
  lib->name = fmt::format("{} ({} #{})", options_.program, call, ++libraries_loaded_);
  const auto* bytes = static_cast<const uint8_t*>(code);
  if (is_fatbin_wrapper(code)) {
    const auto* wrapper = static_cast<const cuda::FatbinWrapper*>(code);
    if (wrapper->data) bytes = reinterpret_cast<const uint8_t*>(wrapper->data);
  }
  if (is_fatbin(bytes)) {
    // A header that is implausible, or longer than the file, is kept as far as it goes (at
    // least 16 bytes, zeros after a short file's end): the module loader refuses it at first use.
    uint64_t size = std::min<uint64_t>(limit, 16);
    try {
      if (limit >= 16) size = std::min(fatbin_size(bytes), limit);
    } catch (const FatbinError&) {
    }
    lib->code.assign(reinterpret_cast<const char*>(bytes), size);
    if (lib->code.size() < 16) lib->code.resize(16, '\0');
  } else if (strnlen(reinterpret_cast<const char*>(bytes), 4) == 4 && std::memcmp(bytes, "\x7f" "ELF", 4) == 0) {
    lib->code.assign("\x7f" "ELF", 4);  // a cubin: load_module refuses it at first use, saying how to keep PTX
  } else {
    lib->code = static_cast<const char*>(code);  // PTX is NUL-terminated text
  }
  void* handle = lib.get();
  libraries_[handle] = std::move(lib);
  return handle;
}

void* Runtime::load_library_file(const std::string& path, const char* call) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw ApiError(cuda::ErrorFileNotFound, fmt::format("{}: cannot open {}", call, path));
  std::stringstream s;
  s << f.rdbuf();
  const std::string bytes = s.str();  // NUL-terminated, as PTX text must be
  void* handle = load_library(bytes.c_str(), call, bytes.size());
  libraries_.at(handle)->name = path;
  return handle;
}

Runtime::Library& Runtime::library(void* handle, const char* call) {
  const auto it = libraries_.find(handle);
  if (it == libraries_.end())
    throw ApiError(cuda::ErrorInvalidResourceHandle, fmt::format("{}: {} is not a loaded library", call, handle));
  return *it->second;
}

Runtime::Module& Runtime::library_module_of(Library& lib, const char* call) {
  // A failure leaves the library unloaded: every later use fails the same way.
  if (!lib.module) lib.module = load_module(lib.code.c_str(), lib.name, call);
  return *program_module(lib.module, call);
}

void Runtime::unload_library(void* handle, const char* call) {
  Library& lib = library(handle, call);
  for (const auto& [name, kernel] : lib.kernels) kernel_aliases_.erase(kernel.get());
  if (lib.module) unload_module(lib.module, call);
  libraries_.erase(handle);
  released(handle);
}

void* Runtime::library_kernel(void* handle, const char* name, const char* call) {
  Library& lib = library(handle, call);
  if (!name) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: name is NULL", call));
  library_module_of(lib, call);
  void* function = module_function(lib.module, name, call);  // ErrorSymbolNotFound if there is none
  auto& kernel = lib.kernels[name];
  if (!kernel) kernel = std::make_unique<char>();
  kernel_aliases_[kernel.get()] = function;
  return kernel.get();
}

std::vector<void*> Runtime::library_kernels(void* handle, const char* call) {
  Library& lib = library(handle, call);
  std::vector<void*> out;
  const isa::Module* mod = nullptr;
  try {
    mod = library_module_of(lib, call).module;
  } catch (const ApiError&) {
    return out;  // CUDA counts 0 kernels in code it cannot load, and says nothing
  }
  for (auto it = mod->kernels.rbegin(); it != mod->kernels.rend(); ++it)
    out.push_back(library_kernel(handle, (*it)->name.c_str(), call));
  return out;
}

unsigned Runtime::library_kernel_count(void* handle, const char* call) {
  return unsigned(library_kernels(handle, call).size());
}

std::pair<DevPtr, uint64_t> Runtime::library_global(void* handle, const char* name, bool managed, const char* call) {
  Library& lib = library(handle, call);
  if (!name) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: name is NULL", call));
  const isa::Module& mod = *library_module_of(lib, call).module;
  for (const auto& v : mod.globals) {
    if (v.name != name) continue;
    if (managed && !v.managed) break;
    return module_global(lib.module, name, call);
  }
  for (const auto& k : mod.kernels)  // a kernel's name: CUDA's answer is cudaErrorInvalidValue
    if (k->name == name)
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: '{}' in {} is a kernel, not a variable", call, name,
                                                          lib.name));
  throw ApiError(cuda::ErrorSymbolNotFound, fmt::format("{}: {} declares no {}variable named '{}'", call, lib.name,
                                                        managed ? "__managed__ " : "", name));
}

void* Runtime::library_module(void* handle, const char* call) {
  Library& lib = library(handle, call);
  library_module_of(lib, call);
  return lib.module;
}

void Runtime::library_unified_function(void* handle, const char* symbol, const char* call) {
  Library& lib = library(handle, call);
  if (!symbol) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: symbol is NULL", call));
  const isa::Module& mod = *library_module_of(lib, call).module;
  for (const auto& k : mod.kernels)
    if (k->name == symbol)
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: '{}' in {} is a kernel, not a unified function", call,
                                                          symbol, lib.name));
  throw ApiError(cuda::ErrorSymbolNotFound,
                 fmt::format("{}: {} has no unified function '{}' (the simulated device has no unified function "
                             "pointers)",
                             call, lib.name, symbol));
}

void* Runtime::kernel_library(const void* kernel, const char* call) {
  for (const auto& [handle, lib] : libraries_)
    for (const auto& [name, k] : lib->kernels)
      if (k.get() == kernel) return const_cast<void*>(handle);
  kernel_for(kernel, call);  // not a kernel at all: cudaErrorInvalidDeviceFunction
  throw ApiError(cuda::ErrorInvalidResourceHandle,
                 fmt::format("{}: {} is a kernel the program registered or a module's function, not a kernel of a "
                             "library loaded with cuLibraryLoadData or cudaLibraryLoadData",
                             call, kernel));
}

void* Runtime::kernel_function(const void* kernel, const char* call) {
  if (auto alias = kernel_aliases_.find(kernel); alias != kernel_aliases_.end())
    return const_cast<void*>(alias->second);
  kernel_for(kernel, call);  // cudaErrorInvalidDeviceFunction if it is not a kernel
  return const_cast<void*>(kernel);  // a host stub or a CUfunction already
}

}  // namespace warpsim::runtime
