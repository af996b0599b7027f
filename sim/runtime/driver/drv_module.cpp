// Driver API: modules the program loads (PTX or fatbinaries, from memory or a file), their
// functions and variables, the JIT linker's single-input case, launches and occupancy.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/isa/ptx_link.hpp"
#include "sim/runtime/driver/driver_context.hpp"
#include "sim/runtime/driver/function_attributes.hpp"
#include "sim/runtime/driver/handle_owners.hpp"

using namespace warpsim::runtime;
using namespace warpsim::runtime::driver;
namespace cuda = warpsim::cuda;
namespace cu = warpsim::cu;

namespace {

// The JIT options a program passes (cuModuleLoadDataEx, cuLinkCreate): warpsim fills the
// logs and the wall time; the others (optimisation level, target, registers) change
// nothing in a simulation.
struct JitLogs {
  char* info = nullptr;
  size_t info_size = 0;
  char* error = nullptr;
  size_t error_size = 0;
  float* wall_ms = nullptr;

  JitLogs(unsigned n, const int* options, void* const* values) {
    if (n && (!options || !values)) throw ApiError(cuda::ErrorInvalidValue, "JIT options: NULL option arrays");
    for (unsigned i = 0; i < n; ++i) {
      switch (options[i]) {
        case 2: wall_ms = static_cast<float*>(values[i]); break;  // CU_JIT_WALL_TIME
        case cu::JitInfoLogBuffer: info = static_cast<char*>(values[i]); break;
        case cu::JitInfoLogBufferSizeBytes: info_size = reinterpret_cast<uintptr_t>(values[i]); break;
        case cu::JitErrorLogBuffer: error = static_cast<char*>(values[i]); break;
        case cu::JitErrorLogBufferSizeBytes: error_size = reinterpret_cast<uintptr_t>(values[i]); break;
        default: break;
      }
    }
  }
  static void put(char* buf, size_t size, const std::string& text) {
    if (!buf || size == 0) return;
    const size_t n = std::min(size - 1, text.size());
    std::memcpy(buf, text.data(), n);
    buf[n] = '\0';
  }
  void succeeded() {
    put(info, info_size, "warpsim: PTX loaded for the simulated device");
    put(error, error_size, "");
    if (wall_ms) *wall_ms = 0;
  }
  void failed(const std::string& why) {
    put(info, info_size, "");
    put(error, error_size, why);
    if (wall_ms) *wall_ms = 0;
  }
};

}  // namespace

WARPSIM_DRIVER_API int cuModuleLoad(void** module, const char* path) {
  return call("cuModuleLoad", Needs::Context, [&](Runtime& rt) {
    require(module, "cuModuleLoad", "module");
    require(path, "cuModuleLoad", "fname");
    *module = rt.load_module_file(path, "cuModuleLoad");
    own(rt, Owned::Module, *module);
    note_owner(*module);
  });
}

WARPSIM_DRIVER_API int cuModuleLoadData(void** module, const void* image) {
  return call("cuModuleLoadData", Needs::Context, [&](Runtime& rt) {
    require(module, "cuModuleLoadData", "module");
    *module = rt.load_module(image, rt.options().program + " (cuModuleLoadData)", "cuModuleLoadData");
    own(rt, Owned::Module, *module);
    note_owner(*module);
  });
}

WARPSIM_DRIVER_API int cuModuleLoadDataEx(void** module, const void* image, unsigned n, int* options, void** values) {
  return call("cuModuleLoadDataEx", Needs::Context, [&](Runtime& rt) {
    require(module, "cuModuleLoadDataEx", "module");
    JitLogs logs(n, options, values);
    try {
      *module = rt.load_module(image, rt.options().program + " (cuModuleLoadDataEx)", "cuModuleLoadDataEx");
      own(rt, Owned::Module, *module);
      note_owner(*module);
      logs.succeeded();
    } catch (const ApiError& e) {
      logs.failed(e.what());
      throw;
    }
  });
}

WARPSIM_DRIVER_API int cuModuleLoadFatBinary(void** module, const void* image) {
  return call("cuModuleLoadFatBinary", Needs::Context, [&](Runtime& rt) {
    require(module, "cuModuleLoadFatBinary", "module");
    *module = rt.load_module(image, rt.options().program + " (cuModuleLoadFatBinary)", "cuModuleLoadFatBinary");
    own(rt, Owned::Module, *module);
    note_owner(*module);
  });
}

WARPSIM_DRIVER_API int cuModuleUnload(void* module) {
  return call(
      "cuModuleUnload", Needs::Context,
      [&](Runtime& rt) {
        rt.unload_module(module, "cuModuleUnload");
        forget_owner(module);
      },
      api::Sticky::Ignore);
}

