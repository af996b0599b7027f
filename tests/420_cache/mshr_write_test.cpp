// MSHR merging and back-pressure, write policies, atomics and flush.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "cache_test_util.hpp"

using namespace warpsim::mem;
using namespace warpsim::mem::test;

namespace {
constexpr uint32_t kFull = 0xF;
constexpr uint64_t A = 0x000, B = 0x080, C = 0x100;  // three lines in different sets (4 sets)
}  // namespace

TEST_CASE("MSHR: a second miss to the same line merges, limits give ReservationFail", "[cache][mshr]") {
  CacheSpec s = tiny_spec(4, 2);
  s.mshr_entries = 2;
  s.mshr_max_merge = 2;
  Cache c(s);

  AccessResult r1 = c.access(read(A, kFull, 1), 100);
  CHECK(r1.status == AccessStatus::Miss);
  CHECK(r1.fetch_mask == kFull);
  CHECK(r1.line_addr == A);

  AccessResult r2 = c.access(read(A + 4, 0x1, 2), 101);
  CHECK(r2.status == AccessStatus::HitOnPendingMiss);
  CHECK(r2.fetch_mask == 0);  // already requested: no second downstream request

  AccessResult r3 = c.access(read(A, kFull, 3), 102);
  CHECK(r3.status == AccessStatus::ReservationFail);  // two requests already wait on A
  CHECK(c.last_fail_reason() == FailReason::MergeLimit);

  CHECK(c.access(read(B, kFull, 4), 103).status == AccessStatus::Miss);
  CHECK(c.mshrs_in_use() == 2);
  AccessResult r5 = c.access(read(C, kFull, 5), 104);
  CHECK(r5.status == AccessStatus::ReservationFail);  // both MSHRs in use
  CHECK(c.last_fail_reason() == FailReason::MshrFull);
  CHECK(c.mshrs_in_use() == 2);                       // failures change nothing
  CHECK_FALSE(c.has_pending_miss(C));

  CHECK(c.stats().read_misses == 2);
  CHECK(c.stats().read_merged == 1);
  CHECK(c.stats().reservation_fails == 2);
  CHECK(c.stats().fail_merge_limit == 1);
  CHECK(c.stats().fail_mshr_full == 1);
  CHECK(c.stats().sector_reads == 4 + 1 + 4);  // failed requests are not counted

  // The fill returns both waiting ids, in arrival order, and frees the MSHR.
  CHECK(c.fill(A, kFull, 200) == std::vector<uint64_t>{1, 2});
  CHECK(c.mshrs_in_use() == 1);
  AccessResult retry3 = c.access(read(A, kFull, 3), 201);
  CHECK(retry3.status == AccessStatus::Hit);
  CHECK(retry3.ready_cycle == 201 + 10);
  CHECK(c.access(read(C, kFull, 5), 202).status == AccessStatus::Miss);  // retry now accepted
  CHECK(c.fill(B, kFull, 300) == std::vector<uint64_t>{4});
  CHECK(c.fill(C, kFull, 301) == std::vector<uint64_t>{5});
  CHECK(c.mshrs_in_use() == 0);
}

TEST_CASE("a sector already being fetched is a lookup hit, not a present one", "[cache][mshr]") {
  Cache c(tiny_spec(4, 2));
  CHECK(c.access(read(A, 0x3, 1), 100).status == AccessStatus::Miss);  // sectors 0-1 fetched
  AccessResult r = c.access(read(A, kFull, 2), 101);                    // 0-1 pending, 2-3 not
  CHECK(r.status == AccessStatus::Miss);
  CHECK(r.fetch_mask == 0xC);
  CHECK(c.access(read(A + 32, 0x2, 3), 102).status == AccessStatus::HitOnPendingMiss);
  CHECK(c.stats().sector_reads == 7);
  CHECK(c.stats().sector_read_hits == 0);      // nothing was present
  CHECK(c.stats().sector_read_tag_hits == 3);  // 2 of the second read, 1 of the third
  c.fill(A, kFull, 150);
  CHECK(c.access(read(A, kFull, 4), 200).status == AccessStatus::Hit);
  CHECK(c.stats().sector_read_hits == 4);
  CHECK(c.stats().sector_read_tag_hits == 7);
}

