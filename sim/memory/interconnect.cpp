#include "sim/memory/interconnect.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace warpsim::mem {

Crossbar::Crossbar(const InterconnectSpec& spec, uint32_t sources, uint32_t destinations, std::string name)
    : spec_(spec),
      sources_(sources),
      destinations_(destinations),
      name_(std::move(name)),
      in_slot_(sources, 0),
      out_slot_(destinations, 0),
      in_(sources),
      in_flits_(sources, 0),
      departures_(sources, 0),
      flight_(destinations),
      out_(destinations),
      out_flits_(destinations, 0),
      rr_(destinations, 0),
      queued_for_(destinations, 0),
      words_((sources + 63) / 64),
      heads_for_(size_t(destinations) * words_, 0),
      dest_queued_(destinations),
      dest_flying_(destinations),
      dest_waiting_(destinations),
      src_busy_(sources) {
  if (sources == 0 || destinations == 0)
    throw std::invalid_argument(fmt::format("{}: needs at least one source and one destination", name_));
}

bool Crossbar::can_push(uint32_t src, uint32_t dst, uint32_t bytes) const {
  if (src >= sources_ || dst >= destinations_)
    throw std::invalid_argument(fmt::format("{}: port {} -> {} out of range ({} sources, {} destinations)",
                                            name_, src, dst, sources_, destinations_));
  uint32_t k = spec_.flits(bytes);
  if (k > spec_.max_packet_flits())
    throw std::invalid_argument(fmt::format("{}: a {}-byte packet is {} flits; the buffers hold at most {}",
                                            name_, bytes, k, spec_.max_packet_flits()));
  return in_flits_[src] + k <= spec_.input_buffer_flits;
}

void Crossbar::push(Packet p, uint64_t now) {
  if (!can_push(p.src, p.dst, p.bytes))
    throw std::logic_error(fmt::format("{}: push to full input port {}", name_, p.src));
  p.pushed_at = now;
  in_flits_[p.src] += spec_.flits(p.bytes);
  if (queued_for_[p.dst]++ == 0) dest_queued_.insert(p.dst);
  ++queued_;
  if (in_[p.src].empty()) {
    mark_head(p.src, p.dst, true);
    src_busy_.insert(p.src);
  }
  in_[p.src].push_back(p);
  ++stats_.packets_pushed;
}

void Crossbar::mark_head(uint32_t src, uint32_t dst, bool on) {
  uint64_t& w = heads_for_[size_t(dst) * words_ + src / 64];
  const uint64_t b = uint64_t(1) << (src % 64);
  w = on ? w | b : w & ~b;
}

// The first input at or after `from` (circularly) whose bit is set in heads, or kNone.
uint32_t Crossbar::next_head(const uint64_t* heads, uint32_t from) const {
  // Word w runs from `from`'s word round to it again (no division: this is per grant).
  for (uint32_t k = 0, w = from / 64; k <= words_; ++k, w = w + 1 == words_ ? 0 : w + 1) {
    uint64_t bits = heads[w];
    if (k == 0) bits &= ~uint64_t(0) << (from % 64);
    if (bits) return w * 64 + uint32_t(std::countr_zero(bits));
  }
  return kNone;
}

