// L2 access control in one cache (sim/memory/l2_access_policy.hpp): persisting lines keep
// their share of a set against normal lines, replace each other past it, and become
// normal on a reset; streaming lines are evicted first; a hitRatio picks a stable share of
// a window's lines.
#include <catch2/catch.hpp>

#include "cache_test_util.hpp"
#include "sim/memory/l2_access_policy.hpp"

using namespace warpsim::mem;
using namespace warpsim::mem::test;

namespace {

// One set of four ways (addresses 128 bytes apart are lines of the same set).
bool present(const Cache& c, uint64_t addr) { return c.present_sectors(addr) != 0; }

AccessPolicyWindow window(uint64_t base, uint64_t bytes, AccessProperty hit, float ratio = 1.0f) {
  AccessPolicyWindow w;
  w.base = base;
  w.bytes = bytes;
  w.hit_ratio = ratio;
  w.hit = hit;
  w.miss = AccessProperty::Normal;
  return w;
}

}  // namespace

TEST_CASE("persisting lines keep their share of a set and streaming lines go first", "[cache][l2_access]") {
  SECTION("two persisting ways survive a stream of normal lines") {
    Cache c(tiny_spec(1, 4));
    c.set_access_policy({window(0, 2 * 128, AccessProperty::Persisting), 2});
    c.access_functional(read(0, 1));
    c.access_functional(read(128, 1));
    for (uint64_t a = 1024; a < 1024 + 32 * 128; a += 128) c.access_functional(read(a, 1));
    CHECK(present(c, 0));
    CHECK(present(c, 128));
    // After the reset they are normal lines: the next stream evicts them.
    c.demote_persisting();
    for (uint64_t a = 8192; a < 8192 + 4 * 128; a += 128) c.access_functional(read(a, 1));
    CHECK_FALSE(present(c, 0));
    CHECK_FALSE(present(c, 128));
  }
  SECTION("past its share a persisting line replaces the oldest persisting one, not a normal one") {
    Cache c(tiny_spec(1, 4));
    c.set_access_policy({window(0, 3 * 128, AccessProperty::Persisting), 2});
    c.access_functional(read(4096, 1));  // normal
    c.access_functional(read(8192, 1));  // normal: the set is full after the next two
    c.access_functional(read(0, 1));
    c.access_functional(read(128, 1));
    c.access_functional(read(256, 1));  // a third persisting line in a share of two
    CHECK(present(c, 4096));
    CHECK(present(c, 8192));
    CHECK_FALSE(present(c, 0));
    CHECK(present(c, 128));
    CHECK(present(c, 256));
  }
  SECTION("without a set-aside a persisting window is a normal one") {
    Cache c(tiny_spec(1, 4));
    c.set_access_policy({window(0, 128, AccessProperty::Persisting), 0});
    c.access_functional(read(0, 1));
    for (uint64_t a = 1024; a < 1024 + 4 * 128; a += 128) c.access_functional(read(a, 1));
    CHECK_FALSE(present(c, 0));
  }
  SECTION("streaming lines are evicted before older normal ones") {
    Cache c(tiny_spec(1, 4));
    c.set_access_policy({window(1 << 20, 1 << 20, AccessProperty::Streaming), 0});
    c.access_functional(read(0, 1));    // normal, oldest
    c.access_functional(read(128, 1));  // normal
    for (uint64_t a = 1 << 20; a < (1 << 20) + 16 * 128; a += 128) c.access_functional(read(a, 1));
    CHECK(present(c, 0));
    CHECK(present(c, 128));
  }
  SECTION("no window: the same victims as plain LRU") {
    Cache c(tiny_spec(1, 4));
    c.set_access_policy({AccessPolicyWindow{}, 2});
    for (uint64_t a = 0; a < 5 * 128; a += 128) c.access_functional(read(a, 1));
    CHECK_FALSE(present(c, 0));
    CHECK(present(c, 128));
  }
}

TEST_CASE("a hitRatio gives a stable share of a window's lines the hit property", "[cache][l2_access]") {
  const AccessPolicyWindow w = window(1 << 20, 1 << 30, AccessProperty::Persisting, 0.25f);
  uint32_t hits = 0;
  const uint32_t lines = 100000;
  for (uint64_t i = 0; i < lines; ++i) hits += line_property(w, (1 << 20) + i * 128) == AccessProperty::Persisting;
  CHECK(hits > lines / 4 - 1000);
  CHECK(hits < lines / 4 + 1000);
  CHECK(line_property(w, (1 << 20) + 128 * 7) == line_property(w, (1 << 20) + 128 * 7));  // per line, not per access
  CHECK(line_property(w, 0) == AccessProperty::Normal);                                    // outside the window
  CHECK(persisting_ways(39321600, 52428800, 10) == 7);
  CHECK(persisting_ways(32768000, 52428800, 10) == 6);  // the H100's maximum set-aside
  CHECK(persisting_ways(0, 52428800, 10) == 0);
  CHECK(persisting_ways(52428800, 52428800, 10) == 9);  // a normal line always has a way
}
