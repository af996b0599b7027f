// NVRTC programs that ask for a cubin get PTX in its place.
//
// A program that compiles its kernels at run time with NVRTC usually asks for machine code
// for the device it found (`--gpu-architecture=sm_90`, then nvrtcGetCUBIN and
// cuModuleLoadData), as cuda-samples' *_nvrtc programs, CuPy and Jitify do. A cubin holds
// SASS only, which the simulated GPU cannot run. These four entry points stand in front of
// NVIDIA's libnvrtc.so.13 (same names, same version node; libcudart.so.13 is preloaded by
// `warpsim exec`, so they win) and forward to it with one change: an `sm_XX` target becomes
// `compute_XX`, and nvrtcGetCUBINSize/nvrtcGetCUBIN then hand over the PTX NVRTC made, which
// warpsim's cuModuleLoadData loads. A target older than NVRTC compiles for (the C2070's
// sm_20, asked by a program that reads the simulated device's compute capability) becomes
// the oldest it does, compute_75, whose PTX warpsim runs on every device config. Everything
// else is NVRTC's own behaviour: a program compiled for `compute_XX` by its own choice still
// gets NVRTC's error from nvrtcGetCUBIN; a target newer than NVRTC knows, its compile error.
// The first substitution is said once on stderr.
//
// This file depends on nothing of the simulator and on no CUDA header: NVRTC's types are
// declared below as nvrtc.h declares them (an enum is an int; a program is a pointer).
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace {

using nvrtcResult = int;
using nvrtcProgram = struct _nvrtcProgram*;

constexpr nvrtcResult kNvrtcInternalError = 11;  // NVRTC_ERROR_INTERNAL_ERROR
constexpr const char* kVersion = "libnvrtc.so.13";

// The programs whose target was rewritten, until nvrtcDestroyProgram. The process's only
// state here: NVRTC's API has no other place to keep it.
struct Substitutions {
  std::mutex mutex;
  std::set<nvrtcProgram> programs;
  bool said = false;
};

Substitutions& substitutions() {
  static Substitutions s;
  return s;
}

// NVIDIA's entry point behind this one, or null (the program does not link libnvrtc and
// found this one by name).
template <typename Fn>
Fn real(const char* name) {
  void* f = ::dlvsym(RTLD_NEXT, name, kVersion);
  if (!f) f = ::dlsym(RTLD_NEXT, name);
  return reinterpret_cast<Fn>(f);
}

nvrtcResult missing(const char* name) {
  std::fprintf(stderr, "warpsim: %s: NVIDIA's libnvrtc.so.13 is not loaded in this process\n", name);
  return kNvrtcInternalError;
}

// The lowest architecture this NVRTC compiles for (75 for NVRTC 13), or 0 if it cannot say.
int lowest_architecture() {
  using Count = nvrtcResult (*)(int*);
  using List = nvrtcResult (*)(int*);
  static const int lowest = [] {
    auto count = real<Count>("nvrtcGetNumSupportedArchs");
    auto list = real<List>("nvrtcGetSupportedArchs");
    int n = 0;
    if (!count || !list || count(&n) != 0 || n <= 0) return 0;
    std::vector<int> archs(n);
    if (list(archs.data()) != 0) return 0;
    int low = archs[0];
    for (int a : archs) low = a < low ? a : low;
    return low;
  }();
  return lowest;
}

// What the program asked for and what NVRTC is asked for instead.
struct Target {
  std::string asked, given;
  bool cubin = false;  // the program asked for machine code (sm_XY)
};

// "sm_90a" -> "compute_90a". A target older than NVRTC knows (the C2070's sm_20 or
// compute_20, the FX5800's 13) -> compute_75, the lowest NVRTC 13 compiles for, which is
// the PTX warpsim runs on every device config (as `nvcc -arch=sm_75` programs do). An empty
// `given` leaves the option as it is.
Target target_for(const std::string& arch) {
  Target t;
  t.asked = arch;
  t.cubin = arch.rfind("sm_", 0) == 0;
  const size_t digits = t.cubin ? 3 : arch.rfind("compute_", 0) == 0 ? 8 : 0;
  if (digits == 0) return {};
  const std::string rest = arch.substr(digits);
  const int number = std::atoi(rest.c_str());
  const int lowest = lowest_architecture();
  if (number > 0 && lowest > 0 && number < lowest) {
    t.given = "compute_" + std::to_string(lowest);
  } else if (t.cubin) {
    t.given = "compute_" + rest;
  } else {
    return {};
  }
  return t;
}

}  // namespace

