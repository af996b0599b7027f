// `warpsim sweep SPEC.json`: run a launch spec over the cartesian product of --vary values
// and write one CSV row per point (docs/sweeps-and-plots.md).
//   warpsim sweep SPEC [--config C] [--set k=v]... [--var n=v]... --vary KEY=V1,V2,...
//                 [--vary ...] [--metrics a,b|all] [--functional] [--csv OUT] [--jobs N]
//                 [--shard I/N]
//   warpsim sweep --merge SHARD.csv... [--csv OUT]
// Progress (with an estimate of the time left) goes to stderr; stdout carries only the CSV
// when no --csv file is given. --shard runs one share of the points (sweep_shards.hpp);
// --merge joins the shards' files into what one unsharded run writes.
// Exit status 3 when any point failed (its row says why), like `run` on a wrong result.
#include <fmt/core.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <map>
#include <memory>

#include "sim/report/csv.hpp"
#include "sim/foundation/error.hpp"
#include "sim/sweep/sweep.hpp"
#include "sim/sweep/shards.hpp"
#include "tools/warpsim/cli_paths.hpp"
#include "tools/warpsim/cli_vars.hpp"
#include "tools/warpsim/commands.hpp"

namespace warpsim::cli {

namespace {

struct SweepOptions {
  std::vector<std::string> inputs;  // the spec; with --merge, the shard files
  std::string shard;
  bool merge = false;
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

// "about 1 min 20 s left" from the pace so far (wall clock, all jobs together).
std::string time_left(double elapsed, size_t done, size_t total) {
  if (done == 0 || done >= total) return "";
  const double left = elapsed / double(done) * double(total - done);
  if (left < 60) return fmt::format(", about {:.0f} s left", left);
  if (left < 3600) return fmt::format(", about {} min {} s left", int(left) / 60, int(left) % 60);
  return fmt::format(", about {} h {} min left", int(left) / 3600, int(left) % 3600 / 60);
}

std::FILE* open_output(const std::string& path, std::unique_ptr<std::FILE, int (*)(std::FILE*)>& file) {
  if (path.empty()) return stdout;
  file.reset(std::fopen(path.c_str(), "wb"));
  if (!file) throw Error(fmt::format("{}: cannot write the CSV file", path));
  return file.get();
}

int merge(const SweepOptions& o) {
  if (!o.vary.empty() || !o.shard.empty())
    throw ConfigError("--merge joins shard files: give only the files (and --csv), not --vary or --shard");
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& path : o.inputs) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw Error(fmt::format("{}: cannot open", path));
    std::stringstream text;
    text << f.rdbuf();
    files.emplace_back(path, text.str());
  }
  const std::string merged = sweep::merge_shards(files);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(nullptr, &std::fclose);
  std::FILE* out = open_output(o.csv_out, file);
  fmt::print(out, "{}", merged);
  if (file && std::fclose(file.release()) != 0) throw Error(fmt::format("{}: write failed", o.csv_out));
  if (!o.csv_out.empty()) fmt::print(stderr, "sweep: merged {} shard files into {}\n", files.size(), o.csv_out);
  return 0;
}

int run_sweep(const SweepOptions& o) {
  if (o.merge) return merge(o);
  if (o.inputs.size() != 1)
    throw ConfigError(fmt::format("sweep: give one launch spec ({} given); --merge takes shard files",
                                  o.inputs.size()));
  if (o.vary.empty()) throw ConfigError("sweep: --vary is required (the values to sweep)");
  if (o.jobs < 1) throw ConfigError("--jobs: must be at least 1");
  const std::string& spec = o.inputs.front();
  sweep::Settings s;
  s.config_path = resolve_config(o.config);
  s.sets = o.sets;
  s.spec_path = resolve_input(spec);
  s.vars = parse_var_overrides(o.vars);
  s.registers = o.registers;
  s.axes = sweep::parse_axes(o.vary);
  s.options.mode = o.functional ? SimMode::Functional : SimMode::Timing;
  s.options.limits.max_warp_instructions = o.max_instructions;
  s.options.limits.max_cycles = o.max_cycles;
  s.options.limits.max_host_seconds = o.max_seconds;
  s.metrics = sweep::parse_metric_list(o.metrics, s.options.mode);
  sweep::validate(s);

  const std::vector<sweep::Point> all = sweep::cartesian(s.axes);
  const bool sharded = !o.shard.empty();
  const sweep::Shard shard = sharded ? sweep::parse_shard(o.shard) : sweep::Shard{};
  const std::vector<sweep::Point> points = sharded ? sweep::shard_points(all, shard) : all;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(nullptr, &std::fclose);
  std::FILE* out = open_output(o.csv_out, file);
  fmt::print(stderr, "sweep: {} points of {} on {} ({} mode, {} job{}){}\n", points.size(), s.spec_path,
             s.config_path, o.functional ? "functional" : "timing", o.jobs, o.jobs == 1 ? "" : "s",
             sharded ? fmt::format(", shard {}/{} of {} points", shard.index, shard.count, all.size()) : "");
  const auto header = sweep::csv_header(s);
  fmt::print(out, "{}", csv::format_row(sharded ? sweep::shard_header(header) : header));
  std::fflush(out);
  size_t failed = 0;
  const auto start = std::chrono::steady_clock::now();
  sweep::run(
      s, points, o.jobs,
      [&](const sweep::Progress& p) {
        const sweep::PointResult& r = *p.result;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const std::string left = time_left(elapsed, p.done, p.total);
        if (r.ok)
          fmt::print(stderr, "[{}/{}] {} ... done in {:.1f} s{}\n", p.done, p.total,
                     sweep::describe(s.axes, *p.point, 32), r.host_seconds, left);
        else
          fmt::print(stderr, "[{}/{}] {} ... FAILED in {:.1f} s: {}{}\n", p.done, p.total,
                     sweep::describe(s.axes, *p.point, 32), r.host_seconds, r.status, left);
      },
      [&](const sweep::Point& p, const sweep::PointResult& r) {
        if (!r.ok) ++failed;
        const auto row = sweep::csv_row(s, p, r);
        fmt::print(out, "{}", csv::format_row(sharded ? sweep::shard_row(p, all.size(), row) : row));
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
  cmd->add_option("spec", o->inputs,
                  "launch spec (JSON), e.g. kernels/vecadd/vecadd_1m.json; with --merge, the shard CSV files")
      ->required();
  cmd->add_option("--config", o->config, "device config: c2070, fx5800 or a JSON path")->capture_default_str();
  cmd->add_option("--vary", o->vary,
                  "a swept value list (repeatable; the first varies slowest): a config key, e.g. "
                  "dram.banks=4,8,16; a spec variable, e.g. var:n=1024,4096; or a key that follows another "
                  "axis value by value, e.g. dram.address_map.bits@dram.banks=A,B,C")
      ->allow_extra_args(false);
  cmd->add_option("--shard", o->shard,
                  "run only share I of N of the points (0 <= I < N, e.g. $SLURM_ARRAY_TASK_ID/N); the CSV gets a "
                  "sweep_point column for --merge");
  cmd->add_flag("--merge", o->merge,
                "join shard CSV files (given instead of the spec) into the CSV one unsharded run writes");
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
