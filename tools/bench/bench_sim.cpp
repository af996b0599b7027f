// Simulation speed: simulated warp instructions per host second for the textbook kernels
// named in the issues (tiled matmul 512x512, reductions), in functional and timing mode,
// and the timing/functional ratio measured in the same run; then parallel timing (--threads)
// on the tiled matmul: rounds of one serial and one parallel run, interleaved (the order
// alternates), with each round's speed-up and their median and range. Prints figures;
// asserts nothing but that every result is correct and the parallel runs' cycles and
// instructions equal the serial ones.
//   build/tools/bench_sim [--config c2070|fx5800|PATH] [--repeat N] [--threads T] [--rounds R]
//                         [--epoch E] [--threads-only | --functional-only]
// --epoch E (> 1) adds epochs to the parallel rounds: each round also runs 1 and T threads
// with E-cycle epochs (LaunchOptions::epoch_cycles), and the summary gives their speed-ups
// against 1 thread without epochs and their cycles' difference from it.
// --functional-only measures functional mode alone (no timing runs, no parallel rounds):
// with 1 thread and, unless --threads 1, with the caches on a second thread.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "sim/spec/device_spec.hpp"
#include "sim/foundation/error.hpp"
#include "sim/engine/functional_parallel.hpp"
#include "sim/launch/launch_spec.hpp"

using namespace warpsim;

