#include "sim/memory/dram_scheduler.hpp"

#include <fmt/format.h>

#include <array>

#include "sim/core/error.hpp"

namespace warpsim::mem {

namespace {

class FrFcfs final : public DramScheduler {
 public:
  SchedulerChoice pick(const SchedulerInput& in) override {
    SchedulerChoice other;  // oldest ready ACT/PRE
    uint64_t next = kNever;
    for (size_t i = 0; i < in.queue.size(); ++i) {
      const QueuedRequest& q = in.queue[i];
      const BankState& b = in.banks[q.bank];
      DramCommand c = next_command(q, b);
      if (c == DramCommand::PRE && b.queued_hits > 0) continue;  // row still wanted
      uint64_t r = in.engine.ready_cycle(c, q.bank);
      if (r <= in.now) {
        if (is_column(c)) return SchedulerChoice{int(i), c, kNever};  // oldest ready hit
        if (other.index < 0) other = SchedulerChoice{int(i), c, kNever};
      } else if (r < next) {
        next = r;
      }
    }
    if (other.index >= 0) return other;
    return SchedulerChoice{-1, DramCommand::ACT, next};
  }
};

class Fcfs final : public DramScheduler {
 public:
  SchedulerChoice pick(const SchedulerInput& in) override {
    uint64_t seen = 0;  // banks whose oldest request was already considered (banks <= 64)
    uint64_t next = kNever;
    for (size_t i = 0; i < in.queue.size(); ++i) {
      const QueuedRequest& q = in.queue[i];
      const uint64_t bit = uint64_t(1) << q.bank;
      if (seen & bit) continue;
      seen |= bit;
      DramCommand c = next_command(q, in.banks[q.bank]);
      uint64_t r = in.engine.ready_cycle(c, q.bank);
      if (r <= in.now) return SchedulerChoice{int(i), c, kNever};
      if (r < next) next = r;
    }
    return SchedulerChoice{-1, DramCommand::ACT, next};
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
