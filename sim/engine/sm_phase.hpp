// The SMs of one timed launch and the SM phase of each cycle: every SM whose wake time has
// come ticks, serially or, with threads > 1, in parallel on a WorkerTeam. Statistics are
// the same for any thread count (bit for bit), because:
// - SM i always counts into one share (an executor, memory counter, LaunchStats and
//   TimingCounters that only one thread uses at a time; share 0 is the launch's own) and
//   shares are summed at the end (integers only: launch_stats_merge.hpp);
// - SMs hold their memory submissions back during the phase; they are applied after it,
//   in SM order, as a serial run makes them (an SM's admission check counts its own
//   held submissions; no other SM's queue changes during the phase);
// - a cycle ticks in parallel only if no due SM may issue an instruction that writes global
//   memory or prints (SmCore::alone_from): the SMs of a parallel phase only read
//   shared state, so their order cannot matter. Other cycles tick serially in SM order;
// - instruction-limit checks and faults are replayed in SM order after the phase: the
//   first fault (lowest SM) is thrown, after the limit checks of the SMs before it.
// Timelines and warp traces are recorded by one thread only (the caller forces threads 1).
//
// Epochs (tick_epoch, LaunchOptions::epoch_cycles > 1): each SM ticks every cycle of an
// epoch in a row, without the memory system, in two passes. First every SM ticks up to the
// first cycle at which it may issue an instruction that must issue alone (in parallel: no
// SM writes global memory in this pass); then, in SM order and on one thread, every SM
// ticks the rest of the epoch. Beside the first pass the memory system ticks the epoch
// before (a MemoryRange): it shares nothing with the SMs then (they read its queues' lengths
// as frozen at the epoch's start, MemorySystem::freeze_admission). With threads, the SMs
// are split into groups with statistics of their own (a few per thread); the calling thread
// ticks the memory range and its groups, each worker its own, and who owns which group
// follows the threads' measured busy times (rebalance). The result depends on no thread
// count: the first pass reads global memory as the epoch found it, the second is one
// serial order, and groups are summed in one order.
#pragma once
#include <cstdint>
#include <exception>
#include <memory>
#include <vector>

#include "sim/engine/limit_guard.hpp"
#include "sim/engine/phase_chooser.hpp"
#include "sim/engine/worker_team.hpp"
#include "sim/memory/memory_counter.hpp"
#include "sim/memory/memory_system.hpp"
#include "sim/sm/sm_core.hpp"

namespace warpsim {

// What a device's timed launches keep from one to the next (Device owns it): the worker
// threads, started at the first parallel phase, and the chooser's measurements, so that a
// program of many short launches neither starts threads nor measures anew for each.
struct TimingThreads {
  std::unique_ptr<WorkerTeam> team;  // remade when a launch asks for another count
  PhaseChooser chooser;
};

class SmPhase {
 public:
  // `base` is wired to the launch's executor, memory counter, stats and counters (share 0).
  // threads >= 1 (more threads than SMs are not used). `kept`: the device's threads and
  // chooser (null: the launch's own). `epochs`: the launch ticks with tick_epoch() only.
  SmPhase(const sm::SmShared& base, uint32_t threads, TimingThreads* kept = nullptr, bool epochs = false);
  ~SmPhase();

  size_t size() const { return sms_.size(); }
  // SM i, made when it is first asked for (a block is dispatched to it): a launch of a few
  // blocks on a 132-SM device builds a few SMs, not 132 (an SM that never had a block
  // has no state that could matter: no warps, no requests, no counts).
  sm::SmCore& sm(size_t i) {
    if (!sms_[i]) build(i);
    return *sms_[i];
  }
  // Every SM, null where none was made.
  const std::vector<std::unique_ptr<sm::SmCore>>& sms() const { return sms_; }
  // When each SM next wants a visit (a copy of SmCore::wake, contiguous for the scan).
  const std::vector<uint64_t>& wakes() const { return wakes_; }
  // Copies SM i's wake times after an event outside tick_due() changed it (a memory
  // response, a new block); returns its wake.
  uint64_t note_event(size_t i) {
    wakes_[i] = sms_[i]->wake;
    alone_from_[i] = sms_[i]->alone_from;
    note_finite(i);
    return wakes_[i];
  }
  uint32_t threads() const { return nshares_; }

