#include "sim/memory/cache.hpp"

#include <fmt/format.h>

#include <bit>
#include <stdexcept>
#include <utility>

namespace warpsim::mem {

const char* access_status_name(AccessStatus s) {
  switch (s) {
    case AccessStatus::Hit: return "hit";
    case AccessStatus::HitOnPendingMiss: return "hit_on_pending_miss";
    case AccessStatus::Miss: return "miss";
    case AccessStatus::ReservationFail: return "reservation_fail";
  }
  return "?";
}

namespace {
uint64_t popcount(uint32_t m) { return uint64_t(std::popcount(m)); }
}  // namespace

namespace {
// Specs normally come from parse_cache_spec; this catches inconsistent hand-built ones.
const CacheSpec& checked(const CacheSpec& s) {
  auto pow2 = [](uint64_t x) { return x != 0 && (x & (x - 1)) == 0; };
  if (!pow2(s.line_bytes) || !pow2(s.sector_bytes) || s.sector_bytes > s.line_bytes ||
      s.line_bytes / s.sector_bytes > 32 || !pow2(s.sets) || s.ways == 0 || s.ways > kMaxWays ||
      uint64_t(s.sets) * s.ways * s.line_bytes != s.size_bytes || s.mshr_entries == 0 ||
      s.mshr_max_merge == 0)
    throw std::invalid_argument(fmt::format(
        "Cache: inconsistent spec (size {}, line {}, sector {}, sets {}, ways {}, mshr {}x{})", s.size_bytes,
        s.line_bytes, s.sector_bytes, s.sets, s.ways, s.mshr_entries, s.mshr_max_merge));
  return s;
}
}  // namespace

Cache::Cache(const CacheSpec& spec) : Cache(spec, SetIndex(spec)) {}

Cache::Cache(const CacheSpec& spec, SetIndex index)
    : spec_(checked(spec)), index_(std::move(index)), tags_(spec), mshr_(spec.mshr_entries, spec.mshr_max_merge) {
  scratch_.reserve(spec.mshr_max_merge);
}

AccessResult Cache::access(const CacheRequest& req, uint64_t now) {
  pristine_ = tags_fresh_ = false;
  if (req.sector_mask == 0 || (req.sector_mask & ~spec_.full_line_mask()) != 0)
    throw std::invalid_argument(fmt::format("Cache::access: sector mask 0x{:x} is empty or outside "
                                            "the {} sectors of a line",
                                            req.sector_mask, spec_.sectors_per_line()));
  uint64_t line = spec_.line_addr(req.addr);
  uint32_t set = index_(line);
  last_fail_ = FailReason::None;
  return req.type == AccessType::Write ? write(req, line, set, now) : read_like(req, line, set, now);
}

AccessResult Cache::fail(AccessResult r, FailReason why) {
  r.status = AccessStatus::ReservationFail;
  r.fetch_mask = r.forward_mask = 0;
  r.writeback.reset();
  last_fail_ = why;
  ++stats_.reservation_fails;
  switch (why) {
    case FailReason::MshrFull: ++stats_.fail_mshr_full; break;
    case FailReason::MergeLimit: ++stats_.fail_merge_limit; break;
    case FailReason::NoVictim: ++stats_.fail_no_victim; break;
    case FailReason::None: break;
  }
  return r;
}

AccessProperty Cache::property_of(uint64_t line) const {
  const AccessProperty p = line_property(policy_.window, line);
  // Without a set-aside, a persisting access is a normal one; so is one of the lines the
  // L2 does not keep persisting (L2AccessPolicy::persisting_kept_share).
  if (p == AccessProperty::Persisting && (policy_.persisting_ways == 0 || !kept_persisting(policy_, line)))
    return AccessProperty::Normal;
  return p;
}

std::optional<uint32_t> Cache::victim_for(uint32_t set, AccessProperty prop) const {
  if (!properties_used_ && prop == AccessProperty::Normal) return tags_.victim(set);
  return tags_.victim(set, prop, policy_.persisting_ways);
}

void Cache::on_hit_property(uint32_t set, uint32_t way, AccessProperty prop) {
  CacheLine& l = tags_.at(set, way);
  if (prop == AccessProperty::Persisting && l.prop != AccessProperty::Persisting &&
      tags_.persisting_lines(set) < policy_.persisting_ways)
    l.prop = AccessProperty::Persisting;
}

void Cache::demote_persisting() {
  pristine_ = tags_fresh_ = false;
  for (uint32_t set = 0; set < tags_.sets(); ++set)
    for (uint32_t way = 0; way < tags_.ways(); ++way) {
      CacheLine& l = tags_.at(set, way);
      if (l.prop == AccessProperty::Persisting) l.prop = AccessProperty::Normal;
    }
}

void Cache::replace(uint32_t set, uint32_t way, uint64_t line, AccessProperty prop, AccessResult& r) {
  CacheLine& old = tags_.at(set, way);
  if (old.allocated) {
    ++stats_.evictions;
    if (old.dirty) {
      r.writeback = Writeback{old.line_addr, old.dirty};
      ++stats_.writebacks;
      stats_.writeback_sectors += popcount(old.dirty);
    }
  }
  tags_.insert(set, way, line);
  if (prop != AccessProperty::Normal) {
    CacheLine& l = tags_.at(set, way);
    // A persisting line past the set's share (every way of it taken) comes in as normal.
    l.prop = prop == AccessProperty::Persisting && tags_.persisting_lines(set) >= policy_.persisting_ways
                 ? AccessProperty::Normal
                 : prop;
    properties_used_ = true;
  }
}

void Cache::drop(uint32_t set, uint32_t way, uint32_t superseded, AccessResult* r) {
  CacheLine& l = tags_.at(set, way);
  uint32_t keep_dirty = l.dirty & ~superseded;
  if (keep_dirty && r) {
    r->writeback = Writeback{l.line_addr, keep_dirty};
    ++stats_.writebacks;
    stats_.writeback_sectors += popcount(keep_dirty);
  }
  tags_.invalidate(set, way);
  ++stats_.invalidations;
}

void Cache::count_read_sectors(bool atomic, uint32_t want, uint32_t valid, uint32_t pending) {
  (atomic ? stats_.sector_atomics : stats_.sector_reads) += popcount(want);
  (atomic ? stats_.sector_atomic_hits : stats_.sector_read_hits) += popcount(want & valid);
  if (!atomic) stats_.sector_read_tag_hits += popcount(want & (valid | pending));
}

AccessResult Cache::read_like(const CacheRequest& req, uint64_t line, uint32_t set, uint64_t now) {
  const bool atomic = req.type == AccessType::Atomic;
  const uint32_t want = req.sector_mask;
  AccessResult r;
  r.line_addr = line;

  std::optional<uint32_t> way = tags_.find(set, line);
  uint32_t valid = way ? tags_.at(set, *way).valid : 0;
  uint32_t missing = want & ~valid;
  // An atomic in a write-through cache also updates the level below.
  uint32_t forward = (atomic && spec_.write_policy == WritePolicy::WriteThrough) ? want : 0;

  // `pending`: the sectors a miss of this line is already fetching.
  auto count_sectors = [&](uint32_t pending) {
    if (req.fabric) {
      stats_.fabric_sectors += popcount(want);
      stats_.fabric_sector_hits += popcount(want & valid);
      return;
    }
    count_read_sectors(atomic, want, valid, pending);
  };

  if (way && policy_.window.bytes) on_hit_property(set, *way, property_of(line));
  if (missing == 0) {
    CacheLine& l = tags_.at(set, *way);
    tags_.touch(set, *way);
    if (atomic && spec_.write_policy == WritePolicy::WriteBack) l.dirty |= want;
    ++(atomic ? stats_.atomic_hits : stats_.read_hits);
    count_sectors(0);
    stats_.forwarded_write_sectors += popcount(forward);
    r.status = AccessStatus::Hit;
    r.forward_mask = forward;
    r.ready_cycle = now + spec_.hit_latency;
    return r;
  }

  if (MshrEntry* e = mshr_.find(line)) {
    // The line is allocated and reserved while its MSHR lives.
    if (!way) throw std::logic_error("Cache: MSHR for a line missing from the tag array");
    if (!mshr_.can_merge(*e)) return fail(r, FailReason::MergeLimit);
    uint32_t need = missing & ~e->pending;
    if (need) need = spec_.fetch_groups(need) & ~valid & ~e->pending;
    count_sectors(e->pending);
    e->pending |= need;
    e->waiters.push_back({req.id, want, req.type});
    tags_.touch(set, *way);
    stats_.fetch_sectors += popcount(need);
    stats_.forwarded_write_sectors += popcount(forward);
    if (need) {
      ++(atomic ? stats_.atomic_misses : stats_.read_misses);
      r.status = AccessStatus::Miss;
    } else {
      ++(atomic ? stats_.atomic_merged : stats_.read_merged);
      r.status = AccessStatus::HitOnPendingMiss;
    }
    r.fetch_mask = need;
    r.forward_mask = forward;
    return r;
  }

  if (mshr_.full()) return fail(r, FailReason::MshrFull);
  uint32_t w;
  if (way) {
    w = *way;  // sector miss in a line we hold: keep it, fetch the missing sectors
    tags_.touch(set, w);
  } else {
    const AccessProperty prop = property_of(line);
    std::optional<uint32_t> v = victim_for(set, prop);
    if (!v) return fail(r, FailReason::NoVictim);
    w = *v;
    replace(set, w, line, prop, r);
  }
  tags_.at(set, w).reserved = true;
  const uint32_t fetch = spec_.fetch_groups(missing) & ~valid;
  MshrEntry& e = mshr_.allocate(line);
  e.pending = fetch;
  e.waiters.push_back({req.id, want, req.type});
  ++(atomic ? stats_.atomic_misses : stats_.read_misses);
  count_sectors(0);
  stats_.fetch_sectors += popcount(fetch);
  stats_.forwarded_write_sectors += popcount(forward);
  r.status = AccessStatus::Miss;
  r.fetch_mask = fetch;
  r.forward_mask = forward;
  return r;
}

AccessResult Cache::write(const CacheRequest& req, uint64_t line, uint32_t set, uint64_t now) {
  const uint32_t mask = req.sector_mask;
  const WritePolicy policy = req.local           ? spec_.local_write_policy
                            : req.write_through ? WritePolicy::WriteThrough
                                                : spec_.write_policy;
  const bool write_back = policy == WritePolicy::WriteBack;
  const bool evict = !req.local && spec_.invalidate_on_write;
  AccessResult r;
  r.line_addr = line;

  std::optional<uint32_t> way = tags_.find(set, line);
  if (way) {
    if (policy_.window.bytes) on_hit_property(set, *way, property_of(line));
    CacheLine& l = tags_.at(set, *way);
    ++stats_.write_hits;
    if (req.fabric) {
      stats_.fabric_sectors += popcount(mask);
      stats_.fabric_sector_hits += popcount(mask & l.valid);
    } else {
      stats_.sector_writes += popcount(mask);
      stats_.sector_write_hits += popcount(mask & l.valid);
    }
    if (write_back) {
      l.valid |= mask;
      l.dirty |= mask;
      tags_.touch(set, *way);
    } else {
      r.forward_mask = mask;
      if (evict) {
        if (l.reserved) {
          l.evict_after_fill = true;  // the outstanding fill still serves its waiters
        } else {
          drop(set, *way, mask, &r);
        }
      } else {
        l.valid |= mask;
        l.dirty &= ~mask;  // the level below now has these sectors
        tags_.touch(set, *way);
      }
    }
    stats_.forwarded_write_sectors += popcount(r.forward_mask);
    r.status = AccessStatus::Hit;
    r.ready_cycle = now + spec_.hit_latency;
    return r;
  }

  // Write miss.
  if (spec_.write_allocate) {
    const AccessProperty prop = property_of(line);
    std::optional<uint32_t> v = victim_for(set, prop);
    if (v) {
      replace(set, *v, line, prop, r);
      CacheLine& l = tags_.at(set, *v);
      l.valid = mask;
      l.dirty = write_back ? mask : 0;
    } else if (write_back) {
      return fail(r, FailReason::NoVictim);  // nowhere to keep the dirty data: retry
    }
    // A write-through cache with every way reserved just forwards the write.
  }
  if (!write_back || !spec_.write_allocate) r.forward_mask = mask;
  ++stats_.write_misses;
  (req.fabric ? stats_.fabric_sectors : stats_.sector_writes) += popcount(mask);
  stats_.forwarded_write_sectors += popcount(r.forward_mask);
  r.status = AccessStatus::Miss;
  r.ready_cycle = now + spec_.hit_latency;
  return r;
}

void Cache::fill(uint64_t line_addr, uint32_t sector_mask, uint64_t now, std::vector<uint64_t>& ready) {
  pristine_ = tags_fresh_ = false;
  MshrEntry* e = mshr_.find(line_addr);
  if (!e)
    throw std::logic_error(fmt::format("Cache::fill: no outstanding miss for line 0x{:x}", line_addr));
  uint32_t set = index_(line_addr);
  std::optional<uint32_t> way = tags_.find(set, line_addr);
  if (!way) throw std::logic_error("Cache::fill: reserved line missing from the tag array");
  CacheLine& l = tags_.at(set, *way);
  sector_mask &= spec_.full_line_mask();
  l.valid |= sector_mask;
  e->pending &= ~sector_mask;
  stats_.fill_sectors += popcount(sector_mask);

  // Wake, in arrival order, every waiter whose sectors are all present.
  size_t kept = 0;
  for (size_t i = 0; i < e->waiters.size(); ++i) {
    const MshrWaiter& w = e->waiters[i];
    if ((w.mask & ~l.valid) == 0) {
      ready.push_back(w.id);
      if (w.type == AccessType::Atomic && spec_.write_policy == WritePolicy::WriteBack) l.dirty |= w.mask;
    } else {
      e->waiters[kept++] = w;
    }
  }
  e->waiters.resize(kept);

  if (e->pending == 0) {
    // Invariant: every waiter's sectors were valid or pending, so none is left.
    if (!e->waiters.empty()) throw std::logic_error("Cache::fill: waiters left with nothing pending");
    mshr_.release(*e);
    l.reserved = false;
    if (l.evict_after_fill) {
      // Keep dirty sectors (never lose data); drop the rest.
      l.evict_after_fill = false;
      l.valid &= l.dirty;
      if (l.valid == 0) {
        tags_.invalidate(set, *way);
        ++stats_.invalidations;
      }
    }
  }
}

std::vector<uint64_t> Cache::fill(uint64_t line_addr, uint32_t sector_mask, uint64_t now) {
  std::vector<uint64_t> ready;
  fill(line_addr, sector_mask, now, ready);
  return ready;
}

AccessResult Cache::read_filled(const CacheRequest& req, uint64_t line, uint32_t set) {
  const bool atomic = req.type == AccessType::Atomic;
  const bool write_back = spec_.write_policy == WritePolicy::WriteBack;
  const uint32_t want = req.sector_mask;
  AccessResult r;
  r.line_addr = line;
  const std::optional<uint32_t> way = tags_.find(set, line);
  const uint32_t valid = way ? tags_.at(set, *way).valid : 0;
  const uint32_t missing = want & ~valid;
  const uint32_t forward = (atomic && spec_.write_policy == WritePolicy::WriteThrough) ? want : 0;
  count_read_sectors(atomic, want, valid, 0);  // nothing is pending
  stats_.forwarded_write_sectors += popcount(forward);
  r.forward_mask = forward;
  if (missing == 0) {
    tags_.touch(set, *way);
    if (atomic && write_back) tags_.at(set, *way).dirty |= want;
    ++(atomic ? stats_.atomic_hits : stats_.read_hits);
    r.status = AccessStatus::Hit;
    r.ready_cycle = spec_.hit_latency;
    return r;
  }
  uint32_t w;
  if (way) {
    w = *way;
    tags_.touch(set, w);
  } else {
    const std::optional<uint32_t> v = tags_.victim(set);  // no line is reserved
    if (!v) throw std::logic_error("Cache::access_functional: no victim with nothing reserved");
    w = *v;
    replace(set, w, line, AccessProperty::Normal, r);
  }
  const uint32_t fetch = spec_.fetch_groups(missing) & ~valid;  // within the line, and not empty
  ++(atomic ? stats_.atomic_misses : stats_.read_misses);
  stats_.fetch_sectors += popcount(fetch);
  r.status = AccessStatus::Miss;
  r.fetch_mask = fetch;
  // fill(): the fetched sectors arrive and wake this access, its only waiter
  CacheLine& l = tags_.at(set, w);
  l.valid |= fetch;
  stats_.fill_sectors += popcount(fetch);
  if (atomic && write_back) l.dirty |= want;
  return r;
}

AccessResult Cache::access_functional(const CacheRequest& req) {
  if (req.type != AccessType::Write && !req.fabric && mshr_.used() == 0 && !policy_.window.bytes &&
      !properties_used_ && req.sector_mask != 0 && (req.sector_mask & ~spec_.full_line_mask()) == 0) {
    pristine_ = tags_fresh_ = false;
    last_fail_ = FailReason::None;
    const uint64_t line = spec_.line_addr(req.addr);
    return read_filled(req, line, index_(line));
  }
  AccessResult r = access(req, 0);
  if (r.status == AccessStatus::ReservationFail)
    throw std::logic_error("Cache::access_functional: reservation failed with immediate fills");
  if (r.status == AccessStatus::Miss && r.fetch_mask) {
    scratch_.clear();
    fill(r.line_addr, r.fetch_mask, 0, scratch_);
  }
  return r;
}

std::vector<Writeback> Cache::flush() {
  pristine_ = tags_fresh_ = false;
  if (mshr_.used() != 0) throw std::logic_error("Cache::flush with misses outstanding");
  std::vector<Writeback> out;
  for (uint32_t s = 0; s < tags_.sets(); ++s) {
    for (uint32_t w = 0; w < tags_.ways(); ++w) {
      CacheLine& l = tags_.at(s, w);
      if (!l.allocated) continue;
      if (l.dirty) {
        out.push_back({l.line_addr, l.dirty});
        ++stats_.writebacks;
        stats_.writeback_sectors += popcount(l.dirty);
      }
      tags_.invalidate(s, w);
    }
  }
  return out;
}

void Cache::invalidate_all() {
  if (mshr_.used() != 0) throw std::logic_error("Cache::invalidate_all with misses outstanding");
  // Tags nothing has touched since they were made are already what this makes (the timed
  // L1s of SMs the last launch gave no block: most of them in a small launch).
  if (!tags_fresh_) tags_ = CacheTags(spec_);
  tags_fresh_ = true;
}

const CacheLine* Cache::find_line(uint64_t addr) const {
  uint64_t line = spec_.line_addr(addr);
  uint32_t set = index_(line);
  std::optional<uint32_t> way = tags_.find(set, line);
  return way ? &tags_.at(set, *way) : nullptr;
}

uint32_t Cache::present_sectors(uint64_t addr) const {
  const CacheLine* l = find_line(addr);
  return l ? l->valid : 0;
}

uint32_t Cache::dirty_sectors(uint64_t addr) const {
  const CacheLine* l = find_line(addr);
  return l ? l->dirty : 0;
}

bool Cache::has_pending_miss(uint64_t addr) const { return mshr_.find(spec_.line_addr(addr)) != nullptr; }

}  // namespace warpsim::mem
