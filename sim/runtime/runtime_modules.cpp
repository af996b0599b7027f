// Registration of the program's fatbinaries, kernels and variables, and loading of their PTX.
#include <fmt/format.h>
#include <sys/mman.h>

#include "sim/isa/ptx_parser.hpp"
#include "sim/runtime/runtime.hpp"
#include "sim/runtime/runtime_ipc.hpp"
#include "sim/runtime/runtime_module.hpp"

namespace warpsim::runtime {

Runtime::Runtime(RuntimeOptions options) : options_(std::move(options)), ipc_(std::make_unique<IpcTable>()) {
  sampler_ = fresh_sampler();
  device_ = std::make_unique<Device>(load_device_spec(resolve_config_path(options_.config), options_.sets));
}

Runtime::~Runtime() = default;

void Runtime::reset() {
  // A fresh device: allocations, module variables and the sticky error are gone. The old
  // device is kept so that the statistics of earlier launches stay printable.
  released(nullptr);
  for (const auto& [base, m] : managed_)
    if (!m.variable) ::munmap(reinterpret_cast<void*>(base), m.bytes);
  managed_.clear();
  // __managed__ variables keep their address and value, as on an H200
  // (tests/750_runtime/programs/managed_reset.cu): their host memory stays mapped and their
  // modules are loaded again at once, placing them where they were.
  std::vector<Module*> with_managed;
  for (auto& m : modules_) {
    if (!m->module || m->unloaded) continue;
    for (size_t i = 0; i < m->module->globals.size(); ++i)
      if (m->module->globals[i].managed) m->managed_kept[m->module->globals[i].name] = m->module->global_addresses[i];
    if (!m->managed_kept.empty()) with_managed.push_back(m.get());
  }
  // Pools and graph memory go with the device (graphs stay; launching one that allocates
  // is refused, since its addresses were the old device's).
  pools_.clear();
  doomed_pools_.clear();
  default_pool_ = current_pool_ = nullptr;
  graph_allocations_.clear();
  graph_in_use_ = graph_reserved_ = graph_used_high_ = graph_reserved_high_ = 0;
  conditions_.clear();  // their words were the old device's memory
  condition_chunk_ = 0;
  conditions_in_chunk_ = 0;
  arrays_.clear();  // their memory and the texture/surface objects go with the device
  texture_descs_.clear();
  DeviceSpec spec = device_->spec();
  device_->forget_caches();  // it launches nothing more: its memory system would only take space
  retired_devices_.push_back(std::move(device_));
  device_ = std::make_unique<Device>(std::move(spec));
  // Pinned host memory stays the program's: it is mapped into the new device as well.
  for (const auto& [base, h] : host_allocs_) map_host(base, h);
  for (auto& m : modules_) m->module = nullptr;
  streams_.clear();
  events_.clear();
  event_flags_.clear();
  ipc_reset();
  call_stack_.clear();
  sticky_ = cuda::Success;
  dropped_launches_ = 0;
  pending_launch_limit_ = 2048;  // the device's limits go with it
  pending_device_grids_ = 0;
  // The device's cache configuration goes with the context; the functions' attributes
  // (dynamic-shared opt-in, carveout) stay set, as on the H100 (carveout_calls.expected).
  device_cache_config_ = 0;
  // The kernels are loaded again (new identities) and the caches start cold: launches are
  // timed afresh.
  sampler_ = fresh_sampler();
  fault_visible_ = false;
  sticky_message_.clear();
  for (Module* m : with_managed) loaded(*m);
}


// A program built with relocatable device code (-rdc=true, as dynamic parallelism needs):
// the wrapper's fatbinary is nvlink's (machine code only) and the PTX is in each
// translation unit's own fatbinary, a NULL-terminated array of which the wrapper points to.
std::string Runtime::linked_program_ptx(const cuda::FatbinWrapper& wrapper, Fatbin& first) {
  const auto* const* units = static_cast<const void* const*>(wrapper.filename_or_fatbins);
  std::vector<Fatbin> fatbins;
  for (size_t i = 0; units && units[i]; ++i) {
    const auto* image = static_cast<const uint8_t*>(units[i]);
    fatbins.push_back(read_fatbin({image, fatbin_size(image)}));
  }
  std::string ptx = link_unit_ptx(fatbins, options_.program);
  first = std::move(fatbins.front());
  return ptx;
}

void** Runtime::register_fatbin(const void* wrapper_ptr) {
  auto m = std::make_unique<Module>();
  m->name = options_.program;
  const auto* wrapper = static_cast<const cuda::FatbinWrapper*>(wrapper_ptr);
  try {
    if (!wrapper || wrapper->magic != cuda::kFatbinWrapperMagic)
      throw FatbinError(fmt::format("{}: __cudaRegisterFatBinary: not an nvcc fatbinary wrapper (magic {:#x})",
                                    options_.program, wrapper ? unsigned(wrapper->magic) : 0u));
    if (wrapper->version == cuda::kFatbinWrapperLinked) {
      m->ptx = linked_program_ptx(*wrapper, m->fatbin);
    } else if (wrapper->version == 1) {
      const auto* image = reinterpret_cast<const uint8_t*>(wrapper->data);
      const uint64_t size = fatbin_size(image);
      m->fatbin = read_fatbin({image, size});
      m->ptx = m->fatbin.best_ptx(options_.program);
    } else {
      throw FatbinError(fmt::format("{}: fatbinary wrapper version {} is not one nvcc 12/13 writes", options_.program,
                                    wrapper->version));
    }
  } catch (const Error& e) {
    m->load_error = e.what();
  }
  modules_.push_back(std::move(m));
  return reinterpret_cast<void**>(modules_.back()->handle_storage());
}

Runtime::Module& Runtime::module_of(void** handle, const char* call) {
  for (auto& m : modules_)
    if (reinterpret_cast<void**>(m->handle_storage()) == handle) return *m;
  throw ApiError(cuda::ErrorInvalidResourceHandle, fmt::format("{}: unknown fatbinary handle", call));
}

void Runtime::register_function(void** handle, const void* host_fn, const char* device_name) {
  Module& m = module_of(handle, "__cudaRegisterFunction");
  kernels_[host_fn] = KernelEntry{&m, device_name ? device_name : "", 0};
}

void Runtime::register_var(void** handle, const void* host_var, const char* device_name, uint64_t size, bool constant,
                           bool managed) {
  Module& m = module_of(handle, "__cudaRegisterVar");
  vars_[host_var] = VarEntry{&m, device_name ? device_name : "", size, constant, managed};
}

void Runtime::unregister_fatbin(void** handle) {
  // The program is exiting: nothing is freed here, so that statistics stay readable by
  // the exit report, which runs after this.
  (void)handle;
}

Runtime::Module& Runtime::loaded(Module& m) {
  if (m.module) return m;
  if (!m.load_error.empty()) throw ApiError(cuda::ErrorInvalidPtx, m.load_error);
  try {
    m.module = &device_->load_ptx(m.ptx, m.name + ".ptx", m.managed_kept.empty() ? nullptr : &m.managed_kept);
  } catch (const Error& e) {
    m.load_error = fmt::format("{} (the PTX embedded in {})", e.what(), m.name);
    throw ApiError(cuda::ErrorInvalidPtx, m.load_error);
  }
  try {
    map_managed_variables(m);
  } catch (const ApiError& e) {
    m.module = nullptr;  // not usable: the host could not reach its __managed__ variables
    m.load_error = e.what();
    throw;
  }
  return m;
}

const isa::Kernel& Runtime::kernel_for(const void* host_fn, const char* call) {
  const KernelEntry* e = find_entry(host_fn);
  if (!e)
    throw ApiError(cuda::ErrorInvalidDeviceFunction,
                   fmt::format("{}: {} is not a registered __global__ function", call, host_fn));
  Module& m = loaded(*e->module);
  return m.module->kernel(e->name);
}

Runtime::KernelEntry* Runtime::find_entry(const void* handle) {
  if (auto alias = kernel_aliases_.find(handle); alias != kernel_aliases_.end()) handle = alias->second;
  auto it = kernels_.find(handle);
  return it == kernels_.end() ? nullptr : &it->second;
}

Runtime::KernelEntry& Runtime::entry(const void* handle) {
  KernelEntry* e = find_entry(handle);
  if (!e) throw std::out_of_range("not a kernel handle");
  return *e;
}

const void* Runtime::kernel_handle(const void* host_fn) {
  if (!is_kernel(host_fn))
    throw ApiError(cuda::ErrorInvalidDeviceFunction,
                   fmt::format("__cudaGetKernel: {} is not a registered __global__ function", host_fn));
  return host_fn;
}

}  // namespace warpsim::runtime
