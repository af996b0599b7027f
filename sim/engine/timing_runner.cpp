#include "sim/engine/timing_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "sim/foundation/error.hpp"
#include "sim/memory/memory_counter.hpp"
#include "sim/engine/cluster_placement.hpp"
#include "sim/engine/sampling.hpp"
#include "sim/engine/sm_phase.hpp"
#include "sim/engine/timeline.hpp"
#include "sim/memory/memory_system.hpp"
#include "sim/sm/issue_model.hpp"
#include "sim/sm/kernel_deps.hpp"
#include "sim/sm/sm_core.hpp"

namespace warpsim {

namespace {

[[noreturn]] void stalled(const std::vector<std::unique_ptr<sm::SmCore>>& sms, const mem::MemorySystem& memory,
                          uint64_t now, const std::string& kernel) {
  std::string state;
  int shown = 0;
  for (const auto& s : sms) {
    if (!s || s->empty()) continue;
    if (++shown > 4) {
      state += "\n  ...";
      break;
    }
    state += "\n  " + s->describe(now);
  }
  throw KernelFault(KernelFault::Kind::Deadlock,
                    fmt::format("kernel '{}' made no progress at cycle {} and nothing is scheduled to happen "
                                "(simulator watchdog); state:{}\n  {}",
                                kernel, now, state, memory.describe_state()));
}

}  // namespace

void run_timing(const DeviceSpec& spec, sm::WarpExecutor& executor, MemoryCounter& counter, LaunchStats& stats,
                LimitGuard& limits, Timeline* timeline, uint64_t timed_blocks, uint32_t threads, bool adaptive,
                mem::MemorySystem* kept, TimingThreads* pool, uint32_t epoch) {
  const sm::LaunchContext& ctx = executor.context();
  const isa::Kernel& kernel = *ctx.kernel;
  sm::KernelDeps deps(ctx.source_kernel ? *ctx.source_kernel : kernel);  // virtual registers
  sm::IssueModel issue(spec.issue);
  std::optional<mem::MemorySystem> own_memory;
  mem::MemorySystem& memory = kept ? *kept : own_memory.emplace(spec);
  memory.begin_launch(spec.has_l1 ? &spec.l1 : nullptr);
  sm::TimingCounters counters;

  sm::SmShared shared;
  shared.spec = &spec;
  shared.ctx = &ctx;
  shared.executor = &executor;
  shared.counter = &counter;
  shared.memory = &memory;
  shared.deps = &deps;
  shared.issue = &issue;
  shared.stats = &stats;
  shared.counters = &counters;
  shared.timeline = timeline;
  if (timeline) memory.set_dram_command_sink(timeline);
  shared.blocks_per_sm = stats.occupancy.blocks_per_sm;

  const uint64_t grid_blocks = ctx.grid.count();
  const uint64_t nblocks = timed_blocks ? std::min(timed_blocks, grid_blocks) : grid_blocks;
  // Recording a timeline or traces is serial (one recorder, records in issue order). Blocks
  // go to the SMs in order, so a grid that fits on the first thread's SMs never keeps two
  // threads busy: one thread, without the other threads' shares to set up (unless the
  // caller forces parallel phases: not adaptive).
  if (timeline || !stats.traces.empty()) threads = 1;
  if (adaptive && threads > 1 && nblocks <= spec.sm.count / threads) threads = 1;
  const bool epochs = epoch > 1;
  SmPhase phase(shared, threads, pool, epochs);
  phase.set_adaptive(adaptive);
  const std::vector<std::unique_ptr<sm::SmCore>>& sms = phase.sms();

  TimingStats::Sample& sample = stats.timing.sample;
  const bool sampling = nblocks < grid_blocks;
  uint64_t next_block = 0;
  uint64_t now = 0;

  // Block dispatch and memory responses lower an SM's wake; `soonest` collects the lowest.
  uint64_t soonest = sm::kNever;
  // The dispatcher's rate (spec.block_dispatch_cycles): by cycle t at most floor(t / rate) + 1
  // blocks have started. When blocks wait for it with a slot free, it wakes the runner at
  // the cycle the next one may start (dispatch_wake).
  const double rate = spec.block_dispatch_cycles;
  uint64_t dispatch_wake = sm::kNever;
  auto allowed_by = [&](uint64_t t) {
    return rate > 0 ? uint64_t(double(t) / rate) + 1 : std::numeric_limits<uint64_t>::max();
  };
  // Distribution: one block per SM per pass, in the launch's first-pass order
  // (block_placement.hpp; SM order without GPCs), until every SM is full. With a dispatch
  // rate, blocks trickle out a few at a time, so the passes go on from the SM after the last
  // one served (round robin) instead of from the first.
  size_t cursor = 0;
  auto dispatch_blocks = [&](uint64_t t) {
    dispatch_wake = sm::kNever;
    const uint64_t allowed = allowed_by(t);
    bool placed = true;
    while (next_block < nblocks && placed) {
      placed = false;
      for (size_t k = 0; k < sms.size(); ++k) {
        if (next_block >= nblocks) break;
        const size_t slot = (cursor + k) % sms.size();  // cursor stays 0 without a rate
        const size_t i = ctx.sm_of_block(slot);  // the slot-th SM of the first-pass order
        sm::SmCore& s = phase.sm(i);
        if (!s.has_free_block_slot()) continue;
        if (next_block >= allowed) {  // a slot is free, the dispatcher is not
          dispatch_wake = uint64_t(std::ceil(double(next_block) * rate));
          cursor = slot;
          return;
        }
        s.assign_block(static_cast<uint32_t>(next_block++), t);
        soonest = std::min(soonest, phase.note_event(i));
        placed = true;
      }
    }
  };
  // A launch in clusters: whole clusters, in the order of their index, each on distinct
  // SMs with a free slot of one group (engine/cluster_placement.hpp), the groups in turn;
  // within a group, the SMs with the fewest resident blocks, in fill order among equals
  // (as the plain dispatcher's passes spread blocks over the SMs).
  sm::ClusterTable* const clusters = ctx.explicit_cluster ? ctx.clusters : nullptr;
  std::vector<std::vector<uint32_t>> groups;
  if (clusters)
    for (auto& g : cluster_groups(spec, clusters->size()))
      if (g.size() >= clusters->size()) groups.push_back(std::move(g));
  uint64_t next_cluster = 0;
  size_t next_group = 0;
  std::vector<uint32_t> picked;
  auto dispatch_clusters = [&](uint64_t t) {
    const uint32_t size = clusters->size();
    const uint64_t nclusters = nblocks / size;
    while (next_cluster < nclusters) {
      bool placed = false;
      for (size_t k = 0; k < groups.size() && !placed; ++k) {
        const size_t gi = (next_group + k) % groups.size();
        picked.clear();
        for (uint32_t sm : groups[gi])
          if (phase.sm(sm).has_free_block_slot()) picked.push_back(sm);
        if (picked.size() < size) continue;
        std::stable_sort(picked.begin(), picked.end(), [&](uint32_t a, uint32_t b) {
          return phase.sm(a).resident_blocks() < phase.sm(b).resident_blocks();
        });
        for (uint32_t rank = 0; rank < size; ++rank) {
          phase.sm(picked[rank]).assign_block(static_cast<uint32_t>(clusters->block_of(next_cluster, rank)), t);
          soonest = std::min(soonest, phase.note_event(picked[rank]));
        }
        next_group = (gi + 1) % groups.size();
        ++next_cluster;
        placed = true;
      }
      if (!placed) return;
    }
  };
  auto dispatch = [&](uint64_t t) {
    if (clusters) dispatch_clusters(t);
    else dispatch_blocks(t);
  };
  dispatch(0);
  uint64_t mem_next = 0;
  uint64_t finished_seen = 0;
  const uint64_t waves_denominator = uint64_t(spec.sm.count) * std::max<uint32_t>(1, shared.blocks_per_sm);
  stats.timing.waves = (grid_blocks + waves_denominator - 1) / waves_denominator;
  const SteadyWindow window = sampling ? steady_window(nblocks, waves_denominator) : SteadyWindow{};

  auto deliver = [&](uint64_t t) {
    auto& rs = memory.responses();
    for (const auto& r : rs) {
      sms[r.sm]->memory_response(r.token, t);
      soonest = std::min(soonest, phase.note_event(r.sm));
    }
    rs.clear();
  };

  // Epochs (epoch > 1): the SMs tick [now, now + epoch) on their own (SmPhase::tick_epoch)
  // while the memory system catches up to `now`, ticking the cycles since the last epoch's
  // start with that epoch's submissions. Its responses reach the SMs, and freed block slots
  // their next blocks, at the start of the next epoch. A submission may so enter the memory
  // system up to epoch - 1 cycles before it was issued, and a response arrives epoch + 1 to
  // 2 * epoch cycles after the memory system made it (docs/performance.md, "Epochs").
  auto run_epochs = [&] {
    uint64_t mem_from = 0;    // the memory system has ticked every cycle before this
    uint64_t last_event = 0;  // the latest cycle at which an SM or the memory system ticked
    while (true) {
      if (dispatch_wake <= now) dispatch(now);
      const uint64_t end = now + epoch;
      SmPhase::MemoryRange range{mem_from, now, mem_next, 0};
      uint64_t next = phase.tick_epoch(now, end, memory, limits, range);
      mem_next = range.next;
      mem_from = now;
      last_event = std::max({last_event, phase.last_tick(), range.last});
      // This epoch's submissions enter the memory system in the next one, from `now` on.
      if (memory.take_submitted()) mem_next = std::min(mem_next, now + 1);
      if (phase.hold_responses(memory.responses())) soonest = std::min(soonest, end);  // delivered then
      if (const uint64_t finished = phase.blocks_finished(); finished != finished_seen) {
        if (sampling) note_finishes(sample, window, finished_seen, finished, std::max(now, phase.last_tick()));
        finished_seen = finished;
        dispatch(end);
      }
      if (finished_seen == nblocks && memory.idle()) {
        now = last_event;
        return;
      }
      // The memory system's next event falls in the next epoch's catch-up if that epoch
      // starts after it.
      next = std::min({next, soonest, mem_next == sm::kNever ? sm::kNever : mem_next + 1, dispatch_wake});
      soonest = sm::kNever;
      if (next == sm::kNever) stalled(sms, memory, last_event, kernel.name);
      now = std::max(end, next);
      limits.on_cycle(now);
    }
  };

  // Every cycle: the SMs due, then the memory system, each cycle in turn.
  auto run_cycles = [&] {
    while (true) {
      if (dispatch_wake <= now) dispatch(now);
      deliver(now);
      uint64_t next = phase.tick_due(now, memory, limits);  // earliest SM wake
      if (ctx.clusters && !ctx.clusters->released.empty()) {  // cluster barriers completed this cycle
        for (const sm::Warp* w : ctx.clusters->released) {
          sms[w->block->sm]->cluster_released(w, now);
          next = std::min(next, phase.note_event(w->block->sm));
        }
        ctx.clusters->released.clear();
      }
      // Submissions from the SMs give the memory system work from the next cycle on.
      if (memory.take_submitted()) mem_next = std::min(mem_next, now + 1);
      if (mem_next <= now) {
        memory.tick(now);
        mem_next = memory.next_event(now);
      }
      deliver(now);
      if (const uint64_t finished = phase.blocks_finished(); finished != finished_seen) {  // block slots were freed
        if (sampling) note_finishes(sample, window, finished_seen, finished, now);
        finished_seen = finished;
        dispatch(now + 1);
      }
      if (finished_seen == nblocks && memory.idle()) return;

      next = std::min({next, soonest, mem_next, dispatch_wake});
      soonest = sm::kNever;
      if (next == sm::kNever) stalled(sms, memory, now, kernel.name);
      now = std::max(now + 1, next);
      limits.on_cycle(now);
    }
  };

  try {
    if (epochs) run_epochs();
    else run_cycles();
  } catch (...) {
    phase.merge_printf();  // a faulting launch still prints what it printed
    memory.set_dram_command_sink(nullptr);
    throw;
  }
  memory.set_dram_command_sink(nullptr);
  memory.end_launch(now, spec.launch_overhead_cycles);

  for (auto& s : sms)
    if (s) s->account_until(now);
  phase.merge();
  memory.fill_stats(stats, now);
  TimingStats& t = stats.timing;
  t.valid = true;
  if (sampling) t.sample.timed_blocks = nblocks;
  t.elapsed_cycles_sm = now + spec.launch_overhead_cycles;
  t.duration_ns = double(t.elapsed_cycles_sm) * 1000.0 / spec.clock_mhz;
  t.sm_active_cycles = counters.active_cycles;
  t.issued = counters.issued;
  t.ipc = counters.active_cycles ? double(counters.issued) * spec.sm.count / double(counters.active_cycles) /
                                       double(spec.sm.count)
                                 : 0;
  const double slots_per_cycle = double(spec.sm.schedulers) / double(spec.issue.alu_cycles);
  t.issue_slots = uint64_t(double(counters.active_cycles) * slots_per_cycle);
  t.issue_slot_utilization = t.issue_slots ? 100.0 * double(counters.issued) / double(t.issue_slots) : 0;
  t.achieved_occupancy = counters.active_cycles ? double(counters.resident_warp_cycles) /
                                                      (double(counters.active_cycles) * spec.sm.max_warps)
                                                : 0;
  t.sm_efficiency = now ? 100.0 * double(counters.active_cycles) / (double(now) * spec.sm.count) : 0;
  t.stall_exec_dependency = counters.stall_exec;
  t.stall_memory_dependency = counters.stall_memory;
  t.stall_sync = counters.stall_sync;
  t.stall_not_selected = counters.stall_not_selected;
  t.stall_pipe_busy = counters.stall_pipe;
}

}  // namespace warpsim