  // Ticks every SM due at `now`, applies held submissions to `memory` and reports issued
  // instructions to `limits` (running total), all in SM order; returns the earliest wake.
  uint64_t tick_due(uint64_t now, mem::MemorySystem& memory, LimitGuard& limits);

  // Epoch mode (constructed with epochs): ticks every SM at each of its due cycles in
  // [start, end) (two passes, above), then applies the held submissions to `memory` in SM
  // order; reports issued instructions to `limits` in SM order (first pass, then second).
  // Returns the earliest wake (the caller's next epoch starts at end or later).
  // last_tick(): the latest cycle an SM ticked at in it (0 when none did). Memory
  // responses held by hold_responses() are handed to the SMs at `start`, by the thread that
  // ticks them (an SM's state stays in that thread's caches).
  // The memory system ticks [range.from, range.to) meanwhile (every cycle at or after
  // range.next, as next_event() leads), on the calling thread, and range.next and
  // range.last come back updated (last: its latest tick, unchanged if none).
  struct MemoryRange {
    uint64_t from = 0, to = 0;
    uint64_t next = 0;
    uint64_t last = 0;
  };
  uint64_t tick_epoch(uint64_t start, uint64_t end, mem::MemorySystem& memory, LimitGuard& limits,
                      MemoryRange& range);
  // Epoch mode: keeps `responses` (emptied) for the next tick_epoch(); returns whether any.
  bool hold_responses(std::vector<mem::MemResponse>& responses);
  uint64_t last_tick() const { return last_tick_; }  // 0 if no SM ticked

  // Blocks finished so far, over all shares.
  uint64_t blocks_finished() const;
  // Adds the other shares' counts into share 0 (stats, counters, printf records). Once.
  void merge();
  // Only the printf records (a faulting launch still prints what it printed).
  void merge_printf();

  // Parallel SM phases run so far (for tests and measurements).
  uint64_t parallel_cycles() const { return parallel_cycles_; }
  // Whether cycles tick in parallel only where that pays (the default): only while parallel
  // phases measure cheaper than serial ones (PhaseChooser), and while the workers keep up:
  // when many phases in a row found a worker asleep (the host has fewer free cores than
  // threads), SM phases run serially for a while, twice as long each time. Speed only:
  // statistics do not depend on which cycles ran in parallel. Off: every cycle that may
  // tick in parallel does (tests).
  void set_adaptive(bool on) { adaptive_ = on; }

 private:
  struct Share;
  static void run_share(void* self, uint32_t share);
  static void run_epoch_share(void* self, uint32_t share);
  // A thread's part of an epoch's first pass: the memory range (thread 0), then its own
  // SM groups.
  static void run_epoch_tasks(void* self, uint32_t thread);
  void run_memory_range();
  // Ticks SM i from its next_tick at each cycle it is due before `end`; with `first_pass`,
  // stops before a cycle at which it may issue alone. Returns instructions issued.
  uint32_t advance(size_t i, uint64_t end, bool first_pass);
  uint64_t tick_serial(uint64_t now, LimitGuard& limits);
  void pace(bool prompt, uint64_t now);

  void build(size_t i);
  // SmCore::set_parallel_ready for every SM, now and as they are built.
  void set_parallel_ready(bool on);
  bool parallel_ready_ = true;
  uint64_t ticked_ = 0;  // SMs tick_serial() ticked (what the chooser divides by)

