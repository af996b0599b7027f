#include "sim/memory/memory_counter.hpp"

#include <algorithm>
#include <bit>

#include "sim/memory/memory_path.hpp"
#include "sim/sm/shared_banks.hpp"

namespace warpsim {

using mem::AccessKind;
using mem::AccessType;

namespace {

// Whether every lane's address minus base equals the memo's delta (a full warp). Called for
// most shared accesses; the x86-64-v3 clone compares four lanes per instruction.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
bool full_warp_deltas_equal(const int64_t* delta, const uint64_t* addr, uint64_t base) {
  uint64_t diff = 0;
  for (int l = 0; l < isa::kWarpLanes; ++l) diff |= uint64_t(delta[l]) ^ (addr[l] - base);
  return diff == 0;
}

}  // namespace

MemoryCounter::MemoryCounter(const DeviceSpec& spec, LaunchStats& stats, uint32_t threads_per_block,
                             uint64_t grid_threads, bool model_caches, std::vector<mem::Cache>* kept_l2,
                             std::vector<mem::Cache>* reused_l1)
    : spec_(spec),
      stats_(stats),
      threads_per_block_(threads_per_block),
      grid_threads_(grid_threads),
      model_caches_(model_caches),
      l1_(reused_l1 ? *reused_l1 : own_l1_),
      l2_(kept_l2 ? *kept_l2 : own_l2_),
      tally_(stats, stats.per_pc.size(), spec.shared.bank_width - 1) {
  txns_.reserve(64);
  shared_memo_.resize(stats_.per_pc.size());
  global_memo_index_.assign(stats_.per_pc.size(), UINT32_MAX);
  memo_align_ = mem::largest_unit_bytes(spec_.coalescer);
  stats_.mem_valid = true;
  stats_.mem.has_l1 = spec_.has_l1;
  stats_.mem.has_l2 = spec_.has_l2;
  stats_.mem.l2_partitioned = spec_.has_l2 && spec_.l2.partitions > 1;
  if (!model_caches_) return;
  if (spec_.has_dram) map_ = std::make_shared<const mem::AddressMap>(spec_.dram);
  if (spec_.has_l1) {
    if (l1_.size() != spec_.sm.count) {
      l1_.clear();
      l1_.reserve(spec_.sm.count);
      for (uint32_t i = 0; i < spec_.sm.count; ++i) l1_.emplace_back(spec_.l1);
    } else {
      for (mem::Cache& c : l1_)
        if (!c.pristine()) c = mem::Cache(spec_.l1);
    }
  }
  if (spec_.has_l2) {
    if (l2_.empty()) {
      l2_.reserve(spec_.l2.slices);
      for (uint32_t i = 0; i < spec_.l2.slices; ++i) l2_.emplace_back(spec_.l2.slice, mem::l2_set_index(spec_, map_));
    }
    for (auto& slice : l2_) slice.reset_stats();
  }
  const uint64_t l1_ways = spec_.has_l1 ? uint64_t(spec_.sm.count) * spec_.l1.sets * spec_.l1.ways : 0;
  const uint64_t l2_ways = spec_.has_l2 ? uint64_t(spec_.l2.slices) * spec_.l2.slice.sets * spec_.l2.slice.ways : 0;
  const uint64_t tag_bytes = (l1_ways + l2_ways) * kTagBytesPerWay;
  prefetch_tags_ = tag_bytes > kPrefetchTagBytes;
}

void MemoryCounter::on_access(const mem::WarpMemAccess& a, const isa::Instr& in, uint32_t pc, uint32_t block,
                              uint32_t warp) {
  if (a.space == isa::Space::Shared) count_shared(a, pc);
  else count_global(a, pc, block, warp);
  last_trace_ = UINT32_MAX;
  if (!stats_.traces.empty()) record_trace(a, pc, block, warp);
}

void MemoryCounter::trace_warps(const std::vector<std::pair<uint32_t, uint32_t>>& block_warp, uint32_t limit) {
  trace_limit_ = limit;
  stats_.traces.clear();
  // A traced warp's loads need their records: the tally counts none from now on.
  if (!block_warp.empty()) tally_.forget_all();
  for (const auto& [b, w] : block_warp) {
    WarpTrace t;
    t.block = b;
    t.warp = w;
    stats_.traces.push_back(std::move(t));
  }
}

void MemoryCounter::record_trace(const mem::WarpMemAccess& a, uint32_t pc, uint32_t block, uint32_t warp) {
  for (uint32_t i = 0; i < stats_.traces.size(); ++i) {
    WarpTrace& t = stats_.traces[i];
    if (t.block != block || t.warp != warp) continue;
    if (t.records.size() >= trace_limit_) {
      ++t.dropped;
      return;
    }
    TraceRecord r;
    r.pc = pc;
    r.space = uint8_t(a.space);
    r.kind = uint8_t(a.kind);
    r.bytes_per_lane = uint8_t(a.bytes_per_lane());
    r.mask = a.mask;
    // Local accesses are traced with the per-thread offsets the program used.
    for (uint32_t m = a.mask; m; m &= m - 1) r.addrs.push_back(a.addr[std::countr_zero(m)]);
    if (a.space == isa::Space::Shared) {
      r.shared_passes = last_passes_;
      r.shared_degree = last_degree_;
    } else {
      for (const auto& x : txns_) r.transactions.push_back({x.addr, x.size, x.lanes, x.sectors});
    }
    t.records.push_back(std::move(r));
    last_trace_ = i;
    last_record_ = uint32_t(t.records.size() - 1);
    return;
  }
}

void MemoryCounter::count_shared(const mem::WarpMemAccess& a, uint32_t pc) {
  uint32_t passes, conflicts;
  SharedMemo* memo = pc < shared_memo_.size() ? &shared_memo_[pc] : nullptr;
  const uint32_t first = std::countr_zero(a.mask);
  // Word-aligned accesses keep their bank pattern under a uniform offset; others are
  // computed every time.
  // bank_width is a power of two (the config parser checks).
  const bool memo_ok = memo && (a.addr[first] & (spec_.shared.bank_width - 1)) == 0;
  bool hit = memo_ok && memo->valid && memo->mask == a.mask && memo->kind == uint8_t(a.kind) &&
             memo->bytes == a.bytes_per_lane();
  const uint64_t base = a.addr[first];
  // Equal pattern numbers (one executor feeds this counter) mean equal offsets.
  if (hit && !(a.pattern != 0 && memo->pattern == a.pattern)) {
    if (a.mask == 0xFFFFFFFFu) {
      hit = full_warp_deltas_equal(memo->delta, a.addr.data(), base);
    } else {
      for (uint32_t m = a.mask; m; m &= m - 1) {
        int l = std::countr_zero(m);
        if (memo->delta[l] != int64_t(a.addr[l] - base)) {
          hit = false;
          break;
        }
      }
    }
  }
  uint32_t degree;
  if (hit) {
    memo->pattern = a.pattern;
    passes = memo->passes;
    conflicts = memo->conflicts;
    degree = memo->degree;
  } else {
    sm::SharedPasses p = sm::shared_passes(spec_.shared, a);
    passes = p.passes;
    conflicts = p.conflicts();
    degree = p.max_degree;
    if (memo_ok) {
      memo->valid = true;
      memo->mask = a.mask;
      memo->kind = uint8_t(a.kind);
      memo->bytes = uint8_t(a.bytes_per_lane());
      memo->pattern = a.pattern;
      for (uint32_t m = a.mask; m; m &= m - 1) {
        int l = std::countr_zero(m);
        memo->delta[l] = int64_t(a.addr[l] - base);
      }
      memo->passes = passes;
      memo->conflicts = conflicts;
      memo->degree = degree;
    }
  }
  // The tally knows what the memo holds for a full warp's 32-bit loads (when no warp is traced).
  if (memo_ok) {
    if (memo->valid && memo->mask == 0xFFFFFFFFu && memo->kind == uint8_t(AccessKind::Load) && memo->bytes == 4 &&
        stats_.traces.empty())
      tally_.learn(pc, memo->pattern, memo->passes, memo->conflicts);
    else tally_.forget(pc);
  }
  add_shared_counts(a.kind, pc, passes, conflicts, degree);
}

void MemoryCounter::add_shared_counts(AccessKind kind, uint32_t pc, uint32_t passes, uint32_t conflicts,
                                      uint32_t degree) {
  last_passes_ = passes;
  last_degree_ = degree;
  if (kind != AccessKind::Store) {
    // Loads and shared atomics (an atomic reads before it writes).
    add_shared_load_counts(stats_, pc, passes, conflicts);
    return;
  }
  MemStats& m = stats_.mem;
  m.shared_store_transactions += passes;
  m.shared_store_bank_conflicts += conflicts;
  PcStats& ps = stats_.per_pc[pc];
  ++ps.requests;
  ps.transactions += passes;
}

void MemoryCounter::coalesce_full_warp(const mem::WarpMemAccess& a, uint32_t pc) {
  uint32_t& index = global_memo_index_[pc];
  if (index == UINT32_MAX) {
    index = uint32_t(global_memos_.size());
    global_memos_.emplace_back();
  }
  GlobalMemoPair& pair = global_memos_[index];
  const uint64_t a0 = a.addr[0];
  // Far from either end of the address space, so that no lane's address wraps.
  constexpr uint64_t kTop = uint64_t(1) << 62;
  for (const GlobalMemo& g : pair.slot) {
    if (!g.valid || g.kind != uint8_t(a.kind) || g.elem_bytes != a.elem_bytes || g.vec != a.vec ||
        g.cache != uint8_t(a.cache) || g.is_volatile != a.is_volatile || g.texture != a.texture ||
        ((a0 - g.lane0) & (memo_align_ - 1)) != 0 || a0 >= kTop || int64_t(a0) + g.min_delta < 0 ||
        !full_warp_deltas_equal(g.delta, a.addr.data(), a0))
      continue;
    const uint64_t shift = a0 - g.lane0;
    txns_.resize(g.txns.size());
    for (size_t i = 0; i < g.txns.size(); ++i) {
      txns_[i] = g.txns[i];
      txns_[i].addr += shift;
    }
    return;
  }
  mem::coalesce(spec_.coalescer, a, txns_);
  GlobalMemo& g = pair.slot[pair.next];
  uint64_t all = 0;
  g.min_delta = 0;
  for (int l = 0; l < isa::kWarpLanes; ++l) {
    all |= a.addr[l];
    g.delta[l] = int64_t(a.addr[l] - a0);
    g.min_delta = std::min(g.min_delta, g.delta[l]);
  }
  g.valid = all < kTop;
  if (!g.valid) return;
  pair.next ^= 1;
  g.kind = uint8_t(a.kind);
  g.elem_bytes = a.elem_bytes;
  g.vec = a.vec;
  g.cache = uint8_t(a.cache);
  g.is_volatile = a.is_volatile;
  g.texture = a.texture;
  g.lane0 = a0;
  g.txns.assign(txns_.begin(), txns_.end());
}

void MemoryCounter::count_global(const mem::WarpMemAccess& acc, uint32_t pc, uint32_t block, uint32_t warp) {
  const mem::WarpMemAccess* a = &acc;
  if (acc.space == isa::Space::Local) {
    // Local offsets become interleaved device addresses before coalescing.
    local_view_ = acc;
    const uint64_t first = uint64_t(block) * threads_per_block_ + uint64_t(warp) * spec_.sm.warp_size;
    for (uint32_t m = acc.mask; m; m &= m - 1) {
      int l = std::countr_zero(m);
      local_view_.addr[l] = mem::local_device_address(first + l, grid_threads_, acc.addr[l], acc.elem_bytes);
    }
    a = &local_view_;
  }
  const bool local = a->space == isa::Space::Local;
  if (!local && a->mask == 0xFFFFFFFFu && pc < global_memo_index_.size()) coalesce_full_warp(*a, pc);
  else mem::coalesce(spec_.coalescer, *a, txns_);
  const uint64_t n = txns_.size();
  uint64_t moved = 0;
  for (const auto& t : txns_) moved += t.size;
  const uint64_t asked = uint64_t(std::popcount(a->mask)) * a->bytes_per_lane();
  MemStats& m = stats_.mem;
  if (a->texture) m.tex_transactions += n;
  else switch (a->kind) {
    case AccessKind::Load:
      if (local) m.local_load_transactions += n;
      else {
        m.gld_transactions += n;
        m.gld_bytes_requested += asked;
        m.gld_bytes_transferred += moved;
      }
      break;
    case AccessKind::Store:
      if (local) m.local_store_transactions += n;
      else {
        m.gst_transactions += n;
        m.gst_bytes_requested += asked;
        m.gst_bytes_transferred += moved;
      }
      break;
    case AccessKind::Atomic: m.atomic_transactions += n; break;
  }
  PcStats& ps = stats_.per_pc[pc];
  ++ps.requests;
  ps.transactions += n;
  if ((!model_caches_ && !cache_log_) || (!spec_.has_l1 && !spec_.has_l2)) return;
  mem::CacheAccess ca;
  ca.sm = block % spec_.sm.count;
  if (block_order_ && !block_order_->empty()) ca.sm = (*block_order_)[ca.sm];
  ca.transactions = uint32_t(txns_.size());
  ca.kind = a->kind;
  ca.use_l1 = spec_.has_l1 && (a->kind == AccessKind::Store || mem::l1_caches_load(spec_, *a));
  ca.local = local;
  if (cache_log_) cache_log_->push(ca, txns_.data(), uint32_t(txns_.size()));
  else if (replay_) replay_->push(ca, txns_);
  else {
    pending_.push(ca, txns_.data(), uint32_t(txns_.size()));
    if (pending_.accesses.size() >= kPendingAccesses) apply_pending();
  }
}

MemoryCounter::~MemoryCounter() {
  try {
    apply_pending();
  } catch (...) {
    // Unwinding a launch: its error is the one reported.
  }
}

void MemoryCounter::apply_pending() {
  if (pending_.accesses.empty()) return;
  apply_in_order(pending_);
  pending_.clear();
}

void MemoryCounter::apply_in_order(const mem::CacheLog& log) {
  const std::vector<mem::CacheAccess>& acc = log.accesses;
  const mem::Transaction* t = log.txns.data();
  const mem::Transaction* ahead = t;
  // Small caches' tags stay in the host's caches: prefetching them only costs time.
  size_t next = prefetch_tags_ ? 0 : acc.size();  // the next access to prefetch
  for (size_t i = 0; i < acc.size(); ++i) {
    for (; next < acc.size() && next <= i + kLookahead; ++next) {
      prefetch_sets(acc[next], ahead);
      ahead += acc[next].transactions;
    }
    through_caches(acc[i], t);
    t += acc[i].transactions;
  }
}

void MemoryCounter::apply_cache_log(const mem::CacheLog& log) {
  if (!models_caches()) return;
  if (replay_) {
    log.for_each([&](const mem::CacheAccess& a, const mem::Transaction* t) { replay_->push(a, t, a.transactions); });
    return;
  }
  apply_pending();  // accesses of serial blocks before these come first
  apply_in_order(log);
}

void MemoryCounter::l2_access(uint64_t addr, uint32_t sectors, AccessType type, uint32_t sm) {
  if (!spec_.has_l2 || !sectors) return;
  const uint32_t home = mem::l2_slice_of(spec_, *map_, addr);
  const uint32_t at =
      spec_.l2.partitions == 1 ? home : mem::l2_slice_for(spec_, *map_, addr, sm, type == AccessType::Atomic);
  if (at == home) {
    l2_[home].access_functional({addr, sectors, type, false, 0});
    return;
  }
  // The SM's copy in its own partition (the timing model's rules, memory_partition_side.cpp):
  // what it misses is read from the home slice, what it is written goes through to it.
  mem::CacheRequest near{addr, sectors, type, false, 0};
  near.write_through = type == AccessType::Write;
  const mem::AccessResult r = l2_[at].access_functional(near);
  mem::CacheRequest far{addr, sectors, type, false, 0};
  far.fabric = true;
  if (type == AccessType::Write) {
    l2_[home].access_functional(far);
  } else if (r.status == mem::AccessStatus::Miss && r.fetch_mask) {
    far.addr = r.line_addr;
    far.sector_mask = r.fetch_mask;
    far.type = AccessType::Read;
    l2_[home].access_functional(far);
  }
}

void MemoryCounter::prefetch_sets(const mem::CacheAccess& a, const mem::Transaction* txns) const {
  const uint32_t line = spec_.has_l2 ? spec_.l2.slice.line_bytes : spec_.l1.line_bytes;
  uint64_t last = ~uint64_t(0);
  for (uint32_t i = 0; i < a.transactions; ++i) {
    const uint64_t addr = txns[i].addr, l = addr & ~uint64_t(line - 1);  // line: a power of two
    if (l == last) continue;
    last = l;
    if (a.use_l1) l1_[a.sm].prefetch(addr);
    if (!spec_.has_l2) continue;
    const uint32_t home = mem::l2_slice_of(spec_, *map_, addr);
    l2_[home].prefetch(addr);
    if (spec_.l2.partitions > 1) {
      const uint32_t at = mem::l2_slice_for(spec_, *map_, addr, a.sm, false);
      if (at != home) l2_[at].prefetch(addr);
    }
  }
}

void MemoryCounter::through_caches(const mem::CacheAccess& a, const mem::Transaction* txns) {
  const uint32_t sm = a.sm;
  const bool local = a.local;
  const bool use_l1 = a.use_l1;
  const uint32_t n = a.transactions;
  const uint32_t line = spec_.has_l2 ? spec_.l2.slice.line_bytes : spec_.l1.line_bytes;
  // issue.lsu_line_requests: a load's sectors of one line are one lookup, as in timing mode
  // (a sectored L1, or the L2 when the load goes around the L1).
  const mem::CacheSpec* joins = nullptr;
  if (spec_.issue.lsu_line_requests && a.kind == AccessKind::Load) {
    if (use_l1) joins = mem::l1_sectored(spec_) ? &spec_.l1 : nullptr;
    else if (spec_.has_l2) joins = &spec_.l2.slice;
  }
  for (uint32_t i = 0; i < n;) {
    if (joins) {
      uint32_t sectors = 0;
      const mem::Transaction& t = txns[i];
      auto next = [&](uint32_t k, uint64_t& addr, uint32_t& bytes) {
        addr = txns[i + k].addr;
        bytes = txns[i + k].size;
        return true;
      };
      const uint32_t left = n - i;
      i += mem::join_line_request(*joins, t.addr, t.size,
                                  std::min(spec_.issue.lsu_transactions_per_cycle, left), next, sectors);
      if (!use_l1) {
        l2_access(t.addr, sectors, AccessType::Read, sm);
        continue;
      }
      const mem::AccessResult r = l1_[sm].access_functional({t.addr, sectors, AccessType::Read, local, 0});
      if (spec_.has_l2) {
        if (r.fetch_mask)
          l2_access(r.line_addr, mem::l2_sectors_of_l1(spec_, r.line_addr, r.fetch_mask), AccessType::Read, sm);
        if (r.writeback)
          l2_access(r.writeback->line_addr, spec_.l2.slice.full_line_mask(), AccessType::Write, sm);
      }
      continue;
    }
    const mem::Transaction& t = txns[i++];
    // Split transactions at line boundaries (only "segments" transactions can cross one).
    for (uint64_t addr = t.addr; addr < t.addr + t.size;) {
      uint64_t line_end = (addr & ~uint64_t(line - 1)) + line;  // line: a power of two
      uint32_t bytes = uint32_t(std::min<uint64_t>(line_end, t.addr + t.size) - addr);
      if (a.kind == AccessKind::Atomic) {
        if (spec_.has_l2) l2_access(addr, spec_.l2.slice.sector_mask(addr, bytes), AccessType::Atomic, sm);
      } else if (use_l1) {
        mem::Cache& l1 = l1_[sm];
        AccessType type = a.kind == AccessKind::Store ? AccessType::Write : AccessType::Read;
        mem::AccessResult r = l1.access_functional({addr, spec_.l1.sector_mask(addr, bytes), type, local, 0});
        if (spec_.has_l2) {
          const mem::CacheSpec& l2s = spec_.l2.slice;
          // What the L1 asks of the L2 is expressed in L2 sectors of the bytes involved.
          if (r.fetch_mask) l2_access(r.line_addr, l2s.sector_mask(addr, bytes), AccessType::Read, sm);
          if (r.forward_mask) l2_access(addr, l2s.sector_mask(addr, bytes), AccessType::Write, sm);
          if (r.writeback)
            l2_access(r.writeback->line_addr, l2s.full_line_mask(), AccessType::Write, sm);
        }
      } else if (spec_.has_l2) {
        AccessType type = a.kind == AccessKind::Store ? AccessType::Write : AccessType::Read;
        l2_access(addr, spec_.l2.slice.sector_mask(addr, bytes), type, sm);
      }
      addr += bytes;
    }
  }
}

void MemoryCounter::replay_caches_on_thread() {
  if (!model_caches_ || (!spec_.has_l1 && !spec_.has_l2)) return;
  apply_pending();
  replay_ = std::make_unique<mem::CacheReplay>([this](const mem::CacheLog& log) { apply_in_order(log); });
}

void MemoryCounter::finish() {
  if (!model_caches_) return;
  if (replay_) replay_->drain();
  apply_pending();
  MemStats& m = stats_.mem;
  mem::CacheStats l1, l2;
  for (const auto& c : l1_) l1 += c.stats();
  for (const auto& c : l2_) l2 += c.stats();
  m.l1_hits = l1.read_hits;
  m.l1_misses = l1.read_misses + l1.read_merged;
  m.l2_hits = l2.sector_read_hits + l2.sector_write_hits + l2.sector_atomic_hits;
  m.l2_misses = l2.sector_reads + l2.sector_writes + l2.sector_atomics - m.l2_hits;
  m.l1_sectors = l1.sector_reads;
  m.l1_sector_hits = l1.sector_read_tag_hits;
  m.l2_read_sectors = l2.sector_reads;
  m.l2_read_sector_hits = l2.sector_read_tag_hits;
  m.l2_read_transactions = l2.sector_reads + l2.sector_atomics;
  m.l2_write_transactions = l2.sector_writes;
  m.l2_fabric_sectors = l2.fabric_sectors;
  m.l2_fabric_hits = l2.fabric_sector_hits;
}

}  // namespace warpsim