WARPSIM_DRIVER_API int cuModuleGetFunction(void** function, void* module, const char* name) {
  return call("cuModuleGetFunction", Needs::Context, [&](Runtime& rt) {
    require(function, "cuModuleGetFunction", "hfunc");
    *function = rt.module_function(module, name, "cuModuleGetFunction");
    note_function(*function, module);
  });
}

WARPSIM_DRIVER_API int cuModuleGetGlobal_v2(cu::DevicePtr* dptr, size_t* bytes, void* module, const char* name) {
  return call("cuModuleGetGlobal", Needs::Context, [&](Runtime& rt) {
    auto [address, size] = rt.module_global(module, name, "cuModuleGetGlobal");
    if (dptr) *dptr = address;
    if (bytes) *bytes = size;
  });
}

// --- Functions ---

int warpsim::runtime::driver::function_attribute(Runtime& rt, int attribute, const void* function, const char* call) {
  cuda::FuncAttributes a{};
  rt.func_attributes(&a, function);
  switch (attribute) {
    case cu::FuncMaxThreadsPerBlock: return a.maxThreadsPerBlock;
    case cu::FuncSharedSizeBytes: return int(a.sharedSizeBytes);
    case cu::FuncConstSizeBytes: return int(a.constSizeBytes);
    case cu::FuncLocalSizeBytes: return int(a.localSizeBytes);
    case cu::FuncNumRegs: return a.numRegs;
    case cu::FuncPtxVersion: return a.ptxVersion;
    case cu::FuncBinaryVersion: return a.binaryVersion;
    case cu::FuncCacheModeCa: return a.cacheModeCA;
    case cu::FuncMaxDynamicSharedSizeBytes: return a.maxDynamicSharedSizeBytes;
    case cu::FuncPreferredSharedMemoryCarveout: return a.preferredShmemCarveout;
    case 10: return a.clusterDimMustBeSet;
    case 11: return a.requiredClusterWidth;
    case 12: return a.requiredClusterHeight;
    case 13: return a.requiredClusterDepth;
    case 14: return a.nonPortableClusterSizeAllowed;
    case 15: return a.clusterSchedulingPolicyPreference;
    default:
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} is not a CUfunction_attribute", call, attribute));
  }
}

WARPSIM_DRIVER_API int cuFuncGetAttribute(int* value, int attribute, void* function) {
  return call("cuFuncGetAttribute", Needs::Context, [&](Runtime& rt) {
    require(value, "cuFuncGetAttribute", "pi");
    *value = function_attribute(rt, attribute, function, "cuFuncGetAttribute");
  });
}

WARPSIM_DRIVER_API int cuFuncSetAttribute(void* function, int attribute, int value) {
  // The settable CUfunction_attribute numbers are cudaFuncAttribute's.
  return call("cuFuncSetAttribute", Needs::Context,
              [&](Runtime& rt) { rt.set_func_attribute(function, attribute, value, "cuFuncSetAttribute"); });
}

WARPSIM_DRIVER_API int cuFuncSetCacheConfig(void* function, int config) {
  return call("cuFuncSetCacheConfig", Needs::Context, [&](Runtime& rt) {
    rt.kernel_for(function, "cuFuncSetCacheConfig");
    rt.set_cache_config(function, config);
  });
}

WARPSIM_DRIVER_API int cuFuncGetName(const char** name, void* function) {
  return call("cuFuncGetName", Needs::Context, [&](Runtime& rt) {
    require(name, "cuFuncGetName", "name");
    require(function, "cuFuncGetName", "hfunc");
    *name = rt.function_name(function);
  });
}

WARPSIM_DRIVER_API int cuFuncGetParamInfo(void* function, size_t index, size_t* offset, size_t* size) {
  return call("cuFuncGetParamInfo", Needs::Context, [&](Runtime& rt) {
    const auto [o, s] = rt.param_info(function, index, "cuFuncGetParamInfo");
    if (offset) *offset = o;
    if (size) *size = s;
  });
}

WARPSIM_DRIVER_API int cuFuncGetModule(void** module, void* function) {
  return call("cuFuncGetModule", Needs::Context, [&](Runtime& rt) {
    require(module, "cuFuncGetModule", "hmod");
    *module = rt.function_module(function, "cuFuncGetModule");
  });
}