TEST_CASE("ReservationFail when every way of the set waits for a fill", "[cache][mshr]") {
  Cache c(tiny_spec(1, 1));
  CHECK(c.access(read(A, kFull, 1), 0).status == AccessStatus::Miss);
  CHECK(c.access(read(B, kFull, 2), 1).status == AccessStatus::ReservationFail);
  CHECK(c.last_fail_reason() == FailReason::NoVictim);
  CHECK(c.stats().fail_no_victim == 1);
  c.fill(A, kFull, 5);
  CHECK(c.access(read(B, kFull, 2), 6).status == AccessStatus::Miss);  // A is evictable now
  CHECK(c.present_sectors(A) == 0);
}

TEST_CASE("fill without an outstanding miss is a caller bug", "[cache][mshr]") {
  Cache c(tiny_spec(4, 2));
  CHECK_THROWS_AS(c.fill(A, kFull, 0), std::logic_error);
  CHECK_THROWS_AS(c.access(read(A, 0), 0), std::invalid_argument);     // empty sector mask
  CHECK_THROWS_AS(c.access(read(A, 0x10), 0), std::invalid_argument);  // sector 4 of 4
}

TEST_CASE("write-back: a dirty victim produces a writeback of its dirty sectors", "[cache][write]") {
  Cache c(tiny_spec(1, 2));  // write-back, write-allocate
  AccessResult w = c.access(write(A, 0b0011), 0);
  CHECK(w.status == AccessStatus::Miss);
  CHECK(w.fetch_mask == 0);     // write-validate: no fetch
  CHECK(w.forward_mask == 0);   // kept in the cache
  CHECK(c.present_sectors(A) == 0b0011);
  CHECK(c.dirty_sectors(A) == 0b0011);

  c.access_functional(read(B, kFull));                 // set now [A B]
  AccessResult r = c.access_functional(read(C, kFull));  // evicts A (least recently used)
  REQUIRE(r.writeback.has_value());
  CHECK(r.writeback->line_addr == A);
  CHECK(r.writeback->sector_mask == 0b0011);
  CHECK(c.present_sectors(A) == 0);

  // Evicting a clean line writes nothing back.
  AccessResult r2 = c.access_functional(read(A, kFull));  // evicts B, clean
  CHECK_FALSE(r2.writeback.has_value());

  // A write hit dirties the line; flush writes it back and empties the cache.
  CHECK(c.access(write(C + 96, 0b1000), 1).status == AccessStatus::Hit);
  std::vector<Writeback> wb = c.flush();
  REQUIRE(wb.size() == 1);
  CHECK(wb[0].line_addr == C);
  CHECK(wb[0].sector_mask == 0b1000);
  CHECK(c.present_sectors(C) == 0);
  CHECK(c.stats().writebacks == 2);
  CHECK(c.stats().writeback_sectors == 3);
  CHECK(c.stats().write_hits == 1);
  CHECK(c.stats().write_misses == 1);
  CHECK(c.stats().sector_writes == 3);
}

TEST_CASE("write-back without write-allocate forwards a write miss", "[cache][write]") {
  CacheSpec s = tiny_spec(1, 2);
  s.write_allocate = false;
  Cache c(s);
  AccessResult w = c.access(write(A, 0b0100), 0);
  CHECK(w.status == AccessStatus::Miss);
  CHECK(w.forward_mask == 0b0100);
  CHECK(c.present_sectors(A) == 0);
  CHECK(c.stats().forwarded_write_sectors == 1);
}

TEST_CASE("write-through with invalidate (Fermi L1 global stores) leaves no line", "[cache][write]") {
  CacheSpec s = tiny_spec(4, 2);
  s.write_policy = WritePolicy::WriteThrough;
  s.local_write_policy = WritePolicy::WriteBack;
  s.write_allocate = false;
  s.invalidate_on_write = true;
  Cache c(s);

  c.access_functional(read(A, kFull));
  REQUIRE(c.present_sectors(A) == kFull);
  AccessResult w = c.access(write(A + 32, 0b0010), 1);
  CHECK(w.status == AccessStatus::Hit);
  CHECK(w.forward_mask == 0b0010);       // written through to L2
  CHECK_FALSE(w.writeback.has_value());
  CHECK(c.present_sectors(A) == 0);      // and evicted from L1
  CHECK(c.stats().invalidations == 1);

  AccessResult miss = c.access(write(B, kFull), 2);  // no write-allocate
  CHECK(miss.status == AccessStatus::Miss);
  CHECK(miss.forward_mask == kFull);
  CHECK(c.present_sectors(B) == 0);
  CHECK(c.stats().forwarded_write_sectors == 1 + 4);

  // Local memory is write-back in L1: a local write hit stays, dirty, not forwarded.
  c.access_functional(read(C, kFull));
  AccessResult lw = c.access(write(C, 0b0001, /*local=*/true), 3);
  CHECK(lw.status == AccessStatus::Hit);
  CHECK(lw.forward_mask == 0);
  CHECK(c.present_sectors(C) == kFull);
  CHECK(c.dirty_sectors(C) == 0b0001);
  // A local write miss (no write-allocate) goes below.
  CHECK(c.access(write(0x180, 0b0001, true), 4).forward_mask == 0b0001);
}

