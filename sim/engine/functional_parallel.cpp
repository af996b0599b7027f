#include "sim/engine/functional_parallel.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

#include "sim/engine/functional_runner.hpp"
#include "sim/engine/limit_guard.hpp"
#include "sim/engine/touched_bytes.hpp"
#include "sim/engine/worker_team.hpp"
#include "sim/foundation/launch_stats_merge.hpp"
#include "sim/memory/memory_counter.hpp"
#include "sim/memory/page_snapshot.hpp"

namespace warpsim {

bool blocks_may_run_in_parallel(const isa::Kernel& k) {
  using isa::Op;
  for (const isa::Instr& in : k.code) {
    switch (in.op) {
      case Op::Atom:
      case Op::Red:
        if (in.space != isa::Space::Shared) return false;
        break;
      case Op::ReadClock:
      case Op::ReadGlobalTimer:
      case Op::Sust:
        return false;
      case Op::Call:
        if (in.a.target >= 0) {
          if (isa::orders_blocks(k.calls[static_cast<size_t>(in.a.target)].builtin)) return false;
        }
        break;
      default:
        break;
    }
  }
  return true;
}

namespace {

// Warp instructions an epoch aims at: enough that starting the threads and comparing what
// they touched is small beside it, few enough that the logged cache accesses stay a few MB.
constexpr uint64_t kEpochInstructions = uint64_t(1) << 18;
// Chunks per thread and epoch: threads take chunks of consecutive blocks as they finish
// the last, so a thread that spent its time on the caches (below) takes fewer.
constexpr uint64_t kChunksPerThread = 8;
// Epochs undone before the rest of the launch runs serially.
constexpr uint32_t kUndoneLimit = 2;

struct Stop {};  // a share stops its epoch (fault, limit, deadlock): the epoch runs again serially

// One thread's part of the launch: its own executor, counter and statistics, and what it
// touched and executed in this epoch.
struct Share {
  LaunchStats stats;
  LaunchStats at_epoch_start;
  std::unique_ptr<sm::WarpExecutor> executor;
  std::unique_ptr<MemoryCounter> counter;
  std::unique_ptr<mem::WriteGuard> guard;
  TouchedBytes touched;
  uint64_t instructions = 0;
  bool stopped = false;
};

// One epoch: blocks [first, end) in chunks of `chunk`, taken in increasing order by
// whichever thread is free, so each thread's chunks run in block order. Each chunk's
// cache accesses go to a log of its own; the logs are applied in chunk order, by thread 0
// at the start of the next epoch (`earlier`), while the others run blocks.
struct EpochJob {
  std::vector<std::unique_ptr<Share>>* shares = nullptr;
  const LimitGuard* limits = nullptr;
  uint64_t budget = 0;  // warp instructions the launch may still execute
  uint64_t first = 0, end = 0, chunk = 1;
  std::atomic<uint64_t> next_chunk{0};
  uint32_t in_turn = 0;  // non-zero: chunk c is thread (c mod in_turn)'s (deal_in_turn)
  std::atomic<bool> stopping{false};
  std::vector<mem::CacheLog>* logs = nullptr;     // this epoch's, one per chunk (null: no caches)
  MemoryCounter* counter = nullptr;                // the launch's caches
  std::vector<mem::CacheLog>* earlier = nullptr;  // the last kept epoch's logs, to apply
  size_t earlier_chunks = 0;
};

void apply_logs(MemoryCounter& counter, std::vector<mem::CacheLog>& logs, size_t chunks) {
  for (size_t c = 0; c < chunks; ++c) {
    counter.apply_cache_log(logs[c]);
    logs[c].clear();
  }
}

// A fault, a deadlock (report_deadlock) or a limit stops the share; the epoch then runs
// again serially, which reports it as a serial run does.
void run_blocks(Share& s, EpochJob& job, uint64_t first, uint64_t end, uint64_t& n, uint64_t& since_clock) {
  sm::BlockState b;
  for (uint64_t linear = first; linear < end; ++linear) {
    if (job.stopping.load(std::memory_order_relaxed)) throw Stop{};
    run_block(*s.executor, b, linear, [&](sm::Warp& w) {
      // Its run of arithmetic and shared accesses first (nothing there that `touched` keeps),
      // within the budget, so that the step below is the one that passes it.
      const uint64_t k = s.executor->run_plain(w, std::min(kPlainRun, job.budget - std::min(job.budget, n)),
                                               s.counter.get());
      n += k;
      since_clock += k;
      // The kernel reads no clock (blocks_may_run_in_parallel), so `now` is unused.
      const sm::StepResult r = s.executor->step(w, 0);
      if (++n > job.budget) throw Stop{};
      if (++since_clock >= (uint64_t(1) << 14)) {
        since_clock = 0;
        if (job.limits->host_time_exceeded()) throw Stop{};
      }
      for (uint8_t i = 0; i < r.n_accesses; ++i) {
        s.counter->on_access(r.accesses[i], *r.instr, r.pc, b.linear, w.index);
        s.touched.record(r.accesses[i]);
      }
    });
  }
}

void epoch_job(void* ctx, uint32_t share) {
  EpochJob& job = *static_cast<EpochJob*>(ctx);
  Share& s = *(*job.shares)[share];
  if (share == 0 && job.earlier) apply_logs(*job.counter, *job.earlier, job.earlier_chunks);
  uint64_t n = 0;
  uint64_t since_clock = 0;
  try {
    for (uint64_t turn = 0;; ++turn) {
      const uint64_t c = job.in_turn ? turn * job.in_turn + share
                                     : job.next_chunk.fetch_add(1, std::memory_order_relaxed);
      const uint64_t first = job.first + c * job.chunk;
      if (first >= job.end) break;
      if (job.logs) s.counter->log_caches_to(&(*job.logs)[c]);
      run_blocks(s, job, first, std::min(job.end, first + job.chunk), n, since_clock);
    }
  } catch (...) {
    s.stopped = true;
    job.stopping.store(true, std::memory_order_relaxed);
  }
  s.instructions = n;
}

}  // namespace

void run_functional_parallel(sm::WarpExecutor& executor, LimitGuard& limits, MemoryCounter& counter,
                             const DeviceSpec& spec, LaunchStats& stats, uint32_t threads, uint64_t first_block,
                             uint64_t instructions_before, FunctionalParallelReport* report, bool deal_in_turn) {
  const sm::LaunchContext& ctx = executor.context();
  const uint64_t nblocks = ctx.grid.count();
  FunctionalParallelReport local;
  FunctionalParallelReport& rep = report ? *report : local;
  uint64_t total = instructions_before;  // warp instructions executed so far
  first_block = std::min(first_block, nblocks);
  threads = static_cast<uint32_t>(std::min<uint64_t>(threads, (nblocks - first_block) / 2));
  if (threads < 2) {
    rep.serial_blocks += nblocks - first_block;
    run_functional_blocks(executor, limits, &counter, first_block, nblocks, total);
    return;
  }

  mem::PageSnapshot snapshot(*ctx.gmem);
  std::vector<std::unique_ptr<Share>> shares;
  for (uint32_t t = 0; t < threads; ++t) {
    auto s = std::make_unique<Share>();
    s->executor = std::make_unique<sm::WarpExecutor>(ctx, s->stats);
    s->counter = std::make_unique<MemoryCounter>(spec, s->stats, ctx.threads_per_block,
                                                 nblocks * ctx.threads_per_block, /*model_caches=*/false);
    s->counter->place_blocks(ctx.sm_fill_order);
    s->guard = std::make_unique<mem::WriteGuard>(snapshot);
    s->executor->set_write_guard(s->guard.get());
    shares.push_back(std::move(s));
  }
  // Chunk logs of the epoch running and of the last kept one (applied during the next).
  std::vector<mem::CacheLog> logs, earlier;
  size_t earlier_chunks = 0;
  // However the launch ends (a serial epoch's fault included), the kept epochs' counts and
  // cache accesses join the launch's, as a serial run's include every block before the fault.
  struct AtEnd {
    LaunchStats& stats;
    std::vector<std::unique_ptr<Share>>& shares;
    ~AtEnd() {
      for (const auto& s : shares) add_counts(stats, s->stats);
    }
  } at_end{stats, shares};
  auto apply_earlier = [&] {
    apply_logs(counter, earlier, earlier_chunks);
    earlier_chunks = 0;
  };

  WorkerTeam team(threads);
  uint32_t undone = 0;
  uint64_t epoch_blocks = threads;
  for (uint64_t next = first_block; next < nblocks;) {
    if (undone >= kUndoneLimit || nblocks - next < threads) {
      apply_earlier();
      rep.serial_blocks += nblocks - next;
      run_functional_blocks(executor, limits, &counter, next, nblocks, total);
      break;
    }
    const uint64_t end = std::min(nblocks, next + epoch_blocks);
    EpochJob job;
    job.shares = &shares;
    job.limits = &limits;
    const uint64_t max = limits.max_instructions();
    job.budget = max ? max - std::min(max, total) : UINT64_MAX;
    job.first = next;
    job.end = end;
    job.in_turn = deal_in_turn ? threads : 0;
    job.chunk = std::max<uint64_t>(1, (end - next) / (uint64_t(threads) * kChunksPerThread));
    const size_t chunks = (end - next + job.chunk - 1) / job.chunk;
    if (logs.size() < chunks) logs.resize(chunks);
    job.logs = counter.models_caches() ? &logs : nullptr;
    job.counter = &counter;
    job.earlier = &earlier;
    job.earlier_chunks = earlier_chunks;
    for (const auto& s : shares) {
      s->at_epoch_start = s->stats;
      s->touched.clear();
      s->guard->new_epoch();
      s->instructions = 0;
      s->stopped = false;
    }
    team.run(&epoch_job, &job);
    earlier_chunks = 0;  // thread 0 applied them

    uint64_t executed = 0;
    bool kept = true, conflict = false;
    for (const auto& s : shares) {
      kept &= !s->stopped;
      executed += s->instructions;
    }
    if (kept && executed > job.budget) kept = false;
    for (uint32_t a = 0; kept && a < threads; ++a)
      for (uint32_t b = a + 1; kept && b < threads; ++b)
        if (shares[a]->touched.overlaps(shares[b]->touched)) kept = false, conflict = true;

    if (kept) {
      snapshot.keep();
      logs.swap(earlier);
      earlier_chunks = chunks;
      total += executed;
      ++rep.epochs;
      try {
        limits.check_host_time();
      } catch (...) {
        apply_earlier();
        throw;
      }
      // Size the next epoch from this one's instructions per block.
      const uint64_t per_block = std::max<uint64_t>(1, executed / (end - next));
      epoch_blocks = std::max<uint64_t>(threads, kEpochInstructions / per_block);
    } else {
      snapshot.restore();
      for (const auto& s : shares) s->stats = s->at_epoch_start;
      for (size_t c = 0; c < chunks; ++c) logs[c].clear();
      ++undone;
      ++rep.serial_epochs;
      rep.conflicts += conflict;
      rep.serial_blocks += end - next;
      run_functional_blocks(executor, limits, &counter, next, end, total);
    }
    next = end;
  }
  apply_earlier();
}

}  // namespace warpsim
