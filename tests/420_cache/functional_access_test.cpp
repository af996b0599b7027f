// access_functional() takes a shortcut for reads and atomics (no MSHR: the line is filled at
// once). It must leave a cache exactly as access() followed by fill() of what it fetched does:
// the same result for every request, the same statistics and the same lines, on random
// request streams over small caches of each replacement policy and write policy.
#include <catch2/catch.hpp>

#include <random>

#include "tests/420_cache/cache_test_util.hpp"

using namespace warpsim::mem;
using namespace warpsim::mem::test;

namespace {

// What access_functional did before its shortcut: the timing model's steps.
AccessResult access_then_fill(Cache& c, const CacheRequest& req) {
  AccessResult r = c.access(req, 0);
  if (r.status == AccessStatus::Miss && r.fetch_mask) c.fill(r.line_addr, r.fetch_mask, 0);
  return r;
}

void check_same_stats(const CacheStats& a, const CacheStats& b) {
  CHECK(a.read_hits == b.read_hits);
  CHECK(a.read_misses == b.read_misses);
  CHECK(a.read_merged == b.read_merged);
  CHECK(a.write_hits == b.write_hits);
  CHECK(a.write_misses == b.write_misses);
  CHECK(a.atomic_hits == b.atomic_hits);
  CHECK(a.atomic_misses == b.atomic_misses);
  CHECK(a.atomic_merged == b.atomic_merged);
  CHECK(a.reservation_fails == b.reservation_fails);
  CHECK(a.sector_reads == b.sector_reads);
  CHECK(a.sector_read_hits == b.sector_read_hits);
  CHECK(a.sector_writes == b.sector_writes);
  CHECK(a.sector_write_hits == b.sector_write_hits);
  CHECK(a.sector_atomics == b.sector_atomics);
  CHECK(a.sector_atomic_hits == b.sector_atomic_hits);
  CHECK(a.sector_read_tag_hits == b.sector_read_tag_hits);
  CHECK(a.fetch_sectors == b.fetch_sectors);
  CHECK(a.fill_sectors == b.fill_sectors);
  CHECK(a.forwarded_write_sectors == b.forwarded_write_sectors);
  CHECK(a.writebacks == b.writebacks);
  CHECK(a.writeback_sectors == b.writeback_sectors);
  CHECK(a.evictions == b.evictions);
  CHECK(a.invalidations == b.invalidations);
}

}  // namespace

TEST_CASE("420: access_functional equals access and fill on random streams", "[cache][functional]") {
  std::mt19937_64 rng(20261130);
  for (const char* policy : {"lru", "fifo"})
    for (int variant = 0; variant < 4; ++variant) {
      CacheSpec s = tiny_spec(4, 4);
      s.replacement = policy;
      s.write_policy = variant & 1 ? WritePolicy::WriteThrough : WritePolicy::WriteBack;
      s.invalidate_on_write = variant == 3;
      s.fetch_bytes = variant >= 2 ? 64 : 32;  // a miss fetches pairs of sectors
      CAPTURE(policy, variant);
      Cache fast(s), slow(s);
      for (int i = 0; i < 5000; ++i) {
        const uint64_t addr = (rng() % 48) * 128 + (rng() % 4) * 32;  // 48 lines over 16 ways
        const uint32_t mask = uint32_t(1 + rng() % 15);
        const int kind = int(rng() % 8);
        const CacheRequest req = kind < 5 ? read(addr, mask) : kind < 7 ? atomic(addr, mask) : write(addr, mask);
        CAPTURE(i, addr, mask, kind);
        const AccessResult a = fast.access_functional(req), b = access_then_fill(slow, req);
        REQUIRE(a.status == b.status);
        REQUIRE(a.line_addr == b.line_addr);
        REQUIRE(a.fetch_mask == b.fetch_mask);
        REQUIRE(a.forward_mask == b.forward_mask);
        REQUIRE(a.ready_cycle == b.ready_cycle);
        REQUIRE(a.writeback.has_value() == b.writeback.has_value());
        if (a.writeback) {
          REQUIRE(a.writeback->line_addr == b.writeback->line_addr);
          REQUIRE(a.writeback->sector_mask == b.writeback->sector_mask);
        }
      }
      check_same_stats(fast.stats(), slow.stats());
      for (uint64_t line = 0; line < 48 * 128; line += 128) {
        CAPTURE(line);
        CHECK(fast.present_sectors(line) == slow.present_sectors(line));
        CHECK(fast.dirty_sectors(line) == slow.dirty_sectors(line));
      }
      CHECK(fast.mshrs_in_use() == 0);
      CHECK(slow.mshrs_in_use() == 0);
      // The streams did go through both paths of the shortcut, and through evictions.
      CHECK(fast.stats().read_hits > 0);
      CHECK(fast.stats().read_misses > 0);
      CHECK(fast.stats().atomic_misses > 0);
      CHECK(fast.stats().evictions > 0);
    }
}
