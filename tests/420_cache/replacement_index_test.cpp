// Replacement order, set indexing and a scripted hit/miss sequence worked out by hand.
#include <catch2/catch.hpp>

#include <set>

#include "cache_test_util.hpp"
#include "sim/foundation/error.hpp"
#include "sim/memory/replacement.hpp"

using namespace warpsim;
using namespace warpsim::mem;
using namespace warpsim::mem::test;

namespace {
constexpr uint32_t kFull = 0xF;  // four 32-byte sectors of a 128-byte line
// Line n of a one-set cache.
uint64_t L(uint64_t n) { return n * 128; }
}  // namespace

TEST_CASE("LRU evicts the least recently used way, hits refresh", "[cache][replacement]") {
  Cache c(tiny_spec(1, 4));
  for (uint64_t n : {0, 1, 2, 3}) REQUIRE(c.access_functional(read(L(n), kFull)).status == AccessStatus::Miss);
  // Use 0 again: recency order (oldest first) is now 1, 2, 3, 0.
  REQUIRE(c.access_functional(read(L(0), kFull)).status == AccessStatus::Hit);

  c.access_functional(read(L(4), kFull));  // evicts 1
  CHECK(c.present_sectors(L(1)) == 0);
  CHECK(c.present_sectors(L(0)) == kFull);
  c.access_functional(read(L(5), kFull));  // evicts 2
  CHECK(c.present_sectors(L(2)) == 0);
  c.access_functional(read(L(1), kFull));  // evicts 3
  CHECK(c.present_sectors(L(3)) == 0);
  c.access_functional(read(L(6), kFull));  // evicts 0 (last used before 4, 5, 1)
  CHECK(c.present_sectors(L(0)) == 0);
  for (uint64_t n : {4, 5, 1, 6}) CHECK(c.present_sectors(L(n)) == kFull);
  CHECK(c.stats().evictions == 4);
  CHECK(c.stats().read_hits == 1);
  CHECK(c.stats().read_misses == 8);
}

TEST_CASE("FIFO evicts the oldest insertion even if it was just hit", "[cache][replacement]") {
  CacheSpec s = tiny_spec(1, 4);
  s.replacement = "fifo";
  Cache c(s);
  for (uint64_t n : {0, 1, 2, 3}) c.access_functional(read(L(n), kFull));
  REQUIRE(c.access_functional(read(L(0), kFull)).status == AccessStatus::Hit);
  c.access_functional(read(L(4), kFull));  // evicts 0 despite the hit
  CHECK(c.present_sectors(L(0)) == 0);
  CHECK(c.present_sectors(L(1)) == kFull);
  c.access_functional(read(L(5), kFull));  // evicts 1
  CHECK(c.present_sectors(L(1)) == 0);
}

TEST_CASE("replacement registry lists its policies and rejects unknown names", "[cache][replacement]") {
  CHECK(replacement_policy_names() == std::vector<std::string>{"lru", "fifo"});
  CHECK(make_replacement_policy("lru", 4, 2) != nullptr);
  try {
    make_replacement_policy("plru", 4, 2);
    FAIL("no exception");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()) == "unknown replacement policy \"plru\"; valid: lru, fifo");
  }
}

TEST_CASE("linear set indexing uses the line address modulo the set count", "[cache][index]") {
  CacheSpec s = tiny_spec(4, 1);
  CHECK(s.set_index(0) == 0);
  CHECK(s.set_index(127) == 0);
  CHECK(s.set_index(128) == 1);
  CHECK(s.set_index(3 * 128 + 5) == 3);
  CHECK(s.set_index(4 * 128) == 0);
  CHECK(s.set_index(5 * 128) == 1);

  // Direct mapped: 0 and 512 conflict in set 0, 128 lives in set 1 untouched.
  Cache c(s);
  c.access_functional(read(0, kFull));
  c.access_functional(read(128, kFull));
  c.access_functional(read(512, kFull));
  CHECK(c.present_sectors(0) == 0);
  CHECK(c.present_sectors(512) == kFull);
  CHECK(c.present_sectors(128) == kFull);
}

