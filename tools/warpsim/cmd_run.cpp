// `warpsim run SPEC.json`: run a launch spec on a device config and report.
//   warpsim run SPEC [--config C] [--set k=v]... [--var n=v]... [--functional [--no-caches]|--sample WAVES]
//               [--json OUT]
#include <fmt/core.h>

#include <fstream>
#include <map>
#include <memory>

#include "sim/spec/device_spec.hpp"
#include "sim/foundation/error.hpp"
#include "sim/launch/launch_spec.hpp"
#include "sim/report/line_report.hpp"
#include "sim/report/trace_report.hpp"
#include "sim/report/run_report.hpp"
#include "sim/report/stats_printers.hpp"
#include "tools/warpsim/cli_paths.hpp"
#include "tools/warpsim/cli_vars.hpp"
#include "tools/warpsim/commands.hpp"

namespace warpsim::cli {

namespace {

struct RunOptions {
  std::string spec;
  std::string config = "c2070";
  std::vector<std::string> sets;
  std::vector<std::string> vars;
  bool functional = false;
  bool no_caches = false;
  uint32_t sample_waves = 0;
  uint32_t epoch = 1;
  std::string threads = "auto";
  std::string json_out;
  bool by_line = false;
  std::vector<std::string> trace_warps;
  uint32_t trace_limit = 256;
  std::string timeline;
  uint64_t timeline_window = 200000;
  uint32_t registers = 0;
  uint64_t max_instructions = 0;
  uint64_t max_cycles = 0;
  double max_seconds = 0;
};

int run(const RunOptions& o) {
  DeviceSpec dev_spec = load_device_spec(resolve_config(o.config), o.sets);
  LaunchSpec spec = load_launch_spec(resolve_input(o.spec), parse_var_overrides(o.vars));
  if (o.registers) spec.registers = o.registers;
  Device device(dev_spec);
  PreparedLaunch prepared = prepare(device, spec);
  LaunchOptions lo;
  lo.mode = o.functional ? SimMode::Functional : SimMode::Timing;
  if (o.sample_waves && o.functional)
    throw ConfigError("--sample times a share of the blocks: it needs timing mode (drop --functional)");
  if (o.no_caches && !o.functional)
    throw ConfigError("--no-caches leaves the cache model out of a functional run: it needs --functional (timing "
                      "mode models the caches)");
  lo.no_caches = o.no_caches;
  lo.sample_waves = o.sample_waves;
  if (o.epoch > 1 && o.functional) throw ConfigError("--epoch sets how timing mode ticks: drop --functional");
  lo.epoch_cycles = o.epoch;
  lo.threads = parse_thread_count(o.threads, "--threads");
  lo.limits.max_warp_instructions = o.max_instructions;
  lo.limits.max_cycles = o.max_cycles;
  lo.limits.max_host_seconds = o.max_seconds;
  lo.trace_limit = o.trace_limit;
  lo.timeline_path = o.timeline;
  lo.timeline_window_cycles = o.timeline_window;
  for (const auto& t : o.trace_warps) {
    auto comma = t.find(',');
    try {
      if (comma == std::string::npos) throw std::invalid_argument("no comma");
      size_t u1 = 0, u2 = 0;
      unsigned long b = std::stoul(t.substr(0, comma), &u1), w = std::stoul(t.substr(comma + 1), &u2);
      if (u1 != comma || u2 != t.size() - comma - 1) throw std::invalid_argument("trailing");
      lo.trace_warps.push_back({static_cast<uint32_t>(b), static_cast<uint32_t>(w)});
    } catch (const std::exception&) {
      throw ConfigError(fmt::format("--trace-warp \"{}\": expected BLOCK,WARP (linear block index, warp in block)", t));
    }
  }
  LaunchStats stats = launch(device, prepared, lo);
  CheckResult check = check_outputs(device, prepared);
  const isa::Kernel& kernel = *prepared.kernel;

  fmt::print("{}", format_run_summary(stats, kernel, dev_spec, spec, check));
  const std::vector<LineStats> lines = attribute_lines(stats, kernel);
  if (!o.timeline.empty()) fmt::print("  timeline: {} (first {} cycles)\n", o.timeline, o.timeline_window);
  if (!stats.traces.empty()) fmt::print("\n{}", format_traces(stats, kernel));
  if (o.by_line) {
    fmt::print("\n{}", format_line_report(lines, stats));
    fmt::print("\n{}", format_branch_report(stats, kernel));
  }
  fmt::print("\n{}", format_metric_tables(stats));
  if (!o.json_out.empty()) {
    Json j = stats_to_json(stats, &kernel);
    j["lines"] = lines_to_json(lines, stats.exec.warp_size);
    if (!stats.traces.empty()) j["traces"] = traces_to_json(stats, kernel);
    j["spec"] = spec.path;
    j["config"] = dev_spec.file;
    j["check"] = {{"checked", check.checked}, {"passed", check.passed}, {"message", check.message}};
    std::ofstream f(o.json_out);
    if (!f) throw Error(fmt::format("{}: cannot write the JSON report", o.json_out));
    f << j.dump(2) << "\n";
  }
  return check.passed ? 0 : 3;
}

}  // namespace

void register_run_command(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand("run", "Run a kernel launch spec on a simulated GPU and report its statistics");
  cmd->add_option("spec", o->spec, "launch spec (JSON), e.g. kernels/matmul/matmul_tiled.json")->required();
  cmd->add_option("--config", o->config, "device config: c2070, fx5800 or a JSON path")->capture_default_str();
  cmd->add_option("--set", o->sets, "override a config value, e.g. --set sm.registers=16384 (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--var", o->vars, "override a spec variable, e.g. --var width=256 (repeatable)")
      ->allow_extra_args(false);
  cmd->add_flag("--functional", o->functional, "functional simulation only (no timing; faster)");
  cmd->add_flag("--no-caches", o->no_caches,
                "with --functional: leave the L1/L2 model out (faster for memory-bound kernels; every count "
                "execution produces is the same, the cache hit rates are absent)");
  cmd->add_option("--sample", o->sample_waves,
                  "time only the first WAVES waves of blocks, run the rest functionally and extrapolate the time "
                  "(counts stay exact; use 6 waves or more: 2.8 % mean error with 6 on the C2070 specs, "
                  "docs/performance.md)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--epoch", o->epoch,
                  "SMs and memory exchange requests every CYCLES cycles instead of every cycle: faster, most with "
                  "--threads, and times that move by a few cycles per memory round trip (docs/performance.md, "
                  "\"Epochs\"); execution counts stay exact, cache and DRAM counts may move with the times")
      ->check(CLI::Range(1u, kMaxEpochCycles))
      ->capture_default_str();
  cmd->add_option("--threads", o->threads,
                  "host threads, or auto (every core the process may use, at most 8): timing mode ticks the "
                  "SMs on them where that measures faster than one thread (a timeline or --trace-warp uses one), "
                  "functional mode runs blocks on them (or, for kernels with global atomics, %clock or printf, the "
                  "caches on a second one); the statistics and results are the same for any count")
      ->capture_default_str();
  cmd->add_option("--json", o->json_out, "write the statistics as JSON to this file");
  cmd->add_flag("--by-line", o->by_line, "per source line statistics and divergence by branch instance");
  cmd->add_option("--trace-warp", o->trace_warps,
                  "trace the memory instructions of warp W of block B: --trace-warp B,W (repeatable)");
  cmd->add_option("--trace-limit", o->trace_limit, "records kept per traced warp")->capture_default_str();
  cmd->add_option("--timeline", o->timeline,
                  "write a Chrome trace (Perfetto, chrome://tracing) of SM issue/stall and DRAM command intervals");
  cmd->add_option("--timeline-window", o->timeline_window, "cycles from the start the timeline covers")
      ->capture_default_str();
  cmd->add_option("--registers", o->registers, "registers per thread (overrides the spec)");
  cmd->add_option("--max-instructions", o->max_instructions, "stop after this many warp instructions (0: no limit)");
  cmd->add_option("--max-cycles", o->max_cycles, "stop after this many simulated cycles (0: no limit)");
  cmd->add_option("--max-seconds", o->max_seconds, "stop after this much host time (0: no limit)");
  cmd->callback([o] {
    int rc = run(*o);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace warpsim::cli
