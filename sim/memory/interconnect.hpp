// The SM <-> memory-partition interconnect: two crossbars (requests SM -> partition,
// replies partition -> SM) with a fixed latency, per-port bandwidth, bounded buffers and
// round-robin arbitration.
//
// Crossbar contract (one direction, S input ports, D output ports):
//  - Each input port has one FIFO of at most input_buffer_flits flits; can_push() says
//    whether a packet fits, push() requires it. Packets are never dropped.
//  - tick(now) (call with non-decreasing `now`, at least at every next_event_cycle()):
//    each output port grants the input ports whose head packet targets it, round-robin
//    from the port after the last winner; a grant needs bandwidth left on both ports in
//    this cycle and room for the whole packet in the output buffer (output_buffer_flits
//    counts packets in flight to it and delivered but not popped). A k-flit packet whose
//    first flit leaves in cycle t is delivered to the output queue in cycle
//    t + latency + (serialization cycles - 1). Then it moves every packet due by `now`
//    into its output queue. Returns whether anything was granted or delivered.
//  - FIFO order holds per input port, hence per (source, destination) pair.
//  - One FIFO per input port: a head packet blocked by a full output buffer also blocks
//    the packets behind it (head-of-line blocking, as in GPGPU-Sim's injection queue).
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "sim/memory/index_set.hpp"
#include "sim/memory/interconnect_packet.hpp"
#include "sim/memory/interconnect_spec.hpp"

namespace warpsim::mem {

inline constexpr uint64_t kNoEvent = UINT64_MAX;

struct CrossbarStats {
  uint64_t packets_pushed = 0;
  uint64_t packets_delivered = 0;
  uint64_t flits_delivered = 0;
  uint64_t bytes_delivered = 0;
  uint64_t total_latency = 0;     // sum of delivered_at - pushed_at
  uint64_t max_latency = 0;
  uint64_t output_full_stalls = 0;  // grant attempts refused because the output buffer was full
  double average_latency() const {
    return packets_delivered ? double(total_latency) / double(packets_delivered) : 0.0;
  }
};

class Crossbar {
 public:
  Crossbar(const InterconnectSpec& spec, uint32_t sources, uint32_t destinations, std::string name);

  // Whether a packet of `bytes` from src (to dst) fits in src's input buffer now. Throws
  // std::invalid_argument for a port out of range or a packet no buffer could ever hold.
  bool can_push(uint32_t src, uint32_t dst, uint32_t bytes) const;
  // Enqueue p (p.src, p.dst, p.bytes) at cycle now. Throws std::logic_error if !can_push.
  void push(Packet p, uint64_t now);

  bool tick(uint64_t now);
  // Earliest cycle at which tick() can make progress without outside help (a pop frees
  // output space: that is the consumer's event); may be <= the current cycle; kNoEvent
  // when nothing is pending.
  uint64_t next_event_cycle() const;

  bool has_packet(uint32_t dst) const { return !out_.at(dst).empty(); }
  // Packets delivered to any output and not yet popped.
  uint64_t outputs_waiting() const { return out_count_; }
  const Packet& front(uint32_t dst) const { return out_.at(dst).front(); }  // requires has_packet
  // The outputs that have a packet waiting to be popped.
  const IndexSet& waiting_outputs() const { return dest_waiting_; }
  Packet pop(uint32_t dst);

  // Nothing queued, in flight or waiting to be popped.
  bool idle() const;
  uint32_t queued_flits(uint32_t src) const { return in_flits_[src]; }
  // Packets that have left src's input buffer so far: while it stays the same, a can_push
  // from src that failed keeps failing (only a departure frees input space).
  uint64_t departures(uint32_t src) const { return departures_[src]; }
  uint32_t sources() const { return sources_; }
  uint32_t destinations() const { return destinations_; }
  const CrossbarStats& stats() const { return stats_; }
  const InterconnectSpec& spec() const { return spec_; }

 private:
  struct InFlight {
    Packet packet;
    uint32_t flits;
    uint64_t due;  // cycle it enters the output queue
  };
  uint64_t slot_cycle(uint64_t slot) const { return slot / spec_.flits_per_cycle; }
  bool grant_one(uint32_t dst, uint64_t now);

  InterconnectSpec spec_;
  uint32_t sources_, destinations_;
  std::string name_;
  // Bandwidth bookkeeping in slots: a cycle has flits_per_cycle slots, a flit takes
  // cycles_per_flit slots; *_slot_ is the first free slot of the port.
  std::vector<uint64_t> in_slot_, out_slot_;
  std::vector<std::deque<Packet>> in_;
  std::vector<uint32_t> in_flits_;
  std::vector<uint64_t> departures_;           // per source: packets granted (departures())
  std::vector<std::deque<InFlight>> flight_;  // per destination, in due order
  std::vector<std::deque<Packet>> out_;
  std::vector<uint32_t> out_flits_;            // reserved: in flight + in out_
  std::vector<uint32_t> rr_;                   // per destination: first input to consider
  std::vector<uint32_t> queued_for_;           // per destination: packets queued at the inputs for it
  uint32_t words_;                             // 64-bit words per destination in heads_for_
  std::vector<uint64_t> heads_for_;            // per destination: bit per input whose head packet is for it
  // Destinations with packets queued at the inputs for them, in flight to them, waiting
  // in their output queue; inputs with a packet queued. tick() and next_event_cycle() visit
  // only those.
  IndexSet dest_queued_, dest_flying_, dest_waiting_;
  IndexSet src_busy_;
  static constexpr uint32_t kNone = UINT32_MAX;
  void mark_head(uint32_t src, uint32_t dst, bool on);
  uint32_t next_head(const uint64_t* heads, uint32_t from) const;
  uint64_t queued_ = 0;                        // packets queued at all inputs
  uint64_t in_flight_ = 0;                     // packets granted and not yet delivered
  uint64_t out_count_ = 0;                     // packets in the output queues
  CrossbarStats stats_;
};

class Interconnect {
 public:
  // sm_ports = spec.ports_for_sms(SM count); mem_ports = memory partitions (or L2 slices).
  Interconnect(const InterconnectSpec& spec, uint32_t sm_ports, uint32_t mem_ports);

  Crossbar& requests() { return requests_; }  // SM port -> memory port
  Crossbar& replies() { return replies_; }    // memory port -> SM port
  const Crossbar& requests() const { return requests_; }
  const Crossbar& replies() const { return replies_; }

  bool tick(uint64_t now);
  uint64_t next_event_cycle() const;
  bool idle() const { return requests_.idle() && replies_.idle(); }

 private:
  Crossbar requests_, replies_;
};

}  // namespace warpsim::mem
