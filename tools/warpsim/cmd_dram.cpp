// `warpsim dram`: drive the DRAM model alone from a request trace.
//   warpsim dram TRACE --config C [--set dram.key=value]... [--json OUT]
// C is any JSON file with a top-level `dram` object (a device config, also by short name
// such as c2070, or configs/dram/*.json); only `dram` is read. The trace format is
// described in sim/memory/dram_trace.hpp.
#include <fmt/core.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "sim/foundation/error.hpp"
#include "sim/memory/dram_report.hpp"
#include "sim/memory/dram_spec.hpp"
#include "sim/memory/dram_trace.hpp"
#include "tools/warpsim/cli_paths.hpp"
#include "tools/warpsim/commands.hpp"

namespace warpsim::cli {

namespace {

struct DramOptions {
  std::string trace;
  std::string config;
  std::vector<std::string> sets;
  std::string json;
};

void run_dram(const DramOptions& o) {
  const std::string config = resolve_config(o.config);
  const mem::DramSpec spec = mem::load_dram_spec(config, o.sets);
  const std::string trace = resolve_input(o.trace);
  std::ifstream in(trace);
  if (!in) throw Error(fmt::format("{}: cannot open trace", o.trace));
  const mem::DramRunResult r = mem::run_dram_trace(spec, in, o.trace);

  fmt::print("DRAM trace         {}\n", o.trace);
  fmt::print("config             {}: {} channels x {} bit, {} transfers/clock at {} MHz, "
             "{} banks, {}-byte atom, {}, {} page\n",
             config, spec.channels, spec.chips_per_channel * spec.chip_width_bits,
             spec.transfers_per_clock, spec.command_clock_mhz, spec.banks, spec.atom_bytes(),
             spec.scheduler, spec.page_policy == mem::PagePolicy::Open ? "open" : "closed");
  fmt::print("time               {:.3f} us at {} MHz\n",
             double(r.cycles) * spec.cycle_ns() / 1000.0, spec.command_clock_mhz);
  fmt::print("{}", mem::dram_summary_text(r.stats));

  if (!o.json.empty()) {
    Json doc{{"metrics", mem::dram_metrics_json(r.stats)},
             {"dram", mem::dram_section_json(r.stats)}};
    std::ofstream out(o.json);
    if (!out) throw Error(fmt::format("{}: cannot write", o.json));
    out << doc.dump(2) << "\n";
    if (!out) throw Error(fmt::format("{}: write failed", o.json));
  }
}

}  // namespace

void register_dram_command(CLI::App& app) {
  auto opts = std::make_shared<DramOptions>();
  CLI::App* cmd = app.add_subcommand(
      "dram", "Run the DRAM model alone on a request trace (ARRIVAL R|W ADDRESS [BYTES] per line)");
  cmd->add_option("trace", opts->trace, "request trace file")->required();
  cmd->add_option("--config", opts->config,
                  "JSON file with a top-level \"dram\" object: a device config (path or short name "
                  "such as c2070) or configs/dram/*.json")
      ->required();
  cmd->add_option("--set", opts->sets,
                  "override a value, e.g. --set dram.banks=4 or --set dram.timing.tFAW=18 (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--json", opts->json, "also write {\"metrics\": ..., \"dram\": ...} to this file");
  cmd->callback([opts] { run_dram(*opts); });
}

}  // namespace warpsim::cli
