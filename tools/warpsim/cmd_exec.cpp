// `warpsim exec [options] -- ./app ARGS`: run an unmodified CUDA program (built with
// `nvcc -cudart shared`) on the simulated device. warpsim's libcudart.so.13 (or .so.12, for
// a program built by CUDA 12) is put in front of NVIDIA's, the options become WARPSIM_*
// variables (sim/runtime/runtime_options.hpp), and the program replaces this process, so
// its exit status is warpsim's.
#include <fmt/core.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>

#include "sim/foundation/sanitizers.hpp"
#include "sim/spec/device_spec.hpp"
#include "sim/foundation/error.hpp"
#include "sim/engine/device.hpp"
#include "sim/runtime/elf_file.hpp"
#include "tools/warpsim/cli_paths.hpp"
#include "tools/warpsim/commands.hpp"

namespace warpsim::cli {

namespace {

namespace fs = std::filesystem;

struct ExecOptions {
  std::string config = "c2070";
  std::vector<std::string> sets;
  bool functional = false;
  bool no_caches = false;
  uint32_t sample_waves = 0;
  uint32_t epoch = 1;
  uint32_t sample_launches = 0;
  std::string threads = "auto";
  std::string cache_control = "none";
  std::string json_out;
  bool by_line = false;
  bool no_summary = false;
  uint64_t max_instructions = 0, max_cycles = 0;
  double max_seconds = 0;
  std::vector<std::string> command;
};

// The directory holding warpsim's libcudart.so.13, or an error saying how to build it.
std::string runtime_dir() {
  std::string dir = cudart_dir();
  if (!dir.empty()) return dir;
  throw Error(fmt::format("warpsim's CUDA runtime (libcudart.so.13) is not built: run cmake --build build --target "
                          "warpsim_cudart (looked in {} and beside this program)",
                          WARPSIM_CUDART_DIR));
}

// The program as execvp would find it.
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    if (!fs::exists(name)) throw Error(fmt::format("{}: no such program", name));
    return name;
  }
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    fs::path candidate = fs::path(dirs.substr(start, end - start)) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  throw Error(fmt::format("{}: not found in PATH (give ./{} for a program in this folder)", name, name));
}

// Which of warpsim's runtimes the program needs: libcudart.so.12 for a program built by
// CUDA 12, else libcudart.so.13 (a script's CUDA children find either on the library
// path). Refuses programs the runtime cannot stand in for, with the one-line fix.
std::string check_program(const std::string& path) {
  auto elf = runtime::read_elf(path);
  if (!elf) return "libcudart.so.13";  // a script (make, an autograder): its CUDA children get the runtime
  const bool has_device_code = elf->section(".nv_fatbin") != nullptr;
  if (elf->needs_prefix("libcudart.so.13")) return "libcudart.so.13";
  if (elf->needs_prefix("libcudart.so.12")) return "libcudart.so.12";
  if (elf->needs_prefix("libcudart.so"))
    for (const auto& n : elf->needed)
      if (n.rfind("libcudart.so", 0) == 0)
        throw Error(fmt::format("{} is linked against {}; warpsim's runtimes stand in for libcudart.so.12 and "
                                "libcudart.so.13: rebuild it with nvcc 12 or 13 (nvcc -cudart shared)",
                                path, n));
  if (has_device_code)
    throw Error(fmt::format("{} is linked with the static CUDA runtime (nvcc's default), which warpsim cannot "
                            "replace: rebuild it with nvcc -cudart shared",
                            path));
  return "libcudart.so.13";
}

void set(const char* name, const std::string& value) { ::setenv(name, value.c_str(), 1); }

