#include "sim/memory/memory_system.hpp"

#include <fmt/format.h>

#include <bit>

#include "sim/foundation/error.hpp"
#include "sim/memory/index_set.hpp"
#include "sim/memory/memory_path.hpp"

namespace warpsim::mem {

namespace {

constexpr uint32_t kLsuCapacity = 256;     // transactions an SM's load/store queue holds
constexpr uint32_t kLsuAcceptBelow = 192;  // room for one more warp instruction
constexpr uint32_t kSmOutCapacity = 16;    // packets waiting to enter the interconnect
constexpr uint32_t kControlBytes = 8;      // request header / write ack (GPGPU-Sim)
constexpr uint64_t kUserL1Fill = uint64_t(1) << 32;
constexpr uint32_t kNoGroup = UINT32_MAX;

enum class EventKind : uint8_t { TxnDone, ReplyReady, TokenDone };

struct Event {
  uint64_t time;
  uint64_t seq;
  EventKind kind;
  uint32_t a;  // txn id / partition / sm
  uint64_t b;  // preq id / token
  bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
};

// A free slot of a pool kept as a vector plus a list of freed indices: a freed one if
// any, else a new one at the end.
template <class T>
uint32_t take_slot(std::vector<T>& items, std::vector<uint32_t>& free) {
  if (!free.empty()) {
    const uint32_t id = free.back();
    free.pop_back();
    return id;
  }
  items.emplace_back();
  return uint32_t(items.size() - 1);
}

}  // namespace

struct MemorySystem::Impl {
  const DeviceSpec& spec;
  std::vector<MemResponse>& responses;

  struct Txn {
    uint64_t addr = 0;
    uint32_t bytes = 0;         // the transaction's size (segment / line)
    uint32_t data_bytes = 0;    // bytes the threads actually write (stores): the packet payload
    uint32_t sm = 0;
    uint32_t group = kNoGroup;  // the submission it belongs to, when a response is wanted
    AccessKind kind = AccessKind::Load;
    bool local = false;
    bool use_l1 = false;
  };
  std::vector<Txn> txns;
  std::vector<uint32_t> free_txns;
  // One per submit() that wants a response: its token and the transactions still out.
  struct Group {
    uint64_t token = 0;
    uint32_t sm = 0;
    uint32_t left = 0;
    uint64_t issued = 0;
    bool load = false;
  };
  std::vector<Group> groups;
  std::vector<uint32_t> free_groups;
  uint32_t new_group() { return take_slot(groups, free_groups); }

  struct SmSide {
    std::deque<uint32_t> lsu;
    std::deque<Packet> out;
    std::unique_ptr<Cache> l1;
  };
  std::vector<SmSide> sms;
  uint64_t lsu_pending = 0;  // transactions in all SMs' load/store queues
  uint64_t out_pending = 0;  // packets in all SMs' network queues
  IndexSet lsu_busy, out_busy;  // SMs with a non-empty load/store / network queue

  struct Partition {
    std::unique_ptr<Cache> l2;
    std::deque<std::pair<uint64_t, Packet>> arriving;  // (visible at, packet): the ROP delay
    std::deque<Packet> pending;  // popped from the network, waiting for the L2 / DRAM queue
    std::deque<Packet> replies;  // waiting to enter the reply network
    std::deque<std::pair<DramRequest, uint64_t>> dram_q;  // (request, ready at): the partition-to-DRAM delay
  };
  std::vector<Partition> parts;
  IndexSet parts_busy;  // partitions with anything in arriving, pending, replies or dram_q
  std::vector<Packet> preq;  // requests waiting at an L2 for a fill
  std::vector<uint32_t> free_preq;

  struct DramCtx {
    uint32_t part = 0;
    uint64_t line = 0;
    uint32_t sectors = 0;
    uint32_t left = 0;       // DRAM requests still outstanding
    bool l2_fill = false;
    bool write = false;
    Packet req;              // no-L2 read: the request to answer
  };
  std::vector<DramCtx> dctx;
  std::vector<uint32_t> free_dctx;

