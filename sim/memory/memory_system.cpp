// The memory system's SM side (load/store queues, L1s, requests into the interconnect,
// replies back) and its clock; the partitions are in memory_partition_side.cpp and the
// shared state in memory_system_impl.hpp.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "sim/foundation/error.hpp"
#include "sim/memory/memory_system_impl.hpp"

namespace warpsim::mem {

uint32_t MemorySystem::Impl::lsu_step(uint32_t sm_id, uint64_t now, uint32_t budget) {
  SmSide& sm = sms[sm_id];
  if (sm.lsu.empty() || now < sm.lsu_free_at) return 0;
  // A store that writes part of its sector(s) holds the unit for partial_store_cycles once
  // it has been handed on.
  const Txn& t = txns[sm.lsu.front()];
  const bool partial = t.kind == AccessKind::Store && spec.issue.partial_store_cycles && t.data_bytes < t.bytes;
  const uint32_t took = lsu_hand_on(sm_id, now, budget);
  if (took && partial) sm.lsu_free_at = now + spec.issue.partial_store_cycles;
  return took;
}

uint32_t MemorySystem::Impl::join_line_request(const SmSide& sm, uint32_t budget, uint32_t& sectors) const {
  const uint32_t head = sm.lsu.front();
  const Txn& t = txns[head];
  // Through the L1: its sectors of its line; around it: the L2's.
  const bool via_l1 = t.use_l1 && sm.l1;
  const CacheSpec* c = via_l1 ? &spec.l1 : spec.has_l2 ? &spec.l2.slice : nullptr;
  sectors = c ? c->sector_mask(t.addr, t.bytes) : 0;
  if (!spec.issue.lsu_line_requests || !c || (via_l1 && !l1_sectored()) || t.kind != AccessKind::Load ||
      t.group == kNoGroup)
    return 1;
  auto next = [&](uint32_t n, uint64_t& addr, uint32_t& bytes) {
    const Txn& u = txns[sm.lsu[n]];
    if (u.group != t.group || u.kind != AccessKind::Load || u.local != t.local || u.use_l1 != t.use_l1) return false;
    addr = u.addr;
    bytes = u.bytes;
    return true;
  };
  return mem::join_line_request(*c, t.addr, t.bytes, uint32_t(std::min<size_t>(budget, sm.lsu.size())), next,
                                sectors);
}

void MemorySystem::Impl::take_request(uint32_t sm_id, uint32_t n) {
  SmSide& sm = sms[sm_id];
  for (uint32_t k = 1; k < n; ++k) txns[sm.lsu[k - 1]].next = sm.lsu[k];
  for (uint32_t k = 0; k < n; ++k) pop_lsu(sm_id);
}

uint32_t MemorySystem::Impl::lsu_hand_on(uint32_t sm_id, uint64_t now, uint32_t budget) {
  SmSide& sm = sms[sm_id];
  if (sm.out.size() >= kSmOutCapacity) return 0;
  const uint32_t id = sm.lsu.front();
  Txn& t = txns[id];
  if (!dram) {  // no memory model: a fixed latency from the issue config
    if (t.kind == AccessKind::Store) complete_txn(id, now);
    else schedule(now + spec.issue.global_latency, EventKind::TxnDone, id, 0);
    pop_lsu(sm_id);
    return 1;
  }
  if (t.use_l1 && sm.l1) {
    Cache& l1 = *sm.l1;
    uint32_t l1_sectors = 0;
    const uint32_t joined = join_line_request(sm, budget, l1_sectors);
    if (t.kind == AccessKind::Load) {
      AccessResult r = l1.access({t.addr, l1_sectors, AccessType::Read, t.local, id}, now);
      switch (r.status) {
        case AccessStatus::ReservationFail: return 0;
        case AccessStatus::Hit: schedule(r.ready_cycle, EventKind::TxnDone, id, 0); break;
        case AccessStatus::HitOnPendingMiss: break;
        case AccessStatus::Miss: {
          uint32_t sectors = l1_sectored() ? l2_sectors_of_l1(spec, r.line_addr, r.fetch_mask)
                             : spec.has_l2 ? spec.l2.slice.full_line_mask()
                                           : 0;
          if (!gpc_lines.empty()) sectors = gpc_merge_miss(sm_id, r.line_addr, sectors, now);
          if (sectors || gpc_lines.empty())
            push_out(sm, make_request(sm_id, r.line_addr, spec.l1.line_bytes, sectors, PacketType::ReadRequest,
                                      r.line_addr, kUserL1Fill));
          break;
        }
      }
      if (r.writeback)
        push_out(sm, make_request(sm_id, r.writeback->line_addr, spec.l1.line_bytes,
                                      spec.has_l2 ? spec.l2.slice.full_line_mask() : 0, PacketType::WriteRequest,
                                      0, 0));
      take_request(sm_id, joined);
      return joined;
    } else {  // store through the L1 (write-through / write-evict / local write-back)
      AccessResult r = l1.access({t.addr, l1_sectors, AccessType::Write, t.local, id}, now);
      if (r.status == AccessStatus::ReservationFail) return 0;
      if (r.forward_mask)
        push_out(sm, make_request(sm_id, t.addr, t.data_bytes, l2_sectors(t.addr, t.bytes), PacketType::WriteRequest,
                                      0, 0));
      if (r.writeback)
        push_out(sm, make_request(sm_id, r.writeback->line_addr, spec.l1.line_bytes,
                                      spec.has_l2 ? spec.l2.slice.full_line_mask() : 0, PacketType::WriteRequest,
                                      0, 0));
      complete_txn(id, now);
    }
    pop_lsu(sm_id);
    return 1;
  }
  // Straight to the memory partitions.
  switch (t.kind) {
    case AccessKind::Load: {
      uint32_t sectors = 0;
      const uint32_t joined = join_line_request(sm, budget, sectors);
      push_out(sm, make_request(sm_id, t.addr, t.bytes, sectors, PacketType::ReadRequest, id, 0));
      take_request(sm_id, joined);
      return joined;
    }
    case AccessKind::Atomic:
      push_out(sm, make_request(sm_id, t.addr, t.bytes, l2_sectors(t.addr, t.bytes),
                                    PacketType::AtomicRequest, id, 0));
      break;
    case AccessKind::Store:
      push_out(sm, make_request(sm_id, t.addr, t.data_bytes, l2_sectors(t.addr, t.bytes),
                                PacketType::WriteRequest, 0, 0));
      complete_txn(id, now);
      break;
  }
  pop_lsu(sm_id);
  return 1;
}

void MemorySystem::Impl::reply_arrived(const Packet& p, uint64_t now) {
  const uint32_t sm_id = uint32_t(p.user & 0xFFFFFFFFu);
  if (p.user & kUserL1Fill) {
    std::vector<uint64_t>& ready = fill_ready;
    ready.clear();
    sms[sm_id].l1->fill(p.addr, l1_sectored() ? l1_mask_of_l2(p) : spec.l1.full_line_mask(), now, ready);
    for (uint64_t id : ready) complete_txn(uint32_t(id), now);
    if (!gpc_lines.empty()) gpc_reply(sm_id, p, now);
  } else {
    complete_txn(uint32_t(p.id), now);  // and the rest of its line request
  }
}

uint32_t MemorySystem::Impl::gpc_merge_miss(uint32_t sm, uint64_t line, uint32_t sectors, uint64_t now) {
  auto& lines = gpc_lines[spec.gpc_of_sm[sm]];
  auto it = lines.find(line);
  if (it == lines.end()) {
    if (spec.gpc_merge_lines && lines.size() >= spec.gpc_merge_lines) return sectors;  // untracked
    it = lines.emplace(line, GpcLine{}).first;
  }
  GpcLine& gl = it->second;
  // Past the window the line's requests no longer take others: this one goes to the L2
  // (its sectors then come back twice; the first reply serves the waiters).
  const bool open = !spec.gpc_merge_window || now - gl.asked_at <= spec.gpc_merge_window;
  uint32_t waits = open ? sectors & gl.asked : 0;
  if (spec.gpc_merge_whole_requests && waits &&
      (waits != sectors || std::find(gl.requests.begin(), gl.requests.end(), sectors) == gl.requests.end()))
    waits = 0;
  if (waits) {
    gl.waiters.push_back({sm, waits});
    gpc_merged_sectors += uint32_t(std::popcount(waits));
  }
  const uint32_t ask = sectors & ~waits;
  if (ask) {
    gl.asked |= ask;
    gl.asked_at = now;
    if (spec.gpc_merge_whole_requests) gl.requests.push_back(ask);
  }
  return ask;
}

void MemorySystem::Impl::gpc_reply(uint32_t sm, const Packet& p, uint64_t now) {
  auto& lines = gpc_lines[spec.gpc_of_sm[sm]];
  const auto it = lines.find(p.addr);
  // No entry: the request went out untracked (the table was full), or its sectors were
  // asked for again past the window and an earlier reply already served the line.
  if (it == lines.end()) return;
  GpcLine& gl = it->second;
  // In the order the waiters came: each gets the sectors of this reply it waits for.
  size_t kept = 0;
  for (size_t i = 0; i < gl.waiters.size(); ++i) {
    GpcWaiter w = gl.waiters[i];
    if (const uint32_t got = w.sectors & p.sector_mask) {
      Packet part = p;
      part.sector_mask = got;
      fill_ready.clear();
      sms[w.sm].l1->fill(p.addr, l1_sectored() ? l1_mask_of_l2(part) : spec.l1.full_line_mask(), now, fill_ready);
      for (uint64_t id : fill_ready) complete_txn(uint32_t(id), now);
      w.sectors &= ~got;
    }
    if (w.sectors) gl.waiters[kept++] = w;
  }
  gl.waiters.resize(kept);
  gl.asked &= ~p.sector_mask;
  // A request some of whose sectors came back no longer takes others.
  std::erase_if(gl.requests, [&](uint32_t r) { return (r & gl.asked) != r; });
  if (!gl.asked) {
    if (!gl.waiters.empty())
      throw Error(fmt::format("internal: GPC read merging: SMs wait for line {:#x} with nothing asked", p.addr));
    lines.erase(it);
  }
}

bool MemorySystem::Impl::tick(uint64_t now) {
  bool progress = false;
  while (!events.empty() && events.top().time <= now) {
    Event e = events.top();
    events.pop();
    progress = true;
    if (e.kind == EventKind::TxnDone) complete_txn(e.a, now);
    else if (e.kind == EventKind::ReplyReady) {
      parts[e.a].replies.push_back(make_reply(preq[e.b]));
      mark_busy(e.a);
      free_preq.push_back(uint32_t(e.b));
    } else if (e.kind == EventKind::FarFill) {
      dram_completed(DramCompletion{e.a, 0, false}, now);
    }
  }
  if (icnt && icnt->replies().outputs_waiting()) {
    Crossbar& rep = icnt->replies();
    for (uint32_t port = 0; port < rep.destinations(); ++port)
      while (rep.has_packet(port)) {
        reply_arrived(rep.pop(port), now);
        progress = true;
      }
  }
  if (lsu_pending)
    lsu_busy.for_each([&](uint32_t s) {
      for (uint32_t k = 0, took = 0; k < spec.issue.lsu_transactions_per_cycle; k += took) {
        took = lsu_step(s, now, spec.issue.lsu_transactions_per_cycle - k);
        if (!took) break;
        progress = true;
      }
    });
  if (icnt) {
    Crossbar& req = icnt->requests();
    if (out_pending)
      out_busy.for_each([&](uint32_t s) {
        SmSide& sm = sms[s];
        while (!sm.out.empty() && req.can_push(sm.out.front().src, sm.out.front().dst, sm.out.front().bytes)) {
          req.push(sm.out.front(), now);
          sm.out.pop_front();
          --out_pending;
          progress = true;
        }
        if (sm.out.empty()) out_busy.erase(s);
      });
    const uint64_t dnow = dram_cycle_at(now);
    Crossbar& rep = icnt->replies();
    // Partitions with queued work or a request delivered by the network, in order.
    part_visit = parts_busy;
    part_visit.unite(req.waiting_outputs());
    part_visit.for_each([&](uint32_t p) {
      if (partition_due(p, now, req, rep)) progress |= visit_partition(p, now, dnow, req, rep);
    });
    progress |= icnt->tick(now);
    progress |= advance_dram(dnow, now);
  }
  return progress;
}

bool MemorySystem::Impl::advance_dram(uint64_t dnow, uint64_t now) {
  // DRAM catches up to the SM clock, skipping idle command cycles.
  bool progress = false;
  while (dram_next <= dnow) {
    uint64_t ne = dram->next_event_cycle();
    if (ne == UINT64_MAX || ne > dnow) {
      dram_next = dnow + 1;
      break;
    }
    uint64_t c = std::max(ne, dram_next);
    progress |= dram->tick(c);
    dram_next = c + 1;
    auto& done = dram->completions();
    for (const auto& d : done) dram_completed(d, now);
    done.clear();
  }
  return progress;
}

uint64_t MemorySystem::Impl::next_event(uint64_t now) const {
  uint64_t t = UINT64_MAX;
  if (!events.empty()) t = std::min(t, events.top().time);
  if (lsu_pending || out_pending) return now + 1;
  if (icnt) {
    bool soon = false;
    parts_busy.for_each([&](uint32_t i) {
      const Partition& p = parts[i];
      if (!p.pending.empty() || !p.replies.empty()) soon = true;
      if (!p.arriving.empty()) t = std::min(t, p.arriving.front().first);
      if (!p.fabric.empty()) t = std::min(t, p.fabric.front().first);
      if (!p.dram_q.empty()) t = std::min(t, p.dram_q.front().second);
    });
    if (soon) return now + 1;
    if (icnt->requests().outputs_waiting() || icnt->replies().outputs_waiting()) return now + 1;
    t = std::min(t, icnt->next_event_cycle());
    uint64_t ne = dram->next_event_cycle();
    if (ne != UINT64_MAX) t = std::min(t, core_cycle_at(std::max(ne, dram_next)));
  }
  return t == UINT64_MAX ? t : std::max(t, now + 1);
}

bool MemorySystem::Impl::idle() const {
  if (!events.empty()) return false;
  if (lsu_pending || out_pending) return false;
  if (!icnt) return true;
  for (const auto& p : parts)
    if (!p.pending.empty() || !p.replies.empty() || !p.dram_q.empty() || !p.arriving.empty() || !p.fabric.empty())
      return false;
  return icnt->idle() && !dram->busy();
}
MemorySystem::MemorySystem(const DeviceSpec& spec) : impl_(std::make_unique<Impl>(spec, responses_)) {}
MemorySystem::~MemorySystem() = default;

bool MemorySystem::can_accept(uint32_t sm, size_t queued) const {
  return (admission_.frozen ? admission_.lengths[sm] : impl_->sms[sm].lsu.size()) + queued < kLsuAcceptBelow;
}

void MemorySystem::freeze_admission() {
  std::vector<uint32_t>& l = admission_.lengths;
  l.resize(impl_->sms.size());
  for (size_t i = 0; i < l.size(); ++i) l[i] = static_cast<uint32_t>(impl_->sms[i].lsu.size());
  admission_.frozen = true;
}

void MemorySystem::submit(uint32_t sm, const Transaction* txns, size_t ntxns, AccessKind kind, bool local,
                          bool use_l1, uint64_t token, uint64_t launch_now, uint32_t bytes_per_lane) {
  Impl& m = *impl_;
  const uint64_t now = base_ + launch_now;
  submitted_ = true;
  const bool wants = token != 0 && kind != AccessKind::Store;
  uint32_t group = kNoGroup;
  if (wants && ntxns) {
    group = m.new_group();
    m.groups[group] = {token, sm, uint32_t(ntxns), now, kind == AccessKind::Load};
  }
  for (size_t i = 0; i < ntxns; ++i) {
    const Transaction& t = txns[i];
    uint32_t id = m.new_txn();
    const uint32_t written = std::min<uint32_t>(t.size, uint32_t(std::popcount(t.lanes)) * bytes_per_lane);
    m.txns[id] = {t.addr, t.size, written ? written : t.size, sm, group, kind, local, use_l1};
    m.sms[sm].lsu.push_back(id);
    m.lsu_busy.insert(sm);
    ++m.lsu_pending;
  }
  if (wants && !ntxns) responses_.push_back({sm, token});
  if (m.sms[sm].lsu.size() > kLsuCapacity)
    throw Error(fmt::format("internal: SM {} load/store queue overflow ({} transactions)", sm, m.sms[sm].lsu.size()));
}

bool MemorySystem::tick(uint64_t now) { return impl_->tick(base_ + now); }
namespace {
// Hands DRAM commands on with cycles counted from the launch's start.
struct LaunchRelativeSink final : DramCommandSink {
  DramCommandSink* to = nullptr;
  uint64_t base = 0;
  void on_dram_command(uint32_t channel, DramCommand c, uint32_t bank, uint64_t cycle) override {
    to->on_dram_command(channel, c, bank, cycle - base);
  }
};
}  // namespace

void MemorySystem::set_dram_command_sink(DramCommandSink* sink) {
  if (!impl_->dram) return;
  if (!sink || base_ == 0) {
    impl_->dram->set_command_sink(sink);
    return;
  }
  auto shifted = std::make_unique<LaunchRelativeSink>();
  shifted->to = sink;
  shifted->base = impl_->dram_cycle_at(base_);
  impl_->dram->set_command_sink(shifted.get());
  impl_->relative_sink = std::move(shifted);
}
uint64_t MemorySystem::next_event(uint64_t now) const {
  const uint64_t t = impl_->next_event(base_ + now);
  return t == UINT64_MAX ? t : t - base_;
}

void MemorySystem::set_l2_access_policy(const L2AccessPolicy& policy) {
  for (auto& p : impl_->parts)
    if (p.l2) p.l2->set_access_policy(policy);
}

void MemorySystem::demote_persisting_l2() {
  for (auto& p : impl_->parts)
    if (p.l2) p.l2->demote_persisting();
}

void MemorySystem::begin_launch(const CacheSpec* l1) {
  Impl& m = *impl_;
  if (!idle()) throw Error("internal: MemorySystem::begin_launch while requests are outstanding");
  if (l1 && !m.sms.empty() && m.sms[0].l1) {
    const CacheSpec& now = m.sms[0].l1->spec();
    if (l1->line_bytes != m.spec.l1.line_bytes || l1->sector_bytes != m.spec.l1.sector_bytes)
      throw Error("internal: MemorySystem::begin_launch with an L1 of another line or sector size");
    if (now.size_bytes != l1->size_bytes || now.ways != l1->ways) {
      // Another split: each SM's L1 of that geometry comes back from the last launch that
      // used it if nothing has touched it since it was made, else it is made afresh; the
      // outgoing ones wait for their split's next launch. Either way a launch starts with
      // what Cache(*l1) makes, as before.
      auto& out = m.parked_l1[{now.size_bytes, now.ways}];
      auto& in = m.parked_l1[{l1->size_bytes, l1->ways}];
      out.resize(m.sms.size());
      in.resize(m.sms.size());
      for (size_t i = 0; i < m.sms.size(); ++i) {
        std::unique_ptr<Cache> next = std::move(in[i]);
        if (!next || !next->pristine()) next = std::make_unique<Cache>(*l1);
        out[i] = std::move(m.sms[i].l1);
        m.sms[i].l1 = std::move(next);
      }
    }
  }
  if (launches_++ == 0) return;
  base_ = next_base_;
  for (auto& sm : m.sms)
    if (sm.l1) {
      sm.l1->invalidate_all();
      sm.l1->reset_stats();
    }
  for (auto& p : m.parts)
    if (p.l2) p.l2->reset_stats();
  m.latency_sum = m.latency_count = 0;
  m.gpc_merged_sectors = 0;
  if (m.dram) {
    // Refreshes due in the gap happen in it, not in the launch's counts.
    const uint64_t dnow = m.dram_cycle_at(base_);
    m.advance_dram(dnow > 0 ? dnow - 1 : 0, base_);
    m.dram->restart_stats(dnow);
  }
}

void MemorySystem::end_launch(uint64_t end, uint64_t gap) { next_base_ = base_ + end + gap; }
bool MemorySystem::idle() const { return impl_->idle(); }

void MemorySystem::fill_stats(LaunchStats& stats, uint64_t elapsed) const {
  const Impl& m = *impl_;
  MemStats& s = stats.mem;
  CacheStats l1, l2;
  for (const auto& sm : m.sms)
    if (sm.l1) l1 += sm.l1->stats();
  for (const auto& p : m.parts)
    if (p.l2) l2 += p.l2->stats();
  s.has_l1 = m.spec.has_l1;
  s.has_l2 = m.spec.has_l2;
  s.l2_partitioned = m.spec.has_l2 && m.spec.l2.partitions > 1;
  s.l1_hits = l1.read_hits;
  s.l1_misses = l1.read_misses + l1.read_merged;
  s.l2_hits = l2.sector_read_hits + l2.sector_write_hits + l2.sector_atomic_hits;
  s.l2_misses = l2.sector_reads + l2.sector_writes + l2.sector_atomics - s.l2_hits;
  s.l1_sectors = l1.sector_reads;
  s.l1_sector_hits = l1.sector_read_tag_hits;
  s.l2_read_sectors = l2.sector_reads;
  s.l2_read_sector_hits = l2.sector_read_tag_hits;
  s.l2_read_transactions = l2.sector_reads + l2.sector_atomics;
  s.l2_write_transactions = l2.sector_writes;
  s.l2_fabric_sectors = l2.fabric_sectors;
  s.l2_fabric_hits = l2.fabric_sector_hits;
  s.gpc_merging = !m.gpc_lines.empty();
  s.gpc_merged_sectors = m.gpc_merged_sectors;
  if (m.dram) {
    m.dram->fill_stats(stats.dram, m.dram_cycle_at(base_ + elapsed));
    stats.dram.average_memory_latency_cycles = m.latency_count ? double(m.latency_sum) / double(m.latency_count) : 0;
  }
}

std::string MemorySystem::describe_state() const {
  const Impl& m = *impl_;
  size_t lsu = 0, out = 0, pend = 0, rep = 0, dq = 0, arr = 0;
  for (const auto& sm : m.sms) {
    lsu += sm.lsu.size();
    out += sm.out.size();
  }
  for (const auto& p : m.parts) {
    pend += p.pending.size();
    arr += p.arriving.size();
    rep += p.replies.size();
    dq += p.dram_q.size();
  }
  return fmt::format("memory: {} transactions in SM load/store queues, {} packets waiting to enter the network, {} "
                     "requests in partition delay lines, {} requests waiting at partitions, {} replies waiting, {} DRAM requests waiting, {} timed events, "
                     "{} outstanding tokens, DRAM {}",
                     lsu, out, arr, pend, rep, dq, m.events.size(), m.groups.size() - m.free_groups.size(),
                     m.dram ? (m.dram->busy() ? "busy" : "idle") : "absent");
}

}  // namespace warpsim::mem