TEST_CASE("Fermi hashed set index (GPGPU-Sim / Nugteren et al.)", "[cache][index]") {
  CacheSpec s32 = tiny_spec(32, 4);
  s32.index = IndexFunction::FermiHash;
  // bits 7..11 give the line index; bits 13,14,15,17,19 are XORed into index bits 0..4.
  CHECK(s32.set_index(0x0000) == 0);
  CHECK(s32.set_index(0x0080) == 1);      // line 1
  CHECK(s32.set_index(0x2000) == 1);      // bit 13 -> index bit 0
  CHECK(s32.set_index(0x2080) == 0);      // 1 ^ 1
  CHECK(s32.set_index(0x20000) == 8);     // bit 17 -> index bit 3
  CHECK(s32.set_index(0x80000) == 16);    // bit 19 -> index bit 4
  CHECK(s32.set_index(0x1000) == 0);      // bit 12 unused with 32 sets
  CacheSpec s64 = tiny_spec(64, 6);
  s64.index = IndexFunction::FermiHash;
  CHECK(s64.set_index(0x1000) == 32);     // bit 12 is the top index bit with 64 sets
  CHECK(s64.set_index(0x3080) == 32);     // (1 ^ 1) | 32
  // Linear indexing would put a 4 KB stride in one set; the hash spreads it.
  CacheSpec lin = tiny_spec(32, 4);
  CHECK(lin.set_index(0x0000) == lin.set_index(0x1000));
  CHECK(s32.set_index(0x2000) != s32.set_index(0x4000));
}

TEST_CASE("scripted access sequence: hit and miss counts by hand", "[cache]") {
  // 2 sets x 2 ways, one sector per line, LRU. Line n maps to set n % 2.
  Cache c(tiny_spec(2, 2, 128));
  // line  set  result  set contents after (LRU first)
  //  0     0   miss    [0]
  //  2     0   miss    [0 2]
  //  4     0   miss    [2 4]     evicts 0
  //  0     0   miss    [4 0]     evicts 2
  //  2     0   miss    [0 2]     evicts 4
  //  1     1   miss    [1]
  //  3     1   miss    [1 3]
  //  1     1   hit     [3 1]
  //  6     0   miss    [2 6]     evicts 0
  //  0     0   miss    [6 0]     evicts 2
  //  6     0   hit     [0 6]
  //  3     1   hit     [1 3]
  //  0     0   hit     [6 0]
  const uint64_t seq[] = {0, 2, 4, 0, 2, 1, 3, 1, 6, 0, 6, 3, 0};
  const bool hit[] = {false, false, false, false, false, false, false, true, false, false, true, true, true};
  for (size_t i = 0; i < std::size(seq); ++i) {
    INFO("access " << i << " line " << seq[i]);
    AccessResult r = c.access_functional(read(seq[i] * 128, 1, i));
    CHECK((r.status == AccessStatus::Hit) == hit[i]);
  }
  CHECK(c.stats().read_hits == 4);
  CHECK(c.stats().read_misses == 9);
  CHECK(c.stats().evictions == 5);
  CHECK(c.stats().fetch_sectors == 9);
  CHECK(c.stats().read_hit_rate() == Approx(4.0 / 13.0));
}

TEST_CASE("xor-fold index keeps every set in use when a low line bit picks the slice", "[cache][index]") {
  CacheSpec x = tiny_spec(64, 8);
  x.index = IndexFunction::XorFold;
  // line = addr / 128, folded in 6-bit pieces.
  CHECK(x.set_index(0x0080) == 1);           // line 1
  CHECK(x.set_index(0x2000) == 1);           // line 64: 0 ^ 1
  CHECK(x.set_index(0x2080) == 0);           // line 65: 1 ^ 1
  CHECK(x.set_index(4096 * 128) == 1);       // line 4096 = 64 * 64: 0 ^ 0 ^ 1
  CHECK(x.set_index(0x2F80) == (0x1F ^ 1));  // line 95 = 64 + 31
  CacheSpec lin = tiny_spec(64, 8);
  std::set<uint32_t> used_lin, used_xor;
  for (uint64_t line = 0; line < 8192; line += 2) {  // only even lines reach this slice
    used_lin.insert(lin.set_index(line * 128));
    used_xor.insert(x.set_index(line * 128));
  }
  CHECK(used_lin.size() == 32);
  CHECK(used_xor.size() == 64);
}