  std::unique_ptr<Interconnect> icnt;
  std::unique_ptr<DramSystem> dram;
  std::unique_ptr<AddressMap> map;
  uint32_t mem_ports = 0;
  uint64_t core_khz = 0, dram_khz = 0;
  uint64_t dram_next = 0;  // next DRAM command cycle to simulate

  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events;
  uint64_t seq = 0;

  uint64_t latency_sum = 0, latency_count = 0;
  std::vector<uint64_t> fill_ready;  // scratch: the waiters a cache fill releases
  IndexSet part_visit;  // scratch: the partitions one tick visits

  explicit Impl(const DeviceSpec& s, std::vector<MemResponse>& r) : spec(s), responses(r) {
    sms.resize(spec.sm.count);
    lsu_busy = IndexSet(spec.sm.count);
    out_busy = IndexSet(spec.sm.count);
    if (spec.has_l1)
      for (auto& sm : sms) sm.l1 = std::make_unique<Cache>(spec.l1);
    core_khz = uint64_t(spec.clock_mhz * 1000.0 + 0.5);
    if (spec.has_dram) {
      dram = std::make_unique<DramSystem>(spec.dram);
      map = std::make_unique<AddressMap>(spec.dram);
      dram_khz = uint64_t(spec.dram.command_clock_mhz * 1000.0 + 0.5);
      mem_ports = spec.has_l2 ? spec.l2.slices : spec.dram.channels;
      parts.resize(mem_ports);
      parts_busy = IndexSet(mem_ports);
      if (spec.has_l2)
        for (auto& p : parts) p.l2 = std::make_unique<Cache>(spec.l2.slice);
      icnt = std::make_unique<Interconnect>(spec.interconnect, spec.interconnect.ports_for_sms(spec.sm.count),
                                            mem_ports);
    }
  }

  void schedule(uint64_t t, EventKind k, uint32_t a, uint64_t b) { events.push({t, seq++, k, a, b}); }

  uint32_t new_txn() { return take_slot(txns, free_txns); }

  uint64_t dram_cycle_at(uint64_t core) const { return core * dram_khz / core_khz; }
  uint64_t core_cycle_at(uint64_t dc) const { return (dc * core_khz + dram_khz - 1) / dram_khz; }

  uint32_t port_of(uint64_t addr) const { return spec.has_l2 ? l2_slice_of(spec, *map, addr) : map->channel_of(addr); }
  uint32_t l2_sectors(uint64_t addr, uint32_t bytes) const {
    return spec.has_l2 ? spec.l2.slice.sector_mask(addr, bytes) : 0;
  }

  // A sectored L1 (sector_bytes < line_bytes, e.g. the H100's 32-byte sectors) fetches only
  // the sectors a miss lacks, and its fill carries them back as the L2 sectors requested.
  // A whole-line L1 (the C2070's) keeps fetching and filling whole lines.
  bool l1_sectored() const { return spec.has_l1 && spec.l1.sector_bytes < spec.l1.line_bytes; }
  uint32_t l2_mask_of_l1(uint64_t line, uint32_t l1_mask) const {
    uint32_t m = 0;
    for (uint32_t i = 0; i < 32; ++i)
      if (l1_mask >> i & 1u) m |= l2_sectors(line + uint64_t(i) * spec.l1.sector_bytes, spec.l1.sector_bytes);
    return m;
  }
  uint32_t l1_mask_of_l2(const Packet& p) const {
    if (!spec.has_l2 || !p.sector_mask) return spec.l1.full_line_mask();
    const uint32_t s2 = spec.l2.slice.sector_bytes;
    const uint64_t l2_line = p.addr / spec.l2.slice.line_bytes * spec.l2.slice.line_bytes;
    uint32_t m = 0;
    for (uint32_t j = 0; j < 32; ++j) {
      const uint64_t a = l2_line + uint64_t(j) * s2;
      if ((p.sector_mask >> j & 1u) && a >= p.addr && a < p.addr + spec.l1.line_bytes)
        m |= spec.l1.sector_mask(a, s2);
    }
    return m;
  }

