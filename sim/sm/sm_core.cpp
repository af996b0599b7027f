#include "sim/sm/sm_core.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <functional>

#include "sim/memory/memory_path.hpp"

namespace warpsim::sm {

using isa::Op;

namespace {
inline uint64_t slot_bit(size_t slot) { return uint64_t(1) << slot; }
}  // namespace

void SmCore::set_ready(WarpTiming& wt, uint64_t t) {
  const uint32_t slot = static_cast<uint32_t>(&wt - warps_.data());
  ReadyTracker& tr = scheds_[wt.sched].tr;
  // A warp filed for a time already folded becomes visible at the next refresh; one filed
  // again for the same time keeps its visibility.
  if (t != wt.ready_at) wt.visible_at = t == kNever ? kNever : std::max(t, tr.cursor + 1);
  wt.ready_at = t;
  tr.ready &= ~slot_bit(slot);
  unfile(tr, slot);
  if (t != kNever) file(tr, slot, t);
}

void SmCore::file(ReadyTracker& tr, uint32_t slot, uint64_t t) {
  constexpr uint64_t mask = ReadyTracker::kWheel - 1;
  if (t <= tr.cursor) {
    tr.ready |= slot_bit(slot);
    return;
  }
  due_[slot] = t;
  if (t - tr.cursor < ReadyTracker::kWheel) {
    const uint64_t i = t & mask;
    tr.wheel[i] |= slot_bit(slot);
    tr.occupied |= uint64_t(1) << i;
  } else {
    tr.far.push_back({t, slot, ++ready_version_[slot]});
    std::push_heap(tr.far.begin(), tr.far.end(), std::greater<>());
  }
}

void SmCore::unfile(ReadyTracker& tr, uint32_t slot) {
  const uint64_t t = due_[slot];
  if (t == kNever) return;
  due_[slot] = kNever;
  ++ready_version_[slot];  // invalidates a far-heap entry
  if (t <= tr.cursor || t - tr.cursor >= ReadyTracker::kWheel) return;
  const uint64_t i = t & (ReadyTracker::kWheel - 1);
  if (!(tr.wheel[i] & slot_bit(slot))) return;
  tr.wheel[i] &= ~slot_bit(slot);
  if (!tr.wheel[i]) tr.occupied &= ~(uint64_t(1) << i);
}

// The earliest time a filed slot becomes ready (kNever when none is filed).
uint64_t SmCore::next_due(const ReadyTracker& tr) const {
  static_assert(ReadyTracker::kWheel == 64, "the occupancy set is one word");
  uint64_t best = kNever;
  if (tr.occupied) {
    // Bucket i holds time cursor + 1 + ((i - start) mod 64): rotate the bucket after the
    // cursor to bit 0.
    const uint64_t start = (tr.cursor + 1) & 63;
    best = tr.cursor + 1 + uint64_t(std::countr_zero(std::rotr(tr.occupied, int(start))));
  }
  for (const auto& e : tr.far)
    if (ready_version_[e.slot] == e.version) best = std::min(best, e.time);
  return best;
}

void SmCore::set_unit(WarpTiming& wt, Unit u) {
  const uint64_t b = slot_bit(static_cast<size_t>(&wt - warps_.data()));
  ReadyTracker& tr = scheds_[wt.sched].tr;
  tr.by_unit[static_cast<size_t>(wt.next_unit)] &= ~b;  // the warp is filed under one unit at most
  tr.by_unit[static_cast<size_t>(u)] |= b;
  wt.next_unit = u;
}

void SmCore::refresh(uint32_t s, uint64_t now) {
  ReadyTracker& tr = scheds_[s].tr;
  if (now <= tr.cursor) return;
  if (tr.occupied) {
    // Fold the buckets of (cursor, now] (at most one lap) into the ready mask.
    const uint64_t span = now - tr.cursor;
    const uint64_t start = (tr.cursor + 1) & 63;
    uint64_t due = span >= 64 ? ~uint64_t(0) : std::rotl((uint64_t(1) << span) - 1, int(start));
    for (uint64_t occ = tr.occupied & due; occ; occ &= occ - 1) {
      const uint32_t i = static_cast<uint32_t>(std::countr_zero(occ));
      const uint64_t m = tr.wheel[i];
      tr.ready |= m;
      for (uint64_t b = m; b; b &= b - 1) {
        const size_t slot = static_cast<size_t>(std::countr_zero(b));
        due_[slot] = kNever;
        __builtin_prefetch(warps_[slot].warp);  // likely to issue soon
      }
      tr.wheel[i] = 0;
    }
    tr.occupied &= ~due;
  }
  tr.cursor = now;
  // Far entries that are due or now fit the wheel.
  while (!tr.far.empty() && tr.far.front().time < tr.cursor + ReadyTracker::kWheel) {
    const ReadyTracker::Entry e = tr.far.front();
    std::pop_heap(tr.far.begin(), tr.far.end(), std::greater<>());
    tr.far.pop_back();
    if (ready_version_[e.slot] != e.version) continue;
    due_[e.slot] = kNever;
    file(tr, e.slot, e.time);
  }
}

uint64_t SmCore::eligible(uint32_t s, uint64_t now) const {
  const ReadyTracker& tr = scheds_[s].tr;
  uint64_t units = tr.by_unit[static_cast<size_t>(Unit::None)];
  if (scheds_[s].alu_free <= now) units |= tr.by_unit[static_cast<size_t>(Unit::Alu)];
  if (scheds_[s].tensor_free <= now) units |= tr.by_unit[static_cast<size_t>(Unit::Tensor)];
  if (sfu_free_ <= now) units |= tr.by_unit[static_cast<size_t>(Unit::Sfu)];
  if (dp_free_ <= now) units |= tr.by_unit[static_cast<size_t>(Unit::Dp)];
  if (lsu_free_ <= now) units |= tr.by_unit[static_cast<size_t>(Unit::Lsu)];
  return tr.ready & units;
}

SmCore::SmCore(uint32_t id, const SmShared& shared)
    : id_(id),
      shared_(shared),
      tally_(shared.counter ? shared.counter->shared_pattern_tally() : nullptr),
      wired_alone_(shared.issue_alone),
      wired_defer_(shared.defer_submits) {
  const DeviceSpec& spec = *shared_.spec;
  scheds_.resize(spec.sm.schedulers);
  for (Sched& sc : scheds_) sc.policy = make_scheduler(spec.sm.scheduler_policy, spec.sm.two_level_active_warps);
  warps_.resize(spec.sm.max_warps);
  ready_version_.assign(spec.sm.max_warps, 0);
  due_.assign(spec.sm.max_warps, kNever);
  blocks_.resize(shared_.blocks_per_sm);
  shared_.executor->set_timed(true);  // mbarrier waits and bulk copies as the SM times them
}

uint64_t SmCore::unit_free(Unit u, uint32_t sched) const {
  switch (u) {
    case Unit::Alu: return scheds_[sched].alu_free;
    case Unit::Tensor: return scheds_[sched].tensor_free;
    case Unit::Sfu: return sfu_free_;
    case Unit::Dp: return dp_free_;
    case Unit::Lsu: return lsu_free_;
    default: return 0;
  }
}

void SmCore::account_until(uint64_t now) {
  if (now <= accounted_until_) return;
  const uint64_t dt = now - accounted_until_;
  if (resident_warps_) {
    shared_.counters->active_cycles += dt;
    shared_.counters->resident_warp_cycles += uint64_t(resident_warps_) * dt;
  }
  accounted_until_ = now;
}

void SmCore::assign_block(uint32_t linear, uint64_t now) {
  account_until(now);
  uint32_t bs = 0;
  while (blocks_[bs].used) ++bs;
  BlockSlot& b = blocks_[bs];
  b.used = true;
  shared_.executor->init_block(b.state, linear, id_);
  const uint32_t nw = static_cast<uint32_t>(b.state.warps.size());
  b.warp_slots.clear();
  b.warps_alive = nw;
  const uint32_t sb_size = shared_.deps->scoreboard_size();
  // Made at the SM's first block (every slot's part is cleared when a warp takes it): a
  // launch builds every SM, and a small one gives blocks to few.
  if (scoreboard_.empty()) scoreboard_.resize(size_t(shared_.spec->sm.max_warps) * sb_size);
  uint32_t slot = 0;
  for (uint32_t wi = 0; wi < nw; ++wi) {
    while (warps_[slot].used) ++slot;
    WarpTiming& wt = warps_[slot];
    wt.used = true;
    wt.retired_pending = false;
    wt.block_slot = bs;
    wt.sched = slot % static_cast<uint32_t>(scheds_.size());
    wt.warp = &b.state.warps[wi];
    wt.reg_ready = scoreboard_.data() + size_t(slot) * sb_size;
    std::fill(wt.reg_ready, wt.reg_ready + sb_size, uint64_t(0));
    wt.t_free = now;
    wt.release_at = 0;
    wt.pipe_seen_until = 0;
    wt.pending_loads = 0;
    wt.async_copies.reset();
    ++wt.generation;
    wt.waiting_barrier = false;
    wt.ready_at = wt.visible_at = kNever;  // nothing carries over from the slot's last warp
    update_ready(wt, now);
    scheds_[wt.sched].policy->add(slot);
    wake_scheduler(wt.sched, now);
    b.warp_slots.push_back(slot);
    ++resident_warps_;
  }
  ++resident_blocks_;
  update_alone_from();
}

void SmCore::update_ready(WarpTiming& wt, uint64_t now) {
  Warp& w = *wt.warp;
  if (w.done || wt.waiting_barrier) {
    set_ready(wt, kNever);
    return;
  }
  w.stack.reconverge();
  const uint32_t pc = static_cast<uint32_t>(w.stack.top().pc);
  wt.pc = pc;
  const KernelDeps& d = *shared_.deps;
  uint64_t ready = std::max(wt.t_free, wt.release_at);
  bool mem = false;
  for (const uint16_t* s = d.reads_begin(pc); s != d.writes_end(pc); ++s) {
    const uint64_t v = wt.reg_ready[*s];
    if ((v >> 1) > ready) {
      ready = v >> 1;
      mem = (v & 1) != 0;
    }
  }
  const isa::Instr& nx = shared_.ctx->kernel->code[pc];
  // cp.async.wait_group N waits for the copies of all but the N newest committed groups,
  // wait_all (no operand) for every copy.
  // cp.async.mbarrier.arrive arrives once the thread's copies are done: as wait_all.
  if (nx.op == isa::Op::CpAsyncWait || nx.op == isa::Op::CpAsyncMbarArrive) {
    const bool all = nx.op == isa::Op::CpAsyncMbarArrive || nx.a.kind == isa::Operand::Kind::None;
    const uint64_t newest = all ? 0 : shared_.ctx->kernel->consts_bcast[size_t(nx.a.reg) * isa::kWarpLanes];
    if (wt.async_copies.must_wait(static_cast<uint32_t>(std::min<uint64_t>(newest, UINT32_MAX)), all))
      ready = kPendingLoad >> 1, mem = true;
  }
  if (ready == kPendingLoad >> 1) ready = kNever;
  set_ready(wt, ready);
  wt.ready_mem = mem;
  set_unit(wt, shared_.issue->unit(nx));
  const bool mem_op = isa::is_memory_op(nx.op);
  const bool next_global = mem_op && nx.space != isa::Space::Shared && nx.space != isa::Space::Param &&
                           nx.space != isa::Space::Const;
  const size_t slot = static_cast<size_t>(&wt - warps_.data());
  uint64_t& gn = scheds_[wt.sched].tr.global_next;
  gn = next_global ? gn | slot_bit(slot) : gn & ~slot_bit(slot);
  if (shared_.issue_alone) {
    uint64_t& an = scheds_[wt.sched].tr.alone_next;
    an = shared_.issue_alone[pc] ? an | slot_bit(slot) : an & ~slot_bit(slot);
  }
  (void)now;
}

uint64_t SmCore::account_wait(WarpTiming& wt, uint32_t pc, uint64_t now) {
  TimingCounters& c = *shared_.counters;
  WarpSliceSink* tl = shared_.timeline;
  const uint32_t slot = static_cast<uint32_t>(&wt - warps_.data());
  uint64_t start = wt.t_free;
  if (now > start) {
    shared_.stats->per_pc[pc].stall_cycles += now - start;
    if (wt.release_at > start) {
      uint64_t e = std::min(wt.release_at, now);
      c.stall_sync += e - start;
      if (tl) tl->warp_slice(id_, slot, "stall", "stall: barrier", start, e);
      start = e;
    }
    uint64_t dep_end = std::min(std::max(start, wt.ready_at), now);
    if (dep_end > start) {
      (wt.ready_mem ? c.stall_memory : c.stall_exec) += dep_end - start;
      if (tl)
        tl->warp_slice(id_, slot, "stall", wt.ready_mem ? "stall: memory dependency" : "stall: execution dependency",
                       start, dep_end);
    }
    // The last time the warp's scheduler found its unit busy while the warp was ready
    // (checks are at increasing times with non-decreasing busy-until times, and a warp is in
    // its scheduler's ready mask from visible_at on, so only the latest check can count).
    uint64_t seen = wt.pipe_seen_until;
    const ReadyTracker::PipeCheck& pc_u = scheds_[wt.sched].tr.pipe_check[static_cast<size_t>(wt.next_unit)];
    if (pc_u.at >= wt.visible_at && pc_u.at >= wt.t_free) seen = std::max(seen, pc_u.until);
    uint64_t eligible = now - dep_end;
    uint64_t pipe = seen > dep_end ? std::min(seen, now) - dep_end : 0;
    c.stall_pipe += pipe;
    c.stall_not_selected += eligible - pipe;
    if (tl) {
      tl->warp_slice(id_, slot, "stall", "stall: pipe busy", dep_end, dep_end + pipe);
      tl->warp_slice(id_, slot, "stall", "stall: not selected", dep_end + pipe, now);
    }
  }
  const uint64_t waited = now > wt.t_free ? now - wt.t_free : 0;
  wt.pipe_seen_until = 0;
  wt.release_at = 0;
  return waited;
}

uint64_t SmCore::new_token(uint32_t slot, const uint16_t* dests, uint32_t ndests, uint32_t submissions) {
  uint32_t id;
  if (!free_loads_.empty()) {
    id = free_loads_.back();
    free_loads_.pop_back();
  } else {
    loads_.emplace_back();
    id = static_cast<uint32_t>(loads_.size() - 1);
  }
  PendingLoad& pl = loads_[id];
  pl.used = true;
  pl.slot = slot;
  pl.generation = warps_[slot].generation;
  pl.left = submissions;
  pl.ndests = static_cast<uint8_t>(std::min<uint32_t>(ndests, 8));
  pl.async_copy = false;
  pl.mbar_bytes = 0;
  pl.trace = UINT32_MAX;
  for (uint32_t i = 0; i < pl.ndests; ++i) pl.dests[i] = dests[i];
  return (uint64_t(id_) << 40) | (uint64_t(id) + 1);
}

uint32_t SmCore::issue(uint32_t slot, uint64_t now) {
  WarpTiming& wt = warps_[slot];
  Warp& w = *wt.warp;
  const uint32_t pc = wt.pc;  // the stack is reconverged (update_ready)
  const uint64_t waited = account_wait(wt, pc, now);
  StepResult r = shared_.executor->step(w, now, tally_);
  ++shared_.counters->issued;
  const isa::Instr& in = *r.instr;
  if (in.op == Op::CpAsyncCommit && r.exec_mask) wt.async_copies.commit();
  if (shared_.timeline)
    shared_.timeline->warp_slice(id_, slot, "issue", std::string(isa::instr_class_name(in.klass)), now, now + 1);
  const IssueModel& im = *shared_.issue;
  const KernelDeps& deps = *shared_.deps;
  const bool mem_op = isa::is_memory_op(in.op);

  IssueCost cost;
  bool dest_pending = false;
  if (mem_op && r.n_accesses) {
    // Which accesses go to the memory system and wait for data.
    uint32_t waits = 0;
    for (uint8_t i = 0; i < r.n_accesses; ++i) {
      const mem::WarpMemAccess& a = r.accesses[i];
      if (a.space != isa::Space::Shared &&
          (a.kind == mem::AccessKind::Load || (a.kind == mem::AccessKind::Atomic && in.op == Op::Atom)))
        ++waits;
    }
    uint64_t token = 0;
    if (waits) {
      token = new_token(slot, deps.writes_begin(pc), uint32_t(deps.writes_end(pc) - deps.writes_begin(pc)), waits);
      ++wt.pending_loads;
      if (in.op == Op::CpAsync) {
        PendingLoad& pl = loads_[static_cast<uint32_t>((token & ((uint64_t(1) << 40) - 1)) - 1)];
        pl.async_copy = true;
        pl.async_group = wt.async_copies.copy_issued();
      } else if (in.op == Op::CpAsyncBulk) {
        // Its mbarrier's transaction bytes complete when the data has arrived.
        PendingLoad& pl = loads_[static_cast<uint32_t>((token & ((uint64_t(1) << 40) - 1)) - 1)];
        pl.mbar_warp = &w;
        pl.mbar_pc = pc;
        pl.mbar_offset = r.mbar_tx_offset;
        pl.mbar_bytes = r.mbar_tx_bytes;
      } else {
        dest_pending = true;
      }
    }
    cost = {Unit::Lsu, 0, 0};
    const uint32_t block = w.block->linear;
    for (uint8_t i = 0; i < r.n_accesses; ++i) {
      const mem::WarpMemAccess& a = r.accesses[i];
      shared_.counter->on_access(a, in, pc, block, w.index);
      uint32_t tr, rec;
      if (shared_.counter->last_trace(tr, rec)) {
        TraceRecord& t = shared_.stats->traces[tr].records[rec];
        t.timed = true;
        t.issue_cycle = now;
        t.waited_cycles = waited;
        if (token && a.space != isa::Space::Shared) {
          PendingLoad& pl = loads_[static_cast<uint32_t>((token & ((uint64_t(1) << 40) - 1)) - 1)];
          pl.trace = tr;
          pl.trace_record = rec;
        }
      }
      if (a.space == isa::Space::Shared) {
        IssueCost c = im.shared_cost(shared_.counter->last_shared_passes());
        // Another block's shared memory (a cluster's): over the SM-to-SM network, which
        // across TPCs also passes fewer bytes a cycle than the banks (the LSU waits).
        if (a.cluster_remote) {
          const ClusterSpec& cs = shared_.spec->clusters;
          if (a.cluster_remote == 2)
            c.busy = std::max(c.busy, a.kind == mem::AccessKind::Atomic
                                          ? uint32_t(std::popcount(a.mask)) * cs.remote_atomic_lane_cycles
                                          : std::max<uint32_t>(1, shared_.counter->last_shared_passes()) *
                                                cs.remote_wavefront_cycles);
          c.latency = cs.remote_shared_latency + c.busy - std::min(c.busy, im.spec().mem_cycles);
        }
        cost.busy += c.busy;
        cost.latency = std::max(cost.latency, c.latency);
      } else {
        const auto& txns = shared_.counter->last_transactions();
        IssueCost c = im.global_cost(static_cast<uint32_t>(txns.size()));
        cost.busy += c.busy;
        const bool local = a.space == isa::Space::Local;
        const bool use_l1 = a.kind == mem::AccessKind::Store ? shared_.spec->has_l1
                                                             : mem::l1_caches_load(*shared_.spec, a);
        const bool wants = a.kind == mem::AccessKind::Load || (a.kind == mem::AccessKind::Atomic && in.op == Op::Atom);
        if (shared_.defer_submits)
          held_.add(txns, a.kind, local, use_l1, wants ? token : 0, now, a.bytes_per_lane());
        else
          shared_.memory->submit(id_, txns, a.kind, local, use_l1, wants ? token : 0, now, a.bytes_per_lane());
      }
    }
  } else if (r.tallied_shared_passes) {
    // A shared load the counter's tally counted in step(): as one shared access above.
    cost = im.shared_cost(r.tallied_shared_passes);
  } else if (mem_op && in.klass != isa::InstrClass::LdParam && in.klass != isa::InstrClass::LdConst) {
    cost = {Unit::Lsu, im.spec().mem_cycles, 1};  // every lane predicated off: no data moves
  } else if (isa::is_mbarrier_op(in.op) && in.op != Op::MbarPending) {
    cost = im.shared_cost(1);  // an atomic operation on a shared-memory word
  } else {
    cost = im.cost(in);
  }

  switch (cost.unit) {
    case Unit::Alu: scheds_[wt.sched].alu_free = now + cost.busy; break;
    case Unit::Tensor: scheds_[wt.sched].tensor_free = now + cost.busy; break;
    case Unit::Sfu: sfu_free_ = now + cost.busy; break;
    case Unit::Dp:
      dp_free_ = now + cost.busy;
      if (im.spec().dp_blocks_other_schedulers)
        for (auto& sc : scheds_) sc.alu_free = std::max(sc.alu_free, now + cost.busy);
      break;
    case Unit::Lsu: lsu_free_ = now + std::max<uint32_t>(cost.busy, 1); break;
    default: break;
  }
  const uint64_t written = dest_pending ? kPendingLoad : ((now + cost.latency) << 1) | (mem_op ? 1 : 0);
  for (const uint16_t* s = deps.writes_begin(pc); s != deps.writes_end(pc); ++s) wt.reg_ready[*s] = written;

  wt.t_free = now + 1;
  if (r.kind == StepResult::Kind::WaitingAtBarrier) {
    wt.waiting_barrier = true;
    // A try_wait suspends its warp until the phase completes (wake_mbarrier_waiters) or its
    // time limit has passed: then it executes again and returns false.
    const uint32_t limit = im.spec().mbarrier_try_wait_cycles;
    if (w.mbar_waiting && (in.mbar & isa::kMbarTry) && limit) {
      wt.waiting_barrier = false;
      wt.release_at = now + limit;
      w.mbar_give_up = true;
    }
  }
  if (isa::is_mbarrier_op(in.op)) {  // (only these complete an mbarrier's phase here)
    if (in.op == Op::CpAsyncBulk && r.mbar_tx_bytes && !(mem_op && r.n_accesses))
      shared_.executor->mbarrier_complete_tx(w, pc, r.mbar_tx_offset, r.mbar_tx_bytes);
    wake_mbarrier_waiters(wt.block_slot, now);
  }
  if (r.barrier_released) {
    const uint64_t resume = now + im.spec().barrier_latency;
    for (uint32_t s : blocks_[wt.block_slot].warp_slots) {
      WarpTiming& o = warps_[s];
      if (!o.used) continue;
      if ((o.waiting_barrier && !o.warp->cluster_waiting && !o.warp->mbar_waiting) || s == slot) {
        o.waiting_barrier = false;
        o.release_at = resume;
        if (s != slot) {
          update_ready(o, now);
          wake_scheduler(o.sched, std::max(o.ready_at, now + 1));
        }
      }
    }
  }
  if (r.kind == StepResult::Kind::WarpDone) {
    if (wt.pending_loads == 0) retire_warp(slot, now);
    else {
      wt.retired_pending = true;
      set_ready(wt, kNever);
    }
    return cost.dispatch;
  }
  update_ready(wt, now);
  if (wt.ready_at == kNever && dest_pending) scheds_[wt.sched].policy->long_latency(slot);
  return cost.dispatch;
}

void SmCore::wake_mbarrier_waiters(uint32_t block_slot, uint64_t now) {
  std::vector<Warp*>& released = shared_.executor->mbarrier_released();
  if (released.empty()) return;
  for (const Warp* o : released)
    for (uint32_t s : blocks_[block_slot].warp_slots) {
      WarpTiming& ot = warps_[s];
      if (!ot.used || ot.warp != o) continue;
      ot.waiting_barrier = false;
      ot.release_at = now + shared_.issue->spec().barrier_latency;
      update_ready(ot, now);
      wake_scheduler(ot.sched, std::max(ot.ready_at, now + 1));
    }
  released.clear();
}

void SmCore::cluster_released(const Warp* w, uint64_t now) {
  for (WarpTiming& wt : warps_) {
    if (!wt.used || wt.warp != w) continue;
    wt.waiting_barrier = false;
    wt.release_at = now + shared_.issue->spec().barrier_latency;
    update_ready(wt, now);
    wake_scheduler(wt.sched, std::max(wt.ready_at, now + 1));
    return;
  }
}

void SmCore::retire_warp(uint32_t slot, uint64_t now) {
  account_until(now);
  WarpTiming& wt = warps_[slot];
  wt.used = false;
  set_ready(wt, kNever);
  for (auto& m : scheds_[wt.sched].tr.by_unit) m &= ~slot_bit(slot);
  scheds_[wt.sched].tr.global_next &= ~slot_bit(slot);
  scheds_[wt.sched].tr.alone_next &= ~slot_bit(slot);
  scheds_[wt.sched].policy->remove(slot);
  --resident_warps_;
  BlockSlot& b = blocks_[wt.block_slot];
  if (--b.warps_alive == 0) {
    b.used = false;
    --resident_blocks_;
    ++shared_.counters->blocks_finished;
  }
}

uint32_t SmCore::tick(uint64_t now) {
  uint32_t issued = 0;
  const uint32_t nsched = static_cast<uint32_t>(scheds_.size());  // fixed after construction
  for (uint32_t s = 0; s < nsched; ++s) {
    if (scheds_[s].next_try > now) continue;
    if (scheds_[s].dispatch_free > now) {  // a wake-up during a sequence: try again after it
      scheds_[s].next_try = scheds_[s].dispatch_free;
      continue;
    }
    refresh(s, now);
    uint64_t can = eligible(s, now);
    // Under memory back-pressure every warp waiting to issue a global access is held back
    // (the wait is charged to the pipe).
    if (const uint64_t held = can & scheds_[s].tr.global_next;
        held && !shared_.memory->can_accept(id_, held_.queued())) {
      for (uint64_t m = held; m; m &= m - 1) {
        WarpTiming& wt = warps_[static_cast<size_t>(std::countr_zero(m))];
        wt.pipe_seen_until = std::max(wt.pipe_seen_until, now + 1);
      }
      can &= ~held;
    }
    const int slot = can ? scheds_[s].policy->select(can) : -1;
    if (slot < 0) {
      scheds_[s].next_try = scheduler_earliest(s, now);
      continue;
    }
    const uint32_t dispatch = issue(static_cast<uint32_t>(slot), now);
    scheds_[s].policy->issued(static_cast<uint32_t>(slot));
    scheds_[s].next_try = now + dispatch;
    scheds_[s].dispatch_free = now + dispatch;
    ++issued;
  }
  wake = next_wake(now);
  update_alone_from();
  return issued;
}

void SmCore::set_parallel_ready(bool on) {
  shared_.issue_alone = on ? wired_alone_ : nullptr;
  shared_.defer_submits = on && wired_defer_;
  if (!shared_.issue_alone) {
    alone_from = kNever;
    return;
  }
  // What update_ready() would have kept: each resident warp's bit from the pc it last set.
  for (Sched& sc : scheds_) sc.tr.alone_next = 0;
  for (size_t slot = 0; slot < warps_.size(); ++slot) {
    const WarpTiming& wt = warps_[slot];
    if (wt.used && shared_.issue_alone[wt.pc]) scheds_[wt.sched].tr.alone_next |= slot_bit(slot);
  }
  update_alone_from();
}

void SmCore::update_alone_from() {
  if (!shared_.issue_alone) return;
  uint64_t best = kNever;
  for (const Sched& sc : scheds_)
    for (uint64_t m = sc.tr.alone_next; m; m &= m - 1)
      best = std::min(best, warps_[static_cast<size_t>(std::countr_zero(m))].ready_at);
  alone_from = best;
}

uint64_t SmCore::scheduler_earliest(uint32_t s, uint64_t now) {
  ReadyTracker& tr = scheds_[s].tr;
  uint64_t best = kNever;
  // The next warp whose operands become ready.
  best = next_due(tr);
  // Ready warps wait for their unit (the wait is charged to the pipe) or, with the unit
  // free, for memory back-pressure to ease.
  // Every ready warp of a unit is seen blocked until t; that is recorded once per unit
  // (pipe_check_) and applied to a warp when it issues (account_wait).
  const uint64_t unit_time[kUnits] = {scheds_[s].alu_free, sfu_free_, dp_free_, lsu_free_, scheds_[s].tensor_free, 0};
  for (size_t u = 0; u < kUnits; ++u) {
    if (!(tr.ready & tr.by_unit[u])) continue;
    const uint64_t t = std::max(unit_time[u], now + 1);
    best = std::min(best, t);
    tr.pipe_check[u] = {now, t};
  }
  return best == kNever ? kNever : std::max(best, now + 1);
}

uint64_t SmCore::next_wake(uint64_t now) const {
  uint64_t best = kNever;
  for (const Sched& sc : scheds_) best = std::min(best, sc.next_try);
  return best == kNever ? kNever : std::max(best, now + 1);
}

void SmCore::memory_response(uint64_t token, uint64_t now) {
  const uint32_t id = static_cast<uint32_t>((token & ((uint64_t(1) << 40) - 1)) - 1);
  PendingLoad& pl = loads_[id];
  if (!pl.used || --pl.left > 0) return;
  pl.used = false;
  if (pl.mbar_bytes) {  // a bulk copy's data arrived: its mbarrier's transaction bytes complete
    shared_.executor->mbarrier_complete_tx(*pl.mbar_warp, pl.mbar_pc, pl.mbar_offset, pl.mbar_bytes);
    wake_mbarrier_waiters(warps_[pl.slot].block_slot, now);
    update_alone_from();
  }
  if (pl.trace != UINT32_MAX) shared_.stats->traces[pl.trace].records[pl.trace_record].done_cycle = now;
  free_loads_.push_back(id);
  WarpTiming& wt = warps_[pl.slot];
  if (!wt.used || wt.generation != pl.generation) return;
  for (uint32_t i = 0; i < pl.ndests; ++i) wt.reg_ready[pl.dests[i]] = (now << 1) | 1;  // written by memory
  --wt.pending_loads;
  if (pl.async_copy) wt.async_copies.copy_done(pl.async_group);
  if (wt.retired_pending) {
    if (wt.pending_loads == 0) retire_warp(pl.slot, now);
    return;
  }
  update_ready(wt, now);
  wake_scheduler(wt.sched, std::max(wt.ready_at, now + 1));
  update_alone_from();
}

std::string SmCore::describe(uint64_t now) const {
  std::string s = fmt::format("SM {}: {} blocks, {} warps resident", id_, resident_blocks_, resident_warps_);
  uint32_t shown = 0;
  for (uint32_t i = 0; i < warps_.size() && shown < 6; ++i) {
    const WarpTiming& wt = warps_[i];
    if (!wt.used) continue;
    ++shown;
    const Warp& w = *wt.warp;
    const uint32_t pc = w.stack.empty() ? 0 : static_cast<uint32_t>(w.stack.top().pc);
    s += fmt::format("\n    warp slot {} (block {}, warp {}): pc {} (PTX line {}), {}", i, w.block->linear, w.index, pc,
                     shared_.ctx->kernel->code[pc].ptx_line,
                     wt.retired_pending    ? "exited, waiting for loads"
                     : wt.waiting_barrier && w.mbar_waiting ? "waiting at an mbarrier"
                     : wt.waiting_barrier  ? "waiting at barrier"
                     : wt.ready_at == kNever ? fmt::format("waiting for {} memory load(s)", wt.pending_loads)
                                             : fmt::format("ready at cycle {}", wt.ready_at));
  }
  (void)now;
  return s;
}

}  // namespace warpsim::sm
