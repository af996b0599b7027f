// Private to sim/memory's memory system (memory_system.cpp, memory_partition_side.cpp): the
// state of MemorySystem::Impl and the small helpers both halves share. The SM side and the
// clock are in memory_system.cpp, the memory partitions (L2 slices, DRAM requests, replies)
// in memory_partition_side.cpp.
#pragma once
#include <bit>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <queue>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/memory/index_set.hpp"
#include "sim/memory/memory_path.hpp"
#include "sim/memory/memory_system.hpp"

namespace warpsim::mem {

inline constexpr uint32_t kLsuCapacity = 256;     // transactions an SM's load/store queue holds
inline constexpr uint32_t kLsuAcceptBelow = 192;  // room for one more warp instruction
inline constexpr uint32_t kSmOutCapacity = 16;    // packets waiting to enter the interconnect
inline constexpr uint32_t kControlBytes = 8;      // request header / write ack (GPGPU-Sim)
inline constexpr uint64_t kUserL1Fill = uint64_t(1) << 32;
inline constexpr uint64_t kUserFabric = uint64_t(1) << 33;  // a copy's request to its line's home slice
inline constexpr uint32_t kNoGroup = UINT32_MAX;
inline constexpr uint32_t kNoTxn = UINT32_MAX;

enum class EventKind : uint8_t { TxnDone, ReplyReady, TokenDone, FarFill };

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
inline uint32_t take_slot(std::vector<T>& items, std::vector<uint32_t>& free) {
  if (!free.empty()) {
    const uint32_t id = free.back();
    free.pop_back();
    return id;
  }
  items.emplace_back();
  return uint32_t(items.size() - 1);
}

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
    uint32_t next = kNoTxn;     // issue.lsu_line_requests: the next transaction of this one's request
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
    uint64_t lsu_free_at = 0;  // issue.partial_store_cycles: the load/store unit is busy until then
  };
  std::vector<SmSide> sms;
  // The L1s of the other L1/shared splits the launches so far used, one per SM, by (size,
  // ways): a program whose kernels take different carveouts swaps them in and out at each
  // launch instead of building 132 caches every time (begin_launch).
  std::map<std::pair<uint64_t, uint32_t>, std::vector<std::unique_ptr<Cache>>> parked_l1;
  // GPC read merging (DeviceSpec::gpc_merge_reads): per GPC, the lines its SMs' L1s have
  // asked the L2 for and not yet had back. `asked`: the L2 sectors requested; `waiters`: the
  // SMs whose misses of some of those sectors wait for that reply (sectors as L2 masks);
  // `requests`: with gpc_merge_whole_requests, the sector masks of the requests in flight.
  struct GpcWaiter {
    uint32_t sm = 0;
    uint32_t sectors = 0;
  };
  struct GpcLine {
    uint32_t asked = 0;
    uint64_t asked_at = 0;  // when sectors were last asked for
    std::vector<GpcWaiter> waiters;
    std::vector<uint32_t> requests;
  };
  std::vector<std::unordered_map<uint64_t, GpcLine>> gpc_lines;
  uint64_t gpc_merged_sectors = 0;
  // An L1 miss of SM `sm` for `sectors` (L2 mask) of `line`: the sectors another SM of its
  // GPC has already asked for wait for that reply (with gpc_merge_whole_requests, only all
  // of them, and only when one request in flight asked for exactly these sectors); returns
  // the rest, to be requested.
  uint32_t gpc_merge_miss(uint32_t sm, uint64_t line, uint32_t sectors, uint64_t now);
  // The reply to an L1 fill request of SM `sm` arrived: the SMs of its GPC waiting for its
  // sectors get them too (their L1s are filled, their transactions completed).
  void gpc_reply(uint32_t sm, const Packet& p, uint64_t now);
  uint64_t lsu_pending = 0;  // transactions in all SMs' load/store queues
  uint64_t out_pending = 0;  // packets in all SMs' network queues
  IndexSet lsu_busy, out_busy;  // SMs with a non-empty load/store / network queue

  struct Partition {
    std::unique_ptr<Cache> l2;
    std::deque<std::pair<uint64_t, Packet>> arriving;  // (visible at, packet): the ROP delay
    std::deque<Packet> pending;  // popped from the network, waiting for the L2 / DRAM queue
    std::deque<Packet> replies;  // waiting to enter the reply network
    std::deque<std::pair<DramRequest, uint64_t>> dram_q;  // (request, ready at): the partition-to-DRAM delay
    uint64_t dram_q_sectors = 0;  // 32-byte sectors in dram_q (dram_sectors of each)
    std::deque<std::pair<uint64_t, Packet>> fabric;  // (visible at, request) from copies in other L2 partitions
  };
  std::vector<Partition> parts;
  IndexSet parts_busy;  // partitions with anything in arriving, pending, replies, dram_q or fabric
  // Per partition, what its last visit left for the next to do (tick() skips a visit that
  // would do nothing): part_wake, the first cycle a request waiting for its L2 retries or
  // the head of a delay line is due (0 once something is queued there from outside a
  // visit); part_reply_departures, while replies wait for the reply network's full input
  // port, that port's departures then (they wait until one more leaves), else kNoReplies.
  static constexpr uint64_t kNoReplies = UINT64_MAX;
  std::vector<uint64_t> part_wake;
  std::vector<uint64_t> part_reply_departures;
  // Something was queued at partition p from outside its visit: visit it from now on.
  void mark_busy(uint32_t p) {
    parts_busy.insert(p);
    part_wake[p] = 0;
  }
  bool partition_due(uint32_t p, uint64_t now, const Crossbar& req, const Crossbar& rep) const {
    return part_wake[p] <= now || req.waiting_outputs().contains(p) ||  // has_packet(p), without its deque
           (part_reply_departures[p] != kNoReplies && rep.departures(p) != part_reply_departures[p]);
  }
  // One cycle of partition p's work (memory_partition_side.cpp); returns whether anything moved.
  bool visit_partition(uint32_t p, uint64_t now, uint64_t dnow, Crossbar& req, Crossbar& rep);
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
  std::shared_ptr<const AddressMap> map;
  uint32_t mem_ports = 0;
  uint64_t core_khz = 0, dram_khz = 0;
  uint64_t dram_next = 0;  // next DRAM command cycle to simulate
  std::unique_ptr<DramCommandSink> relative_sink;  // set_dram_command_sink's adapter, if any

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
    if (spec.gpc_merge_reads) gpc_lines.resize(spec.gpcs);
    core_khz = uint64_t(spec.clock_mhz * 1000.0 + 0.5);
    if (spec.has_dram) {
      dram = std::make_unique<DramSystem>(spec.dram);
      map = std::make_shared<const AddressMap>(spec.dram);
      dram_khz = uint64_t(spec.dram.command_clock_mhz * 1000.0 + 0.5);
      mem_ports = spec.has_l2 ? spec.l2.slices : spec.dram.channels;
      parts.resize(mem_ports);
      parts_busy = IndexSet(mem_ports);
      part_wake.assign(mem_ports, 0);
      part_reply_departures.assign(mem_ports, kNoReplies);
      if (spec.has_l2)
        for (auto& p : parts) p.l2 = std::make_unique<Cache>(spec.l2.slice, l2_set_index(spec, map));
      icnt = std::make_unique<Interconnect>(spec.interconnect, spec.interconnect.ports_for_sms(spec.sm.count),
                                            mem_ports);
    }
  }

  void schedule(uint64_t t, EventKind k, uint32_t a, uint64_t b) { events.push({t, seq++, k, a, b}); }

  uint32_t new_txn() { return take_slot(txns, free_txns); }
  // The 32-byte sectors a DRAM request counts for in partition.dram_queue_sector_limit.
  static uint64_t dram_sectors(const DramRequest& r) { return (uint64_t(r.bytes) + 31) / 32; }

  uint64_t dram_cycle_at(uint64_t core) const { return core * dram_khz / core_khz; }
  uint64_t core_cycle_at(uint64_t dc) const { return (dc * core_khz + dram_khz - 1) / dram_khz; }

  // The port (L2 slice, or channel without an L2) an SM's request goes to.
  uint32_t port_of(uint64_t addr, uint32_t sm, PacketType type) const {
    if (!spec.has_l2) return map->channel_of(addr);
    return l2_slice_for(spec, *map, addr, sm, type == PacketType::AtomicRequest);
  }
  uint32_t l2_sectors(uint64_t addr, uint32_t bytes) const {
    return spec.has_l2 ? spec.l2.slice.sector_mask(addr, bytes) : 0;
  }

  bool l1_sectored() const { return mem::l1_sectored(spec); }
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
  // Completes `id` and every transaction of its request (issue.lsu_line_requests).
  void complete_txn(uint32_t id, uint64_t now) {
    while (id != kNoTxn) {
      const uint32_t next = txns[id].next;
      complete_one(id, now);
      id = next;
    }
  }
  void complete_one(uint32_t id, uint64_t now) {
    Txn& t = txns[id];
    if (t.group != kNoGroup) {
      Group& g = groups[t.group];
      if (--g.left == 0) {
        if (g.load) {
          latency_sum += now - g.issued;
          ++latency_count;
        }
        responses.push_back({g.sm, g.token});
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
    p.dst = port_of(addr, sm, type);
    p.user = user_kind | sm;
    return p;
  }

  // Runs the DRAM's command clock up to cycle `dnow` (SM cycle `now`); returns progress.
  bool advance_dram(uint64_t dnow, uint64_t now);

  // Processes the head of an SM's load/store queue, and with issue.lsu_line_requests the
  // transactions after it that join its request, at most `budget` in all; returns how many
  // it took, 0 when it must wait.
  uint32_t lsu_step(uint32_t sm_id, uint64_t now, uint32_t budget);
  uint32_t lsu_hand_on(uint32_t sm_id, uint64_t now, uint32_t budget);  // lsu_step's work, without the unit's busy time
  // How many transactions from the head of the SM's queue form one request (1 without
  // issue.lsu_line_requests): loads of one warp instruction in one line (the L1's, or the
  // L2's for loads around the L1), at most `budget`; sets `sectors` to their sectors of the
  // line (the L1's or the L2's).
  uint32_t join_line_request(const SmSide& sm, uint32_t budget, uint32_t& sectors) const;
  // The request of the first `n` transactions has been handed on: links them through
  // Txn::next (completing the first completes them all) and takes them off the queue.
  void take_request(uint32_t sm_id, uint32_t n);
  void pop_lsu(uint32_t sm_id) {
    SmSide& sm = sms[sm_id];
    sm.lsu.pop_front();
    --lsu_pending;
    if (sm.lsu.empty()) lsu_busy.erase(sm_id);
  }

  void reply_arrived(const Packet& p, uint64_t now);

  // ---- partition side ----------------------------------------------------------------------
  // A new DRAM (or far) fill / write context for `sectors` of `line` at partition `part`.
  uint32_t new_dctx(uint32_t part, uint64_t line, uint32_t sectors, bool write, bool l2_fill) {
    const uint32_t id = take_slot(dctx, free_dctx);
    DramCtx& d = dctx[id];
    d = DramCtx{};
    d.part = part;
    d.line = line;
    d.sectors = sectors;
    d.write = write;
    d.l2_fill = l2_fill;
    return id;
  }

  // Queues DRAM requests for `sectors` (32-byte units) of the line at `line`, one per
  // contiguous run, widened to whole DRAM access atoms.
  void dram_access(uint32_t part, uint64_t line, uint32_t sectors, uint32_t line_bytes, bool write, bool l2_fill,
                   const Packet* req, uint64_t now);

  Packet make_reply(const Packet& req) {
    Packet r = req;
    r.type = req.type == PacketType::WriteRequest ? PacketType::WriteAck : PacketType::ReadReply;
    uint32_t data = txn_bytes_of(req);
    r.bytes = kControlBytes + data;
    r.dst = req.src;
    r.src = req.dst;
    return r;
  }

  // A partitioned L2 (memory_partition_side.cpp): slice `part`, which keeps a copy of lines
  // whose home is slice `home`, sends it a read of `sectors` of the line it missed, or the
  // sectors written at `addr`; it arrives far_latency / 2 cycles later, and the home slice
  // takes it in its turn like a request from an SM.
  void to_home(uint32_t part, uint32_t home, uint64_t addr, uint32_t sectors, PacketType type, uint64_t now);
  bool home_request(uint32_t p, const Packet& pk, uint64_t now);  // partition_request's for those
  uint64_t fabric_back() const { return spec.l2.far_latency - spec.l2.far_latency / 2; }
  // The home slice answered slice `part`'s miss; the fill arrives at `at`.
  void far_fill(uint32_t part, uint64_t line, uint32_t sectors, uint64_t at) {
    const uint32_t ctx = new_dctx(part, line, sectors, false, true);
    dctx[ctx].left = 1;
    schedule(at, EventKind::FarFill, ctx, 0);
  }

  // Handles one request packet at partition p; false when it must wait (retry later).
  bool partition_request(uint32_t p, const Packet& pk, uint64_t now);

  uint32_t txn_bytes_of(const Packet& pk) const {
    if (pk.type == PacketType::WriteRequest) return pk.bytes - kControlBytes;
    if (pk.user & kUserL1Fill)
      return l1_sectored() ? uint32_t(std::popcount(l1_mask_of_l2(pk))) * spec.l1.sector_bytes : spec.l1.line_bytes;
    // Reads carry the transaction size in the sector mask's place when there is no L2.
    return pk.sector_mask ? uint32_t(std::popcount(pk.sector_mask)) * 32 : read_bytes_hint(pk);
  }
  uint32_t read_bytes_hint(const Packet& pk) const { return pk.id < txns.size() ? txns[pk.id].bytes : 32; }

  void dram_completed(const DramCompletion& c, uint64_t now);

  // ---- the clock ---------------------------------------------------------------------------
  bool tick(uint64_t now);

  uint64_t next_event(uint64_t now) const;

  bool idle() const;
};

}  // namespace warpsim::mem