// A simulated kernel is ready from its module's load on: always CU_FUNCTION_LOADING_STATE_LOADED.
WARPSIM_DRIVER_API int cuFuncIsLoaded(int* state, void* function) {
  return call("cuFuncIsLoaded", Needs::Context, [&](Runtime& rt) {
    require(state, "cuFuncIsLoaded", "state");
    rt.kernel_for(function, "cuFuncIsLoaded");
    *state = 1;
  });
}

WARPSIM_DRIVER_API int cuFuncLoad(void* function) {
  return call("cuFuncLoad", Needs::Context, [&](Runtime& rt) { rt.kernel_for(function, "cuFuncLoad"); });
}

WARPSIM_DRIVER_API int cuFuncSetSharedMemConfig(void* function, int config) {
  return call("cuFuncSetSharedMemConfig", Needs::Context, [&](Runtime& rt) {
    rt.set_shared_mem_config(function, config, "cuFuncSetSharedMemConfig");
  });
}

WARPSIM_DRIVER_API int cuModuleGetFunctionCount(unsigned* count, void* module) {
  return call("cuModuleGetFunctionCount", Needs::Context, [&](Runtime& rt) {
    require(count, "cuModuleGetFunctionCount", "count");
    *count = unsigned(rt.module_functions(module, "cuModuleGetFunctionCount").size());
  });
}

WARPSIM_DRIVER_API int cuModuleEnumerateFunctions(void** functions, unsigned n, void* module) {
  return call("cuModuleEnumerateFunctions", Needs::Context, [&](Runtime& rt) {
    require(functions, "cuModuleEnumerateFunctions", "functions");
    const auto all = rt.module_functions(module, "cuModuleEnumerateFunctions");
    for (size_t i = 0; i < all.size() && i < n; ++i) functions[i] = all[i];
  });
}

// CU_MODULE_LAZY_LOADING (2), CUDA's default since 12.2, unless CUDA_MODULE_LOADING=EAGER
// (1). warpsim loads a module's PTX when the program loads the module, and a library's at
// its first use, either way.
WARPSIM_DRIVER_API int cuModuleGetLoadingMode(int* mode) {
  return check("cuModuleGetLoadingMode", Needs::Init, [&] {
    require(mode, "cuModuleGetLoadingMode", "mode");
    const char* env = std::getenv("CUDA_MODULE_LOADING");
    *mode = env && std::string_view(env) == "EAGER" ? 1 : 2;
  });
}

// --- Launch ---

namespace {

// cuLaunchKernel's `extra`: the arguments packed in one buffer at their PTX offsets.
std::vector<void*> packed_arguments(Runtime& rt, void* function, void** extra) {
  const warpsim::isa::Kernel& k = rt.kernel_for(function, "cuLaunchKernel");
  const uint8_t* buffer = nullptr;
  size_t size = 0;
  bool size_given = false;
  for (size_t i = 0; extra[i] != cu::kLaunchParamEnd; i += 2) {
    if (extra[i] == cu::kLaunchParamBufferPointer) {
      buffer = static_cast<const uint8_t*>(extra[i + 1]);
    } else if (extra[i] == cu::kLaunchParamBufferSize) {
      size = *static_cast<const size_t*>(extra[i + 1]);
      size_given = true;
    } else {
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("cuLaunchKernel: extra[{}] is not CU_LAUNCH_PARAM_BUFFER_POINTER, _SIZE or _END", i));
    }
  }
  if (!buffer || !size_given)
    throw ApiError(cuda::ErrorInvalidValue,
                   "cuLaunchKernel: extra needs both CU_LAUNCH_PARAM_BUFFER_POINTER and CU_LAUNCH_PARAM_BUFFER_SIZE");
  // The driver reads every parameter from the buffer whatever size it was told (an H100
  // launched with a size 12 bytes short: driver_api.expected); warpsim does the same and
  // says so.
  std::vector<void*> args;
  for (const auto& p : k.params) {
    if (p.offset + p.size > size)
      api::print_message(fmt::format("cuLaunchKernel: the argument buffer is said to hold {} bytes, but {}'s "
                                     "parameter '{}' takes bytes {}-{}; they are read from the buffer anyway, as the "
                                     "driver does",
                                     size, k.name, p.name, p.offset, p.offset + p.size));
    args.push_back(const_cast<uint8_t*>(buffer + p.offset));
  }
  return args;
}

