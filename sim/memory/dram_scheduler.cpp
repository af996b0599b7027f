#include "sim/memory/dram_scheduler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "sim/foundation/error.hpp"

namespace warpsim::mem {

namespace {

// Earliest ready cycle per bank over one scan (banks <= 64).
class BankMins {
 public:
  explicit BankMins(size_t banks) : n_(banks) {
    for (size_t b = 0; b < n_; ++b) min_[b] = kNever;
  }
  void add(uint32_t bank, uint64_t r) { min_[bank] = std::min(min_[bank], r); }
  uint64_t min_except(int bank) const {
    uint64_t m = kNever;
    for (size_t b = 0; b < n_; ++b)
      if (int(b) != bank) m = std::min(m, min_[b]);
    return m;
  }

 private:
  size_t n_;
  std::array<uint64_t, 64> min_;
};

class FrFcfs final : public DramScheduler {
 public:
  SchedulerChoice pick(const SchedulerInput& in) override {
    int hit = -1, other = -1;
    DramCommand hit_cmd = DramCommand::RD, other_cmd = DramCommand::ACT;
    BankMins mins(in.banks.size());
    const TimingEngine::ReadyView ready = in.engine.view();
    const QueuedRequest* queue = in.queue.data();
    const BankState* banks = in.banks.data();
    const size_t n = in.queue.size();
    const uint64_t now = in.now;
    for (size_t i = 0; i < n; ++i) {
      const QueuedRequest& q = queue[i];
      const BankState& b = banks[q.bank];
      const bool row_hit = b.open && b.row == q.row;
      if (!row_hit && b.open && b.queued_hits > 0) continue;  // row still wanted: no PRE
      const DramCommand c = row_hit ? (q.write ? DramCommand::WR : DramCommand::RD)
                                    : (b.open ? DramCommand::PRE : DramCommand::ACT);
      const uint64_t r = ready(c, q.bank);
      mins.add(q.bank, r);
      if (r <= now) {
        if (row_hit) {
          if (hit < 0) hit = int(i), hit_cmd = c;  // oldest ready row hit
        } else if (other < 0) {
          other = int(i), other_cmd = c;           // oldest ready ACT / PRE
        }
      }
    }
    SchedulerChoice ch;
    if (hit >= 0) ch.index = hit, ch.command = hit_cmd;
    else if (other >= 0) ch.index = other, ch.command = other_cmd;
    ch.next_ready = mins.min_except(ch.index >= 0 ? int(queue[ch.index].bank) : -1);
    return ch;
  }

  uint64_t next_ready_in_bank(const SchedulerInput& in, uint32_t bank) override {
    uint64_t next = kNever;
    const BankState& b = in.banks[bank];
    const TimingEngine::ReadyView ready = in.engine.view();
    for (const QueuedRequest& q : in.queue) {
      if (q.bank != bank) continue;
      const DramCommand c = next_command(q, b);
      if (c == DramCommand::PRE && b.queued_hits > 0) continue;
      next = std::min(next, ready(c, bank));
    }
    return next;
  }
};

class Fcfs final : public DramScheduler {
 public:
  SchedulerChoice pick(const SchedulerInput& in) override {
    uint64_t seen = 0;  // banks whose oldest request was already considered
    BankMins mins(in.banks.size());
    const TimingEngine::ReadyView ready = in.engine.view();
    SchedulerChoice ch;
    for (size_t i = 0; i < in.queue.size(); ++i) {
      const QueuedRequest& q = in.queue[i];
      const uint64_t bit = uint64_t(1) << q.bank;
      if (seen & bit) continue;
      seen |= bit;
      const DramCommand c = next_command(q, in.banks[q.bank]);
      const uint64_t r = ready(c, q.bank);
      mins.add(q.bank, r);
      if (r <= in.now && ch.index < 0) ch.index = int(i), ch.command = c;
    }
    ch.next_ready = mins.min_except(ch.index >= 0 ? int(in.queue[ch.index].bank) : -1);
    return ch;
  }

  uint64_t next_ready_in_bank(const SchedulerInput& in, uint32_t bank) override {
    for (const QueuedRequest& q : in.queue)
      if (q.bank == bank) return in.engine.ready_cycle(next_command(q, in.banks[bank]), bank);
    return kNever;
  }
};

template <class T>
std::unique_ptr<DramScheduler> make() {
  return std::make_unique<T>();
}

constexpr std::array<DramSchedulerEntry, 2> kSchedulers{{
    {"fr-fcfs", "first-ready first-come-first-served: row hits first, then oldest", make<FrFcfs>},
    {"fcfs", "in order per bank; oldest ready command across banks", make<Fcfs>},
}};

}  // namespace

std::span<const DramSchedulerEntry> dram_schedulers() { return kSchedulers; }

const DramSchedulerEntry* find_dram_scheduler(std::string_view name) {
  for (const auto& e : kSchedulers)
    if (e.name == name) return &e;
  return nullptr;
}

std::string dram_scheduler_names() {
  std::string s;
  for (const auto& e : kSchedulers) s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s;
}

std::unique_ptr<DramScheduler> make_dram_scheduler(std::string_view name) {
  const DramSchedulerEntry* e = find_dram_scheduler(name);
  if (!e)
    throw ConfigError(fmt::format("unknown DRAM scheduler \"{}\"; valid: {}", name,
                                  dram_scheduler_names()));
  return e->make();
}

}  // namespace warpsim::mem