  sm::SmShared base_;
  std::vector<sm::SmShared> wiring_;  // per share: what its SMs are wired to
  std::vector<uint8_t> issue_alone_;  // per pc
  std::vector<std::unique_ptr<Share>> shares_;  // shares_[0] unused (the base objects)
  std::vector<std::unique_ptr<sm::SmCore>> sms_;
  // Per SM, contiguous so the caller's scans touch few of the workers' cache lines: copies
  // of SmCore::wake and alone_from, and whether it holds submissions.
  std::vector<uint64_t> wakes_;
  // Bit i: SM i has a wake time (blocks resident and not all waiting for memory). A serial
  // phase visits only these, in SM order: on a 132-SM device running a small grid the
  // others are most of the SMs.
  std::vector<uint64_t> finite_;
  void note_finite(size_t i) {
    const uint64_t bit = uint64_t(1) << (i % 64);
    if (wakes_[i] == sm::kNever) finite_[i / 64] &= ~bit;
    else finite_[i / 64] |= bit;
  }
  std::vector<uint64_t> alone_from_;
  std::vector<uint8_t> holds_;
  std::vector<uint32_t> first_sm_;  // share t ticks SMs [first_sm_[t], first_sm_[t + 1])
  // Results of a parallel phase, per SM: instructions issued, the fault thrown (if any).
  std::vector<uint32_t> issued_;
  std::vector<std::exception_ptr> faults_;
  uint64_t now_ = 0;
  uint64_t end_ = 0;  // the epoch's end (run_epoch_share)
  bool epochs_ = false;
  // Per SM, what an epoch's first pass writes, on a cache line of its own: the threads
  // write their SMs' entries at the same time (the wake copies above are refreshed after).
  // The thread that ticks the SM in the first pass writes all but `responses` (which the
  // serial part fills), so that the serial part reads one line per SM.
  struct alignas(64) EpochSm {
    uint64_t next_tick = 0;           // the next cycle of the epoch it may tick at
    uint64_t last = 0;                // the last cycle it ticked at in the epoch (0: none)
    uint64_t wake = sm::kNever;       // SmCore::wake and alone_from after the pass
    uint64_t alone_from = sm::kNever;
    uint32_t issued = 0;              // instructions issued in the first pass
    bool holds = false;               // whether it holds submissions
    std::vector<uint64_t> responses;  // tokens answered, not yet delivered
    // Copies what the serial part needs of `s` after a pass over it.
    void note(sm::SmCore& s) {
      wake = s.wake;
      alone_from = s.alone_from;
      holds = !s.held_submits().empty();
    }
  };
  std::vector<EpochSm> epoch_sm_;
  // Per SM: whether its `responses` has tokens (the serial part's own copy, so that it does
  // not read the lines the threads write).
  std::vector<uint8_t> responded_;
  uint64_t last_tick_ = 0;
  uint64_t total_insts_ = 0;
  uint64_t parallel_cycles_ = 0;
  bool adaptive_ = true;
  uint32_t window_ = 0, window_slow_ = 0;  // parallel phases in the current window, slow ones
  uint64_t serial_until_ = 0;              // back-off: serial phases before this cycle
  uint64_t backoff_ = 0;                   // the next back-off's length
  uint32_t nshares_ = 1;   // groups of SMs, each with its own executor and statistics
  uint32_t nthreads_ = 1;  // the worker team's size (nshares_ but with epochs)
  // The epoch's tasks: the memory range (if has_memory_task_; thread 0), and the groups:
  // thread t ticks groups [owned_[t], owned_[t + 1]).
  bool has_memory_task_ = false;
  std::vector<uint32_t> owned_;
  // Per thread: when it finished its tasks (host ns), and its busy time summed over the
  // parallel epochs of the current window; each on a cache line of its own.
  struct alignas(64) Busy {
    uint64_t ns = 0;
    uint64_t sum = 0;
  };
  std::vector<Busy> busy_;
  uint32_t balance_window_ = 0;
  static constexpr uint32_t kBalanceWindow = 64;  // parallel epochs between rebalances
  void rebalance();
  mem::MemorySystem* memory_ = nullptr;
  MemoryRange* range_ = nullptr;
  std::exception_ptr memory_fault_;
  TimingThreads own_;
  TimingThreads* pool_ = &own_;  // the team is started at the first parallel phase
};

}  // namespace warpsim
