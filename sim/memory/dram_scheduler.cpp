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

// Which queued requests an FR-FCFS selection may choose.
enum class Eligible { All, Reads, Writes };

// The FR-FCFS selection of fr-fcfs and fr-fcfs-wd over the queue (oldest first): the oldest
// ready column command to an open row, else the oldest ready ACT or PRE, among the eligible
// requests. An open row is not closed while it is still wanted: hit by an eligible request,
// or by one already part served (a multi-burst request is never cut). A row only ineligible
// requests want may close; they open it again in their turn. Every candidate considered (each
// request but those that would close a wanted row) is passed to
// on_candidate(bank, ready cycle, eligible). Returns the choice without next_ready.
template <Eligible kEligible, class OnCandidate>
SchedulerChoice fr_fcfs_select(const SchedulerInput& in, OnCandidate&& on_candidate) {
  const auto eligible = [](const QueuedRequest& q) {
    if constexpr (kEligible == Eligible::All) return true;
    else return q.write == (kEligible == Eligible::Writes);
  };
  const QueuedRequest* queue = in.queue.data();
  const BankState* banks = in.banks.data();
  const size_t n = in.queue.size();
  // With every request eligible, a bank's open row is wanted when a queued request hits it,
  // which the controller counts (queued_hits); otherwise one pass finds the wanted rows.
  uint64_t wanted = 0;
  if constexpr (kEligible != Eligible::All) {
    for (size_t i = 0; i < n; ++i) {
      const QueuedRequest& q = queue[i];
      const BankState& b = banks[q.bank];
      if (b.open && b.row == q.row && (eligible(q) || q.bursts_left < q.bursts)) wanted |= uint64_t(1) << q.bank;
    }
  }
  const auto row_wanted = [&](const BankState& b, uint32_t bank) {
    if constexpr (kEligible == Eligible::All) return b.queued_hits > 0;
    else return (wanted >> bank & 1) != 0;
  };
  int hit = -1, other = -1;
  DramCommand hit_cmd = DramCommand::RD, other_cmd = DramCommand::ACT;
  const TimingEngine::ReadyView ready = in.engine.view();
  const uint64_t now = in.now;
  for (size_t i = 0; i < n; ++i) {
    const QueuedRequest& q = queue[i];
    const BankState& b = banks[q.bank];
    const bool row_hit = b.open && b.row == q.row;
    if (!row_hit && b.open && row_wanted(b, q.bank)) continue;  // row still wanted: no PRE
    const DramCommand c = row_hit ? (q.write ? DramCommand::WR : DramCommand::RD)
                                  : (b.open ? DramCommand::PRE : DramCommand::ACT);
    const uint64_t r = ready(c, q.bank);
    const bool is_eligible = eligible(q);
    on_candidate(q.bank, r, is_eligible);
    if (is_eligible && r <= now) {
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
  return ch;
}

class FrFcfs final : public DramScheduler {
 public:
  SchedulerChoice pick(const SchedulerInput& in) override {
    BankMins mins(in.banks.size());
    SchedulerChoice ch = fr_fcfs_select<Eligible::All>(in, [&](uint32_t bank, uint64_t r, bool) { mins.add(bank, r); });
    ch.next_ready = mins.min_except(ch.index >= 0 ? int(in.queue[size_t(ch.index)].bank) : -1);
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

// FR-FCFS over reads, with writes held and then drained in batches: a read-to-write
// turnaround idles the bus for tCL + burst - tWL cycles and a write-to-read one for
// tWL + burst + tWTR, so serving writes as they come costs a turnaround pair per write.
// Writes are served when the queue holds at least half its capacity of them, or no read,
// and then until at most an eighth remains (or a read waits with no write left). Which
// requests a mode may serve only changes the order: when the mode's requests cannot go
// on at all (their banks' rows are held by the other kind), every request may go.
class FrFcfsWriteDrain final : public DramScheduler {
 public:
  SchedulerChoice pick(const SchedulerInput& in) override {
    size_t writes = 0;
    for (const QueuedRequest& q : in.queue) writes += q.write;
    const size_t reads = in.queue.size() - writes;
    const size_t high = std::max<size_t>(1, in.capacity / 2), low = in.capacity / 8;
    if (draining_ && (writes == 0 || (writes <= low && reads > 0))) draining_ = false;
    else if (!draining_ && writes > 0 && (writes >= high || reads == 0)) draining_ = true;
    Scan s = draining_ ? scan<Eligible::Writes>(in) : scan<Eligible::Reads>(in);
    if (!s.any_eligible) s = scan<Eligible::All>(in);
    SchedulerChoice ch = s.choice;
    // After an issue the mode may change (its last read went): wake for any request then.
    // Without one nothing changes until a request arrives, which wakes the controller.
    const int except = ch.index >= 0 ? int(in.queue[size_t(ch.index)].bank) : -1;
    ch.next_ready = ch.index >= 0 ? s.all.min_except(except) : s.eligible.min_except(-1);
    return ch;
  }

  uint64_t next_ready_in_bank(const SchedulerInput& in, uint32_t bank) override {
    // Every kind and every PRE, whichever the mode wants: an early wake only costs a scan.
    uint64_t next = kNever;
    const BankState& b = in.banks[bank];
    const TimingEngine::ReadyView ready = in.engine.view();
    for (const QueuedRequest& q : in.queue)
      if (q.bank == bank) next = std::min(next, ready(next_command(q, b), bank));
    return next;
  }

 private:
  struct Scan {
    SchedulerChoice choice;
    BankMins eligible, all;
    bool any_eligible = false;
    explicit Scan(size_t banks) : eligible(banks), all(banks) {}
  };

  template <Eligible kEligible>
  static Scan scan(const SchedulerInput& in) {
    Scan s(in.banks.size());
    s.choice = fr_fcfs_select<kEligible>(in, [&](uint32_t bank, uint64_t r, bool eligible) {
      s.all.add(bank, r);
      if (!eligible) return;
      s.any_eligible = true;
      s.eligible.add(bank, r);
    });
    return s;
  }

  bool draining_ = false;
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

constexpr std::array<DramSchedulerEntry, 3> kSchedulers{{
    {"fr-fcfs", "first-ready first-come-first-served: row hits first, then oldest", make<FrFcfs>},
    {"fr-fcfs-wd", "fr-fcfs over reads; writes held and drained in batches (half the queue, down to an eighth)",
     make<FrFcfsWriteDrain>},
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
