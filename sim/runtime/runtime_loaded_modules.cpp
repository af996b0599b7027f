// Modules a program loads itself through the driver API (cuModuleLoad, cuModuleLoadData,
// cuLinkComplete's image): PTX text or a fatbinary holding PTX, parsed at load as the
// driver's JIT compiles at load. Their kernels become CUfunction handles that every launch
// and attribute call takes like the host stubs nvcc registers.
#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "sim/isa/ptx_parser.hpp"
#include "sim/runtime/runtime.hpp"
#include "sim/runtime/runtime_module.hpp"

namespace warpsim::runtime {

namespace {

// PTX text starts with comments, blank lines or directives, and declares its version.
bool looks_like_ptx(const char* text) {
  const size_t n = strnlen(text, 1 << 16);
  return std::string_view(text, n).find(".version") != std::string_view::npos;
}

}  // namespace

void* Runtime::load_module(const void* image, const std::string& name, const char* call) {
  if (!image) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: image is NULL", call));
  auto m = std::make_unique<Module>();
  m->name = name;
  m->program_loaded = true;
  const auto* bytes = static_cast<const uint8_t*>(image);
  // Text shorter than 4 bytes is neither magic (no magic has a zero byte): do not read past it.
  const bool has_word = strnlen(static_cast<const char*>(image), 4) == 4;
  try {
    if (!has_word) {
      throw ApiError(cuda::ErrorInvalidKernelImage,
                     fmt::format("{}: {} is neither PTX text, a fatbinary nor a cubin", call, name));
    } else if (is_fatbin_wrapper(bytes)) {
      const auto* wrapper = static_cast<const cuda::FatbinWrapper*>(image);
      if (!wrapper->data)
        throw ApiError(cuda::ErrorInvalidKernelImage, fmt::format("{}: {}'s fatbinary wrapper has no data", call, name));
      bytes = reinterpret_cast<const uint8_t*>(wrapper->data);
    }
    if (is_fatbin(bytes)) {
      m->fatbin = read_fatbin({bytes, fatbin_size(bytes)});
      m->ptx = m->fatbin.best_ptx(name);
    } else if (std::memcmp(bytes, "\x7f" "ELF", 4) == 0) {
      throw ApiError(cuda::ErrorNoKernelImageForDevice,
                     fmt::format("{}: {} is a cubin (GPU machine code only), which warpsim cannot run: it runs PTX. "
                                 "Load the PTX instead (nvcc -ptx), or a fatbinary that keeps it (nvcc -fatbin "
                                 "-arch=sm_75 embeds compute_75 PTX)",
                                 call, name));
    } else if (looks_like_ptx(static_cast<const char*>(image))) {
      m->ptx = static_cast<const char*>(image);
    } else {
      throw ApiError(cuda::ErrorInvalidKernelImage,
                     fmt::format("{}: {} is neither PTX text, a fatbinary nor a cubin", call, name));
    }
  } catch (const FatbinError& e) {
    // A fatbinary with SASS only has no image for the simulated device; a damaged one is
    // not an image at all.
    const bool sass_only = std::string_view(e.what()).find("no PTX") != std::string_view::npos;
    throw ApiError(sass_only ? cuda::ErrorNoKernelImageForDevice : cuda::ErrorInvalidKernelImage,
                   fmt::format("{}: {}", call, e.what()));
  }
  try {
    m->module = &device_->load_ptx(m->ptx, name);
  } catch (const Error& e) {
    throw ApiError(cuda::ErrorInvalidPtx, fmt::format("{}: {}", call, e.what()));
  }
  map_managed_variables(*m);  // cuModuleGetGlobal gives the host-visible address
  modules_.push_back(std::move(m));
  return modules_.back()->handle_storage();
}

void* Runtime::load_module_file(const std::string& path, const char* call) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw ApiError(cuda::ErrorFileNotFound, fmt::format("{}: cannot open {}", call, path));
  std::stringstream s;
  s << f.rdbuf();
  const std::string bytes = s.str();  // NUL-terminated, as PTX text must be
  if (bytes.size() < 4) throw ApiError(cuda::ErrorInvalidKernelImage, fmt::format("{}: {} is too short", call, path));
  return load_module(bytes.c_str(), path, call);
}

Runtime::Module* Runtime::program_module(void* handle, const char* call) {
  for (auto& m : modules_)
    if (m->handle_storage() == handle && m->program_loaded && !m->unloaded) return m.get();
  throw ApiError(cuda::ErrorInvalidResourceHandle, fmt::format("{}: {} is not a loaded module", call, handle));
}

void Runtime::unload_module(void* module, const char* call) {
  Module* m = program_module(module, call);
  for (const auto& [name, handle] : m->functions) kernels_.erase(handle);
  m->functions.clear();
  m->unloaded = true;  // its device memory (module variables) stays: addresses are not reused
  released(module);
}

void* Runtime::module_function(void* module, const char* name, const char* call) {
  if (!name) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: name is NULL", call));
  Module* m = program_module(module, call);
  if (auto it = m->functions.find(name); it != m->functions.end()) return it->second;
  const isa::Module& mod = *loaded(*m).module;
  bool found = false;
  for (const auto& k : mod.kernels) found = found || k->name == name;
  if (!found) {
    std::string names;
    for (const auto& k : mod.kernels) names += (names.empty() ? "" : ", ") + k->name;
    throw ApiError(cuda::ErrorSymbolNotFound,
                   fmt::format("{}: {} has no kernel named '{}' (it has: {}; C++ kernels go by their mangled name "
                               "unless declared extern \"C\")",
                               call, m->name, name, names.empty() ? "none" : names));
  }
  handles_.push_back(std::make_unique<char>());
  void* handle = handles_.back().get();
  m->functions[name] = handle;
  kernels_[handle] = KernelEntry{m, name, 0};
  return handle;
}

std::vector<void*> Runtime::module_functions(void* module, const char* call) {
  Module* m = program_module(module, call);
  std::vector<void*> out;
  for (const auto& k : loaded(*m).module->kernels) out.push_back(module_function(module, k->name.c_str(), call));
  return out;
}

void* Runtime::function_module(const void* function, const char* call) {
  kernel_for(function, call);  // cudaErrorInvalidDeviceFunction if it is not a kernel
  return entry(function).module->handle_storage();
}

std::pair<DevPtr, uint64_t> Runtime::module_global(void* module, const char* name, const char* call) {
  if (!name) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: name is NULL", call));
  Module* m = program_module(module, call);
  auto s = device_->symbol(*loaded(*m).module, name);
  if (!s)
    throw ApiError(cuda::ErrorSymbolNotFound,
                   fmt::format("{}: {} declares no .global or .const variable named '{}'", call, m->name, name));
  return {s->address, s->size};
}

}  // namespace warpsim::runtime
