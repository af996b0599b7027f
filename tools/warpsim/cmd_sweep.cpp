// `warpsim sweep SPEC.json`: run a launch spec over the cartesian product of --vary values
// and write one CSV row per point (docs/sweeps-and-plots.md).
//   warpsim sweep SPEC [--config C] [--set k=v]... [--var n=v]... --vary KEY=V1,V2,...
//                 [--vary ...] [--metrics a,b|all] [--functional] [--csv OUT] [--jobs N]
// Progress goes to stderr; stdout carries only the CSV when no --csv file is given.
// Exit status 3 when any point failed (its row says why), like `run` on a wrong result.
#include <fmt/core.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <memory>

#include "sim/core/csv.hpp"
#include "sim/core/error.hpp"
#include "sim/core/sweep.hpp"
#include "tools/warpsim/cli_paths.hpp"
#include "tools/warpsim/cli_vars.hpp"
#include "tools/warpsim/commands.hpp"

namespace warpsim::cli {

namespace {

struct SweepOptions {
  std::string spec;
  std::string config = "c2070";
  std::vector<std::string> sets;
  std::vector<std::string> vars;
  std::vector<std::string> vary;
  std::string metrics;
  bool functional = false;
  std::string csv_out;
  unsigned jobs = 1;
  uint32_t registers = 0;
  uint64_t max_instructions = 0;
  uint64_t max_cycles = 0;
  double max_seconds = 0;
};

int run_sweep(const SweepOptions& o) {
  if (o.jobs < 1) throw ConfigError("--jobs: must be at least 1");
  sweep::Settings s;
  s.config_path = resolve_config(o.config);
  s.sets = o.sets;
  s.spec_path = resolve_input(o.spec);
  s.vars = parse_var_overrides(o.vars);
  s.registers = o.registers;
  s.axes = sweep::parse_axes(o.vary);
  s.options.mode = o.functional ? SimMode::Functional : SimMode::Timing;
  s.options.limits.max_warp_instructions = o.max_instructions;
  s.options.limits.max_cycles = o.max_cycles;
  s.options.limits.max_host_seconds = o.max_seconds;
  s.metrics = sweep::parse_metric_list(o.metrics, s.options.mode);
  sweep::validate(s);

  std::vector<sweep::Point> points = sweep::cartesian(s.axes);
  std::FILE* out = stdout;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(nullptr, &std::fclose);
  if (!o.csv_out.empty()) {
    file.reset(std::fopen(o.csv_out.c_str(), "wb"));
    if (!file) throw Error(fmt::format("{}: cannot write the CSV file", o.csv_out));
    out = file.get();
  }
  fmt::print(stderr, "sweep: {} points of {} on {} ({} mode, {} job{})\n", points.size(), s.spec_path, s.config_path,
             o.functional ? "functional" : "timing", o.jobs, o.jobs == 1 ? "" : "s");
  fmt::print(out, "{}", csv::format_row(sweep::csv_header(s)));
  std::fflush(out);
  size_t failed = 0;
  sweep::run(
      s, points, o.jobs,
      [&](const sweep::Progress& p) {
        const sweep::PointResult& r = *p.result;
        if (r.ok)
          fmt::print(stderr, "[{}/{}] {} ... done in {:.1f} s\n", p.done, p.total, sweep::describe(s.axes, *p.point, 32),
                     r.host_seconds);
        else
          fmt::print(stderr, "[{}/{}] {} ... FAILED in {:.1f} s: {}\n", p.done, p.total,
                     sweep::describe(s.axes, *p.point, 32), r.host_seconds, r.status);
      },
      [&](const sweep::Point& p, const sweep::PointResult& r) {
        if (!r.ok) ++failed;
        fmt::print(out, "{}", csv::format_row(sweep::csv_row(s, p, r)));
        std::fflush(out);
      });
  if (file && std::fclose(file.release()) != 0) throw Error(fmt::format("{}: write failed", o.csv_out));
  if (!o.csv_out.empty()) fmt::print(stderr, "sweep: wrote {} rows to {}\n", points.size(), o.csv_out);
  if (failed) {
    fmt::print(stderr, "sweep: {} of {} points failed (see the status column)\n", failed, points.size());
    return 3;
  }
  return 0;
}

}  // namespace

void register_sweep_command(CLI::App& app) {
  auto o = std::make_shared<SweepOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sweep", "Run a launch spec over every combination of --vary values and write one CSV row per point");
  cmd->add_option("spec", o->spec, "launch spec (JSON), e.g. kernels/vecadd/vecadd_1m.json")->required();
  cmd->add_option("--config", o->config, "device config: c2070, fx5800 or a JSON path")->capture_default_str();
  cmd->add_option("--vary", o->vary,
                  "a swept value list (repeatable; the first varies slowest): a config key, e.g. "
                  "dram.banks=4,8,16; a spec variable, e.g. var:n=1024,4096; or a key that follows another "
                  "axis value by value, e.g. dram.address_map.bits@dram.banks=A,B,C")
      ->required()
      ->allow_extra_args(false);
  cmd->add_option("--metrics", o->metrics,
                  "comma-separated metric columns (nvprof names as in `run --json`), or 'all'; default: a set "
                  "for the mode");
  cmd->add_option("--set", o->sets, "override a config value for every point (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--var", o->vars, "override a spec variable for every point (repeatable)")
      ->allow_extra_args(false);
  cmd->add_flag("--functional", o->functional, "functional simulation only (no timing; faster)");
  cmd->add_option("--csv", o->csv_out, "write the CSV to this file (default: stdout)");
  cmd->add_option("-j,--jobs", o->jobs, "points run in parallel (each on its own simulated device)")
      ->capture_default_str();
  cmd->add_option("--registers", o->registers, "registers per thread (overrides the spec)");
  cmd->add_option("--max-instructions", o->max_instructions, "per point: stop after this many warp instructions");
  cmd->add_option("--max-cycles", o->max_cycles, "per point: stop after this many simulated cycles");
  cmd->add_option("--max-seconds", o->max_seconds, "per point: stop after this much host time");
  cmd->callback([o] {
    int rc = run_sweep(*o);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace warpsim::cli
