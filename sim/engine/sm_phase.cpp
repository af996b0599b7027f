#include "sim/engine/sm_phase.hpp"

#include <algorithm>
#include <bit>

#include "sim/foundation/launch_stats_merge.hpp"

namespace warpsim {

namespace {

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
    responses_.resize(n);
    next_tick_.assign(n, 0);
    last_.assign(n, 0);
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
    if (!team || team->shares() != nshares_) team = std::make_unique<WorkerTeam>(nshares_);
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
  uint32_t issued = 0;
  uint64_t t = next_tick_[i], last = last_[i];  // locals: the workers' entries share cache lines
  while (t < end) {
    if (first_pass && s.alone_from <= t) break;
    issued += s.tick(t);
    last = t;
    t = std::max(t + 1, s.wake);  // as the cycle-by-cycle runner: due while wake <= now
  }
  next_tick_[i] = t;
  last_[i] = last;
  wakes_[i] = s.wake;
  alone_from_[i] = s.alone_from;
  holds_[i] = !s.held_submits().empty();
  return issued;
}

void SmPhase::run_epoch_share(void* self, uint32_t share) {
  SmPhase& p = *static_cast<SmPhase*>(self);
  const uint64_t end = p.end_;
  const uint32_t last = p.first_sm_[share + 1];
  for (uint32_t i = p.first_sm_[share]; i < last; ++i) {
    p.issued_[i] = 0;
    try {
      if (std::vector<uint64_t>& rs = p.responses_[i]; !rs.empty()) {
        sm::SmCore& s = *p.sms_[i];
        for (uint64_t token : rs) s.memory_response(token, p.now_);
        rs.clear();
        p.next_tick_[i] = std::max(p.now_, s.wake);
        p.wakes_[i] = s.wake;
        p.alone_from_[i] = s.alone_from;
      }
      if (p.next_tick_[i] < end) p.issued_[i] = p.advance(i, end, /*first_pass=*/true);
    } catch (...) {
      p.faults_[i] = std::current_exception();
      return;  // the launch stops at the first fault; later SMs do not matter
    }
  }
}

uint64_t SmPhase::tick_epoch(uint64_t start, uint64_t end, mem::MemorySystem& memory, LimitGuard& limits) {
  const size_t n = sms_.size();
  uint32_t busy_shares = 0;
  uint64_t due_sms = 0;
  for (uint32_t t = 0; t < nshares_; ++t) {
    bool due = false;
    for (uint32_t i = first_sm_[t]; i < first_sm_[t + 1]; ++i) {
      next_tick_[i] = std::max(start, wakes_[i]);
      last_[i] = start;
      const bool d = next_tick_[i] < end || !responses_[i].empty();
      due |= d;
      due_sms += d;
    }
    busy_shares += due;
  }
  // First pass: on the workers when SMs of two shares are due and parallel epochs measure
  // cheaper (PhaseChooser, which also sees a host too busy for the workers; an epoch is
  // long against a worker's wake-up, so the per-cycle pacing does not apply).
  now_ = start;
  end_ = end;
  bool parallel = false;
  if (nshares_ > 1) {
    PhaseChooser& chooser = pool_->chooser;
    parallel = (!adaptive_ || chooser.allow()) && busy_shares >= 2;
    if (adaptive_) chooser.count(due_sms);
  }
  if (parallel) {
    ++parallel_cycles_;
    std::unique_ptr<WorkerTeam>& team = pool_->team;
    if (!team || team->shares() != nshares_) team = std::make_unique<WorkerTeam>(nshares_);
    team->run(&SmPhase::run_epoch_share, this);
  } else {
    for (uint32_t t = 0; t < nshares_; ++t) run_epoch_share(this, t);
  }
  for (size_t i = 0; i < n; ++i) {
    if (faults_[i]) std::rethrow_exception(faults_[i]);
    if (issued_[i]) limits.on_instructions(total_insts_ += issued_[i]);
  }
  // Second pass: what the first left, one SM after the other.
  for (size_t i = 0; i < n; ++i)
    if (next_tick_[i] < end)
      if (const uint32_t k = advance(i, end, /*first_pass=*/false)) limits.on_instructions(total_insts_ += k);
  uint64_t next = sm::kNever;
  last_tick_ = start;
  for (size_t i = 0; i < n; ++i) {
    if (!sms_[i]) continue;
    note_finite(i);
    next = std::min(next, wakes_[i]);
    last_tick_ = std::max(last_tick_, last_[i]);
    if (holds_[i]) {
      sms_[i]->held_submits().apply(memory, static_cast<uint32_t>(i));
      holds_[i] = 0;
    }
  }
  return next;
}

bool SmPhase::hold_responses(std::vector<mem::MemResponse>& responses) {
  for (const mem::MemResponse& r : responses) responses_[r.sm].push_back(r.token);
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