  // ---- completion -----------------------------------------------------------------------
  void complete_txn(uint32_t id, uint64_t now) {
    Txn& t = txns[id];
    if (t.group != kNoGroup) {
      Group& g = groups[t.group];
      if (--g.left == 0) {
        if (g.load) {
          latency_sum += now - g.issued;
          ++latency_count;
        }
        responses.push_back({g.sm, g.token, now});
        free_groups.push_back(t.group);
      }
    }
    free_txns.push_back(id);
  }

  // ---- SM side ---------------------------------------------------------------------------
  void push_out(SmSide& sm, const Packet& p) {
    sm.out.push_back(p);
    out_busy.insert(uint32_t(&sm - sms.data()));
    ++out_pending;
  }
  Packet make_request(uint32_t sm, uint64_t addr, uint32_t data_bytes, uint32_t sectors, PacketType type,
                      uint64_t id, uint64_t user_kind) {
    Packet p;
    p.id = id;
    p.addr = addr;
    p.sector_mask = sectors;
    p.type = type;
    p.bytes = type == PacketType::ReadRequest ? kControlBytes : kControlBytes + data_bytes;
    p.src = spec.interconnect.port_of_sm(sm);
    p.dst = port_of(addr);
    p.user = user_kind | sm;
    return p;
  }

