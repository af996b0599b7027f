// The memory system's partitions: one request per cycle into the L2 slice, misses and
// write-backs queued to DRAM per sector run, and the replies DRAM completions release.
#include "sim/memory/memory_system_impl.hpp"

namespace warpsim::mem {

void MemorySystem::Impl::dram_access(uint32_t part, uint64_t line, uint32_t sectors, uint32_t line_bytes,
                                     bool write, bool l2_fill, const Packet* req, uint64_t now) {
  const uint64_t dram_ready_at = now + spec.partition.dram_latency;
  const uint32_t ctx = new_dctx(part, line, sectors, write, l2_fill);
  DramCtx& d = dctx[ctx];
  if (req) d.req = *req;
  const uint32_t atom = spec.dram.atom_bytes();
  auto queue_one = [&](uint64_t a, uint64_t e) {
    DramRequest r;
    r.id = ctx;
    r.addr = a;
    r.bytes = uint32_t(e - a);
    r.write = write;
    parts[part].dram_q.push_back({r, dram_ready_at});
    parts[part].dram_q_sectors += dram_sectors(r);
    mark_busy(part);
    ++d.left;
  };
  // One DRAM request per run of atoms in one row of one bank: an address scheme that
  // interleaves banks below the run's size (row_column_bank, or a `bits` layout) splits it.
  auto queue_run = [&](uint64_t begin, uint64_t end) {
    uint64_t a = begin / atom * atom;
    const uint64_t e = (end + atom - 1) / atom * atom;
    if (e - a > atom) {
      DramAddress first = map->decode(a);
      for (uint64_t x = a + atom; x < e; x += atom) {
        const DramAddress here = map->decode(x);
        if (here.channel != first.channel || here.bank != first.bank || here.row != first.row) {
          queue_one(a, x);
          a = x;
          first = here;
        }
      }
    }
    queue_one(a, e);
  };
  // partition.dram_request_bytes: no request crosses a multiple of it.
  const uint64_t unit = spec.partition.dram_request_bytes;
  auto queue_units = [&](uint64_t begin, uint64_t end) {
    if (!unit) return queue_run(begin, end);
    for (uint64_t a = begin; a < end;) {
      const uint64_t stop = std::min(end, (a / unit + 1) * unit);
      queue_run(a, stop);
      a = stop;
    }
  };
  if (!sectors) {  // a whole transaction of line_bytes without sector detail
    queue_units(line, line + line_bytes);
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
    queue_units(line + uint64_t(s) * 32, line + uint64_t(e + 1) * 32);
    s = e + 1;
  }
}

void MemorySystem::Impl::to_home(uint32_t part, uint32_t home, uint64_t addr, uint32_t sectors, PacketType type,
                                 uint64_t now) {
  Packet pk;
  pk.addr = addr;
  pk.sector_mask = sectors;
  pk.type = type;
  pk.src = part;
  pk.dst = home;
  pk.user = kUserFabric;
  parts[home].fabric.push_back({now + spec.l2.far_latency / 2, pk});
  mark_busy(home);
}

bool MemorySystem::Impl::home_request(uint32_t p, const Packet& pk, uint64_t now) {
  const CacheSpec& ls = spec.l2.slice;
  Cache& l2 = *parts[p].l2;
  const bool write = pk.type == PacketType::WriteRequest;
  uint32_t slot = 0;
  if (!write) {
    slot = take_slot(preq, free_preq);
    preq[slot] = pk;
  }
  CacheRequest req{pk.addr, pk.sector_mask, write ? AccessType::Write : AccessType::Read, false, slot};
  req.fabric = true;
  const AccessResult r = l2.access(req, now);
  if (r.status == AccessStatus::ReservationFail) {
    // The line's read from DRAM is in flight at home with its merge limit reached: wait for
    // it (a line's home slice holds no copies, so that fill comes from DRAM and the retry
    // cannot wait in a circle; reading DRAM again would fetch the sectors twice).
    if (!write && l2.last_fail_reason() == FailReason::MergeLimit) {
      free_preq.push_back(slot);
      return false;
    }
    // No room at home (every way of the set or every MSHR waits for a fill, perhaps for one
    // from the asking partition): the copy reads DRAM itself, the write goes to DRAM.
    // Retrying could wait in a circle.
    const uint64_t line = ls.line_addr(pk.addr);
    if (write) {
      dram_access(p, line, pk.sector_mask, ls.line_bytes, true, false, nullptr, now);
    } else {
      free_preq.push_back(slot);
      dram_access(pk.src, line, pk.sector_mask, ls.line_bytes, false, true, nullptr, now);
    }
    return true;
  }
  if (!write) {
    if (r.status == AccessStatus::Hit) {  // back to the copy's slice
      free_preq.push_back(slot);
      far_fill(pk.src, r.line_addr, pk.sector_mask, r.ready_cycle + fabric_back());
    } else if (r.status == AccessStatus::Miss && r.fetch_mask) {
      dram_access(p, r.line_addr, r.fetch_mask, ls.line_bytes, false, true, nullptr, now);
    }
  }
  if (r.writeback)
    dram_access(p, r.writeback->line_addr, r.writeback->sector_mask, ls.line_bytes, true, false, nullptr, now);
  return true;
}

bool MemorySystem::Impl::partition_request(uint32_t p, const Packet& pk, uint64_t now) {
  Partition& part = parts[p];
  if (part.dram_q.size() > spec.partition.dram_queue_limit) return false;
  if (spec.partition.dram_queue_sector_limit && part.dram_q_sectors > spec.partition.dram_queue_sector_limit)
    return false;
  if (pk.user & kUserFabric) return home_request(p, pk, now);
  if (part.l2) {
    Cache& l2 = *part.l2;
    const CacheSpec& ls = spec.l2.slice;
    AccessType type = pk.type == PacketType::WriteRequest    ? AccessType::Write
                      : pk.type == PacketType::AtomicRequest ? AccessType::Atomic
                                                             : AccessType::Read;
    uint32_t sectors = pk.sector_mask ? pk.sector_mask : ls.full_line_mask();
    // A partitioned L2: this slice may hold the SM's copy of a line whose home is another
    // partition's slice; the copy stays clean and asks the home for what it lacks.
    const uint32_t home = spec.l2.partitions > 1 ? l2_slice_of(spec, *map, pk.addr) : p;
    const bool copy = home != p;
    uint32_t slot = 0;
    if (type != AccessType::Write) {
      slot = take_slot(preq, free_preq);
      preq[slot] = pk;
    }
    CacheRequest req{pk.addr, sectors, type, false, slot};
    req.write_through = copy && type == AccessType::Write;
    AccessResult r = l2.access(req, now);
    if (r.status == AccessStatus::ReservationFail) {
      if (type != AccessType::Write) free_preq.push_back(slot);
      return false;
    }
    if (type != AccessType::Write) {
      if (r.status == AccessStatus::Hit) schedule(r.ready_cycle, EventKind::ReplyReady, p, slot);
      else if (r.status == AccessStatus::Miss && r.fetch_mask) {
        if (copy) to_home(p, home, r.line_addr, r.fetch_mask, PacketType::ReadRequest, now);
        else dram_access(p, r.line_addr, r.fetch_mask, ls.line_bytes, false, true, nullptr, now);
      }
    } else if (copy && r.forward_mask) {
      to_home(p, home, pk.addr, r.forward_mask, PacketType::WriteRequest, now);
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

void MemorySystem::Impl::dram_completed(const DramCompletion& c, uint64_t now) {
  DramCtx& d = dctx[c.id];
  if (--d.left > 0) return;
  Partition& part = parts[d.part];
  if (d.l2_fill) {
    std::vector<uint64_t>& ready = fill_ready;
    ready.clear();
    part.l2->fill(d.line, d.sectors, now, ready);
    for (uint64_t slot : ready) {
      const Packet& w = preq[slot];
      if (w.user & kUserFabric) {  // a copy's miss: the data goes back to the copy's slice
        far_fill(w.src, spec.l2.slice.line_addr(w.addr), w.sector_mask, now + fabric_back());
      } else {
        part.replies.push_back(make_reply(w));
        mark_busy(d.part);
      }
      free_preq.push_back(uint32_t(slot));
    }
  } else if (!d.write) {
    part.replies.push_back(make_reply(d.req));
    mark_busy(d.part);
  }
  free_dctx.push_back(uint32_t(c.id));
}

bool MemorySystem::Impl::visit_partition(uint32_t p, uint64_t now, uint64_t dnow, Crossbar& req, Crossbar& rep) {
  Partition& part = parts[p];
  bool progress = false;
  // One request per partition per cycle. First one from another L2 partition's copy (a
  // partitioned L2), if one is due: those never wait on this slice's own misses, so a
  // request that does cannot hold them up (the two slices would wait for each other).
  bool served = false;
  if (!part.fabric.empty() && part.fabric.front().first <= now &&
      partition_request(p, part.fabric.front().second, now)) {
    part.fabric.pop_front();
    progress = served = true;
  }
  // Else a retried one, else one from the network.
  if (served) {
    // this cycle's request was the other partition's
  } else if (!part.pending.empty()) {
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
    part.dram_q_sectors -= dram_sectors(part.dram_q.front().first);
    part.dram_q.pop_front();
    progress = true;
  }
  // What the next visit may find to do (partition_due): replies left here found the reply
  // port full; a request left pending retries every cycle; a delay line's head is due at
  // its time (at once if it was due and not taken).
  part_reply_departures[p] = part.replies.empty() ? kNoReplies : rep.departures(p);
  if (part.pending.empty() && part.arriving.empty() && part.replies.empty() && part.dram_q.empty() &&
      part.fabric.empty()) {
    parts_busy.erase(p);
    return progress;
  }
  parts_busy.insert(p);
  uint64_t wake = UINT64_MAX;
  if (!part.pending.empty()) wake = now + 1;
  if (!part.arriving.empty()) wake = std::min(wake, part.arriving.front().first);
  if (!part.fabric.empty()) wake = std::min(wake, part.fabric.front().first);
  if (!part.dram_q.empty()) wake = std::min(wake, part.dram_q.front().second);
  part_wake[p] = wake;
  return progress;
}

}  // namespace warpsim::mem
