#include "sim/memory/dram_timing.hpp"

#include <algorithm>
#include <bit>

#include "sim/memory/dram_spec.hpp"

namespace warpsim::mem {

std::string_view command_name(DramCommand c) {
  switch (c) {
    case DramCommand::ACT: return "ACT";
    case DramCommand::PRE: return "PRE";
    case DramCommand::RD: return "RD";
    case DramCommand::WR: return "WR";
    case DramCommand::REF: return "REF";
  }
  return "?";
}

std::vector<TimingConstraint> build_timing_table(const DramSpec& s) {
  using C = DramCommand;
  using L = TimingLevel;
  const DramTimingSpec& t = s.timing;
  const uint32_t bl = s.burst_cycles();
  // Read-to-write: the write data may start tRTRS cycles after the read data ends.
  const uint32_t rd_end = t.tCL + bl + t.tRTRS;
  const uint32_t rtw = rd_end > t.tWL + 1 ? rd_end - t.tWL : 1;
  std::vector<TimingConstraint> v = {
      {"tRC", L::Bank, C::ACT, C::ACT, t.tRC},
      {"tRAS", L::Bank, C::ACT, C::PRE, t.tRAS},
      {"tRCD", L::Bank, C::ACT, C::RD, t.tRCD},
      {"tRCDWR", L::Bank, C::ACT, C::WR, t.tRCDWR},
      {"tRP", L::Bank, C::PRE, C::ACT, t.tRP},
      {"tRTP", L::Bank, C::RD, C::PRE, t.tRTP},
      {"tWR", L::Bank, C::WR, C::PRE, t.tWL + bl + t.tWR},
      {"tCCD", L::Channel, C::RD, C::RD, t.tCCD},
      {"tCCD", L::Channel, C::WR, C::WR, t.tCCD},
      {"tRTW", L::Channel, C::RD, C::WR, rtw},
      {"tWTR", L::Channel, C::WR, C::RD, t.tWL + bl + t.tWTR},
      {"tRRD", L::Channel, C::ACT, C::ACT, t.tRRD},
  };
  if (s.bank_groups > 1) {
    v.push_back({"tCCDL", L::BankGroup, C::RD, C::RD, t.tCCDL});
    v.push_back({"tCCDL", L::BankGroup, C::WR, C::WR, t.tCCDL});
  }
  if (t.tFAW > 0) v.push_back({"tFAW", L::Channel, C::ACT, C::ACT, t.tFAW, 4});
  if (t.tREFI > 0) {
    v.push_back({"tRP", L::Channel, C::PRE, C::REF, t.tRP});
    v.push_back({"tRFC", L::Channel, C::REF, C::ACT, t.tRFC});
    v.push_back({"tRFC", L::Channel, C::REF, C::REF, t.tRFC});
  }
  return v;
}

TimingEngine::TimingEngine(std::span<const TimingConstraint> table, uint32_t banks,
                           uint32_t bank_groups) {
  group_shift_ = uint32_t(std::countr_zero(banks / bank_groups));
  group_.assign(size_t(bank_groups) * kDramCommandCount, 0);
  bank_.assign(size_t(banks) * kDramCommandCount, 0);
  for (const TimingConstraint& c : table) {
    if (c.window <= 1) {
      updates_[int(c.prev)].push_back(Update{c.level, uint8_t(c.next), c.latency});
      continue;
    }
    uint32_t nodes = c.level == TimingLevel::Channel ? 1
                     : c.level == TimingLevel::BankGroup ? bank_groups
                                                         : banks;
    Window w{c.level, uint8_t(c.next), c.latency, c.window, uint32_t(history_head_.size()),
             uint32_t(history_.size())};
    history_.resize(history_.size() + size_t(nodes) * c.window, 0);
    history_head_.resize(history_head_.size() + nodes, 0);
    history_count_.resize(history_count_.size() + nodes, 0);
    windows_[int(c.prev)].push_back(w);
  }
}

uint32_t TimingEngine::node_index(TimingLevel level, uint32_t bank) const {
  switch (level) {
    case TimingLevel::Channel: return 0;
    case TimingLevel::BankGroup: return bank >> group_shift_;
    case TimingLevel::Bank: return bank;
  }
  return 0;
}

uint64_t* TimingEngine::node(TimingLevel level, uint32_t bank) {
  switch (level) {
    case TimingLevel::Channel: return channel_.data();
    case TimingLevel::BankGroup: return &group_[(bank >> group_shift_) * kDramCommandCount];
    case TimingLevel::Bank: return &bank_[bank * kDramCommandCount];
  }
  return channel_.data();
}

void TimingEngine::issue(DramCommand c, uint32_t bank, uint64_t now) {
  for (const Update& u : updates_[int(c)]) {
    uint64_t& r = node(u.level, bank)[u.next];
    r = std::max(r, now + u.latency);
  }
  for (const Window& w : windows_[int(c)]) {
    // One ring of the last `size` issue cycles per node.
    const uint32_t n = node_index(w.level, bank);
    const uint32_t ring = w.ring_base + n;
    uint64_t* slots = &history_[w.slot_base + size_t(n) * w.size];
    uint32_t& head = history_head_[ring];
    uint32_t& count = history_count_[ring];
    slots[head] = now;
    head = (head + 1) % w.size;
    if (count < w.size) ++count;
    if (count == w.size) {
      uint64_t& r = node(w.level, bank)[w.next];
      r = std::max(r, slots[head] + w.latency);  // slots[head] is now the oldest of the window
    }
  }
}

}  // namespace warpsim::mem
