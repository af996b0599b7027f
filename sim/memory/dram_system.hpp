// All DRAM channels behind one address map: the interface the rest of the simulator uses.
//
// Per DRAM command cycle the caller enqueues what arrives (enqueue before tick lets a
// request issue in the same cycle), calls tick(cycle), and drains completions(). With idle
// skipping it may jump straight to next_event_cycle() (or to its own next arrival) and
// gets the same results as ticking every cycle. See dram_controller.hpp for the timing
// contract of one channel.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/foundation/launch_stats.hpp"
#include "sim/memory/address_map.hpp"
#include "sim/memory/dram_controller.hpp"
#include "sim/memory/dram_request.hpp"
#include "sim/memory/dram_spec.hpp"
#include "sim/memory/dram_timing.hpp"

namespace warpsim::mem {

class DramSystem {
 public:
  explicit DramSystem(const DramSpec& spec);

  const DramSpec& spec() const { return spec_; }
  const AddressMap& address_map() const { return map_; }

  // Whether the channel that `addr` maps to has a free queue entry (one queue for reads
  // and writes, so `write` does not matter today; it is part of the interface).
  bool can_accept(uint64_t addr, bool write) const;
  // Precondition: can_accept(). Throws warpsim::Error when the queue is full (a caller
  // bug: nothing is dropped), when bytes is 0, or when the request's atoms do not all map
  // to one channel, bank and row.
  void enqueue(const DramRequest& req, uint64_t now);
  // One command-clock cycle on every channel that has something due; returns progress.
  bool tick(uint64_t cycle);
  // Earliest cycle at which tick can do anything; UINT64_MAX when idle (refresh off).
  uint64_t next_event_cycle() const;
  // Whether any request is queued or in flight.
  bool busy() const { return outstanding_ > 0; }
  // Finished requests, in completion order; the caller drains (clears) it.
  std::vector<DramCompletion>& completions() { return completions_; }

  // Counts since the last restart_stats (or construction), up to command cycle `end`.
  void fill_stats(DramStats& out, uint64_t end) const;
  // Counting starts again at command cycle `now`; the DRAM must be idle (!busy()). Open
  // rows, timing and refresh carry on (a new launch on a device that keeps its state).
  void restart_stats(uint64_t now);
  const DramChannel& channel(uint32_t i) const { return channels_[i]; }
  const std::vector<TimingConstraint>& timing_table() const { return table_; }
  void set_command_sink(DramCommandSink* sink) {
    for (uint32_t i = 0; i < channels_.size(); ++i) channels_[i].set_command_sink(sink, i);
  }

 private:
  DramSpec spec_;
  AddressMap map_;
  std::vector<TimingConstraint> table_;
  std::vector<DramChannel> channels_;
  std::vector<DramCompletion> completions_;
  uint32_t atom_shift_ = 0;
  uint64_t outstanding_ = 0;
  uint64_t stats_start_ = 0;
};

}  // namespace warpsim::mem
