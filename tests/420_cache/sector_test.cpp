// Sector masks: a 128-byte line of four 32-byte sectors; hits need the sectors present,
// misses fetch only the missing sectors, and L2 transactions count 32-byte sectors.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "cache_test_util.hpp"

using namespace warpsim::mem;
using namespace warpsim::mem::test;

TEST_CASE("sector_mask covers exactly the sectors a byte range touches", "[cache][sector]") {
  CacheSpec s = tiny_spec(4, 2);
  CHECK(s.sectors_per_line() == 4);
  CHECK(s.full_line_mask() == 0xF);
  CHECK(s.sector_mask(0x100, 4) == 0b0001);
  CHECK(s.sector_mask(0x120, 32) == 0b0010);
  CHECK(s.sector_mask(0x11C, 8) == 0b0011);   // straddles sectors 0 and 1
  CHECK(s.sector_mask(0x100, 128) == 0b1111);
  CHECK(s.sector_mask(0x17F, 1) == 0b1000);
  CHECK(s.line_addr(0x17F) == 0x100);
  CHECK_THROWS_AS(s.sector_mask(0x170, 32), std::invalid_argument);  // crosses into the next line
  CHECK_THROWS_AS(s.sector_mask(0x100, 0), std::invalid_argument);
}

TEST_CASE("a hit needs every requested sector, a sector miss keeps the line", "[cache][sector]") {
  Cache c(tiny_spec(4, 2));
  const uint64_t A = 0x200;

  AccessResult r = c.access(read(A, 0b0001, 1), 0);  // a 32-byte .cg-style request
  CHECK(r.status == AccessStatus::Miss);
  CHECK(r.fetch_mask == 0b0001);
  CHECK(c.fill(A, 0b0001, 5) == std::vector<uint64_t>{1});
  CHECK(c.present_sectors(A) == 0b0001);

  CHECK(c.access(read(A, 0b0001, 2), 6).status == AccessStatus::Hit);
  AccessResult r3 = c.access(read(A, 0b0011, 3), 7);
  CHECK(r3.status == AccessStatus::Miss);
  CHECK(r3.fetch_mask == 0b0010);          // only the missing sector
  CHECK_FALSE(r3.writeback.has_value());
  CHECK(c.stats().evictions == 0);         // the line stayed where it was
  CHECK(c.fill(A, 0b0010, 9) == std::vector<uint64_t>{3});
  CHECK(c.access(read(A, 0b0011, 4), 10).status == AccessStatus::Hit);

  // 32-byte units: 1 + 1 + 2 + 2 sectors read, 1 + 2 + 2 of them present on arrival.
  CHECK(c.stats().sector_reads == 6);
  CHECK(c.stats().sector_read_hits == 1 + 1 + 2);
  CHECK(c.stats().fetch_sectors == 2);
  CHECK(c.stats().fill_sectors == 2);
}

TEST_CASE("merging with sectors: fetch only what is not pending, partial fills wake whom they can",
          "[cache][sector][mshr]") {
  Cache c(tiny_spec(4, 2));
  const uint64_t A = 0x400;
  AccessResult a = c.access(read(A, 0b0100, 10), 0);
  CHECK(a.status == AccessStatus::Miss);
  CHECK(a.fetch_mask == 0b0100);
  AccessResult b = c.access(read(A, 0b1100, 11), 1);
  CHECK(b.status == AccessStatus::Miss);   // merged into A's MSHR but needs sector 3 too
  CHECK(b.fetch_mask == 0b1000);
  AccessResult d = c.access(read(A, 0b1000, 12), 2);
  CHECK(d.status == AccessStatus::HitOnPendingMiss);
  CHECK(c.mshrs_in_use() == 1);

  CHECK(c.fill(A, 0b0100, 20) == std::vector<uint64_t>{10});
  CHECK(c.has_pending_miss(A));
  CHECK(c.fill(A, 0b1000, 21) == std::vector<uint64_t>{11, 12});
  CHECK_FALSE(c.has_pending_miss(A));
  CHECK(c.present_sectors(A) == 0b1100);
  CHECK(c.stats().read_misses == 2);
  CHECK(c.stats().read_merged == 1);
}

TEST_CASE("a full-line request moves four sectors, a .cg request one", "[cache][sector]") {
  // The L2 counts transactions in 32-byte sectors (nvprof l2_read_transactions).
  Cache l2(tiny_spec(4, 2));
  l2.access_functional(read(0x000, 0xF));  // 128-byte line request from an L1 miss
  l2.access_functional(read(0x080, 0x2));  // 32-byte ld.global.cg
  l2.access_functional(read(0x000, 0xF));  // hit
  CHECK(l2.stats().sector_reads == 4 + 1 + 4);
  CHECK(l2.stats().fetch_sectors == 4 + 1);
  CHECK(l2.stats().sector_read_hits == 4);
  CHECK(l2.stats().sector_hit_rate() == Approx(4.0 / 9.0));
}

TEST_CASE("fetch_bytes 64: a miss fetches the aligned sector pairs it touches, less what is there or coming",
          "[cache][sector][fetch]") {
  CacheSpec s = tiny_spec(4, 2);
  s.fetch_bytes = 64;
  CHECK(s.fetch_groups(0b0001) == 0b0011);
  CHECK(s.fetch_groups(0b0100) == 0b1100);
  CHECK(s.fetch_groups(0b0110) == 0b1111);
  Cache c(s);
  const uint64_t A = 0x200;
  AccessResult r = c.access(read(A, 0b0010, 1), 0);  // one word in sector 1
  CHECK(r.status == AccessStatus::Miss);
  CHECK(r.fetch_mask == 0b0011);                     // the pair 0-1 (the H100 reads 64 bytes)
  // Sector 0 is on its way: merged, nothing more to fetch, counted as a tag hit.
  CHECK(c.access(read(A, 0b0001, 2), 1).status == AccessStatus::HitOnPendingMiss);
  // Sectors 1-2: 1 is coming, 2's pair (2-3) is fetched.
  AccessResult r3 = c.access(read(A, 0b0110, 3), 2);
  CHECK(r3.status == AccessStatus::Miss);
  CHECK(r3.fetch_mask == 0b1100);
  CHECK(c.fill(A, 0b0011, 5) == std::vector<uint64_t>{1, 2});
  CHECK(c.fill(A, 0b1100, 6) == std::vector<uint64_t>{3});
  CHECK(c.present_sectors(A) == 0b1111);
  CHECK(c.stats().fetch_sectors == 4);
  CHECK(c.stats().sector_reads == 1 + 1 + 2);
  CHECK(c.stats().sector_read_tag_hits == 1 + 1);  // sector 0 (coming), sector 1 (coming)

  // A written sector is present: a miss beside it fetches only the other half of the pair.
  const uint64_t B = 0x600;
  c.access(write(B, 0b0100), 10);
  AccessResult w = c.access(read(B, 0b1000, 4), 11);
  CHECK(w.status == AccessStatus::Miss);
  CHECK(w.fetch_mask == 0b1000);
}
