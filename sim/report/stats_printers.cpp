#include "sim/report/stats_printers.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "sim/report/metrics.hpp"
#include "sim/sm/occupancy_report.hpp"

namespace warpsim {

std::string source_location(const isa::Kernel& k, uint32_t pc) {
  const isa::Instr& in = k.code[pc];
  if (!in.loc_file || !in.loc_line || !k.module) return "";
  auto f = k.module->files.find(in.loc_file);
  if (f == k.module->files.end()) return "";
  return fmt::format("{}:{}", std::filesystem::path(f->second).filename().string(), in.loc_line);
}

Json stats_to_json(const LaunchStats& s, const isa::Kernel* k) {
  Json j;
  j["kernel"] = s.kernel;
  j["device"] = s.device;
  j["mode"] = s.timing_mode ? "timing" : "functional";
  j["grid"] = {s.grid.x, s.grid.y, s.grid.z};
  j["block"] = {s.block.x, s.block.y, s.block.z};
  j["dynamic_shared_bytes"] = s.dynamic_shared_bytes;
  j["l1_bytes"] = s.l1_bytes;
  j["host_seconds"] = s.host_seconds;
  Json metrics = Json::object();
  for (const auto& g : collect_metrics(s))
    for (const auto& m : g.metrics) {
      if (m.integral()) metrics[m.name] = static_cast<uint64_t>(std::llround(m.value));
      else metrics[m.name] = m.value;
    }
  j["metrics"] = metrics;
  if (s.timing.sample.sampled)
    j["sample"] = {{"timed_blocks", s.timing.sample.timed_blocks},
                   {"timed_cycles", s.timing.sample.timed_cycles},
                   {"steady_window", {s.timing.sample.lo_cycle, s.timing.sample.lo_blocks, s.timing.sample.hi_cycle,
                                      s.timing.sample.hi_blocks}},
                   {"steady_cycles_per_block", s.timing.sample.cycles_per_block},
                   {"time_scale", s.timing.sample.scale}};
  if (s.timing.from_launch.estimated)
    j["estimated_from_launch"] = {{"launch", s.timing.from_launch.launch},
                                  {"time_scale", s.timing.from_launch.scale}};
  j["occupancy"] = sm::occupancy_json(s.occupancy);
  if (s.dram.valid) {
    Json chans = Json::array();
    for (const auto& c : s.dram.channels) {
      chans.push_back({{"reads", c.reads},
                       {"writes", c.writes},
                       {"row_hits", c.row_hits},
                       {"row_misses", c.row_misses},
                       {"row_conflicts", c.row_conflicts},
                       {"activates", c.activates},
                       {"precharges", c.precharges},
                       {"refreshes", c.refreshes},
                       {"busy_cycles", c.busy_cycles},
                       {"bank_reads", c.bank_reads},
                       {"bank_writes", c.bank_writes}});
    }
    j["dram"] = {{"dram_cycles", s.dram.dram_cycles}, {"channels", chans}};
  }
  Json branches = Json::array();
  for (const auto& b : s.branches) {
    if (b.reached.empty()) continue;
    Json e = {{"pc", b.pc}, {"reached", b.reached}, {"diverged", b.diverged}};
    if (k) {
      e["ptx_line"] = k->code[b.pc].ptx_line;
      std::string src = source_location(*k, b.pc);
      if (!src.empty()) e["source"] = src;
    }
    branches.push_back(e);
  }
  j["branches"] = branches;
  return j;
}

std::string format_metric_tables(const LaunchStats& s) {
  std::string out;
  for (const auto& g : collect_metrics(s)) {
    out += fmt::format("{}\n", g.title);
    for (const auto& m : g.metrics)
      out += fmt::format("  {:<40} {:>16}  {}\n", m.name, format_metric_value(m), m.description);
  }
  return out;
}

}  // namespace warpsim