int launch(const char* name, void* function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
           unsigned bz, unsigned shared, void* stream, void** params, void** extra, bool cooperative) {
  return call(name, Needs::Context, [&](Runtime& rt) {
    if (!function) throw ApiError(cuda::ErrorInvalidResourceHandle, fmt::format("{}: f is NULL", name));
    require_same_context(owner_of(function), "the function", stream_context(stream), "the stream", name);
    if (params && extra)
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: kernelParams and extra are both given", name));
    std::vector<void*> packed;
    if (extra) packed = packed_arguments(rt, function, extra);
    rt.launch(function, cuda::Dim3{gx, gy, gz}, cuda::Dim3{bx, by, bz}, extra ? packed.data() : params, shared, stream,
              cooperative);
  });
}

}  // namespace

WARPSIM_DRIVER_API int cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                      unsigned bz, unsigned shared, void* stream, void** params, void** extra) {
  return launch("cuLaunchKernel", f, gx, gy, gz, bx, by, bz, shared, stream, params, extra, false);
}

WARPSIM_DRIVER_API int cuLaunchKernel_ptsz(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                           unsigned bz, unsigned shared, void* stream, void** params, void** extra) {
  return launch("cuLaunchKernel", f, gx, gy, gz, bx, by, bz, shared, stream, params, extra, false);
}

WARPSIM_DRIVER_API int cuLaunchCooperativeKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                                 unsigned by, unsigned bz, unsigned shared, void* stream,
                                                 void** params) {
  return launch("cuLaunchCooperativeKernel", f, gx, gy, gz, bx, by, bz, shared, stream, params, nullptr, true);
}

// --- Occupancy ---

WARPSIM_DRIVER_API int cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, void* f, int block_size,
                                                                            size_t dynamic_shared, unsigned) {
  return call("cuOccupancyMaxActiveBlocksPerMultiprocessor", Needs::Context, [&](Runtime& rt) {
    require(blocks, "cuOccupancyMaxActiveBlocksPerMultiprocessor", "numBlocks");
    *blocks = rt.occupancy_blocks_per_sm(f, block_size, dynamic_shared);
  });
}

WARPSIM_DRIVER_API int cuOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, void* f, int block_size,
                                                                   size_t dynamic_shared) {
  return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, f, block_size, dynamic_shared, 0);
}

using BlockToShared = size_t (*)(int);

WARPSIM_DRIVER_API int cuOccupancyMaxPotentialBlockSizeWithFlags(int* min_grid, int* block_size, void* f,
                                                                 BlockToShared to_shared, size_t dynamic_shared,
                                                                 int block_size_limit, unsigned) {
  return call("cuOccupancyMaxPotentialBlockSize", Needs::Context, [&](Runtime& rt) {
    require(min_grid, "cuOccupancyMaxPotentialBlockSize", "minGridSize");
    require(block_size, "cuOccupancyMaxPotentialBlockSize", "blockSize");
    auto [grid, block] = rt.max_potential_block_size(
        f, [&](int b) -> uint64_t { return to_shared ? to_shared(b) : dynamic_shared; }, block_size_limit);
    *min_grid = grid;
    *block_size = block;
  });
}

WARPSIM_DRIVER_API int cuOccupancyMaxPotentialBlockSize(int* min_grid, int* block_size, void* f,
                                                        BlockToShared to_shared, size_t dynamic_shared,
                                                        int block_size_limit) {
  return cuOccupancyMaxPotentialBlockSizeWithFlags(min_grid, block_size, f, to_shared, dynamic_shared,
                                                   block_size_limit, 0);
}

// --- The JIT linker: one PTX or fatbinary input becomes the image ---
// Several PTX modules (separate compilation) are linked into one (isa/ptx_link.hpp); cubins
// and objects hold machine code warpsim cannot run, and are refused by name.

namespace {
struct LinkState {
  JitLogs logs;
  std::vector<std::string> inputs;  // the images added (NUL-terminated PTX or fatbinary bytes)
  std::vector<std::string> names;   // and their names, for link errors
  bool all_ptx = true;
  std::string image;                // cuLinkComplete's output, owned until cuLinkDestroy
};

// The live link states (process-wide, as the driver's handles are). Every driver call
// body runs under the process context's lock, so the set needs no lock of its own.
std::vector<std::unique_ptr<LinkState>>& link_states() {
  static auto* states = new std::vector<std::unique_ptr<LinkState>>;
  return *states;
}

LinkState* live_link(void* state, const char* call) {
  auto& states = link_states();
  auto it = std::find_if(states.begin(), states.end(), [&](const auto& s) { return s.get() == state; });
  if (it == states.end())
    throw ApiError(cuda::ErrorInvalidResourceHandle, fmt::format("{}: {} is not a live link state", call, state));
  return it->get();
}
}  // namespace

