// Every field of a LaunchStats as text (doubles bit-exact, as hex floats), except the host
// time, so that two runs can be compared bit for bit and a difference is shown by name.
#pragma once
#include <fmt/format.h>

#include <string>

#include "sim/foundation/launch_stats.hpp"

namespace warpsim::test {

inline std::string dump_all(const LaunchStats& s) {
  std::string o;
  auto u = [&](const char* k, uint64_t v) { o += fmt::format("{}={}\n", k, v); };
  auto d = [&](const char* k, double v) { o += fmt::format("{}={:a}\n", k, v); };
  auto vec = [&](const char* k, const std::vector<uint64_t>& v) {
    o += fmt::format("{}=[{}]\n", k, fmt::join(v, ","));
  };
  o += s.kernel + "|" + s.device + "\n";
  u("grid", s.grid.count()), u("block", s.block.count()), u("dyn_shared", s.dynamic_shared_bytes);
  u("timing_mode", s.timing_mode);
  const ExecStats& e = s.exec;
  u("inst", e.inst_executed), u("thread_inst", e.thread_inst_executed);
  u("not_pred_off", e.not_predicated_off_thread_inst_executed), u("branch", e.branch);
  u("divergent", e.divergent_branch), u("gld_req", e.gld_requests), u("gst_req", e.gst_requests);
  u("lld_req", e.local_load_requests), u("lst_req", e.local_store_requests);
  u("sld_req", e.shared_load_requests), u("sst_req", e.shared_store_requests), u("atom_req", e.atomic_requests);
  u("barriers", e.barriers), u("blocks", e.blocks), u("warps", e.warps), u("threads", e.threads);
  u("warp_size", e.warp_size);
  vec("rr_sm_inst", e.round_robin_sm_instructions), u("longest_warp", e.longest_warp_instructions);
  u("mem_valid", s.mem_valid);
  const MemStats& m = s.mem;
  u("gld_t", m.gld_transactions), u("gst_t", m.gst_transactions), u("lld_t", m.local_load_transactions);
  u("lst_t", m.local_store_transactions), u("atom_t", m.atomic_transactions);
  u("gld_breq", m.gld_bytes_requested), u("gst_breq", m.gst_bytes_requested);
  u("gld_bx", m.gld_bytes_transferred), u("gst_bx", m.gst_bytes_transferred);
  u("sld_t", m.shared_load_transactions), u("sst_t", m.shared_store_transactions);
  u("sld_c", m.shared_load_bank_conflicts), u("sst_c", m.shared_store_bank_conflicts);
  u("l1_hits", m.l1_hits), u("l1_misses", m.l1_misses), u("l2_hits", m.l2_hits), u("l2_misses", m.l2_misses);
  u("l2_rt", m.l2_read_transactions), u("l2_wt", m.l2_write_transactions);
  u("has_l1", m.has_l1), u("has_l2", m.has_l2);
  const OccupancyStats& oc = s.occupancy;
  u("occ_bps", oc.blocks_per_sm), u("occ_regs", oc.registers_per_thread), u("occ_aw", oc.active_warps_per_sm);
  o += "limiter=" + oc.limiter + "\n";
  d("occ_theor", oc.theoretical_occupancy);
  const TimingStats& t = s.timing;
  u("t_valid", t.valid), u("cycles", t.elapsed_cycles_sm), d("duration", t.duration_ns), d("ipc", t.ipc);
  d("isu", t.issue_slot_utilization), d("ach_occ", t.achieved_occupancy), d("sm_eff", t.sm_efficiency);
  u("st_exec", t.stall_exec_dependency), u("st_mem", t.stall_memory_dependency), u("st_sync", t.stall_sync);
  u("st_ns", t.stall_not_selected), u("st_pipe", t.stall_pipe_busy), u("active", t.sm_active_cycles);
  u("slots", t.issue_slots), u("issued", t.issued), u("waves", t.waves);
  u("s_sampled", t.sample.sampled), u("s_blocks", t.sample.timed_blocks), u("s_cycles", t.sample.timed_cycles);
  u("s_lo", t.sample.lo_cycle), u("s_lob", t.sample.lo_blocks), u("s_hi", t.sample.hi_cycle);
  u("s_hib", t.sample.hi_blocks), d("s_scale", t.sample.scale);
  u("s_grp", t.sample.group), u("s_hf", t.sample.head_first), u("s_tf", t.sample.tail_first);
  u("s_hc", t.sample.head_cycles), u("s_tc", t.sample.tail_cycles), d("s_cpb", t.sample.cycles_per_block);
  u("fl_est", t.from_launch.estimated), u("fl_launch", t.from_launch.launch), d("fl_scale", t.from_launch.scale);
  const DramStats& r = s.dram;
  u("dram_valid", r.valid), u("dram_cycles", r.dram_cycles), u("dram_rt", r.read_transactions);
  u("dram_wt", r.write_transactions), u("dram_rb", r.read_bytes), u("dram_wb", r.write_bytes);
  u("dram_rh", r.row_hits), u("dram_rm", r.row_misses), u("dram_rc", r.row_conflicts);
  d("dram_util", r.utilization), d("dram_blp", r.bank_level_parallelism);
  d("dram_lat", r.average_memory_latency_cycles), d("dram_bw", r.achieved_bandwidth_gbps);
  d("dram_peak", r.peak_bandwidth_gbps), u("dram_req", r.requests), u("dram_act", r.activates);
  u("dram_pre", r.precharges), u("dram_ref", r.refreshes), d("dram_rlat", r.average_read_latency_dram_cycles);
  for (const DramChannelStats& c : r.channels) {
    u("ch_r", c.reads), u("ch_w", c.writes), u("ch_rh", c.row_hits), u("ch_rm", c.row_misses);
    u("ch_rc", c.row_conflicts), u("ch_act", c.activates), u("ch_pre", c.precharges), u("ch_ref", c.refreshes);
    u("ch_busy", c.busy_cycles), u("ch_rt", c.read_transactions), u("ch_wt", c.write_transactions);
    u("ch_rb", c.read_bytes), u("ch_wb", c.write_bytes), u("ch_rlat", c.read_latency_cycles);
    u("ch_bb", c.bank_busy_cycles), u("ch_ac", c.active_cycles), d("ch_util", c.utilization);
    d("ch_blp", c.bank_level_parallelism);
    vec("ch_br", c.bank_reads), vec("ch_bw", c.bank_writes), vec("ch_brh", c.bank_row_hits);
    vec("ch_brm", c.bank_row_misses), vec("ch_brc", c.bank_row_conflicts), vec("ch_bact", c.bank_activates);
  }
  for (size_t pc = 0; pc < s.per_pc.size(); ++pc) {
    const PcStats& p = s.per_pc[pc];
    o += fmt::format("pc{}={},{},{},{},{},{}\n", pc, p.executed, p.active_threads, p.divergent, p.requests,
                     p.transactions, p.stall_cycles);
  }
  for (const BranchInstanceStats& b : s.branches) {
    u("br_pc", b.pc), vec("br_reached", b.reached), vec("br_diverged", b.diverged);
  }
  for (const WarpTrace& w : s.traces) {
    u("tr_block", w.block), u("tr_warp", w.warp), u("tr_dropped", w.dropped);
    for (const TraceRecord& x : w.records) {
      o += fmt::format("rec pc={} sp={} k={} b={} m={} addrs=[{}] sh={},{} timed={} {} {} {}\n", x.pc, x.space,
                       x.kind, x.bytes_per_lane, x.mask, fmt::join(x.addrs, ","), x.shared_passes, x.shared_degree,
                       x.timed, x.issue_cycle, x.waited_cycles, x.done_cycle);
      for (const TraceTransaction& tt : x.transactions)
        o += fmt::format("  txn {} {} {} {}\n", tt.addr, tt.size, tt.lanes, tt.sectors);
    }
  }
  return o;
}

}  // namespace warpsim::test
