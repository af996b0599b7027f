#include "sim/engine/sm_phase.hpp"

#include <algorithm>
#include <bit>
#include <utility>

#include "sim/engine/phase_chooser.hpp"
#include "sim/foundation/launch_stats_merge.hpp"

namespace warpsim {

namespace {

// Epochs on threads: SM groups per thread.
constexpr uint32_t kEpochGroupsPerThread = 4;

// Instructions that must not issue while other SMs tick: global (or generic) stores,
// atomics and surface stores change what another SM's load would read, and printf records
// must not depend on how far other SMs got when a fault stops the launch; malloc and free
// change the device heap (and which global addresses are valid); the device runtime's
// calls use the heap and order a grid's work (isa::orders_blocks).
std::vector<uint8_t> mark_issue_alone(const isa::Kernel& k) {
  std::vector<uint8_t> alone(k.code.size(), 0);
  for (size_t pc = 0; pc < k.code.size(); ++pc) {
    const isa::Instr& in = k.code[pc];
    const bool writes = in.op == isa::Op::St || in.op == isa::Op::Atom || in.op == isa::Op::Red || in.op == isa::Op::WmmaStore;
    const bool global = in.space == isa::Space::Global || in.space == isa::Space::Generic;
    const isa::Builtin b =
        in.op == isa::Op::Call && in.a.target >= 0 ? k.calls[static_cast<size_t>(in.a.target)].builtin
                                                   : isa::Builtin::None;
    alone[pc] = (writes && global) || isa::orders_blocks(b) || in.op == isa::Op::Sust;
  }
  return alone;
}

}  // namespace

struct SmPhase::Share {
  LaunchStats stats;
  sm::TimingCounters counters;
  std::unique_ptr<sm::WarpExecutor> executor;
  std::unique_ptr<MemoryCounter> counter;
};

SmPhase::SmPhase(const sm::SmShared& base, uint32_t threads, TimingThreads* kept, bool epochs)
    : base_(base), epochs_(epochs), nshares_(std::clamp<uint32_t>(threads, 1, std::max<uint32_t>(1, base.spec->sm.count))) {
  if (kept) pool_ = kept;
  pool_->chooser.resume();
  const uint32_t n = base_.spec->sm.count;
  nthreads_ = nshares_;
  // Epochs: a few groups per thread, so that the thread that also ticks the memory system
  // can own fewer SMs (rebalance).
  if (epochs_ && nthreads_ > 1) nshares_ = std::min<uint32_t>(std::max<uint32_t>(n, 1), kEpochGroupsPerThread * nthreads_);
  const uint32_t nt = nshares_;
  const sm::LaunchContext& ctx = *base_.ctx;
  wiring_.assign(nt, base_);
  if (nt > 1 || epochs_) {  // epochs: one thread ticks as the first pass of many would
    issue_alone_ = mark_issue_alone(*ctx.kernel);
    shares_.resize(nt);
    for (uint32_t t = 0; t < nt; ++t) {
      wiring_[t].issue_alone = issue_alone_.data();
      wiring_[t].defer_submits = true;
      if (t == 0) continue;
      auto s = std::make_unique<Share>();
      s->executor = std::make_unique<sm::WarpExecutor>(ctx, s->stats);
      s->counter = std::make_unique<MemoryCounter>(*base_.spec, s->stats, ctx.threads_per_block,
                                                   ctx.grid.count() * ctx.threads_per_block,
                                                   /*model_caches=*/false);
      s->counter->place_blocks(ctx.sm_fill_order);
      wiring_[t].executor = s->executor.get();
      wiring_[t].counter = s->counter.get();
      wiring_[t].stats = &s->stats;
      wiring_[t].counters = &s->counters;
      shares_[t] = std::move(s);
    }
  }
  // Contiguous ranges: each worker's SMs (and their wake entries) share few cache lines
  // with another worker's.
  for (uint32_t t = 0; t <= nt; ++t) first_sm_.push_back(uint32_t(uint64_t(n) * t / nt));
  sms_.resize(n);  // made by sm(i) when first asked for
  wakes_.assign(n, sm::kNever);
  finite_.assign((n + 63) / 64, 0);
  alone_from_.assign(n, sm::kNever);
  holds_.assign(n, 0);
  issued_.assign(n, 0);
  faults_.resize(n);
  if (epochs_) {
    busy_.resize(nthreads_);
    for (uint32_t t = 0; t <= nthreads_; ++t) owned_.push_back(uint32_t(uint64_t(nt) * t / nthreads_));
    epoch_sm_.resize(n);
    responded_.assign(n, 0);
  }
  total_insts_ = base_.stats->exec.inst_executed;
}

SmPhase::~SmPhase() { pool_->chooser.pause(); }

void SmPhase::build(size_t i) {
  uint32_t t = 0;
  while (i >= first_sm_[t + 1]) ++t;
  sms_[i] = std::make_unique<sm::SmCore>(static_cast<uint32_t>(i), wiring_[t]);
  if (nshares_ > 1 && !epochs_) sms_[i]->set_parallel_ready(parallel_ready_);
}

void SmPhase::set_parallel_ready(bool on) {
  parallel_ready_ = on;
  for (size_t i = 0; i < sms_.size(); ++i)
    if (sms_[i]) {
      sms_[i]->set_parallel_ready(on);
      alone_from_[i] = sms_[i]->alone_from;
    }
}

uint64_t SmPhase::tick_serial(uint64_t now, LimitGuard& limits) {
  // SMs without a wake time are never due and do not lower the minimum: only the others
  // are visited, in SM order (the order of a scan of all).
  uint64_t next = sm::kNever;
  for (size_t w = 0; w < finite_.size(); ++w) {
    for (uint64_t m = finite_[w]; m; m &= m - 1) {
      const size_t i = w * 64 + size_t(std::countr_zero(m));
      if (const uint64_t rest = m & (m - 1)) {
        const size_t j = w * 64 + size_t(std::countr_zero(rest));
        if (wakes_[j] <= now) sms_[j]->prefetch();
      }
      if (wakes_[i] <= now) {
        sm::SmCore& s = *sms_[i];
        ++ticked_;
        if (const uint32_t k = s.tick(now)) limits.on_instructions(total_insts_ += k);
        wakes_[i] = s.wake;
        alone_from_[i] = s.alone_from;
        holds_[i] = !s.held_submits().empty();
        note_finite(i);
      }
      next = std::min(next, wakes_[i]);
    }
  }
  return next;
}

void SmPhase::run_share(void* self, uint32_t share) {
  SmPhase& p = *static_cast<SmPhase*>(self);
  const uint64_t now = p.now_;
  const uint32_t end = p.first_sm_[share + 1];
  for (uint32_t i = p.first_sm_[share]; i < end; ++i) {
    p.issued_[i] = 0;
    if (p.wakes_[i] > now) continue;
    if (i + 1 < end && p.wakes_[i + 1] <= now) p.sms_[i + 1]->prefetch();
    sm::SmCore& s = *p.sms_[i];
    try {
      p.issued_[i] = s.tick(now);
    } catch (...) {
      p.faults_[i] = std::current_exception();
      return;  // the launch stops at the first fault; later SMs do not matter
    }
    p.wakes_[i] = s.wake;
    p.alone_from_[i] = s.alone_from;
    p.holds_[i] = !s.held_submits().empty();
  }
}

uint64_t SmPhase::tick_due(uint64_t now, mem::MemorySystem& memory, LimitGuard& limits) {
  const size_t n = sms_.size();
  if (nshares_ == 1) return tick_serial(now, limits);
  PhaseChooser& chooser = pool_->chooser;
  const bool worth_it = !adaptive_ || chooser.allow();
  // The SMs keep what parallel phases need only while those are wanted (between phases:
  // nothing is held now).
  if (worth_it != parallel_ready_) set_parallel_ready(worth_it);
  if (!worth_it) {  // as a serial run: nothing is held
    ticked_ = 0;
    const uint64_t next = tick_serial(now, limits);
    chooser.count(ticked_);
    return next;
  }
  // Parallel only if SMs of at least two shares are due (else the barrier buys nothing).
  uint32_t busy_shares = 0;
  uint64_t due_sms = 0;
  bool alone = false;
  for (uint32_t t = 0; t < nshares_; ++t) {
    bool due = false;
    for (uint32_t i = first_sm_[t]; i < first_sm_[t + 1]; ++i)
      if (wakes_[i] <= now) {
        due = true;
        ++due_sms;
        alone |= alone_from_[i] <= now;
      }
    busy_shares += due;
  }
  if (adaptive_) chooser.count(due_sms);
  uint64_t next = sm::kNever;
  if (alone || busy_shares < 2 || now < serial_until_) {
    next = tick_serial(now, limits);
  } else {
    ++parallel_cycles_;
    now_ = now;
    std::unique_ptr<WorkerTeam>& team = pool_->team;
    if (!team || team->shares() != nthreads_) team = std::make_unique<WorkerTeam>(nthreads_);
    const bool prompt = team->run(&SmPhase::run_share, this);
    if (adaptive_) pace(prompt, now);
    for (size_t i = 0; i < n; ++i) {
      if (faults_[i]) std::rethrow_exception(faults_[i]);
      if (issued_[i]) limits.on_instructions(total_insts_ += issued_[i]);
      note_finite(i);
      next = std::min(next, wakes_[i]);
    }
  }
  for (size_t i = 0; i < n; ++i)
    if (holds_[i]) {
      sms_[i]->held_submits().apply(memory, static_cast<uint32_t>(i));
      holds_[i] = 0;
    }
  return next;
}

uint32_t SmPhase::advance(size_t i, uint64_t end, bool first_pass) {
  sm::SmCore& s = *sms_[i];
  EpochSm& e = epoch_sm_[i];
  uint32_t issued = 0;
  uint64_t t = e.next_tick, last = e.last;
  while (t < end) {
    if (first_pass && s.alone_from <= t) break;
    issued += s.tick(t);
    last = t;
    t = std::max(t + 1, s.wake);  // as the cycle-by-cycle runner: due while wake <= now
  }
  e.next_tick = t;
  e.last = last;
  return issued;
}

void SmPhase::run_epoch_share(void* self, uint32_t share) {
  SmPhase& p = *static_cast<SmPhase*>(self);
  const uint64_t now = p.now_, end = p.end_;
  const uint32_t last = p.first_sm_[share + 1];
  for (uint32_t i = p.first_sm_[share]; i < last; ++i) {
    if (!p.sms_[i]) continue;
    sm::SmCore& s = *p.sms_[i];
    EpochSm& e = p.epoch_sm_[i];
    e.issued = 0;
    e.last = 0;
    try {
      for (uint64_t token : e.responses) s.memory_response(token, now);
      e.responses.clear();
      e.next_tick = std::max(now, s.wake);
      if (e.next_tick < end) e.issued = p.advance(i, end, /*first_pass=*/true);
    } catch (...) {
      p.faults_[i] = std::current_exception();
      return;  // the launch stops at the first fault; later SMs do not matter
    }
    e.note(s);
  }
}

void SmPhase::run_memory_range() {
  MemoryRange& r = *range_;
  try {
    for (uint64_t t = std::max(r.next, r.from); t < r.to; t = std::max(t + 1, r.next)) {
      memory_->tick(t);
      r.next = memory_->next_event(t);
      r.last = t;
    }
  } catch (...) {
    memory_fault_ = std::current_exception();
  }
}

void SmPhase::run_epoch_tasks(void* self, uint32_t thread) {
  SmPhase& p = *static_cast<SmPhase*>(self);
  // The calling thread (0) ticks the memory system, so that its state stays in one core's
  // caches, and thread t the groups it owns: each SM's state stays in one core's caches
  // too, but when the owners change (rebalance). Taking another thread's groups when done
  // measured slower: the SMs' state moves between the cores.
  if (thread == 0 && p.has_memory_task_) p.run_memory_range();
  for (uint32_t g = p.owned_[thread]; g < p.owned_[thread + 1]; ++g) run_epoch_share(self, g);
  p.busy_[thread].ns = PhaseChooser::host_stamp();
}

void SmPhase::rebalance() {
  // Thread 0 ticks the memory system besides its groups: it owns fewer groups when its
  // tasks take longer than a worker's by more than a group's time, more when a worker's do.
  const uint32_t nt = nthreads_, g = nshares_;
  double own0 = double(busy_[0].sum), slowest = 0, workers = 0;
  for (uint32_t t = 1; t < nt; ++t) {
    slowest = std::max(slowest, double(busy_[t].sum));
    workers += double(busy_[t].sum);
  }
  const uint32_t n0 = owned_[1];
  const double group = workers / double(g - n0);
  uint32_t m = n0;
  if (own0 - slowest > group && n0 > 0) --m;
  else if (slowest - own0 > group && g - n0 > nt - 1) ++m;
  if (m != n0)
    for (uint32_t t = 1; t < nt; ++t) owned_[t] = m + (g - m) * (t - 1) / (nt - 1);
  for (uint32_t t = 0; t < nt; ++t) busy_[t].sum = 0;
  balance_window_ = 0;
}

uint64_t SmPhase::tick_epoch(uint64_t start, uint64_t end, mem::MemorySystem& memory, LimitGuard& limits,
                             MemoryRange& range) {
  const size_t n = sms_.size();
  uint32_t busy_shares = 0;
  uint64_t due_sms = 0;
  for (uint32_t t = 0; t < nshares_; ++t) {
    bool due = false;
    for (uint32_t i = first_sm_[t]; i < first_sm_[t + 1]; ++i) {
      const bool d = wakes_[i] < end || responded_[i];
      responded_[i] = 0;
      due |= d;
      due_sms += d;
    }
    busy_shares += due;
  }
  memory_ = &memory;
  range_ = &range;
  has_memory_task_ = std::max(range.next, range.from) < range.to;
  // First pass: on the workers when two tasks have work and parallel epochs measure
  // cheaper (PhaseChooser, which also sees a host too busy for the workers; an epoch is
  // long against a worker's wake-up, so the per-cycle pacing does not apply).
  now_ = start;
  end_ = end;
  bool parallel = false;
  if (nthreads_ > 1) {
    PhaseChooser& chooser = pool_->chooser;
    parallel = (!adaptive_ || chooser.allow()) && busy_shares + (has_memory_task_ ? 1 : 0) >= 2;
    if (adaptive_) chooser.count(due_sms);
  }
  memory.freeze_admission();
  if (parallel) {
    ++parallel_cycles_;
    std::unique_ptr<WorkerTeam>& team = pool_->team;
    if (!team || team->shares() != nthreads_) team = std::make_unique<WorkerTeam>(nthreads_);
    const uint64_t began = PhaseChooser::host_stamp();
    team->run(&SmPhase::run_epoch_tasks, this);
    for (uint32_t t = 0; t < nthreads_; ++t) busy_[t].sum += busy_[t].ns - began;
    if (++balance_window_ == kBalanceWindow) rebalance();
  } else {
    if (has_memory_task_) run_memory_range();
    for (uint32_t g = 0; g < nshares_; ++g) run_epoch_share(this, g);
  }
  memory.thaw_admission();
  if (memory_fault_) std::rethrow_exception(std::exchange(memory_fault_, nullptr));
  for (size_t i = 0; i < n; ++i) {
    if (faults_[i]) std::rethrow_exception(faults_[i]);
    if (const uint32_t k = epoch_sm_[i].issued) limits.on_instructions(total_insts_ += k);
  }
  // Second pass: what the first left, one SM after the other.
  for (size_t i = 0; i < n; ++i) {
    EpochSm& e = epoch_sm_[i];
    if (!sms_[i] || e.next_tick >= end) continue;
    if (const uint32_t k = advance(i, end, /*first_pass=*/false)) limits.on_instructions(total_insts_ += k);
    e.note(*sms_[i]);
  }
  uint64_t next = sm::kNever;
  last_tick_ = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!sms_[i]) continue;
    const EpochSm& e = epoch_sm_[i];
    wakes_[i] = e.wake;
    alone_from_[i] = e.alone_from;
    note_finite(i);
    next = std::min(next, wakes_[i]);
    last_tick_ = std::max(last_tick_, e.last);
    if (e.holds) sms_[i]->held_submits().apply(memory, static_cast<uint32_t>(i));
  }
  return next;
}

