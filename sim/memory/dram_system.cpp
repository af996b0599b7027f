#include "sim/memory/dram_system.hpp"

#include <fmt/format.h>

#include <bit>

#include "sim/foundation/error.hpp"

namespace warpsim::mem {

DramSystem::DramSystem(const DramSpec& spec)
    : spec_(spec), map_(spec), table_(build_timing_table(spec)) {
  channels_.reserve(spec.channels);
  for (uint32_t c = 0; c < spec.channels; ++c) channels_.emplace_back(spec_, table_);
  atom_shift_ = uint32_t(std::countr_zero(spec.atom_bytes()));
}

bool DramSystem::can_accept(uint64_t addr, bool /*write*/) const {
  return channels_[map_.channel_of(addr)].can_accept();
}

void DramSystem::enqueue(const DramRequest& req, uint64_t now) {
  if (req.bytes == 0)
    throw Error(fmt::format("DRAM request {} at 0x{:x}: zero bytes", req.id, req.addr));
  const DramAddress a = map_.decode(req.addr);
  const uint64_t first = req.addr >> atom_shift_;
  const uint64_t last = (req.addr + req.bytes - 1) >> atom_shift_;
  const uint64_t bursts = last - first + 1;
  for (uint64_t k = 1; k < bursts; ++k) {
    const DramAddress b = map_.decode((first + k) << atom_shift_);
    if (b.channel != a.channel || b.bank != a.bank || b.row != a.row)
      throw Error(fmt::format(
          "DRAM request {} at 0x{:x} of {} bytes spans more than one DRAM row (channel {} "
          "bank {} row {} vs channel {} bank {} row {}); split it at {}-byte boundaries",
          req.id, req.addr, req.bytes, a.channel, a.bank, a.row, b.channel, b.bank, b.row,
          map_.interleave_bytes()));
  }
  DramChannel& ch = channels_[a.channel];
  if (!ch.can_accept())
    throw Error(fmt::format("DRAM request {} at 0x{:x}: channel {} queue is full (check "
                            "can_accept before enqueue)",
                            req.id, req.addr, a.channel));
  ch.enqueue(req.id, a.bank, a.row, uint32_t(bursts), req.write, now);
  ++outstanding_;
}

bool DramSystem::tick(uint64_t cycle) {
  bool progress = false;
  const size_t before = completions_.size();
  for (DramChannel& ch : channels_)
    if (ch.next_event() <= cycle) progress |= ch.tick(cycle, completions_);
  outstanding_ -= completions_.size() - before;
  return progress;
}

uint64_t DramSystem::next_event_cycle() const {
  uint64_t n = UINT64_MAX;
  for (const DramChannel& ch : channels_) n = std::min(n, ch.next_event());
  return n;
}

void DramSystem::restart_stats(uint64_t now) {
  if (busy()) throw Error("internal: DramSystem::restart_stats while requests are outstanding");
  for (auto& c : channels_) c.restart_stats(now);
  stats_start_ = now;
}

void DramSystem::fill_stats(DramStats& out, uint64_t end) const {
  const uint64_t elapsed = end > stats_start_ ? end - stats_start_ : 0;
  out = DramStats{};
  out.valid = true;
  out.dram_cycles = elapsed;
  out.peak_bandwidth_gbps = spec_.peak_bandwidth_gbps();
  out.channels.resize(channels_.size());
  double util_sum = 0;
  uint64_t bank_busy = 0, active = 0, latency = 0;
  for (size_t i = 0; i < channels_.size(); ++i) {
    DramChannelStats& c = out.channels[i];
    channels_[i].fill_stats(c, end);
    out.read_transactions += c.read_transactions;
    out.write_transactions += c.write_transactions;
    out.read_bytes += c.read_bytes;
    out.write_bytes += c.write_bytes;
    out.row_hits += c.row_hits;
    out.row_misses += c.row_misses;
    out.row_conflicts += c.row_conflicts;
    out.requests += c.reads + c.writes;
    out.activates += c.activates;
    out.precharges += c.precharges;
    out.refreshes += c.refreshes;
    util_sum += c.utilization;
    bank_busy += c.bank_busy_cycles;
    active += c.active_cycles;
    latency += c.read_latency_cycles;
  }
  uint64_t reads = 0;
  for (const auto& c : out.channels) reads += c.reads;
  out.utilization = channels_.empty() ? 0 : util_sum / double(channels_.size());
  out.bank_level_parallelism = active ? double(bank_busy) / double(active) : 0;
  out.average_read_latency_dram_cycles = reads ? double(latency) / double(reads) : 0;
  const double seconds = double(elapsed) * spec_.cycle_ns() * 1e-9;
  out.achieved_bandwidth_gbps =
      seconds > 0 ? double(out.read_bytes + out.write_bytes) / seconds / 1e9 : 0;
}

}  // namespace warpsim::mem
