// Command schedulers of a channel controller, chosen by name through one registry.
//
// Each cycle the controller asks its scheduler for at most one command. The scheduler sees
// the queue (oldest first), the bank states and the timing engine, and returns the queue
// entry to serve and its command (or none), plus the earliest cycle at which another
// candidate becomes timing-ready, for idle skipping. Policies:
//  - "fr-fcfs" (default; Rixner et al.): ready column commands to open rows first, oldest
//    first; otherwise the oldest request whose ACT or PRE is ready. A row is not closed
//    while a queued request still targets it (so a multi-burst request is never cut).
//  - "fr-fcfs-wd": fr-fcfs over reads while writes wait; writes are drained in a batch once
//    they fill half the queue (or no read waits), down to an eighth, which saves the bus
//    turnarounds of serving them one by one (write-drain mode of real controllers).
//  - "fcfs": requests to one bank are served strictly in arrival order (only the oldest
//    request of each bank may issue); across banks the oldest ready command goes first,
//    so different banks still overlap their row activations.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "sim/memory/dram_bank.hpp"
#include "sim/memory/dram_request.hpp"
#include "sim/memory/dram_timing.hpp"

namespace warpsim::mem {

inline constexpr uint64_t kNever = UINT64_MAX;

struct SchedulerInput {
  std::span<const QueuedRequest> queue;  // oldest first
  std::span<const BankState> banks;
  const TimingEngine& engine;
  uint64_t now;
  size_t capacity = 0;  // the queue's capacity (dram.queue_size)
};

struct SchedulerChoice {
  int index = -1;                     // queue entry to serve; -1 = nothing ready now
  DramCommand command = DramCommand::ACT;
  // Earliest ready cycle among the candidates considered, leaving out every candidate of
  // the chosen request's bank when one is chosen (its state is about to change).
  uint64_t next_ready = kNever;
};

class DramScheduler {
 public:
  virtual ~DramScheduler() = default;
  virtual SchedulerChoice pick(const SchedulerInput& in) = 0;
  // Earliest ready cycle among the candidates of one bank (after a command changed it).
  virtual uint64_t next_ready_in_bank(const SchedulerInput& in, uint32_t bank) = 0;
};

struct DramSchedulerEntry {
  std::string_view name;
  std::string_view description;
  std::unique_ptr<DramScheduler> (*make)();
};

std::span<const DramSchedulerEntry> dram_schedulers();
const DramSchedulerEntry* find_dram_scheduler(std::string_view name);  // null if unknown
std::string dram_scheduler_names();                                     // "fr-fcfs, fcfs"
// Throws ConfigError listing the valid names when `name` is unknown.
std::unique_ptr<DramScheduler> make_dram_scheduler(std::string_view name);

}  // namespace warpsim::mem