  // Processes the head of an SM's load/store queue; false when it must wait.
  bool lsu_step(uint32_t sm_id, uint64_t now) {
    SmSide& sm = sms[sm_id];
    if (sm.lsu.empty()) return false;
    if (sm.out.size() >= kSmOutCapacity) return false;
    const uint32_t id = sm.lsu.front();
    Txn& t = txns[id];
    if (!dram) {  // no memory model: a fixed latency from the issue config
      if (t.kind == AccessKind::Store) complete_txn(id, now);
      else schedule(now + spec.issue.global_latency, EventKind::TxnDone, id, 0);
      pop_lsu(sm_id);
      return true;
    }
    if (t.use_l1 && sm.l1) {
      Cache& l1 = *sm.l1;
      const uint32_t l1_sectors = spec.l1.sector_mask(t.addr, t.bytes);
      if (t.kind == AccessKind::Load) {
        AccessResult r = l1.access({t.addr, l1_sectors, AccessType::Read, t.local, id}, now);
        switch (r.status) {
          case AccessStatus::ReservationFail: return false;
          case AccessStatus::Hit: schedule(r.ready_cycle, EventKind::TxnDone, id, 0); break;
          case AccessStatus::HitOnPendingMiss: break;
          case AccessStatus::Miss:
            push_out(sm, make_request(sm_id, r.line_addr, spec.l1.line_bytes,
                                          l1_sectored() ? l2_mask_of_l1(r.line_addr, r.fetch_mask)
                                          : spec.has_l2 ? spec.l2.slice.full_line_mask() : 0,
                                          PacketType::ReadRequest, r.line_addr, kUserL1Fill));
            break;
        }
        if (r.writeback)
          push_out(sm, make_request(sm_id, r.writeback->line_addr, spec.l1.line_bytes,
                                        spec.has_l2 ? spec.l2.slice.full_line_mask() : 0, PacketType::WriteRequest,
                                        0, 0));
      } else {  // store through the L1 (write-through / write-evict / local write-back)
        AccessResult r = l1.access({t.addr, l1_sectors, AccessType::Write, t.local, id}, now);
        if (r.status == AccessStatus::ReservationFail) return false;
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
      return true;
    }
    // Straight to the memory partitions.
    switch (t.kind) {
      case AccessKind::Load:
        push_out(sm, make_request(sm_id, t.addr, t.bytes, l2_sectors(t.addr, t.bytes), PacketType::ReadRequest,
                                      id, 0));
        break;
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
    return true;
  }
  void pop_lsu(uint32_t sm_id) {
    SmSide& sm = sms[sm_id];
    sm.lsu.pop_front();
    --lsu_pending;
    if (sm.lsu.empty()) lsu_busy.erase(sm_id);
  }

  void reply_arrived(const Packet& p, uint64_t now) {
    const uint32_t sm_id = uint32_t(p.user & 0xFFFFFFFFu);
    if (p.user & kUserL1Fill) {
      std::vector<uint64_t>& ready = fill_ready;
      ready.clear();
      sms[sm_id].l1->fill(p.addr, l1_sectored() ? l1_mask_of_l2(p) : spec.l1.full_line_mask(), now, ready);
      for (uint64_t id : ready) complete_txn(uint32_t(id), now);
    } else {
      complete_txn(uint32_t(p.id), now);
    }
  }

  // ---- partition side ----------------------------------------------------------------------
  uint32_t new_dctx() { return take_slot(dctx, free_dctx); }

  // Queues DRAM requests for `sectors` (32-byte units) of the line at `line`, one per
  // contiguous run, widened to whole DRAM access atoms.
  void dram_access(uint32_t part, uint64_t line, uint32_t sectors, uint32_t line_bytes, bool write, bool l2_fill,
                   const Packet* req, uint64_t now) {
    const uint64_t dram_ready_at = now + spec.partition.dram_latency;
    uint32_t ctx = new_dctx();
    DramCtx& d = dctx[ctx];
    d = DramCtx{};
    d.part = part;
    d.line = line;
    d.sectors = sectors;
    d.write = write;
    d.l2_fill = l2_fill;
    if (req) d.req = *req;
    const uint32_t atom = spec.dram.atom_bytes();
    auto queue_run = [&](uint64_t begin, uint64_t end) {
      uint64_t a = begin / atom * atom, e = (end + atom - 1) / atom * atom;
      DramRequest r;
      r.id = ctx;
      r.addr = a;
      r.bytes = uint32_t(e - a);
      r.write = write;
      parts[part].dram_q.push_back({r, dram_ready_at});
      parts_busy.insert(part);
      ++d.left;
    };
    if (!sectors) {  // a whole transaction of line_bytes without sector detail
      queue_run(line, line + line_bytes);
      return;
    }
    const uint32_t nsec = 32;
    for (uint32_t s = 0; s < nsec;) {
      if (!(sectors >> s & 1)) {
        ++s;
        continue;
      }
      uint32_t e = s;
      while (e + 1 < nsec && (sectors >> (e + 1) & 1)) ++e;
      queue_run(line + uint64_t(s) * 32, line + uint64_t(e + 1) * 32);
      s = e + 1;
    }
  }

  Packet make_reply(const Packet& req) {
    Packet r = req;
    r.type = req.type == PacketType::WriteRequest ? PacketType::WriteAck : PacketType::ReadReply;
    uint32_t data = txn_bytes_of(req);
    r.bytes = kControlBytes + data;
    r.dst = req.src;
    r.src = req.dst;
    return r;
  }

  // Handles one request packet at partition p; false when it must wait (retry later).
  bool partition_request(uint32_t p, const Packet& pk, uint64_t now) {
    Partition& part = parts[p];
    if (part.dram_q.size() > spec.partition.dram_queue_limit) return false;
    if (part.l2) {
      Cache& l2 = *part.l2;
      const CacheSpec& ls = spec.l2.slice;
      AccessType type = pk.type == PacketType::WriteRequest    ? AccessType::Write
                        : pk.type == PacketType::AtomicRequest ? AccessType::Atomic
                                                               : AccessType::Read;
      uint32_t sectors = pk.sector_mask ? pk.sector_mask : ls.full_line_mask();
      uint32_t slot = 0;
      if (type != AccessType::Write) {
        slot = take_slot(preq, free_preq);
        preq[slot] = pk;
      }
      AccessResult r = l2.access({pk.addr, sectors, type, false, slot}, now);
      if (r.status == AccessStatus::ReservationFail) {
        if (type != AccessType::Write) free_preq.push_back(slot);
        return false;
      }
      if (type != AccessType::Write) {
        if (r.status == AccessStatus::Hit) schedule(r.ready_cycle, EventKind::ReplyReady, p, slot);
        else if (r.status == AccessStatus::Miss && r.fetch_mask)
          dram_access(p, r.line_addr, r.fetch_mask, ls.line_bytes, false, true, nullptr, now);
      }
      if (r.writeback)
        dram_access(p, r.writeback->line_addr, r.writeback->sector_mask, ls.line_bytes, true, false, nullptr, now);
      return true;
    }
    // No L2: straight to DRAM.
    const bool write = pk.type == PacketType::WriteRequest;
    dram_access(p, pk.addr, 0, txn_bytes_of(pk), write, false, write ? nullptr : &pk, now);
    if (pk.type == PacketType::AtomicRequest)  // read-modify-write at the memory partition
      dram_access(p, pk.addr, 0, txn_bytes_of(pk), true, false, nullptr, now);
    return true;
  }

  uint32_t txn_bytes_of(const Packet& pk) const {
    if (pk.type == PacketType::WriteRequest) return pk.bytes - kControlBytes;
    if (pk.user & kUserL1Fill)
      return l1_sectored() ? uint32_t(std::popcount(l1_mask_of_l2(pk))) * spec.l1.sector_bytes : spec.l1.line_bytes;
    // Reads carry the transaction size in the sector mask's place when there is no L2.
    return pk.sector_mask ? uint32_t(std::popcount(pk.sector_mask)) * 32 : read_bytes_hint(pk);
  }
  uint32_t read_bytes_hint(const Packet& pk) const { return pk.id < txns.size() ? txns[pk.id].bytes : 32; }

  void dram_completed(const DramCompletion& c, uint64_t now) {
    DramCtx& d = dctx[c.id];
    if (--d.left > 0) return;
    Partition& part = parts[d.part];
    if (d.l2_fill) {
      std::vector<uint64_t>& ready = fill_ready;
      ready.clear();
      part.l2->fill(d.line, d.sectors, now, ready);
      for (uint64_t slot : ready) {
        part.replies.push_back(make_reply(preq[slot]));
        parts_busy.insert(d.part);
        free_preq.push_back(uint32_t(slot));
      }
    } else if (!d.write) {
      part.replies.push_back(make_reply(d.req));
      parts_busy.insert(d.part);
    }
    free_dctx.push_back(uint32_t(c.id));
  }

  // ---- the clock ---------------------------------------------------------------------------
  bool tick(uint64_t now) {
    bool progress = false;
    while (!events.empty() && events.top().time <= now) {
      Event e = events.top();
      events.pop();
      progress = true;
      if (e.kind == EventKind::TxnDone) complete_txn(e.a, now);
      else if (e.kind == EventKind::ReplyReady) {
        parts[e.a].replies.push_back(make_reply(preq[e.b]));
        parts_busy.insert(e.a);
        free_preq.push_back(uint32_t(e.b));
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
        for (uint32_t k = 0; k < spec.issue.lsu_transactions_per_cycle && lsu_step(s, now); ++k) progress = true;
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
        Partition& part = parts[p];
        // One request per partition per cycle: a retried one first, else one from the network.
        if (!part.pending.empty()) {
          if (partition_request(p, part.pending.front(), now)) {
            part.pending.pop_front();
            progress = true;
          }
        } else if (!part.arriving.empty() && part.arriving.front().first <= now) {
          Packet pk = part.arriving.front().second;
          part.arriving.pop_front();
          progress = true;
          if (!partition_request(p, pk, now)) part.pending.push_back(pk);
        }
        // Everything the network delivers enters the ROP delay line at once.
        while (req.has_packet(p)) {
          part.arriving.push_back({now + spec.partition.rop_latency, req.pop(p)});
          progress = true;
        }
        while (!part.replies.empty() && rep.can_push(p, part.replies.front().dst, part.replies.front().bytes)) {
          rep.push(part.replies.front(), now);
          part.replies.pop_front();
          progress = true;
        }
        while (!part.dram_q.empty() && part.dram_q.front().second <= now &&
               dram->can_accept(part.dram_q.front().first.addr, part.dram_q.front().first.write)) {
          dram->enqueue(part.dram_q.front().first, dnow);
          part.dram_q.pop_front();
          progress = true;
        }
        if (part.pending.empty() && part.arriving.empty() && part.replies.empty() && part.dram_q.empty())
          parts_busy.erase(p);
        else
          parts_busy.insert(p);
      });
      progress |= icnt->tick(now);
      // DRAM catches up to the SM clock, skipping idle command cycles.
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
    }
    return progress;
  }

  uint64_t next_event(uint64_t now) const {
    uint64_t t = UINT64_MAX;
    if (!events.empty()) t = std::min(t, events.top().time);
    if (lsu_pending || out_pending) return now + 1;
    if (icnt) {
      bool soon = false;
      parts_busy.for_each([&](uint32_t i) {
        const Partition& p = parts[i];
        if (!p.pending.empty() || !p.replies.empty()) soon = true;
        if (!p.arriving.empty()) t = std::min(t, p.arriving.front().first);
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

  bool idle() const {
    if (!events.empty()) return false;
    if (lsu_pending || out_pending) return false;
    if (!icnt) return true;
    for (const auto& p : parts)
      if (!p.pending.empty() || !p.replies.empty() || !p.dram_q.empty() || !p.arriving.empty()) return false;
    return icnt->idle() && !dram->busy();
  }
};

MemorySystem::MemorySystem(const DeviceSpec& spec) : impl_(std::make_unique<Impl>(spec, responses_)) {}
MemorySystem::~MemorySystem() = default;

bool MemorySystem::can_accept(uint32_t sm, size_t queued) const {
  return impl_->sms[sm].lsu.size() + queued < kLsuAcceptBelow;
}

void MemorySystem::submit(uint32_t sm, const Transaction* txns, size_t ntxns, AccessKind kind, bool local,
                          bool use_l1, uint64_t token, uint64_t now, uint32_t bytes_per_lane) {
  Impl& m = *impl_;
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
  if (wants && !ntxns) responses_.push_back({sm, token, now});
  if (m.sms[sm].lsu.size() > kLsuCapacity)
    throw Error(fmt::format("internal: SM {} load/store queue overflow ({} transactions)", sm, m.sms[sm].lsu.size()));
}

bool MemorySystem::tick(uint64_t now) { return impl_->tick(now); }
void MemorySystem::set_dram_command_sink(DramCommandSink* sink) {
  if (impl_->dram) impl_->dram->set_command_sink(sink);
}
uint64_t MemorySystem::next_event(uint64_t now) const { return impl_->next_event(now); }
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
  s.l1_hits = l1.read_hits;
  s.l1_misses = l1.read_misses + l1.read_merged;
  s.l2_hits = l2.sector_read_hits + l2.sector_write_hits + l2.sector_atomic_hits;
  s.l2_misses = l2.sector_reads + l2.sector_writes + l2.sector_atomics - s.l2_hits;
  s.l2_read_transactions = l2.sector_reads + l2.sector_atomics;
  s.l2_write_transactions = l2.sector_writes;
  if (m.dram) {
    m.dram->fill_stats(stats.dram, m.dram_cycle_at(elapsed));
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