namespace {

struct Case {
  const char* name;
  const char* spec;
};

double run_once(const DeviceSpec& dev_spec, const LaunchSpec& spec, SimMode mode, uint64_t& insts, uint64_t& cycles,
                uint32_t threads = 1, FunctionalParallelReport* report = nullptr, uint32_t epoch = 1) {
  Device dev(dev_spec);
  PreparedLaunch p = prepare(dev, spec);
  LaunchOptions o;
  o.mode = mode;
  o.threads = threads;
  o.epoch_cycles = epoch;
  o.parallel_report = report;
  auto t0 = std::chrono::steady_clock::now();
  LaunchStats s = launch(dev, p, o);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!check_outputs(dev, p).passed) throw Error(fmt::format("{}: wrong result", spec.path));
  insts = s.exec.inst_executed;
  cycles = s.timing.elapsed_cycles_sm;
  return secs;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Rounds of a serial and a parallel timing run of `spec` (the order alternates between
// rounds, so a drift in the machine's speed affects both alike).
void parallel_rounds(const DeviceSpec& dev, const LaunchSpec& spec, const char* name, uint32_t threads, int rounds) {
  fmt::print("\nparallel timing, {}: 1 vs {} threads, {} interleaved rounds\n", name, threads, rounds);
  fmt::print("{:>5} {:>10} {:>10} {:>9}\n", "round", "1 thr s", fmt::format("{} thr s", threads), "speed-up");
  std::vector<double> ups;
  uint64_t insts = 0;
  for (int r = 0; r < rounds; ++r) {
    uint64_t i1 = 0, c1 = 0, i2 = 0, c2 = 0;
    double t1, t2;
    if (r % 2 == 0) {
      t1 = run_once(dev, spec, SimMode::Timing, i1, c1, 1);
      t2 = run_once(dev, spec, SimMode::Timing, i2, c2, threads);
    } else {
      t2 = run_once(dev, spec, SimMode::Timing, i2, c2, threads);
      t1 = run_once(dev, spec, SimMode::Timing, i1, c1, 1);
    }
    if (i1 != i2 || c1 != c2)
      throw Error(fmt::format("{}: {} threads gave {} instructions and {} cycles, 1 thread {} and {}", spec.path,
                              threads, i2, c2, i1, c1));
    insts = i1;
    ups.push_back(t1 / t2);
    fmt::print("{:>5} {:>10.3f} {:>10.3f} {:>8.2f}x\n", r + 1, t1, t2, t1 / t2);
  }
  std::sort(ups.begin(), ups.end());
  fmt::print("speed-up with {} threads ({} warp insts): median {:.2f}x, range {:.2f}x-{:.2f}x over {} rounds\n",
             threads, insts, median_of(ups), ups.front(), ups.back(), ups.size());
}

// Rounds of three timing runs of `spec`: 1 thread every cycle (the reference), 1 thread and
// `threads` threads with `epoch`-cycle epochs (the order rotates between rounds). The two
// epoch runs must agree with each other bit for bit; their cycles differ from the reference.
void epoch_rounds(const DeviceSpec& dev, const LaunchSpec& spec, const char* name, uint32_t threads, uint32_t epoch,
                  int rounds) {
  fmt::print("\nepochs, {}: 1 thread every cycle vs {}-cycle epochs on 1 and {} threads, {} rounds\n", name, epoch,
             threads, rounds);
  fmt::print("{:>5} {:>10} {:>10} {:>10} {:>9} {:>9} {:>9}\n", "round", "1 thr s", "E 1 thr s",
             fmt::format("E {} thr s", threads), "E 1 thr", fmt::format("E {} thr", threads), "threads");
  std::vector<double> up1, upn, upt;
  uint64_t ref_cycles = 0, epoch_cycles = 0, insts = 0;
  for (int r = 0; r < rounds; ++r) {
    double t[3];
    uint64_t i[3] = {0, 0, 0}, c[3] = {0, 0, 0};
    const uint32_t th[3] = {1, 1, threads}, ep[3] = {1, epoch, epoch};
    for (int k = 0; k < 3; ++k) {
      const int j = (k + r) % 3;
      t[j] = run_once(dev, spec, SimMode::Timing, i[j], c[j], th[j], nullptr, ep[j]);
    }
    if (i[1] != i[0] || i[2] != i[0] || c[2] != c[1])
      throw Error(fmt::format("{}: epochs on {} threads gave {} instructions and {} cycles, on 1 thread {} and {} "
                              "(every cycle: {} instructions)",
                              spec.path, threads, i[2], c[2], i[1], c[1], i[0]));
    ref_cycles = c[0];
    epoch_cycles = c[1];
    insts = i[0];
    up1.push_back(t[0] / t[1]);
    upn.push_back(t[0] / t[2]);
    upt.push_back(t[1] / t[2]);
    fmt::print("{:>5} {:>10.3f} {:>10.3f} {:>10.3f} {:>8.2f}x {:>8.2f}x {:>8.2f}x\n", r + 1, t[0], t[1], t[2],
               up1.back(), upn.back(), upt.back());
  }
  fmt::print("{} warp insts; cycles {} every cycle, {} with {}-cycle epochs ({:+.2f} %)\n", insts, ref_cycles,
             epoch_cycles, epoch, 100.0 * (double(epoch_cycles) - double(ref_cycles)) / double(ref_cycles));
  fmt::print("median speed-up against 1 thread every cycle: epochs on 1 thread {:.2f}x, on {} threads {:.2f}x "
             "(range {:.2f}x-{:.2f}x); {} threads against 1 with epochs {:.2f}x\n",
             median_of(up1), threads, median_of(upn), *std::min_element(upn.begin(), upn.end()),
             *std::max_element(upn.begin(), upn.end()), threads, median_of(upt));
}

}  // namespace

int main(int argc, char** argv) {
  std::string config = "c2070";
  int repeat = 3;
  int threads = 2, rounds = 0, epoch = 1;
  bool threads_only = false, functional_only = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--config") && i + 1 < argc) config = argv[++i];
    else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--epoch") && i + 1 < argc)
      epoch = std::clamp(std::atoi(argv[++i]), 1, int(kMaxEpochCycles));
    else if (!std::strcmp(argv[i], "--threads-only")) threads_only = true;
    else if (!std::strcmp(argv[i], "--functional-only")) functional_only = true;
    else {
      fmt::print(stderr,
                 "usage: bench_sim [--config c2070|fx5800|PATH] [--repeat N] [--threads T] [--rounds R] "
                 "[--epoch E] [--threads-only | --functional-only]\n");
      return 2;
    }
  }
  if (!rounds) rounds = repeat;
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
    if (functional_only && threads > 1)
      fmt::print("{:<46} {:>13} {:>12} {:>12} {:>12} {:>12} {:>9}\n", "kernel", "warp insts", "func s",
                 "func Minst/s", fmt::format("{} thr s", threads), fmt::format("{} thr Mi/s", threads), "speed-up");
    else
      fmt::print("{:<46} {:>13} {:>12} {:>12} {:>12} {:>12} {:>9}\n", "kernel", "warp insts", "func s",
                 "func Minst/s", "timing s", "tim Minst/s", "tim/func");
    for (const auto& c : cases) {
      if (threads_only) break;
      LaunchSpec spec = load_launch_spec(root + "/" + c.spec);
      double best_f = 1e30, best_t = 1e30;
      uint64_t insts = 0, cycles = 0;
      double best_f2 = 1e30;  // functional with threads: blocks in parallel, the caches on a thread
      FunctionalParallelReport par;
      for (int r = 0; r < repeat; ++r) {
        best_f = std::min(best_f, run_once(dev, spec, SimMode::Functional, insts, cycles));
        par = FunctionalParallelReport{};
        if (functional_only && threads > 1)
          best_f2 = std::min(best_f2, run_once(dev, spec, SimMode::Functional, insts, cycles, uint32_t(threads), &par));
        if (!functional_only) best_t = std::min(best_t, run_once(dev, spec, SimMode::Timing, insts, cycles));
      }
      if (functional_only && threads > 1) {
        fmt::print("{:<46} {:>13} {:>12.3f} {:>12.2f} {:>12.3f} {:>12.2f} {:>9.2f}\n", c.name, insts, best_f,
                   insts / best_f / 1e6, best_f2, insts / best_f2 / 1e6, best_f / best_f2);
        fmt::print("  (blocks on {} threads: {} epochs in parallel, {} undone and run serially ({} for shared data), "
                   "{} blocks serial)\n",
                   threads, par.epochs, par.serial_epochs, par.conflicts, par.serial_blocks);
      } else if (functional_only)
        fmt::print("{:<46} {:>13} {:>12.3f} {:>12.2f}\n", c.name, insts, best_f, insts / best_f / 1e6);
      else
        fmt::print("{:<46} {:>13} {:>12.3f} {:>12.2f} {:>12.3f} {:>12.2f} {:>9.2f}\n", c.name, insts, best_f,
                   insts / best_f / 1e6, best_t, insts / best_t / 1e6, best_t / best_f);
    }
    if (!functional_only)
      parallel_rounds(dev, load_launch_spec(root + "/" + cases[0].spec), cases[0].name, uint32_t(threads), rounds);
    if (!functional_only && epoch > 1)
      epoch_rounds(dev, load_launch_spec(root + "/" + cases[0].spec), cases[0].name, uint32_t(threads),
                   uint32_t(epoch), rounds);
  } catch (const Error& e) {
    fmt::print(stderr, "bench_sim: {}\n", e.what());
    return 1;
  }
  return 0;
}
