#include "sim/engine/phase_chooser.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

namespace warpsim {

uint64_t PhaseChooser::host_stamp() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

void PhaseChooser::start(State s, bool parallel, uint64_t calls, uint64_t at) {
  state_ = s;
  window_parallel_ = parallel;
  calls_ = calls_left_ = calls;
  started_ = at;
  ticks_ = 0;
}

void PhaseChooser::record(uint64_t at) {
  const double elapsed = double(at - started_);
  cost_[window_parallel_] = ticks_ ? elapsed / double(ticks_) : std::numeric_limits<double>::infinity();
  call_times_[window_parallel_] = calls_ ? elapsed / double(calls_) : 0;
}

bool PhaseChooser::too_short() {
  if (call_times_[0] >= kMinParallelPhase) return false;
  cost_[1] = std::numeric_limits<double>::infinity();  // not measured: not chosen
  return true;
}

void PhaseChooser::decide(uint64_t at) {
  const bool parallel = cost_[1] < kMargin * cost_[0];
  if (have_choice_ && parallel == chose_parallel_) {
    // Double, up to about kCommitTime at the chosen kind's measured time per phase.
    const double t = call_times_[parallel];
    const double longest = t > 0 ? std::min(kCommitTime / t, double(kMaxCommit)) : double(kMaxCommit);
    commit_ = std::min(2 * commit_, std::max(kFirstCommit, uint64_t(longest)));
  } else {
    commit_ = kFirstCommit;
  }
  chose_parallel_ = parallel;
  have_choice_ = true;
  ++(parallel ? parallel_windows_ : serial_windows_);
  start(State::Commit, parallel, commit_, at);
}

void PhaseChooser::pause() {
  if (!begun_ || paused_) return;
  paused_ = true;
  paused_at_ = clock_();
}

void PhaseChooser::resume() {
  if (!paused_) return;
  paused_ = false;
  started_ += clock_() - paused_at_;
}

bool PhaseChooser::allow() {
  if (begun_ && calls_left_ != 0) {  // within a window: nothing to measure
    --calls_left_;
    return window_parallel_;
  }
  const uint64_t now = clock_();
  if (!begun_) {
    begun_ = true;
    start(State::Warm, false, kWarmCalls, now);
  } else {
    switch (state_) {
      case State::Warm:
        start(State::Probe, window_parallel_, kProbeCalls, now);
        break;
      case State::Probe:
        record(now);
        if (first_round_ && !window_parallel_ && !too_short()) {
          start(State::Warm, true, kWarmCalls, now);  // and then the parallel probe
        } else {
          first_round_ = false;
          decide(now);
        }
        break;
      case State::Commit:
        record(now);  // the kept kind's cost, over its whole window
        if (!window_parallel_ && too_short()) decide(now);  // serial again, untried
        else start(State::Warm, !window_parallel_, kWarmCalls, now);
        break;
    }
  }
  --calls_left_;
  return window_parallel_;
}

}  // namespace warpsim
