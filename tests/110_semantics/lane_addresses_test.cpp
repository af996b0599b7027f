// A full warp's addresses in one pass (sm/lane_addresses.hpp): their OR and bounds, and the
// global load whose two half-warps each read consecutive words, copied by vectors, against
// a lane-by-lane copy on random patterns.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "sim/sm/lane_addresses.hpp"

namespace {

constexpr uint64_t kPoison = 0xDEADBEEFCAFEF00Dull;

std::vector<uint8_t> numbered_bytes(size_t n) {
  std::vector<uint8_t> m(n);
  for (size_t i = 0; i < n; ++i) m[i] = uint8_t(i * 131 + 7);
  return m;
}

}  // namespace

TEST_CASE("full-warp addresses: base plus offset, narrowed, with their OR, least and greatest",
          "[semantics][memory]") {
  uint64_t base[32], addr[32];
  for (int l = 0; l < 32; ++l) base[l] = 0x1'0000'0000ull + 4 * uint64_t(31 - l);
  uint64_t lo = 0, hi = 0;
  const uint64_t any = warpsim::sm::full_warp_addresses(base, 8, ~uint64_t(0), addr, lo, hi);
  uint64_t want_any = 0;
  for (int l = 0; l < 32; ++l) {
    CHECK(addr[l] == base[l] + 8);
    want_any |= addr[l];
  }
  CHECK(any == want_any);
  CHECK(lo == 0x1'0000'0008ull);
  CHECK(hi == 0x1'0000'0008ull + 4 * 31);
  warpsim::sm::full_warp_addresses(base, 8, 0xFFFFFFFFull, addr, lo, hi);
  CHECK(addr[0] == 8 + 4 * 31);
  CHECK(hi == 8 + 4 * 31);
}

TEST_CASE("full-warp addresses: two half-warp runs of words loaded by vectors, every other pattern refused",
          "[semantics][memory]") {
  const std::vector<uint8_t> mem = numbered_bytes(4096);
  const uint64_t lo = 0x7000;  // mem[0]'s address
  auto word = [&](uint64_t a) {
    uint32_t x;
    std::memcpy(&x, mem.data() + (a - lo), 4);
    return uint64_t(x);
  };
  auto check = [&](const uint64_t* addr, bool runs) {
    uint64_t d[32];
    for (uint64_t& v : d) v = kPoison;
    const bool took = warpsim::sm::load_u32_half_warp_runs(addr, mem.data(), lo, d);
    CHECK(took == runs);
    for (int l = 0; l < 32; ++l) {
      INFO("lane " << l);
      CHECK(d[l] == (took ? word(addr[l]) : kPoison));
    }
  };
  uint64_t addr[32];
  SECTION("one row of 32 words") {
    for (int l = 0; l < 32; ++l) addr[l] = lo + 64 + 4 * l;
    check(addr, true);
  }
  SECTION("two rows of 16 words, the second before the first") {
    for (int l = 0; l < 16; ++l) addr[l] = lo + 1024 + 4 * l;
    for (int l = 16; l < 32; ++l) addr[l] = lo + 4 * (l - 16) + 12;
    check(addr, true);
  }
  SECTION("a half-warp not consecutive") {
    for (int l = 0; l < 32; ++l) addr[l] = lo + 4 * l;
    std::swap(addr[20], addr[21]);
    check(addr, false);
    for (int l = 0; l < 32; ++l) addr[l] = lo + 8 * l;  // every other word
    check(addr, false);
    for (int l = 0; l < 32; ++l) addr[l] = lo + 4 * (l % 16) + (l < 16 ? 0 : 2);  // bytes, not words, apart
    check(addr, true);  // words at any byte offset: the copy does not need alignment
    for (int l = 0; l < 32; ++l) addr[l] = lo + 4 * (l / 2);  // lane pairs on one word
    check(addr, false);
  }
  SECTION("random patterns near the two-run shape") {
    std::mt19937_64 rng(20261203);
    for (int trial = 0; trial < 2000; ++trial) {
      const uint64_t r0 = 4 * (rng() % 256), r1 = 4 * (rng() % 256);
      for (int l = 0; l < 32; ++l) addr[l] = lo + (l < 16 ? r0 + 4 * l : r1 + 4 * (l - 16));
      bool runs = true;
      if (rng() % 2) {
        const int l = int(rng() % 32);
        addr[l] = lo + 4 * (rng() % 1000);
        runs = addr[l] == lo + (l < 16 ? r0 + 4 * l : r1 + 4 * (l - 16));
      }
      INFO("trial " << trial);
      check(addr, runs);
    }
  }
}