int exec(const ExecOptions& o) {
  if (o.command.empty()) throw Error("warpsim exec: no program given (warpsim exec [options] -- ./app ARGS)");
  const std::string program = find_program(o.command[0]);
  const std::string runtime = check_program(program);
  const std::string dir = runtime_dir();
  const char* old = std::getenv("LD_LIBRARY_PATH");
  set("LD_LIBRARY_PATH", old && *old ? dir + ":" + old : dir);
  // Preloading wins even over a DT_RPATH that names NVIDIA's library.
  const char* preload = std::getenv("LD_PRELOAD");
  const std::string lib = dir + "/" + runtime;
  if (!fs::exists(lib))
    throw Error(fmt::format("warpsim's {} is not built: run cmake --build build --target {}", runtime,
                            runtime == "libcudart.so.12" ? "warpsim_cudart12" : "warpsim_cudart"));
  set("LD_PRELOAD", preload_list(lib, preload ? preload : ""));
  if (kAddressSanitizer) {
    const char* asan = std::getenv("ASAN_OPTIONS");
    set("ASAN_OPTIONS", child_asan_options(asan ? asan : ""));
  }
  // The config and overrides are checked here, so a mistake is warpsim's error, not the
  // program's first CUDA call failing.
  const std::string config = fs::absolute(resolve_config(o.config)).string();
  load_device_spec(config, o.sets);
  set("WARPSIM_CONFIG", config);
  std::string sets;
  for (const auto& s : o.sets) sets += (sets.empty() ? "" : ";") + s;
  set("WARPSIM_SET", sets);
  set("WARPSIM_MODE", o.functional ? "functional" : "timing");
  set("WARPSIM_CACHES", o.no_caches ? "0" : "1");
  set("WARPSIM_SAMPLE", std::to_string(o.sample_waves));
  set("WARPSIM_EPOCH", std::to_string(o.epoch));
  set("WARPSIM_SAMPLE_LAUNCHES", std::to_string(o.sample_launches));
  parse_thread_count(o.threads, "--threads");  // checked here, so a mistake is warpsim's
  set("WARPSIM_THREADS", o.threads);
  set("WARPSIM_CACHE_CONTROL", o.cache_control);
  set("WARPSIM_JSON", o.json_out.empty() ? "" : fs::absolute(o.json_out).string());
  set("WARPSIM_SUMMARY", o.no_summary ? "0" : "1");
  set("WARPSIM_BY_LINE", o.by_line ? "1" : "0");
  set("WARPSIM_MAX_INSTRUCTIONS", std::to_string(o.max_instructions));
  set("WARPSIM_MAX_CYCLES", std::to_string(o.max_cycles));
  set("WARPSIM_MAX_SECONDS", fmt::format("{}", o.max_seconds));
  set("WARPSIM_PROGRAM", fs::path(o.command[0]).filename().string());
  set("WARPSIM_EXEC_PID", std::to_string(::getpid()));  // execv keeps it; the program's children differ
  std::vector<char*> argv;
  for (const auto& a : o.command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execv(program.c_str(), argv.data());
  throw Error(fmt::format("{}: cannot execute: {}", program, std::strerror(errno)));
}

}  // namespace

void register_exec_command(CLI::App& app) {
  auto o = std::make_shared<ExecOptions>();
  CLI::App* cmd = app.add_subcommand(
      "exec", "Run an unmodified CUDA program (nvcc -cudart shared) on the simulated GPU: warpsim exec -- ./app ARGS");
  cmd->add_option("--config", o->config, "device config: c2070, fx5800 or a JSON path")->capture_default_str();
  // One value per --set: otherwise CLI11 takes the `--` and the program's arguments too.
  cmd->add_option("--set", o->sets, "override a config value, e.g. --set sm.count=4 (repeatable)")
      ->allow_extra_args(false);
  cmd->add_flag("--functional", o->functional, "functional simulation only (no timing; faster)");
  cmd->add_flag("--no-caches", o->no_caches,
                "with --functional: leave the L1/L2 model out (faster for memory-bound programs; every count "
                "execution produces is the same, the cache hit rates are absent)")
      ->needs("--functional");
  cmd->add_option("--sample", o->sample_waves,
                  "time only each launch's first WAVES waves of blocks, the rest functionally (time extrapolated; "
                  "6 waves or more, docs/performance.md)")
      ->check(CLI::Range(1, 1000))
      ->excludes("--functional");
  cmd->add_option("--sample-launches", o->sample_launches,
                  "time only the first N launches of each kernel and shape; later ones run functionally and take "
                  "the last timed one's time, scaled by their work")
      ->check(CLI::Range(1, 1000000))
      ->excludes("--functional");
  cmd->add_option("--epoch", o->epoch,
                  "SMs and memory exchange requests every CYCLES cycles instead of every cycle: faster, most with "
                  "--threads, and times that move by a few cycles per memory round trip (docs/performance.md, "
                  "\"Epochs\"); execution counts stay exact, cache and DRAM counts may move with the times")
      ->check(CLI::Range(1u, kMaxEpochCycles))
      ->excludes("--functional")
      ->capture_default_str();
  cmd->add_option("--threads", o->threads,
                  "host threads per launch, or auto (every core the process may use, at most 8): timing mode "
                  "ticks the SMs on them where that measures faster than one thread, functional mode runs "
                  "blocks on them (or, for kernels with global atomics, %clock or printf, the caches on a second "
                  "one); the statistics and results are the same for any count")
      ->capture_default_str();
  cmd->add_option("--cache-control", o->cache_control,
                  "none: each launch finds the caches and DRAM as the last left them, as on hardware; all: "
                  "flushed before each launch, as Nsight Compute measures by default")
      ->check(CLI::IsMember({"none", "all"}))
      ->capture_default_str();
  cmd->add_option("--json", o->json_out, "write every launch's statistics as JSON to this file at exit");
  cmd->add_flag("--by-line", o->by_line, "per source line report of each kernel's costliest launch");
  cmd->add_flag("--no-summary", o->no_summary, "no per-kernel summary on stderr at exit");
  cmd->add_option("--max-instructions", o->max_instructions, "stop a launch after this many warp instructions");
  cmd->add_option("--max-cycles", o->max_cycles, "stop a launch after this many simulated cycles");
  cmd->add_option("--max-seconds", o->max_seconds, "stop a launch after this much host time");
  cmd->add_option("command", o->command, "the program and its arguments (after --)")->required();
  cmd->callback([o] { exec(*o); });
}

}  // namespace warpsim::cli
