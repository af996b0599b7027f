// A Chrome trace-event file (opens in Perfetto or chrome://tracing) of a bounded window
// of a timed run: per SM (process) and warp slot (thread), issue slices and stall
// intervals by reason; per DRAM channel (process) and bank (thread), ACT / RD / WR / PRE /
// REF commands with their durations. One trace microsecond is one SM cycle.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/spec/device_spec.hpp"
#include "sim/memory/dram_timing.hpp"
#include "sim/sm/warp_slice_sink.hpp"

namespace warpsim {

class Timeline final : public mem::DramCommandSink, public sm::WarpSliceSink {
 public:
  // Records events that start before `window_cycles`, at most `max_events`.
  Timeline(const DeviceSpec& spec, uint64_t window_cycles, size_t max_events = 2'000'000);

  bool wants(uint64_t begin) const { return begin < window_ && events_.size() < max_events_; }
  // A warp slice in SM cycles [begin, end); `name` must outlive the timeline (a literal
  // or an instruction's text kept by its kernel).
  void warp_slice(uint32_t sm, uint32_t slot, const char* category, const std::string& name, uint64_t begin,
                  uint64_t end) override;
  void on_dram_command(uint32_t channel, mem::DramCommand c, uint32_t bank, uint64_t dram_cycle) override;

  // Writes the file; throws Error when it cannot be written.
  void write(const std::string& path, const std::string& kernel) const;
  size_t events() const { return events_.size(); }
  bool truncated() const { return dropped_ > 0; }

 private:
  struct Event {
    uint32_t pid, tid;
    uint64_t ts, dur;
    uint32_t name;  // index into names_
    uint8_t cat;
  };
  uint32_t intern(const std::string& name);

  const DeviceSpec& spec_;
  uint64_t window_;
  size_t max_events_;
  uint64_t dropped_ = 0;
  std::vector<Event> events_;
  std::vector<std::string> names_;
  std::unordered_map<std::string, uint32_t> name_index_;
  std::vector<const char*> categories_;
  uint32_t dram_pid_base_ = 0;
};

}  // namespace warpsim