WARPSIM_DRIVER_API int cuLinkCreate_v2(unsigned n, int* options, void** values, void** state) {
  return check("cuLinkCreate", Needs::Context, [&] {
    require(state, "cuLinkCreate", "stateOut");
    auto s = std::make_unique<LinkState>(LinkState{JitLogs(n, options, values), {}, {}, true, {}});
    *state = s.get();
    link_states().push_back(std::move(s));
  });
}

namespace {
void add_input(void* state, int type, const void* data, size_t size, const char* name, const char* call) {
  LinkState* s = live_link(state, call);
  std::string what = name && *name ? name : "the input";
  if (type != cu::JitInputPtx && type != cu::JitInputFatbinary) {
    std::string why = fmt::format("{}: {} is a {}, which holds GPU machine code that warpsim cannot run (it runs PTX; "
                                  "add the PTX, or a fatbinary that keeps it)",
                                  call, what,
                                  type == cu::JitInputCubin    ? "cubin"
                                  : type == cu::JitInputObject ? "host object with device code"
                                  : type == cu::JitInputLibrary ? "library"
                                                                : "input of another kind");
    s->logs.failed(why);
    throw ApiError(cuda::ErrorNotSupported, why);
  }
  // Several inputs are linked (isa/ptx_link.hpp): PTX only, as a fatbinary's PTX is one module.
  if (!s->inputs.empty() && (type != cu::JitInputPtx || !s->all_ptx)) {
    std::string why = fmt::format("{}: {} is a second input and {} a fatbinary; warpsim links several PTX inputs "
                                  "only: add each unit's PTX",
                                  call, what, type != cu::JitInputPtx ? "it is" : "the first is");
    s->logs.failed(why);
    throw ApiError(cuda::ErrorNotSupported, why);
  }
  const auto* bytes = static_cast<const char*>(data);
  std::string image(bytes, bytes + size);
  if (type == cu::JitInputPtx) image = std::string(image.c_str());  // up to its NUL, then one NUL of our own
  s->all_ptx = s->all_ptx && type == cu::JitInputPtx;
  s->inputs.push_back(std::move(image));
  s->names.push_back(what);
}
}  // namespace

WARPSIM_DRIVER_API int cuLinkAddData_v2(void* state, int type, void* data, size_t size, const char* name, unsigned,
                                        int*, void**) {
  return check("cuLinkAddData", Needs::Context, [&] {
    require(data, "cuLinkAddData", "data");
    add_input(state, type, data, size, name, "cuLinkAddData");
  });
}

WARPSIM_DRIVER_API int cuLinkAddFile_v2(void* state, int type, const char* path, unsigned, int*, void**) {
  return check("cuLinkAddFile", Needs::Context, [&] {
    require(path, "cuLinkAddFile", "path");
    FILE* f = std::fopen(path, "rb");
    if (!f) throw ApiError(cuda::ErrorFileNotFound, fmt::format("cuLinkAddFile: cannot open {}", path));
    std::string bytes;
    char buf[1 << 16];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) bytes.append(buf, n);
    std::fclose(f);
    add_input(state, type, bytes.c_str(), bytes.size() + 1, path, "cuLinkAddFile");
  });
}

WARPSIM_DRIVER_API int cuLinkComplete(void* state, void** image, size_t* size) {
  return check("cuLinkComplete", Needs::Context, [&] {
    LinkState* s = live_link(state, "cuLinkComplete");
    require(image, "cuLinkComplete", "cubinOut");
    if (s->inputs.empty()) {
      s->logs.failed("cuLinkComplete: nothing was added");
      throw ApiError(cuda::ErrorInvalidValue, "cuLinkComplete: nothing was added to the link");
    }
    if (s->inputs.size() == 1) {
      s->image = s->inputs.front();
    } else {
      std::vector<warpsim::isa::PtxUnit> units;
      for (size_t i = 0; i < s->inputs.size(); ++i) units.push_back({s->names[i], s->inputs[i]});
      try {
        s->image = warpsim::isa::link_ptx(units);
      } catch (const warpsim::PtxError& e) {
        s->logs.failed(e.what());
        throw ApiError(cuda::ErrorInvalidPtx, e.what());
      }
    }
    s->logs.succeeded();
    *image = s->image.data();
    if (size) *size = s->image.size() + 1;
  });
}

WARPSIM_DRIVER_API int cuLinkDestroy(void* state) {
  return check("cuLinkDestroy", Needs::Init, [&] {
    LinkState* s = live_link(state, "cuLinkDestroy");
    auto& states = link_states();
    states.erase(std::find_if(states.begin(), states.end(), [&](const auto& p) { return p.get() == s; }));
  });
}
