// One cache instance (the L1 of one SM, or one L2 slice): tags with sector masks, MSHRs
// that merge misses to the same line, and the write policy. A passive component: its owner
// calls access() when a request arrives and fill() when data comes back from below, and
// sends to the level below whatever the results ask for (fetches, forwarded writes,
// writebacks). Nothing is queued inside and nothing is dropped: a request that cannot be
// accepted gets ReservationFail and must be retried later, with no state changed.
//
// Functional mode (no timing): call access_functional(), which fills a miss at once, so
// hit/miss counts and traffic are those of an infinitely fast level below.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/memory/cache_mshr.hpp"
#include "sim/memory/cache_spec.hpp"
#include "sim/memory/cache_stats.hpp"
#include "sim/memory/cache_tags.hpp"
#include "sim/memory/set_index.hpp"

namespace warpsim::mem {

enum class AccessStatus : uint8_t {
  Hit,               // all requested sectors present (reads); tag present (writes)
  HitOnPendingMiss,  // merged into the line's MSHR; fill() will return the id
  Miss,              // reads: MSHR allocated, fetch `fetch_mask` (may be 0 for a write miss)
  ReservationFail,   // MSHRs full, merge limit, or every way of the set reserved: retry later
};
const char* access_status_name(AccessStatus s);

struct CacheRequest {
  uint64_t addr = 0;          // any byte address in the line
  uint32_t sector_mask = 0;   // sectors of that line touched (bit i = sector i); non-zero
  AccessType type = AccessType::Read;
  bool local = false;         // local memory: writes follow spec.local_write_policy and
                              // are never evicted by invalidate_on_write
  uint64_t id = 0;            // returned by fill() when a missed/merged read completes
  bool fabric = false;        // from another L2 partition's copy: counted in fabric_* only
  bool write_through = false; // this write keeps the line clean and is forwarded below
};

struct Writeback {
  uint64_t line_addr = 0;
  uint32_t sector_mask = 0;   // the dirty sectors to write below
};

struct AccessResult {
  AccessStatus status = AccessStatus::Miss;
  uint64_t line_addr = 0;
  uint32_t fetch_mask = 0;    // sectors the caller must read from below for line_addr
  uint32_t forward_mask = 0;  // sectors the caller must write below (write-through, no-allocate)
  std::optional<Writeback> writeback;  // a dirty line this access evicted: write it below
  uint64_t ready_cycle = 0;   // Hit: cycle the data (or write ack) is ready = now + hit_latency
};

enum class FailReason : uint8_t { None, MshrFull, MergeLimit, NoVictim };

class Cache {
 public:
  explicit Cache(const CacheSpec& spec);  // an address index function (not slice_xor)
  Cache(const CacheSpec& spec, SetIndex index);  // an L2 slice: any index function

  // One request at cycle `now`. Reads and atomics need their sectors present; writes are
  // handled at sector granularity (write-validate: a write never fetches).
  AccessResult access(const CacheRequest& req, uint64_t now);

  // Data for `sector_mask` of line_addr arrived from below. Appends to `ready` the ids of
  // the waiting requests whose sectors are now all present, in arrival order; frees the
  // MSHR once nothing is pending. Throws std::logic_error if no miss is outstanding.
  void fill(uint64_t line_addr, uint32_t sector_mask, uint64_t now, std::vector<uint64_t>& ready);
  std::vector<uint64_t> fill(uint64_t line_addr, uint32_t sector_mask, uint64_t now);

  // access() then, on a miss, an immediate fill of the fetched sectors. Never fails. Reads
  // and atomics with no miss outstanding and no access policy take a shortcut without the
  // MSHR, with the same results (tests/420_cache/functional_access_test.cpp).
  AccessResult access_functional(const CacheRequest& req);
  // A hint that addr's line is about to be accessed (CacheTags::prefetch); no effect on
  // any result.
  void prefetch(uint64_t addr) const { tags_.prefetch(index_(spec_.line_addr(addr))); }

