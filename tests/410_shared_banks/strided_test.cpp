// 32-bit strided shared-memory access on cc 1.x (16 banks, per half-warp) and cc 2.x (32
// banks, per warp), the transpose tile with and without padding, and the reduction's
// "interleaved addressing with bank conflicts" step by step.
#include <numeric>

#include "bank_fixtures.hpp"

using namespace warpsim::test;

TEST_CASE("32-bit stride s = 1..33: cc 1.x half-warp degree", "[banks][cc1][stride]") {
  // The PG: threads tid and tid+n conflict when s*n is a multiple of 16; conflict-free only
  // for odd s. Degree per half-warp (s = 1..33):
  const uint32_t degree[34] = {0, 1, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4, 1, 2, 1, 16,
                               1, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4, 1, 2, 1, 16, 1};
  for (uint32_t s = 1; s <= 33; ++s) {
    CAPTURE(s);
    auto c = shared_conflicts(cc1_banks(), words([s](uint32_t l) { return uint64_t(s) * l; }));
    CHECK(c.max_degree == degree[s]);
    CHECK(c.max_degree == std::gcd(s, 16u));
    CHECK(c.requests == 2);
    CHECK(c.passes == 2 * degree[s]);
    CHECK(c.partition_degree == std::vector<uint32_t>{degree[s], degree[s]});
    CHECK((c.conflicts() == 0) == (s % 2 == 1));
  }
}

TEST_CASE("32-bit stride s = 1..33: cc 2.x warp degree", "[banks][cc2][stride]") {
  const uint32_t degree[34] = {0, 1, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4, 1, 2, 1, 16,
                               1, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4, 1, 2, 1, 32, 1};
  for (uint32_t s = 1; s <= 33; ++s) {
    CAPTURE(s);
    auto c = shared_conflicts(cc2_banks(), words([s](uint32_t l) { return uint64_t(s) * l; }));
    CHECK(c.max_degree == degree[s]);
    CHECK(c.max_degree == std::gcd(s, 32u));
    CHECK(c.requests == 1);
    CHECK(c.passes == degree[s]);
    CHECK(c.partition_degree == std::vector<uint32_t>{degree[s]});
  }
}

TEST_CASE("PG strided-access figure: strides of one, two and three words", "[banks][stride]") {
  // cc 2.x: conflict-free, 2-way, conflict-free; the same on cc 1.x with 16 banks.
  const uint32_t stride[] = {1, 2, 3}, ways[] = {1, 2, 1};
  for (int i = 0; i < 3; ++i) {
    auto a = words([&](uint32_t l) { return uint64_t(stride[i]) * l; });
    CHECK(shared_conflicts(cc2_banks(), a).max_degree == ways[i]);
    CHECK(shared_conflicts(cc1_banks(), a).max_degree == ways[i]);
  }
}

TEST_CASE("Transpose tile[threadIdx.x][threadIdx.y], TILE_DIM 32", "[banks][transpose]") {
  // A warp is threadIdx.x = 0..31 at a fixed threadIdx.y (here 3).
  auto tile = [](uint32_t row_words) { return words([=](uint32_t tx) { return uint64_t(tx) * row_words + 3; }); };
  SECTION("float tile[32][32]: 32-way on cc 2.x, 16-way per half-warp on cc 1.x") {
    auto c2 = shared_conflicts(cc2_banks(), tile(32));
    CHECK(c2.max_degree == 32);
    CHECK(c2.passes == 32);
    auto c1 = shared_conflicts(cc1_banks(), tile(32));
    CHECK(c1.max_degree == 16);
    CHECK(c1.passes == 32);
  }
  SECTION("padded float tile[32][33]: conflict-free") {
    auto c2 = shared_conflicts(cc2_banks(), tile(33));
    CHECK(c2.passes == 1);
    CHECK(c2.conflicts() == 0);
    auto c1 = shared_conflicts(cc1_banks(), tile(33));
    CHECK(c1.passes == 2);
    CHECK(c1.conflicts() == 0);
  }
  SECTION("the row read tile[threadIdx.y][threadIdx.x] is conflict-free") {
    auto row = words([](uint32_t tx) { return 3 * 32 + uint64_t(tx); });
    CHECK(shared_conflicts(cc2_banks(), row).passes == 1);
    CHECK(shared_conflicts(cc1_banks(), row).passes == 2);
  }
}

TEST_CASE("Reduction, interleaved addressing with bank conflicts (index = 2*s*tid)", "[banks][reduction]") {
  // Block of 256 threads, warp 0 (tid 0..31); threads with index < blockDim.x are active
  // and read sdata[index].
  struct Row { uint32_t s; uint32_t cc2_degree; uint32_t cc1_passes; uint32_t cc1_degree; uint32_t active; };
  const Row rows[] = {
      {1, 2, 4, 2, 32},  {2, 4, 8, 4, 32},  {4, 8, 16, 8, 32}, {8, 8, 16, 16, 16},
      {16, 8, 8, 8, 8},  {32, 4, 4, 4, 4},  {64, 2, 2, 2, 2},  {128, 1, 1, 1, 1},
  };
  for (const auto& r : rows) {
    CAPTURE(r.s);
    uint32_t mask = 0;
    for (uint32_t tid = 0; tid < 32; ++tid)
      if (2 * r.s * tid < 256) mask |= 1u << tid;
    REQUIRE(uint32_t(__builtin_popcount(mask)) == r.active);
    auto a = words([&](uint32_t tid) { return uint64_t(2) * r.s * tid; }, mask);
    auto c2 = shared_conflicts(cc2_banks(), a);
    CHECK(c2.max_degree == r.cc2_degree);
    CHECK(c2.passes == r.cc2_degree);
    auto c1 = shared_conflicts(cc1_banks(), a);
    CHECK(c1.passes == r.cc1_passes);
    CHECK(c1.max_degree == r.cc1_degree);
  }
  SECTION("sequential addressing (sdata[tid] += sdata[tid + s]) is conflict-free") {
    for (uint32_t s : {128u, 64u, 32u, 16u}) {
      auto a = words([&](uint32_t tid) { return uint64_t(tid) + s; });
      CHECK(shared_conflicts(cc2_banks(), a).passes == 1);
      CHECK(shared_conflicts(cc1_banks(), a).passes == 2);
    }
  }
}
