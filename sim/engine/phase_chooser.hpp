// Whether the SM phases of a timed launch should tick on the worker threads, decided by
// measuring: a parallel SM phase pays only when a cycle's SM work is large against the
// exchange between threads (the H100 config's 132 SMs) and costs when it is small (the
// C2070's 14; docs/performance.md, "Parallel timing"). The chooser measures both kinds of
// phase, keeps the cheaper per SM ticked for a commit window, then measures the other kind
// again (the host's load and the kernel's phase change) and compares it with the commit
// window's own cost. The commit window doubles while the choice stays the same, up to
// about a second of host time. A switch of kind moves the SMs' state between the cores'
// caches, which costs the first phases after it: each measured window starts with
// unmeasured warm-up phases. Where serial phases take too little time for threads to pay,
// the parallel kind is not tried at all.
//
// Contract: speed only. Which cycles tick in parallel never changes a statistic
// (engine/sm_phase.hpp), so a noisy measurement can cost time, never a result.
#pragma once
#include <cstdint>

namespace warpsim {

class PhaseChooser {
 public:
  using Clock = uint64_t (*)();
  // Nanoseconds of a monotonic clock (read only at window boundaries).
  static uint64_t host_stamp();
  explicit PhaseChooser(Clock clock = &host_stamp) : clock_(clock) {}

  // Call once at the start of every SM phase: whether this one may run in parallel.
  bool allow();
  // The SMs the phase just started will tick (what its cost is divided by).
  void count(uint64_t sms) { ticks_ += sms; }
  // Between launches (a chooser kept from one launch to the next): the time from pause() to
  // resume() is left out of the window that spans it.
  void pause();
  void resume();

  // Measured choices so far (for tests and measurements).
  uint64_t parallel_windows() const { return parallel_windows_; }
  uint64_t serial_windows() const { return serial_windows_; }

  // A parallel phase must be this much cheaper per SM tick to be chosen (noise margin).
  static constexpr double kMargin = 0.95;
  static constexpr uint64_t kWarmCalls = 64, kProbeCalls = 256;
  static constexpr uint64_t kFirstCommit = 4096, kMaxCommit = uint64_t(1) << 20;
  // A commit window stops doubling at about this much clock time (ns: a second).
  static constexpr double kCommitTime = 1e9;
  // Serial phases shorter than this (ns, the whole cycle's) are not worth a parallel probe:
  // a parallel phase costs a few microseconds of exchange between threads and, after a
  // switch, of the SMs' state moving between caches (the C2070's 14 SMs take about 2 us).
  static constexpr double kMinParallelPhase = 5000;

 private:
  // Warm: phases of the kind about to be measured, not measured. Probe: measured. At the
  // start both kinds are probed (serial first); after a commit only the other kind.
  enum class State { Warm, Probe, Commit };
  void start(State s, bool parallel, uint64_t calls, uint64_t at);
  // Measured cost per SM tick and per phase of the window just ended.
  void record(uint64_t at);
  void decide(uint64_t at);
  // Whether the serial phases measured last are below kMinParallelPhase (the parallel
  // kind then counts as unmeasured).
  bool too_short();

  Clock clock_;
  State state_ = State::Warm;
  bool window_parallel_ = false;
  bool first_round_ = true;  // no commit window yet: the second probe is the other kind
  uint64_t calls_ = 0;       // phases in the window
  uint64_t calls_left_ = 0;
  uint64_t started_ = 0;     // time stamp of the window's start
  uint64_t ticks_ = 0;       // SM ticks in the window so far
  double cost_[2] = {0, 0};        // per SM tick: [serial, parallel]
  double call_times_[2] = {0, 0};  // per phase: [serial, parallel]
  bool chose_parallel_ = false;
  bool have_choice_ = false;
  uint64_t commit_ = kFirstCommit;
  bool begun_ = false;
  bool paused_ = false;
  uint64_t paused_at_ = 0;
  uint64_t parallel_windows_ = 0, serial_windows_ = 0;
};

}  // namespace warpsim
