#include "sim/memory/dram_controller.hpp"

#include <algorithm>

namespace warpsim::mem {

DramChannel::DramChannel(const DramSpec& spec, std::span<const TimingConstraint> table)
    : capacity_(spec.queue_size),
      burst_cycles_(spec.burst_cycles()),
      tCL_(spec.timing.tCL),
      tWL_(spec.timing.tWL),
      atom_bytes_(spec.atom_bytes()),
      tREFI_(spec.timing.tREFI),
      closed_page_(spec.page_policy == PagePolicy::Closed),
      engine_(table, spec.banks, spec.bank_groups),
      scheduler_(make_dram_scheduler(spec.scheduler)),
      banks_(spec.banks) {
  queue_.reserve(capacity_);
  ring_.resize(16);
  if (tREFI_ > 0) refresh_due_ = next_event_ = tREFI_;
  const size_t nb = spec.banks;
  for (auto* v : {&stats_.bank_reads, &stats_.bank_writes, &stats_.bank_row_hits,
                  &stats_.bank_row_misses, &stats_.bank_row_conflicts, &stats_.bank_activates})
    v->assign(nb, 0);
}

void DramChannel::blp_advance(uint64_t t) {
  if (t <= blp_last_) return;
  const uint64_t dt = t - blp_last_;
  blp_integral_ += uint64_t(busy_banks_) * dt;
  if (busy_banks_ > 0) blp_active_ += dt;
  blp_last_ = t;
}

void DramChannel::enqueue(uint64_t id, uint32_t bank, uint64_t row, uint32_t bursts, bool write,
                          uint64_t now) {
  QueuedRequest q;
  q.id = id;
  q.arrival = now;
  q.row = row;
  q.bank = bank;
  q.bursts_left = q.bursts = bursts;
  q.write = write;
  queue_.push_back(q);
  BankState& b = banks_[bank];
  ++b.queued;
  if (b.open && b.row == row) ++b.queued_hits;
  if (b.outstanding++ == 0) {
    blp_advance(now);
    ++busy_banks_;
  }
  // Only this request became a new candidate; the others' bounds still hold.
  const uint64_t r = engine_.ready_cycle(next_command(q, b), bank);
  sched_next_ = std::min(sched_next_, r);
  next_event_ = std::min(next_event_, std::max(r, now));
}

void DramChannel::note_outcome(QueuedRequest& q, RowOutcome o) {
  if (q.outcome != RowOutcome::Pending) return;
  q.outcome = o;
  switch (o) {
    case RowOutcome::Hit: ++stats_.row_hits, ++stats_.bank_row_hits[q.bank]; break;
    case RowOutcome::Miss: ++stats_.row_misses, ++stats_.bank_row_misses[q.bank]; break;
    case RowOutcome::Conflict:
      ++stats_.row_conflicts, ++stats_.bank_row_conflicts[q.bank];
      break;
    case RowOutcome::Pending: break;
  }
}

void DramChannel::close_bank(uint32_t bank) {
  BankState& b = banks_[bank];
  b.open = false;
  b.queued_hits = 0;
  --open_banks_;
  ++stats_.precharges;
}

void DramChannel::issue(size_t index, DramCommand c, uint64_t now) {
  QueuedRequest& q = queue_[index];
  BankState& b = banks_[q.bank];
  command(c, q.bank, now);
  switch (c) {
    case DramCommand::PRE:
      note_outcome(q, RowOutcome::Conflict);
      close_bank(q.bank);
      break;
    case DramCommand::ACT: {
      note_outcome(q, RowOutcome::Miss);
      b.open = true;
      b.row = q.row;
      ++open_banks_;
      ++stats_.activates;
      ++stats_.bank_activates[q.bank];
      uint32_t hits = 0;
      for (const QueuedRequest& o : queue_) hits += (o.bank == q.bank && o.row == q.row);
      b.queued_hits = hits;
      break;
    }
    case DramCommand::RD:
    case DramCommand::WR:
      note_outcome(q, RowOutcome::Hit);
      stats_.busy_cycles += burst_cycles_;
      if (--q.bursts_left == 0) finish_column_request(index, now);
      break;
    case DramCommand::REF: break;  // issued by refresh_step, never for a request
  }
}

void DramChannel::finish_column_request(size_t index, uint64_t now) {
  const QueuedRequest q = queue_[index];
  BankState& b = banks_[q.bank];
  push_inflight(Inflight{q.id, now + (q.write ? tWL_ : tCL_) + burst_cycles_, q.arrival, q.bank,
                         q.write});
  const uint64_t bytes = uint64_t(q.bursts) * atom_bytes_;
  const uint64_t transactions = (bytes + 31) / 32;
  if (q.write) {
    ++stats_.writes, ++stats_.bank_writes[q.bank];
    stats_.write_bytes += bytes, stats_.write_transactions += transactions;
  } else {
    ++stats_.reads, ++stats_.bank_reads[q.bank];
    stats_.read_bytes += bytes, stats_.read_transactions += transactions;
  }
  --b.queued;
  --b.queued_hits;  // its last burst was a column command to the open row
  queue_.erase(queue_.begin() + std::ptrdiff_t(index));
  if (closed_page_ && b.queued_hits == 0) {
    // Auto-precharge: internal PRE at the earliest legal cycle; no command-bus slot.
    command(DramCommand::PRE, q.bank, std::max(now, engine_.ready_cycle(DramCommand::PRE, q.bank)));
    close_bank(q.bank);
  }
}

void DramChannel::push_inflight(const Inflight& f) {
  if (inflight_size_ == ring_.size()) {
    std::vector<Inflight> bigger(ring_.size() * 2);
    for (size_t i = 0; i < inflight_size_; ++i)
      bigger[i] = ring_[(inflight_head_ + i) % ring_.size()];
    ring_.swap(bigger);
    inflight_head_ = 0;
  }
  ring_[(inflight_head_ + inflight_size_) % ring_.size()] = f;
  ++inflight_size_;
}

bool DramChannel::refresh_step(uint64_t now, uint64_t& next_ready) {
  if (open_banks_ > 0) {
    for (uint32_t b = 0; b < banks_.size(); ++b) {
      if (!banks_[b].open) continue;
      uint64_t r = engine_.ready_cycle(DramCommand::PRE, b);
      if (r <= now) {
        command(DramCommand::PRE, b, now);
        close_bank(b);
        return true;
      }
      next_ready = std::min(next_ready, r);
    }
    return false;
  }
  uint64_t r = engine_.ready_cycle(DramCommand::REF, 0);
  if (r > now) {
    next_ready = std::min(next_ready, r);
    return false;
  }
  command(DramCommand::REF, 0, now);
  ++stats_.refreshes;
  refreshing_ = false;
  refresh_due_ += tREFI_;
  return true;
}

bool DramChannel::tick(uint64_t now, std::vector<DramCompletion>& done) {
  if (now < next_event_) return false;
  bool progress = false;
  // Retire requests whose last data beat is done (in done order: the data bus serialises).
  while (inflight_size_ > 0 && ring_[inflight_head_].done <= now) {
    const Inflight& f = ring_[inflight_head_];
    done.push_back(DramCompletion{f.id, f.done, f.write});
    if (!f.write) stats_.read_latency_cycles += f.done - f.arrival;
    if (--banks_[f.bank].outstanding == 0) {
      blp_advance(f.done);
      --busy_banks_;
    }
    inflight_head_ = (inflight_head_ + 1) % ring_.size();
    --inflight_size_;
    progress = true;
  }

  bool issued = false;
  uint64_t refresh_next = kNever;
  if (!refreshing_ && now >= refresh_due_) refreshing_ = true;
  if (refreshing_) {
    issued = refresh_step(now, refresh_next);
    if (issued) sched_next_ = 0;  // banks changed behind the scheduler: re-scan when resumed
  } else if (!queue_.empty() && sched_next_ <= now) {
    SchedulerInput in{queue_, banks_, engine_, now, capacity_};
    const SchedulerChoice c = scheduler_->pick(in);
    if (c.index >= 0) {
      const uint32_t bank = queue_[size_t(c.index)].bank;
      issue(size_t(c.index), c.command, now);
      // Only `bank` changed, so the other banks' bound from the scan still holds.
      in.queue = queue_;
      sched_next_ = std::max(std::min(c.next_ready, scheduler_->next_ready_in_bank(in, bank)),
                             now + 1);
      issued = true;
    } else {
      sched_next_ = c.next_ready;
    }
  }

  uint64_t n = refreshing_      ? (issued ? now + 1 : refresh_next)
               : queue_.empty() ? kNever
                                : sched_next_;
  if (inflight_size_ > 0) n = std::min(n, ring_[inflight_head_].done);
  if (!refreshing_) n = std::min(n, refresh_due_);
  next_event_ = std::max(n, now + 1);  // at most one command per cycle
  return progress || issued;
}

void DramChannel::restart_stats(uint64_t now) {
  const size_t nb = banks_.size();
  stats_ = DramChannelStats{};
  for (auto* v : {&stats_.bank_reads, &stats_.bank_writes, &stats_.bank_row_hits,
                  &stats_.bank_row_misses, &stats_.bank_row_conflicts, &stats_.bank_activates})
    v->assign(nb, 0);
  blp_advance(now);
  blp_integral_ = blp_active_ = 0;
  stats_start_ = now;
}

void DramChannel::fill_stats(DramChannelStats& out, uint64_t end) const {
  out = stats_;
  uint64_t integral = blp_integral_, active = blp_active_;
  if (end > blp_last_ && busy_banks_ > 0) {
    integral += uint64_t(busy_banks_) * (end - blp_last_);
    active += end - blp_last_;
  }
  const uint64_t elapsed = end > stats_start_ ? end - stats_start_ : 0;
  out.bank_busy_cycles = integral;
  out.active_cycles = active;
  out.utilization = elapsed ? double(stats_.busy_cycles) / double(elapsed) : 0.0;
  out.bank_level_parallelism = active ? double(integral) / double(active) : 0.0;
}

}  // namespace warpsim::mem