bool SmPhase::hold_responses(std::vector<mem::MemResponse>& responses) {
  for (const mem::MemResponse& r : responses) {
    epoch_sm_[r.sm].responses.push_back(r.token);
    responded_[r.sm] = 1;
  }
  const bool any = !responses.empty();
  responses.clear();
  return any;
}

void SmPhase::pace(bool prompt, uint64_t now) {
  constexpr uint32_t kWindow = 64, kSlowAllowed = 8;
  constexpr uint64_t kFirstBackoff = 1024, kMaxBackoff = uint64_t(1) << 20;
  window_slow_ += !prompt;
  if (++window_ < kWindow) return;
  if (window_slow_ > kSlowAllowed) {
    backoff_ = backoff_ ? std::min(2 * backoff_, kMaxBackoff) : kFirstBackoff;
    serial_until_ = now + backoff_;
  } else {
    backoff_ = 0;
  }
  window_ = window_slow_ = 0;
}

uint64_t SmPhase::blocks_finished() const {
  uint64_t b = base_.counters->blocks_finished;
  for (size_t t = 1; t < shares_.size(); ++t) b += shares_[t]->counters.blocks_finished;
  return b;
}

void SmPhase::merge() {
  sm::TimingCounters& c = *base_.counters;
  for (size_t t = 1; t < shares_.size(); ++t) {
    Share& s = *shares_[t];
    add_counts(*base_.stats, s.stats);
    const sm::TimingCounters& o = s.counters;
    c.issued += o.issued;
    c.stall_exec += o.stall_exec;
    c.stall_memory += o.stall_memory;
    c.stall_sync += o.stall_sync;
    c.stall_not_selected += o.stall_not_selected;
    c.stall_pipe += o.stall_pipe;
    c.active_cycles += o.active_cycles;
    c.resident_warp_cycles += o.resident_warp_cycles;
    c.blocks_finished += o.blocks_finished;
    s.stats = LaunchStats();
    s.counters = sm::TimingCounters();
  }
  merge_printf();
}

void SmPhase::merge_printf() {
  for (size_t t = 1; t < shares_.size(); ++t) shares_[t]->executor->move_printf_to(*base_.executor);
}

}  // namespace warpsim
