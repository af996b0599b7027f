#include "sim/report/metrics.hpp"

#include <fmt/format.h>

#include <cmath>

namespace warpsim {

namespace {

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }
double pct(double a, double b) { return b > 0 ? 100.0 * a / b : 0.0; }

}  // namespace

std::vector<MetricGroup> collect_metrics(const LaunchStats& s) {
  using U = Metric::Unit;
  std::vector<MetricGroup> out;
  const ExecStats& e = s.exec;
  {
    MetricGroup g{"Execution", {}};
    auto add = [&](const char* n, double v, U u, const char* d) { g.metrics.push_back({n, v, u, d}); };
    add("inst_executed", e.inst_executed, U::Count, "warp instructions executed");
    add("thread_inst_executed", e.thread_inst_executed, U::Count, "thread instructions (active threads summed)");
    add("not_predicated_off_thread_inst_executed", e.not_predicated_off_thread_inst_executed, U::Count,
        "thread instructions whose guard predicate held");
    add("warp_execution_efficiency", pct(e.thread_inst_executed, double(e.inst_executed) * e.warp_size), U::Percent,
        "average active threads per warp instruction / warp size");
    add("warp_nonpred_execution_efficiency",
        pct(e.not_predicated_off_thread_inst_executed, double(e.inst_executed) * e.warp_size), U::Percent,
        "as above, counting only threads whose predicate held");
    add("branch", e.branch, U::Count, "warp-level branch instructions");
    add("divergent_branch", e.divergent_branch, U::Count, "branches that split a warp");
    add("branch_efficiency", e.branch ? pct(e.branch - e.divergent_branch, e.branch) : 100.0, U::Percent,
        "non-divergent branches / branches");
    add("gld_requests", e.gld_requests, U::Count, "warp-level global loads");
    add("gst_requests", e.gst_requests, U::Count, "warp-level global stores");
    add("shared_load_requests", e.shared_load_requests, U::Count, "warp-level shared loads");
    add("shared_store_requests", e.shared_store_requests, U::Count, "warp-level shared stores");
    add("local_load_requests", e.local_load_requests, U::Count, "warp-level local loads");
    add("local_store_requests", e.local_store_requests, U::Count, "warp-level local stores");
    add("atomic_requests", e.atomic_requests, U::Count, "warp-level atomics and reductions");
    add("barrier_arrivals", e.barriers, U::Count, "warp arrivals at bar.sync");
    if (e.tex_requests)  // only kernels that use textures or surfaces show these
      add("tex_requests", e.tex_requests, U::Count, "warp-level texture fetches and surface accesses");
    out.push_back(std::move(g));
  }
  if (s.mem_valid) {
    const MemStats& m = s.mem;
    MetricGroup g{"Memory", {}};
    auto add = [&](const char* n, double v, U u, const char* d) { g.metrics.push_back({n, v, u, d}); };
    add("gld_transactions", m.gld_transactions, U::Count, "global load transactions");
    add("gst_transactions", m.gst_transactions, U::Count, "global store transactions");
    add("gld_transactions_per_request", ratio(m.gld_transactions, e.gld_requests), U::Ratio,
        "global load transactions per warp request");
    add("gst_transactions_per_request", ratio(m.gst_transactions, e.gst_requests), U::Ratio,
        "global store transactions per warp request");
    add("gld_efficiency", pct(m.gld_bytes_requested, m.gld_bytes_transferred), U::Percent,
        "bytes threads asked for / bytes the load transactions moved");
    add("gst_efficiency", pct(m.gst_bytes_requested, m.gst_bytes_transferred), U::Percent,
        "bytes threads stored / bytes the store transactions moved");
    add("local_load_transactions", m.local_load_transactions, U::Count, "local load transactions");
    add("local_store_transactions", m.local_store_transactions, U::Count, "local store transactions");
    add("atomic_transactions", m.atomic_transactions, U::Count, "global atomic transactions");
    if (e.tex_requests)
      add("tex_transactions", m.tex_transactions, U::Count, "texture and surface transactions (texel gathers)");
    add("shared_load_transactions", m.shared_load_transactions, U::Count, "shared load passes (wavefronts)");
    add("shared_store_transactions", m.shared_store_transactions, U::Count, "shared store passes (wavefronts)");
    add("shared_load_transactions_per_request", ratio(m.shared_load_transactions, e.shared_load_requests), U::Ratio,
        "shared load passes per warp request");
    add("shared_store_transactions_per_request", ratio(m.shared_store_transactions, e.shared_store_requests),
        U::Ratio, "shared store passes per warp request");
    add("shared_bank_conflicts", m.shared_load_bank_conflicts + m.shared_store_bank_conflicts, U::Count,
        "extra shared passes caused by bank conflicts");
    if (m.has_l1) {
      add("l1_hit_rate", pct(m.l1_hits, m.l1_hits + m.l1_misses), U::Percent, "L1 hits / L1 accesses (global loads)");
      add("l1_sector_hit_rate", pct(m.l1_sector_hits, m.l1_sectors), U::Percent,
          "L1 load sectors present or on their way / load sectors (ncu lookup hits)");
    }
    if (m.has_l2) {
      add("l2_hit_rate", pct(m.l2_hits, m.l2_hits + m.l2_misses), U::Percent, "L2 hits / L2 accesses");
      add("l2_read_hit_rate", pct(m.l2_read_sector_hits, m.l2_read_sectors), U::Percent,
          "L2 read sectors present or on their way / read sectors (ncu lookup hits)");
      add("l2_read_transactions", m.l2_read_transactions, U::Count, "32-byte L2 read transactions");
      add("l2_write_transactions", m.l2_write_transactions, U::Count, "32-byte L2 write transactions");
      if (m.l2_partitioned) {
        add("l2_fabric_sectors", m.l2_fabric_sectors, U::Count,
            "sectors missed in the near L2 partition and looked up in the home one");
        add("l2_fabric_hit_rate", pct(m.l2_fabric_hits, m.l2_fabric_sectors), U::Percent,
            "of those, found in the home partition");
      }
      if (m.gpc_merging)
        add("gpc_merged_sectors", m.gpc_merged_sectors, U::Count,
            "L1 read-miss sectors that waited for another SM's request of their GPC (not sent to the L2)");
    }
    out.push_back(std::move(g));
  }
  {
    const OccupancyStats& o = s.occupancy;
    MetricGroup g{"Occupancy", {}};
    auto add = [&](const char* n, double v, U u, const char* d) { g.metrics.push_back({n, v, u, d}); };
    add("blocks_per_sm", o.blocks_per_sm, U::Count, "resident blocks per SM");
    add("theoretical_occupancy", 100.0 * o.theoretical_occupancy, U::Percent, "resident warps / max warps per SM");
    if (s.timing.valid) add("achieved_occupancy", 100.0 * s.timing.achieved_occupancy, U::Percent,
                            "time-averaged active warps / max warps per SM");
    out.push_back(std::move(g));
  }
  if (s.timing.valid) {
    const TimingStats& t = s.timing;
    MetricGroup g{"Timing", {}};
    auto add = [&](const char* n, double v, U u, const char* d) { g.metrics.push_back({n, v, u, d}); };
    add("elapsed_cycles_sm", t.elapsed_cycles_sm, U::Cycles, "SM cycles from launch to the last block's end");
    add("duration_ns", t.duration_ns, U::Nanoseconds, "elapsed cycles at the SM clock");
    add("ipc", t.ipc, U::Ratio, "warp instructions issued per cycle per active SM");
    add("issue_slot_utilization", t.issue_slot_utilization, U::Percent, "issue slots used / issue slots");
    add("sm_efficiency", t.sm_efficiency, U::Percent, "SM-cycles with at least one resident warp");
    add("stall_exec_dependency", t.stall_exec_dependency, U::Cycles, "warp-cycles waiting for an arithmetic result");
    add("stall_memory_dependency", t.stall_memory_dependency, U::Cycles, "warp-cycles waiting for a memory result");
    add("stall_sync", t.stall_sync, U::Cycles, "warp-cycles waiting at a barrier");
    add("stall_not_selected", t.stall_not_selected, U::Cycles, "warp-cycles ready but another warp issued");
    add("stall_pipe_busy", t.stall_pipe_busy, U::Cycles, "warp-cycles ready but the unit was busy");
    out.push_back(std::move(g));
  }
  if (s.dram.valid) {
    const DramStats& d = s.dram;
    MetricGroup g{"DRAM", {}};
    auto add = [&](const char* n, double v, U u, const char* desc) { g.metrics.push_back({n, v, u, desc}); };
    add("dram_read_transactions", d.read_transactions, U::Count, "32-byte DRAM read transactions");
    add("dram_write_transactions", d.write_transactions, U::Count, "32-byte DRAM write transactions");
    add("dram_read_bytes", d.read_bytes, U::Bytes, "bytes read from DRAM");
    add("dram_write_bytes", d.write_bytes, U::Bytes, "bytes written to DRAM");
    add("dram_utilization", 100.0 * d.utilization, U::Percent, "data-bus busy fraction (average over channels)");
    add("dram_row_hits", d.row_hits, U::Count, "requests to an open row");
    add("dram_row_misses", d.row_misses, U::Count, "requests to a closed bank");
    add("dram_row_conflicts", d.row_conflicts, U::Count, "requests to a bank with another row open");
    add("dram_bank_level_parallelism", d.bank_level_parallelism, U::Ratio, "busy banks while any bank is busy");
    add("average_memory_latency_cycles", d.average_memory_latency_cycles, U::Ratio,
        "SM cycles from a global load's issue to its data");
    add("achieved_dram_bandwidth_gbps", d.achieved_bandwidth_gbps, U::GBps, "bytes moved / elapsed time");
    add("peak_dram_bandwidth_gbps", d.peak_bandwidth_gbps, U::GBps, "the config's peak DRAM bandwidth");
    out.push_back(std::move(g));
  }
  return out;
}

std::string format_metric_value(const Metric& m) {
  switch (m.unit) {
    case Metric::Unit::Count:
    case Metric::Unit::Cycles:
    case Metric::Unit::Bytes: {
      std::string digits = fmt::format("{:.0f}", m.value);
      std::string out;
      int n = 0;
      for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
        if (n && n % 3 == 0 && *it != '-') out.insert(out.begin(), ',');
        out.insert(out.begin(), *it);
        ++n;
      }
      return out;
    }
    case Metric::Unit::Percent: return fmt::format("{:.1f} %", m.value);
    case Metric::Unit::Nanoseconds: return fmt::format("{:.0f} ns", m.value);
    case Metric::Unit::GBps: return fmt::format("{:.2f} GB/s", m.value);
    case Metric::Unit::Ratio: return fmt::format("{:.3g}", m.value);
  }
  return fmt::format("{}", m.value);
}

}  // namespace warpsim