TEST_CASE("write-evict on a line still waiting for its fill drops it after the fill", "[cache][write]") {
  CacheSpec s = tiny_spec(4, 2);
  s.write_policy = WritePolicy::WriteThrough;
  s.write_allocate = false;
  s.invalidate_on_write = true;
  Cache c(s);
  CHECK(c.access(read(A, kFull, 7), 0).status == AccessStatus::Miss);
  AccessResult w = c.access(write(A, 0b0001), 1);
  CHECK(w.status == AccessStatus::Hit);
  CHECK(w.forward_mask == 0b0001);
  CHECK(c.fill(A, kFull, 50) == std::vector<uint64_t>{7});  // the waiting read is served
  CHECK(c.present_sectors(A) == 0);                          // then the line is gone
  CHECK(c.mshrs_in_use() == 0);
  CHECK(c.stats().invalidations == 1);
}

TEST_CASE("write-through without invalidate updates the line and forwards", "[cache][write]") {
  CacheSpec s = tiny_spec(4, 2);
  s.write_policy = WritePolicy::WriteThrough;
  s.write_allocate = true;
  Cache c(s);
  AccessResult w = c.access(write(A, 0b0001), 0);
  CHECK(w.status == AccessStatus::Miss);
  CHECK(w.forward_mask == 0b0001);
  CHECK(c.present_sectors(A) == 0b0001);
  CHECK(c.dirty_sectors(A) == 0);
  AccessResult h = c.access(write(A, 0b0011), 1);
  CHECK(h.status == AccessStatus::Hit);
  CHECK(h.forward_mask == 0b0011);
  CHECK(c.present_sectors(A) == 0b0011);
  CHECK(c.dirty_sectors(A) == 0);
  CHECK(c.stats().sector_write_hits == 1);  // sector 0 was present, sector 1 was not
}

TEST_CASE("atomics need their sectors like reads and dirty a write-back line", "[cache][atomic]") {
  Cache c(tiny_spec(4, 2));
  AccessResult m = c.access(atomic(A, 0b0001, 9), 0);
  CHECK(m.status == AccessStatus::Miss);
  CHECK(m.fetch_mask == 0b0001);
  CHECK(c.dirty_sectors(A) == 0);
  CHECK(c.fill(A, 0b0001, 10) == std::vector<uint64_t>{9});
  CHECK(c.dirty_sectors(A) == 0b0001);
  CHECK(c.access(atomic(A, 0b0001, 10), 11).status == AccessStatus::Hit);
  CHECK(c.stats().atomic_misses == 1);
  CHECK(c.stats().atomic_hits == 1);
  CHECK(c.stats().sector_atomics == 2);
  CHECK(c.stats().sector_reads == 0);
}

TEST_CASE("flush refuses to run with misses outstanding", "[cache]") {
  Cache c(tiny_spec(4, 2));
  c.access(read(A, kFull, 1), 0);
  CHECK_THROWS_AS(c.flush(), std::logic_error);
  c.fill(A, kFull, 1);
  CHECK(c.flush().empty());
}

TEST_CASE("an inconsistent hand-built spec is rejected", "[cache]") {
  CacheSpec s = tiny_spec(4, 2);
  s.size_bytes = 12345;
  CHECK_THROWS_AS(Cache(s), std::invalid_argument);
  s = tiny_spec(3, 2);  // 3 sets
  CHECK_THROWS_AS(Cache(s), std::invalid_argument);
}
