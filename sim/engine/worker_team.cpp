#include "sim/engine/worker_team.hpp"

namespace warpsim {

namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Spins before sleeping: a futex wake-up costs several microseconds, a cycle of the SMs
// about one.
constexpr uint32_t kSpins = 1 << 14;

}  // namespace

WorkerTeam::WorkerTeam(uint32_t shares) : shares_(shares < 1 ? 1 : shares) {
  for (uint32_t t = 1; t < shares_; ++t) threads_.emplace_back([this, t] { worker(t); });
}

WorkerTeam::~WorkerTeam() {
  stop_ = true;
  epoch_.fetch_add(1);  // seq_cst: publishes stop_
  epoch_.notify_all();
  for (auto& th : threads_) th.join();
}

bool WorkerTeam::run(Job job, void* ctx) {
  if (shares_ == 1) {
    job(ctx, 0);
    return true;
  }
  bool prompt = true;
  job_ = job;
  ctx_ = ctx;
  pending_.store(shares_ - 1, std::memory_order_relaxed);
  epoch_.fetch_add(1);  // seq_cst: publishes job_, ctx_, pending_; ordered before sleepers_ below
  if (sleepers_.load()) {
    epoch_.notify_all();
    prompt = false;
  }
  job(ctx, 0);
  for (uint32_t i = 0; pending_.load(std::memory_order_acquire) != 0; ++i) {
    if (i < kSpins) {
      cpu_relax();
      continue;
    }
    prompt = false;
    caller_sleeps_.store(true);
    for (uint32_t p = pending_.load(); p != 0; p = pending_.load()) pending_.wait(p);
    caller_sleeps_.store(false);
  }
  return prompt;
}

void WorkerTeam::worker(uint32_t share) {
  uint64_t seen = 0;
  while (true) {
    uint64_t e = epoch_.load(std::memory_order_acquire);
    for (uint32_t i = 0; e == seen && i < kSpins; ++i) {
      cpu_relax();
      e = epoch_.load(std::memory_order_acquire);
    }
    if (e == seen) {
      // seq_cst with run(): either it sees this sleeper and notifies, or this load sees its epoch.
      sleepers_.fetch_add(1);
      while ((e = epoch_.load()) == seen) epoch_.wait(seen);
      sleepers_.fetch_sub(1);
    }
    seen = e;
    if (stop_) return;
    job_(ctx_, share);
    // seq_cst: the caller either sees pending_ reach 0 or has announced that it sleeps.
    if (pending_.fetch_sub(1) == 1 && caller_sleeps_.load()) pending_.notify_one();
  }
}

}  // namespace warpsim