// The option forms NVRTC takes: --gpu-architecture=ARCH, -arch=ARCH, and each spelling with
// ARCH as the next option.
extern "C" __attribute__((visibility("default"))) nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions,
                                                                                const char* const* options) {
  using Fn = nvrtcResult (*)(nvrtcProgram, int, const char* const*);
  static Fn next = real<Fn>("nvrtcCompileProgram");
  if (!next) return missing("nvrtcCompileProgram");
  std::vector<std::string> rewritten;
  Target target;
  for (int i = 0; options && i < numOptions; ++i) {
    std::string o = options[i] ? options[i] : "";
    for (const char* flag : {"--gpu-architecture", "-arch"}) {
      const size_t n = std::strlen(flag);
      if (o.compare(0, n, flag) != 0) continue;
      if (o.size() > n && o[n] == '=') {
        const Target t = target_for(o.substr(n + 1));
        if (!t.given.empty()) target = t, o = o.substr(0, n + 1) + t.given;
      } else if (o.size() == n && i + 1 < numOptions && options[i + 1]) {
        rewritten.push_back(o);
        o = options[++i];
        const Target t = target_for(o);
        if (!t.given.empty()) target = t, o = t.given;
      }
      break;
    }
    rewritten.push_back(o);
  }
  if (target.given.empty()) {
    {
      std::lock_guard<std::mutex> lock(substitutions().mutex);
      substitutions().programs.erase(prog);
    }
    return next(prog, numOptions, options);
  }
  std::vector<const char*> argv;
  for (const auto& o : rewritten) argv.push_back(o.c_str());
  const nvrtcResult r = next(prog, static_cast<int>(argv.size()), argv.data());
  std::lock_guard<std::mutex> lock(substitutions().mutex);
  if (target.cubin)
    substitutions().programs.insert(prog);
  else
    substitutions().programs.erase(prog);
  if (r == 0 && !substitutions().said) {
    substitutions().said = true;
    const bool older = target.given != "compute_" + target.asked.substr(target.cubin ? 3 : 8);
    std::fprintf(stderr, "warpsim: NVRTC compiles for %s in place of the %s %s the program asked for%s%s\n",
                 target.given.c_str(), target.asked.c_str(), target.cubin ? "cubin" : "PTX",
                 older ? ", the oldest target NVRTC has (warpsim runs its PTX on every device config)" : "",
                 target.cubin ? "; nvrtcGetCUBIN hands over the PTX, as a cubin's machine code cannot run on the "
                                "simulated GPU"
                              : "");
  }
  return r;
}

namespace {

bool substituted(nvrtcProgram prog) {
  std::lock_guard<std::mutex> lock(substitutions().mutex);
  return substitutions().programs.count(prog) != 0;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t* size) {
  using Fn = nvrtcResult (*)(nvrtcProgram, size_t*);
  static Fn cubin = real<Fn>("nvrtcGetCUBINSize");
  static Fn ptx = real<Fn>("nvrtcGetPTXSize");
  Fn f = substituted(prog) ? ptx : cubin;
  return f ? f(prog, size) : missing("nvrtcGetCUBINSize");
}

extern "C" __attribute__((visibility("default"))) nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char* out) {
  using Fn = nvrtcResult (*)(nvrtcProgram, char*);
  static Fn cubin = real<Fn>("nvrtcGetCUBIN");
  static Fn ptx = real<Fn>("nvrtcGetPTX");
  Fn f = substituted(prog) ? ptx : cubin;
  return f ? f(prog, out) : missing("nvrtcGetCUBIN");
}

extern "C" __attribute__((visibility("default"))) nvrtcResult nvrtcDestroyProgram(nvrtcProgram* prog) {
  using Fn = nvrtcResult (*)(nvrtcProgram*);
  static Fn next = real<Fn>("nvrtcDestroyProgram");
  if (!next) return missing("nvrtcDestroyProgram");
  if (prog) {
    std::lock_guard<std::mutex> lock(substitutions().mutex);
    substitutions().programs.erase(*prog);
  }
  return next(prog);
}
