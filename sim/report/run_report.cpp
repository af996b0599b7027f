#include "sim/report/run_report.hpp"

#include <fmt/format.h>

#include "sim/report/line_report.hpp"
#include "sim/report/metrics.hpp"
#include "sim/report/roofline.hpp"

#include <filesystem>

namespace warpsim {

namespace {

std::string count(uint64_t v) { return format_metric_value({"", double(v), Metric::Unit::Count, ""}); }

}  // namespace

std::string format_run_summary(const LaunchStats& s, const isa::Kernel& kernel, const DeviceSpec& device,
                               const LaunchSpec& spec, const CheckResult& check) {
  std::string out;
  out += fmt::format("warpsim: {} on {} (cc {}), {} mode\n", kernel.name, device.name, device.compute_capability,
                     s.timing_mode ? "timing" : "functional");
  if (!spec.description.empty()) out += fmt::format("  {}\n", spec.description);
  out += fmt::format("  grid {} x block {} = {} threads in {} warps; {} B dynamic shared memory\n", s.grid.str(),
                     s.block.str(), count(s.exec.threads), count(s.exec.warps), s.dynamic_shared_bytes);
  if (check.checked)
    out += fmt::format("  result: {}\n", check.passed ? fmt::format("correct ({} values checked)", count(check.compared))
                                                      : "WRONG - " + check.message);
  else
    out += "  result: not checked (the spec has no \"check\")\n";
  const OccupancyStats& o = s.occupancy;
  out += fmt::format("  occupancy: {} blocks/SM = {} of {} warps ({:.1f} %), limited by {}; {} registers/thread{}, "
                     "{} B shared/block\n",
                     o.blocks_per_sm, o.active_warps_per_sm, o.max_warps_per_sm, 100.0 * o.theoretical_occupancy,
                     o.limiter, o.registers_per_thread, o.registers_estimated ? " (estimated from the PTX)" : "",
                     o.shared_bytes_per_block);
  if (device.carveout.policy != sm::CarveoutPolicy::Fixed)
    out += fmt::format("  L1/shared split: {} KB shared memory per SM, {} KB L1\n", o.shared_memory_per_sm / 1024,
                       s.l1_bytes / 1024);
  if (s.timing.valid)
    out += fmt::format("  time: {} cycles = {:.3f} us at {:.0f} MHz\n", count(s.timing.elapsed_cycles_sm),
                       s.timing.duration_ns / 1000.0, device.clock_mhz);
  if (s.timing.sample.sampled)
    out += fmt::format("  sampled: {} of {} blocks timed ({} cycles), the rest run functionally; time and cache/DRAM "
                       "counters extrapolated x{:.2f}, the other counts exact\n",
                       count(s.timing.sample.timed_blocks), count(s.exec.blocks), count(s.timing.sample.timed_cycles),
                       s.timing.sample.scale);
  if (s.timing.from_launch.estimated)
    out += fmt::format("  not timed: ran functionally; time and cache/DRAM counters are those of launch {} of the "
                       "same kernel and shape x{:.2f} (the busiest SM's instructions), the other counts exact\n",
                       s.timing.from_launch.launch + 1, s.timing.from_launch.scale);
  if (!s.timing_mode && (device.has_l1 || device.has_l2) && !s.mem.has_l1 && !s.mem.has_l2)
    out += "  caches: not modelled (--no-caches), so no hit rates; every other count is exact\n";
  const Roofline roof = analyze_roofline(s, kernel, device);
  if (roof.flop_total > 0 || roof.bytes > 0)
    out += fmt::format("  roofline: {}{}\n", roof.classification(),
                       roof.timed ? fmt::format("; achieved {:.1f} GFLOP/s and {:.1f} GB/s of DRAM", roof.achieved_gflops,
                                                roof.achieved_gbps)
                                  : "");
  auto top = costliest_lines(attribute_lines(s, kernel), 3);
  if (!top.empty()) {
    out += s.timing.valid ? "  costliest source lines (warp-cycles waiting + issuing):\n"
                          : "  busiest source lines (warp instructions):\n";
    for (const auto& l : top)
      out += fmt::format("    {}{}:{:<5} {:>14}  {}\n", l.ptx_line ? "ptx " : "",
                         std::filesystem::path(l.file).filename().string(), l.line,
                         count(l.stall_cycles + l.warp_instructions), l.text);
  }
  out += fmt::format("  simulated {} warp instructions in {:.3f} s ({:.2f} M/s)\n", count(s.exec.inst_executed),
                     s.host_seconds, s.host_seconds > 0 ? s.exec.inst_executed / s.host_seconds / 1e6 : 0.0);
  return out;
}

}  // namespace warpsim
