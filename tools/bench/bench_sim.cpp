// Simulation speed: simulated warp instructions per host second for the textbook kernels
// named in the issues (tiled matmul 512x512, reductions), in functional and timing mode,
// and the timing/functional ratio measured in the same run. Prints figures; asserts nothing.
//   build/tools/bench/bench_sim [--config c2070|fx5800|PATH] [--repeat N]
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "sim/spec/device_spec.hpp"
#include "sim/foundation/error.hpp"
#include "sim/launch/launch_spec.hpp"

using namespace warpsim;

namespace {

struct Case {
  const char* name;
  const char* spec;
};

double run_once(const DeviceSpec& dev_spec, const LaunchSpec& spec, SimMode mode, uint64_t& insts, uint64_t& cycles) {
  Device dev(dev_spec);
  PreparedLaunch p = prepare(dev, spec);
  LaunchOptions o;
  o.mode = mode;
  auto t0 = std::chrono::steady_clock::now();
  LaunchStats s = launch(dev, p, o);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!check_outputs(dev, p).passed) throw Error(fmt::format("{}: wrong result", spec.path));
  insts = s.exec.inst_executed;
  cycles = s.timing.elapsed_cycles_sm;
  return secs;
}

}  // namespace

int main(int argc, char** argv) {
  std::string config = "c2070";
  int repeat = 3;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--config") && i + 1 < argc) config = argv[++i];
    else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else {
      fmt::print(stderr, "usage: bench_sim [--config c2070|fx5800|PATH] [--repeat N]\n");
      return 2;
    }
  }
  const std::string root = WARPSIM_SOURCE_DIR;
  std::string config_path = config.find('/') == std::string::npos && config.find(".json") == std::string::npos
                                ? root + "/configs/" + config + ".json"
                                : config;
  const std::vector<Case> cases = {
      {"tiled matmul 512x512 (Kirk Fig. 5.6)", "kernels/matmul/matmul_tiled_512.json"},
      {"reduction, interleaved/divergent (Harris 0)", "kernels/reduction/harris_reduce0.json"},
      {"reduction, sequential addressing (Harris 2)", "kernels/reduction/harris_reduce2.json"},
  };
  try {
    DeviceSpec dev = load_device_spec(config_path);
    fmt::print("warpsim simulation speed on {} (best of {} runs; host seconds exclude loading and checking)\n",
               dev.name, repeat);
    fmt::print("{:<46} {:>13} {:>12} {:>12} {:>12} {:>12} {:>9}\n", "kernel", "warp insts", "func s",
               "func Minst/s", "timing s", "tim Minst/s", "tim/func");
    for (const auto& c : cases) {
      LaunchSpec spec = load_launch_spec(root + "/" + c.spec);
      double best_f = 1e30, best_t = 1e30;
      uint64_t insts = 0, cycles = 0;
      for (int r = 0; r < repeat; ++r) {
        best_f = std::min(best_f, run_once(dev, spec, SimMode::Functional, insts, cycles));
        best_t = std::min(best_t, run_once(dev, spec, SimMode::Timing, insts, cycles));
      }
      fmt::print("{:<46} {:>13} {:>12.3f} {:>12.2f} {:>12.3f} {:>12.2f} {:>9.2f}\n", c.name, insts, best_f,
                 insts / best_f / 1e6, best_t, insts / best_t / 1e6, best_t / best_f);
    }
  } catch (const Error& e) {
    fmt::print(stderr, "bench_sim: {}\n", e.what());
    return 1;
  }
  return 0;
}
