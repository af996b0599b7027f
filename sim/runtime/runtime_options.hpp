// What a program run under the simulated runtime is told, through the environment (so
// `warpsim exec`, `make run` and autograder scripts all use the same switches):
//   WARPSIM_CONFIG=c2070|fx5800|PATH     device config (default c2070)
//   WARPSIM_SET="k=v;k=v"                config overrides, as `warpsim run --set`
//   WARPSIM_MODE=timing|functional       simulation mode (default timing)
//   WARPSIM_SAMPLE=WAVES                 time only each launch's first WAVES waves of blocks,
//                                        the rest functionally (engine/sampling.hpp; 0: off)
//   WARPSIM_SAMPLE_LAUNCHES=N            time only the first N launches of each kernel and
//                                        shape, the rest functionally with the time of the
//                                        last timed one (engine/launch_sampling.hpp; 0: off)
//   WARPSIM_EPOCH=CYCLES                 timing mode: the SMs and the memory system exchange
//                                        requests every CYCLES cycles (1, the default: every
//                                        cycle; up to 64; engine/sm_phase.hpp, "Epochs")
//   WARPSIM_CACHE_CONTROL=none|all      none (default): each launch finds the caches and DRAM
//                                        as the last one left them, as on hardware; all: each
//                                        starts cold, as Nsight Compute measures by default
//   WARPSIM_CACHES=0|1                   0: functional mode without the L1/L2 model (faster
//                                        for memory-bound programs; no cache hit rates);
//                                        default 1. Timing mode always models them
//   WARPSIM_JSON=PATH                    every launch's statistics as JSON, written at exit
//   WARPSIM_SUMMARY=0|1                  the per-kernel summary on stderr at exit (default 1)
//   WARPSIM_BY_LINE=1                    per-source-line report of each kernel in the summary
//   WARPSIM_THREADS=auto|N               host threads per launch (default auto: every core, at
//                                        most 8): timing mode ticks the SMs on them where that
//                                        measures faster, functional mode runs blocks on them;
//                                        the same statistics and results for any N
//   WARPSIM_MAX_INSTRUCTIONS, WARPSIM_MAX_CYCLES, WARPSIM_MAX_SECONDS   per-launch limits
//   WARPSIM_PROGRAM=NAME                 the program's name in messages (default: argv[0])
//   CUDA_LAUNCH_BLOCKING=1               CUDA's own switch: every launch runs when it is made
//                                        instead of at the program's next synchronising call
//   WARPSIM_EXEC_PID=PID                 the process `warpsim exec` started: any other process
//                                        (one the program started, which inherits the
//                                        variables) simulates its own device and reports it
//                                        as its own (for_other_process)
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "sim/engine/device.hpp"

namespace warpsim::runtime {

struct RuntimeOptions {
  std::string config = "c2070";
  std::vector<std::string> sets;
  SimMode mode = SimMode::Timing;
  uint32_t sample_waves = 0;
  uint32_t sample_launches = 0;
  uint32_t epoch_cycles = 1;
  uint32_t threads = kAutoThreads;
  CacheControl cache_control = CacheControl::Keep;
  bool caches = true;  // WARPSIM_CACHES: false only in functional mode
  std::string json_out;
  bool summary = true;
  bool by_line = false;
  Limits limits;
  std::string program = "program";
  bool launch_blocking = false;  // CUDA_LAUNCH_BLOCKING=1: each launch runs when it is made
  int64_t exec_pid = 0;          // WARPSIM_EXEC_PID (0: not set)

  // Reads the WARPSIM_* variables through `getenv` (injectable for tests). Throws
  // ConfigError naming the variable for a malformed value.
  static RuntimeOptions from_environment(const std::function<const char*(const char*)>& getenv);
};

// The options of process `pid`, named `name`, when it is not the one `warpsim exec` started
// (exec_pid): the report names the process, and the JSON report goes to the path with
// ".PID" before its extension, so that the program's own report is not overwritten.
// Unchanged for the started process itself, or when exec_pid is not set.
void for_other_process(RuntimeOptions& o, int64_t pid, const std::string& name);

// The name `--cache-control` and WARPSIM_CACHE_CONTROL give a setting (Nsight Compute's):
// "none" keeps the caches between launches, "all" flushes them.
const char* cache_control_name(CacheControl c);

// A config name or path resolved to a file: "c2070" -> <source>/configs/c2070.json.
std::string resolve_config_path(const std::string& name_or_path);

}  // namespace warpsim::runtime
