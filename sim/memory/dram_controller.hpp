// One DRAM channel: a bounded request queue, its banks, a timing engine and a scheduler.
//
// Cycle contract (command-clock cycles):
//  - enqueue(..., t) before tick(t) lets the request's first command issue in cycle t
//    (queue entry costs no cycle). So an isolated read to a closed bank of an idle channel
//    enqueued at t issues ACT at t, RD at t+tRCD, and completes at t + tRCD + tCL + BL,
//    where BL = burst_cycles() and "completes" is the cycle its last data beat ends.
//  - tick(t) issues at most one command (one command bus per channel), retires requests
//    whose data is done by t, and returns whether anything happened.
//  - next_event() is a lower bound on the next cycle at which tick can do anything
//    (kNever if nothing is pending and refresh is off); ticking at other cycles is a no-op,
//    so idle skipping and ticking every cycle give identical results.
//  - A queue slot frees when the request's last column command issues; completions are
//    reported when their data is done. Nothing is dropped.
//  - Refresh (tREFI > 0): when due, the channel stops serving requests, precharges every
//    open bank as soon as timing allows, issues REF, and goes on; it keeps refreshing while
//    idle, so with refresh on next_event() is never kNever.
//  - Closed-page policy: a request's last column command auto-precharges the bank unless a
//    queued request targets the same row; the internal PRE is placed at the earliest cycle
//    the timing allows and takes no command-bus slot.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/foundation/launch_stats.hpp"
#include "sim/memory/dram_bank.hpp"
#include "sim/memory/dram_request.hpp"
#include "sim/memory/dram_scheduler.hpp"
#include "sim/memory/dram_spec.hpp"
#include "sim/memory/dram_timing.hpp"

namespace warpsim::mem {

class DramChannel {
 public:
  DramChannel(const DramSpec& spec, std::span<const TimingConstraint> table);

  bool can_accept() const { return queue_.size() < capacity_; }
  bool busy() const { return !queue_.empty() || inflight_size_ > 0; }
  // Precondition: can_accept(). `bursts` column commands to (`bank`, `row`).
  void enqueue(uint64_t id, uint32_t bank, uint64_t row, uint32_t bursts, bool write,
               uint64_t now);
  bool tick(uint64_t now, std::vector<DramCompletion>& done);
  uint64_t next_event() const { return next_event_; }

  // Counts since the last restart_stats (or construction); derived ratios use the command
  // cycles from then to `end`.
  void fill_stats(DramChannelStats& out, uint64_t end) const;
  // Counting starts again at cycle `now`, while the channel is idle (!busy()); rows,
  // timing and the refresh schedule are kept.
  void restart_stats(uint64_t now);
  const TimingEngine& engine() const { return engine_; }
  void set_command_sink(DramCommandSink* sink, uint32_t channel) {
    sink_ = sink;
    channel_id_ = channel;
  }
  const BankState& bank(uint32_t b) const { return banks_[b]; }
  size_t queued() const { return queue_.size(); }

 private:
  struct Inflight {
    uint64_t id, done, arrival;
    uint32_t bank;
    bool write;
  };
  void issue(size_t index, DramCommand c, uint64_t now);
  // Every command goes through here: the timing engine, then the optional observer.
  void command(DramCommand c, uint32_t bank, uint64_t now) {
    engine_.issue(c, bank, now);
    if (sink_) sink_->on_dram_command(channel_id_, c, bank, now);
  }
  DramCommandSink* sink_ = nullptr;
  uint32_t channel_id_ = 0;
  void finish_column_request(size_t index, uint64_t now);
  bool refresh_step(uint64_t now, uint64_t& next_ready);
  void close_bank(uint32_t bank);
  void note_outcome(QueuedRequest& q, RowOutcome o);
  void push_inflight(const Inflight& f);
  void blp_advance(uint64_t t);

  // Configuration (copied so a channel never refers back to the spec).
  size_t capacity_;
  uint32_t burst_cycles_, tCL_, tWL_, atom_bytes_, tREFI_;
  bool closed_page_;

  TimingEngine engine_;
  std::unique_ptr<DramScheduler> scheduler_;
  std::vector<QueuedRequest> queue_;  // oldest first
  std::vector<BankState> banks_;
  uint32_t open_banks_ = 0;

  std::vector<Inflight> ring_;        // requests whose data is not done, in done order
  size_t inflight_head_ = 0, inflight_size_ = 0;

  bool refreshing_ = false;
  uint64_t refresh_due_ = kNever;
  uint64_t next_event_ = kNever;
  uint64_t sched_next_ = 0;  // lower bound on when the scheduler can pick a command

  // Bank-level parallelism: time integral of banks with outstanding requests.
  uint32_t busy_banks_ = 0;
  uint64_t blp_last_ = 0, blp_integral_ = 0, blp_active_ = 0;
  uint64_t stats_start_ = 0;

  DramChannelStats stats_;
};

}  // namespace warpsim::mem
