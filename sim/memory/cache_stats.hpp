// Counters of one cache instance. Requests that got ReservationFail count only in
// reservation_fails (their retry counts once, when it is accepted).
//
// nvprof names (docs/memory-hierarchy.md): l1_hit_rate = read_hit_rate() of the L1s (global
// loads); l2_hit_rate = sector_hit_rate() over the L2 slices; l2_read_transactions =
// sector_reads and l2_write_transactions = sector_writes summed over the slices (32-byte units).
// Nsight Compute's ratios: l1_sector_hit_rate and l2_read_hit_rate = sector_read_tag_hits /
// sector_reads of the L1s and of the L2 slices.
#pragma once
#include <cstdint>

namespace warpsim::mem {

struct CacheStats {
  // Requests, by outcome.
  uint64_t read_hits = 0, read_misses = 0, read_merged = 0;  // merged = HitOnPendingMiss
  uint64_t write_hits = 0, write_misses = 0;
  uint64_t atomic_hits = 0, atomic_misses = 0, atomic_merged = 0;
  uint64_t reservation_fails = 0;
  uint64_t fail_mshr_full = 0, fail_merge_limit = 0, fail_no_victim = 0;

  // Sectors of accepted requests, and how many of them were present on arrival.
  uint64_t sector_reads = 0, sector_read_hits = 0;
  uint64_t sector_writes = 0, sector_write_hits = 0;
  uint64_t sector_atomics = 0, sector_atomic_hits = 0;
  // Read sectors whose line was present with them valid or already being fetched (a pending
  // miss's): Nsight Compute's "lookup hit", which counts a tag hit on a sector in flight.
  uint64_t sector_read_tag_hits = 0;

  // Traffic with the level below.
  uint64_t fetch_sectors = 0;            // sectors requested by misses
  uint64_t fill_sectors = 0;             // sectors delivered by fill()
  uint64_t forwarded_write_sectors = 0;  // write-through / no-allocate writes sent below
  uint64_t writebacks = 0, writeback_sectors = 0;  // dirty lines (sectors) sent below
  uint64_t evictions = 0;                // allocated lines replaced by a new line
  uint64_t invalidations = 0;            // lines dropped by invalidate_on_write

  // A partitioned L2 (docs/memory-hierarchy.md, "L2 partitions"): sectors of requests from
  // another partition's copy of a line (its misses and its writes), and of those the ones
  // present here. Not in the sector counts above, which are the SMs' own.
  uint64_t fabric_sectors = 0, fabric_sector_hits = 0;

  uint64_t reads() const { return read_hits + read_misses + read_merged; }
  // Read requests that found all their sectors present. A merged miss is not a hit.
  double read_hit_rate() const { return ratio(read_hits, reads()); }
  // Sector-level hit rate over reads, writes and atomics (the nvprof L2 definition).
  double sector_hit_rate() const {
    return ratio(sector_read_hits + sector_write_hits + sector_atomic_hits,
                 sector_reads + sector_writes + sector_atomics);
  }

  CacheStats& operator+=(const CacheStats& o);

 private:
  static double ratio(uint64_t a, uint64_t b) { return b ? double(a) / double(b) : 0.0; }
};

inline CacheStats& CacheStats::operator+=(const CacheStats& o) {
  read_hits += o.read_hits; read_misses += o.read_misses; read_merged += o.read_merged;
  write_hits += o.write_hits; write_misses += o.write_misses;
  atomic_hits += o.atomic_hits; atomic_misses += o.atomic_misses; atomic_merged += o.atomic_merged;
  reservation_fails += o.reservation_fails;
  fail_mshr_full += o.fail_mshr_full; fail_merge_limit += o.fail_merge_limit;
  fail_no_victim += o.fail_no_victim;
  sector_reads += o.sector_reads; sector_read_hits += o.sector_read_hits;
  sector_read_tag_hits += o.sector_read_tag_hits;
  sector_writes += o.sector_writes; sector_write_hits += o.sector_write_hits;
  sector_atomics += o.sector_atomics; sector_atomic_hits += o.sector_atomic_hits;
  fetch_sectors += o.fetch_sectors; fill_sectors += o.fill_sectors;
  forwarded_write_sectors += o.forwarded_write_sectors;
  writebacks += o.writebacks; writeback_sectors += o.writeback_sectors;
  fabric_sectors += o.fabric_sectors; fabric_sector_hits += o.fabric_sector_hits;
  evictions += o.evictions; invalidations += o.invalidations;
  return *this;
}

}  // namespace warpsim::mem