bool Crossbar::grant_one(uint32_t dst, uint64_t now) {
  const uint64_t cycle_begin = now * spec_.flits_per_cycle;
  const uint64_t cycle_end = cycle_begin + spec_.flits_per_cycle;
  if (queued_for_[dst] == 0) return false;          // nothing anywhere is headed there
  if (out_slot_[dst] >= cycle_end) return false;  // output port used up this cycle
  // Visit the inputs whose head packet is for dst in round-robin order from rr_[dst].
  const uint64_t* heads = &heads_for_[size_t(dst) * words_];
  for (uint32_t src = next_head(heads, rr_[dst]), first = src; src != kNone;) {
    uint64_t start = std::max({in_slot_[src], out_slot_[dst], cycle_begin});
    if (start >= cycle_end) {  // this input port is used up this cycle
      src = next_head(heads, src + 1 == sources_ ? 0 : src + 1);
      if (src == first) break;
      continue;
    }
    const Packet& head = in_[src].front();
    uint32_t k = spec_.flits(head.bytes);
    if (out_flits_[dst] + k > spec_.output_buffer_flits) {
      // Strict round-robin: the input whose turn it is waits for space; no one overtakes it.
      ++stats_.output_full_stalls;
      return false;
    }
    uint64_t end = start + uint64_t(k) * spec_.cycles_per_flit;  // first slot after the packet
    in_slot_[src] = end;
    out_slot_[dst] = end;
    uint64_t due = slot_cycle(end - 1) + spec_.latency;
    flight_[dst].push_back({head, k, due});
    dest_flying_.insert(dst);
    ++in_flight_;
    in_flits_[src] -= k;
    ++departures_[src];
    out_flits_[dst] += k;
    in_[src].pop_front();
    mark_head(src, dst, false);
    if (!in_[src].empty()) mark_head(src, in_[src].front().dst, true);
    else src_busy_.erase(src);
    if (--queued_for_[dst] == 0) dest_queued_.erase(dst);
    --queued_;
    rr_[dst] = src + 1 == sources_ ? 0 : src + 1;
    return true;
  }
  return false;
}

bool Crossbar::tick(uint64_t now) {
  bool progress = false;
  // Several passes: with more than one flit per cycle a port may carry several packets.
  for (bool granted = queued_ > 0; granted;) {
    granted = false;
    dest_queued_.for_each([&](uint32_t d) { granted |= grant_one(d, now); });
    progress |= granted;
  }
  if (in_flight_ == 0) return progress;
  dest_flying_.for_each([&](uint32_t d) {
    auto& f = flight_[d];
    while (!f.empty() && f.front().due <= now) {
      --in_flight_;
      Packet p = f.front().packet;
      uint32_t k = f.front().flits;
      f.pop_front();
      p.delivered_at = now;
      uint64_t lat = now - p.pushed_at;
      ++stats_.packets_delivered;
      stats_.flits_delivered += k;
      stats_.bytes_delivered += p.bytes;
      stats_.total_latency += lat;
      stats_.max_latency = std::max(stats_.max_latency, lat);
      out_[d].push_back(p);
      dest_waiting_.insert(d);
      ++out_count_;
      progress = true;
    }
    if (f.empty()) dest_flying_.erase(d);
  });
  return progress;
}

uint64_t Crossbar::next_event_cycle() const {
  uint64_t next = kNoEvent;
  dest_flying_.for_each([&](uint32_t d) { next = std::min(next, flight_[d].front().due); });
  src_busy_.for_each([&](uint32_t s) {
    const Packet& head = in_[s].front();
    if (out_flits_[head.dst] + spec_.flits(head.bytes) > spec_.output_buffer_flits) return;
    next = std::min(next, slot_cycle(std::max(in_slot_[s], out_slot_[head.dst])));
  });
  return next;
}

Packet Crossbar::pop(uint32_t dst) {
  if (out_.at(dst).empty()) throw std::logic_error(fmt::format("{}: pop from empty output {}", name_, dst));
  Packet p = out_[dst].front();
  out_[dst].pop_front();
  if (out_[dst].empty()) dest_waiting_.erase(dst);
  --out_count_;
  out_flits_[dst] -= spec_.flits(p.bytes);
  return p;
}

bool Crossbar::idle() const {
  for (uint32_t s = 0; s < sources_; ++s)
    if (!in_[s].empty()) return false;
  for (uint32_t d = 0; d < destinations_; ++d)
    if (!flight_[d].empty() || !out_[d].empty()) return false;
  return true;
}

Interconnect::Interconnect(const InterconnectSpec& spec, uint32_t sm_ports, uint32_t mem_ports)
    : requests_(spec, sm_ports, mem_ports, "interconnect requests"),
      replies_(spec, mem_ports, sm_ports, "interconnect replies") {}

bool Interconnect::tick(uint64_t now) {
  bool a = requests_.tick(now);
  bool b = replies_.tick(now);
  return a || b;
}

uint64_t Interconnect::next_event_cycle() const {
  return std::min(requests_.next_event_cycle(), replies_.next_event_cycle());
}

}  // namespace warpsim::mem