  // Write back every dirty line and invalidate everything (Fermi flushes L1 between
  // kernels). Throws std::logic_error while misses are outstanding.
  std::vector<Writeback> flush();
  // Drop every line without writing anything back and forget the replacement order: the
  // state of a new cache. An L1 at a kernel's start (its local lines are dead, its global
  // stores were written through). Throws std::logic_error while misses are outstanding.
  void invalidate_all();
  // Counting starts again from zero (a new launch on caches that keep their contents).
  void reset_stats() { stats_ = CacheStats{}; }
  // L2 access control for the accesses from now on (l2_access_policy.hpp); the default
  // policy (no window, no set-aside) leaves every line normal. Lines keep the property they
  // were given until evicted or demoted.
  void set_access_policy(const L2AccessPolicy& p) {
    policy_ = p;
    pristine_ = false;
  }
  // cudaCtxResetPersistingL2Cache: every persisting line becomes normal.
  void demote_persisting();

  // Inspection (tests, traces). Sectors of addr's line present now; 0 when absent.
  uint32_t present_sectors(uint64_t addr) const;
  uint32_t dirty_sectors(uint64_t addr) const;
  bool has_pending_miss(uint64_t addr) const;
  uint32_t mshrs_in_use() const { return mshr_.used(); }
  FailReason last_fail_reason() const { return last_fail_; }

  const CacheSpec& spec() const { return spec_; }
  // Nothing has changed it since it was made: it is what Cache(spec) would make now.
  bool pristine() const { return pristine_; }
  const CacheStats& stats() const { return stats_; }

 private:
  AccessResult read_like(const CacheRequest& req, uint64_t line, uint32_t set, uint64_t now);
  // The sector counts of a read or atomic from an SM (not the fabric): `valid` present,
  // `pending` already being fetched by a miss of the line.
  void count_read_sectors(bool atomic, uint32_t want, uint32_t valid, uint32_t pending);
  // access_functional() of a read or atomic where no miss is outstanding and no access
  // policy is in use: what read_like() and the fill would do, without the MSHR.
  AccessResult read_filled(const CacheRequest& req, uint64_t line, uint32_t set);
  AccessResult write(const CacheRequest& req, uint64_t line, uint32_t set, uint64_t now);
  AccessResult fail(AccessResult r, FailReason why);
  // Put `line` into `way` of `set` with property `prop` (property_of), evicting what is
  // there (a dirty victim -> r.writeback).
  void replace(uint32_t set, uint32_t way, uint64_t line, AccessProperty prop, AccessResult& r);
  // Drop the line at (set, way); dirty sectors outside `superseded` are written back.
  void drop(uint32_t set, uint32_t way, uint32_t superseded, AccessResult* r);
  const CacheLine* find_line(uint64_t addr) const;
  // The way a new line of `set` with property `prop` goes to (CacheTags::victim).
  std::optional<uint32_t> victim_for(uint32_t set, AccessProperty prop) const;
  // The property an access to `line` gives it (normal without a window), and what a hit
  // does with it: a persisting access makes the line persisting while the set has room.
  AccessProperty property_of(uint64_t line) const;
  void on_hit_property(uint32_t set, uint32_t way, AccessProperty prop);

  CacheSpec spec_;
  SetIndex index_;
  CacheTags tags_;
  MshrTable mshr_;
  CacheStats stats_;
  FailReason last_fail_ = FailReason::None;
  L2AccessPolicy policy_;
  bool properties_used_ = false;  // a line was ever given a property other than normal
  bool pristine_ = true;          // no access, fill, flush, demotion or policy since it was made
  bool tags_fresh_ = true;        // the tags are what CacheTags(spec_) makes (no access, fill, ...)
  std::vector<uint64_t> scratch_;
};

}  // namespace warpsim::mem
