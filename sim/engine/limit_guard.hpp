// Enforces a launch's resource limits (instructions, cycles, host time). Cheap to poll:
// the host clock is read only every few thousand instructions.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

#include "sim/engine/device.hpp"

namespace warpsim {

class LimitGuard {
 public:
  LimitGuard(const Limits& limits, std::string kernel);
  // Called once per warp instruction with the running total; throws KernelFault(LimitExceeded).
  void on_instructions(uint64_t total) {
    if (limits_.max_warp_instructions && total > limits_.max_warp_instructions) fail_instructions(total);
    if (++since_clock_check_ >= kClockCheckPeriod) check_host_time();
  }
  // Accounts `n` instructions run in one go by someone who kept the running total at or
  // below the instruction limit (WarpExecutor::run_plain with a budget): only the host clock.
  void on_instructions_run(uint64_t n) {
    since_clock_check_ += n;
    if (since_clock_check_ >= kClockCheckPeriod) check_host_time();
  }
  void on_cycle(uint64_t cycle) {
    if (limits_.max_cycles && cycle > limits_.max_cycles) fail_cycles(cycle);
  }
  void check_host_time();
  double elapsed_seconds() const;
  // For threads that run a share of the launch and stop it on their own (without throwing):
  // the instruction limit (0: none) and whether the host time limit has passed.
  uint64_t max_instructions() const { return limits_.max_warp_instructions; }
  bool host_time_exceeded() const {
    return limits_.max_host_seconds > 0 && elapsed_seconds() > limits_.max_host_seconds;
  }

 private:
  static constexpr uint32_t kClockCheckPeriod = 1 << 14;
  [[noreturn]] void fail_instructions(uint64_t total) const;
  [[noreturn]] void fail_cycles(uint64_t cycle) const;

  Limits limits_;
  std::string kernel_;
  std::chrono::steady_clock::time_point start_;
  uint64_t since_clock_check_ = 0;
};

}  // namespace warpsim
