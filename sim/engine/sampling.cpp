#include "sim/engine/sampling.hpp"

#include <algorithm>
#include <cmath>

namespace warpsim {

namespace {

uint64_t scaled(uint64_t v, double f) { return static_cast<uint64_t>(std::llround(double(v) * f)); }

}  // namespace

uint64_t blocks_to_time(uint64_t nblocks, uint64_t blocks_per_wave, uint32_t waves) {
  if (waves == 0 || blocks_per_wave == 0) return nblocks;
  const uint64_t k = blocks_per_wave * waves;
  return 2 * k > nblocks ? nblocks : k;
}

SteadyWindow steady_window(uint64_t timed_blocks, uint64_t blocks_per_wave) {
  SteadyWindow w;
  w.lo = (timed_blocks + 1) / 2;
  w.hi = timed_blocks * 7 / 8;
  if (w.hi <= w.lo) return {};
  w.group = std::min<uint64_t>(std::max<uint64_t>(1, blocks_per_wave), (w.hi - w.lo + 1) / 2);
  return w;
}

void note_finishes(TimingStats::Sample& s, const SteadyWindow& w, uint64_t before, uint64_t after, uint64_t now) {
  if (!w.group) return;
  if (!s.lo_blocks && after >= w.lo) s.lo_blocks = after, s.lo_cycle = now;
  if (!s.hi_blocks && after >= w.hi) s.hi_blocks = after, s.hi_cycle = now;
  s.group = w.group;
  s.head_first = w.lo;
  s.tail_first = w.hi + 1 - w.group;
  for (uint64_t j = before + 1; j <= after; ++j) {
    if (j >= w.lo && j < w.lo + w.group) s.head_cycles += now;
    if (j >= s.tail_first && j <= w.hi) s.tail_cycles += now;
  }
}

TimedWork timed_work(const LaunchStats& s) {
  return {s.exec.inst_executed, s.mem.gld_transactions + s.mem.gst_transactions + s.mem.local_load_transactions +
                                    s.mem.local_store_transactions + s.mem.atomic_transactions};
}

void extrapolate_timing(LaunchStats& stats, const DeviceSpec& spec, const TimedWork& timed, uint64_t nblocks) {
  TimingStats& t = stats.timing;
  TimingStats::Sample& s = t.sample;
  const uint64_t k = s.timed_blocks;
  const uint64_t cycles = t.elapsed_cycles_sm;
  s.timed_cycles = cycles;
  // Steady state (sampling.hpp): the window's last group of finishes against its first;
  // without a window (too few blocks), proportional.
  double per_block = double(cycles) / double(k);
  if (s.group && s.tail_first > s.head_first && s.tail_cycles > s.head_cycles)
    per_block = double(s.tail_cycles - s.head_cycles) / double(s.group) / double(s.tail_first - s.head_first);
  s.cycles_per_block = per_block;
  const double estimate = double(cycles) + double(nblocks - k) * per_block;
  const double time_scale = cycles ? estimate / double(cycles) : 1.0;
  const TimedWork all = timed_work(stats);
  const double inst_scale = timed.instructions ? double(all.instructions) / double(timed.instructions) : 1.0;
  const double mem_scale = timed.transactions ? double(all.transactions) / double(timed.transactions) : inst_scale;
  s.sampled = true;
  s.scale = time_scale;

  // Time and what integrates over it.
  t.elapsed_cycles_sm = static_cast<uint64_t>(std::llround(estimate));
  t.duration_ns = double(t.elapsed_cycles_sm) * 1000.0 / spec.clock_mhz;
  scale_timing_counters(stats, spec, time_scale, inst_scale, mem_scale);
}

void scale_timing_counters(LaunchStats& stats, const DeviceSpec& spec, double time_scale, double inst_scale,
                           double mem_scale) {
  TimingStats& t = stats.timing;
  t.sm_active_cycles = scaled(t.sm_active_cycles, time_scale);
  t.issue_slots = scaled(t.issue_slots, time_scale);
  for (uint64_t* stall : {&t.stall_exec_dependency, &t.stall_memory_dependency, &t.stall_sync,
                          &t.stall_not_selected, &t.stall_pipe_busy})
    *stall = scaled(*stall, time_scale);
  // Issue follows the instructions; the ratios are recomputed from the scaled parts.
  t.issued = scaled(t.issued, inst_scale);
  t.ipc = t.sm_active_cycles ? double(t.issued) / double(t.sm_active_cycles) : 0;
  t.issue_slot_utilization = t.issue_slots ? 100.0 * double(t.issued) / double(t.issue_slots) : 0;
  t.sm_efficiency = t.elapsed_cycles_sm ? 100.0 * double(t.sm_active_cycles) /
                                              (double(t.elapsed_cycles_sm) * spec.sm.count)
                                        : 0;
  for (auto& pc : stats.per_pc) pc.stall_cycles = scaled(pc.stall_cycles, time_scale);

  // Caches and DRAM follow the memory transactions.
  MemStats& m = stats.mem;
  for (uint64_t* c : m.cache_counters()) *c = scaled(*c, mem_scale);
  DramStats& d = stats.dram;
  if (d.valid) {
    const double bandwidth_scale = mem_scale / time_scale;
    d.dram_cycles = scaled(d.dram_cycles, time_scale);
    for (uint64_t* c : {&d.read_transactions, &d.write_transactions, &d.read_bytes, &d.write_bytes, &d.row_hits,
                        &d.row_misses, &d.row_conflicts, &d.requests, &d.activates, &d.precharges})
      *c = scaled(*c, mem_scale);
    d.refreshes = scaled(d.refreshes, time_scale);
    d.utilization = std::min(1.0, d.utilization * bandwidth_scale);
    d.achieved_bandwidth_gbps *= bandwidth_scale;
    for (auto& c : d.channels) {
      for (uint64_t* v : {&c.reads, &c.writes, &c.row_hits, &c.row_misses, &c.row_conflicts, &c.activates,
                          &c.precharges, &c.read_transactions, &c.write_transactions, &c.read_bytes, &c.write_bytes,
                          &c.read_latency_cycles, &c.busy_cycles})
        *v = scaled(*v, mem_scale);
      for (uint64_t* v : {&c.refreshes, &c.bank_busy_cycles, &c.active_cycles})
        *v = scaled(*v, time_scale);
      c.utilization = std::min(1.0, c.utilization * bandwidth_scale);
      for (auto* bank : {&c.bank_reads, &c.bank_writes, &c.bank_row_hits, &c.bank_row_misses, &c.bank_row_conflicts,
                         &c.bank_activates})
        for (auto& v : *bank) v = scaled(v, mem_scale);
    }
  }
}

}  // namespace warpsim
