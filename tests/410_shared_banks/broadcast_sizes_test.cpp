// Broadcast (the PG's irregular-access figure and the cc 1.x stepwise procedure), 8-, 16-,
// 64- and 128-bit accesses, partial warps, stores and atomics.
#include "bank_fixtures.hpp"

using namespace warpsim::test;

TEST_CASE("All threads read one word: broadcast", "[banks][broadcast]") {
  auto a = words([](uint32_t) { return 7; });
  auto c1 = shared_conflicts(cc1_banks(), a);
  CHECK(c1.passes == 2);  // one pass per half-warp
  CHECK(c1.max_degree == 1);
  CHECK(shared_conflicts(cc2_banks(), a).passes == 1);
}

TEST_CASE("PG irregular-access figure, left: random permutation", "[banks][broadcast]") {
  // Each half-warp permutes the 16 words of its own row; the warp permutes words 0..31.
  auto a = words([](uint32_t l) { return 16 * (l / 16) + (5 * l + 3) % 16; });
  CHECK(shared_conflicts(cc2_banks(), a).passes == 1);
  CHECK(shared_conflicts(cc1_banks(), a).passes == 2);
}

TEST_CASE("PG irregular-access figure, middle: threads 3, 4, 6, 7 and 9 read one word in bank 5",
          "[banks][broadcast]") {
  // The other threads read words in distinct banks other than 5 (one row further on).
  uint64_t word_of[32];
  uint32_t next_bank = 0;
  for (uint32_t l = 0; l < 32; ++l) {
    if (l == 3 || l == 4 || l == 6 || l == 7 || l == 9) {
      word_of[l] = 5;
      continue;
    }
    if (next_bank == 5) ++next_bank;
    word_of[l] = 32 + next_bank++;
  }
  auto a = words([&](uint32_t l) { return word_of[l]; });
  CHECK(shared_conflicts(cc2_banks(), a).passes == 1);
  // cc 1.x: the shared word is the broadcast word, every other bank serves one thread.
  auto c1 = shared_conflicts(cc1_banks(), a);
  CHECK(c1.passes == 2);
  CHECK(c1.max_degree == 1);
}

TEST_CASE("PG irregular-access figure, right: two words each read by many threads", "[banks][broadcast]") {
  // Conflict-free on cc 2.x (several words broadcast at once); 2-way on cc 1.x, which
  // broadcasts only one word per step.
  auto a = words([](uint32_t l) { return (l % 16) < 8 ? 12 : 20; });
  auto c2 = shared_conflicts(cc2_banks(), a);
  CHECK(c2.passes == 1);
  auto c1 = shared_conflicts(cc1_banks(), a);
  CHECK(c1.max_degree == 2);
  CHECK(c1.passes == 4);
}

TEST_CASE("cc 1.x stepwise broadcast: several distinct words do not broadcast together", "[banks][broadcast][cc1]") {
  SECTION("two words of one bank, 8 readers each") {
    auto a = words([](uint32_t l) { return l < 8 ? 0 : 32; }, lanes_mask(0, 16));
    CHECK(shared_conflicts(cc1_banks(), a).passes == 2);
    CHECK(shared_conflicts(cc2_banks(), a).passes == 2);  // two words in bank 0 on cc 2.x too
  }
  SECTION("three words read by four threads each, four single readers: 3 steps") {
    // Step 1 broadcasts word 1 and serves one reader of word 2, one of word 3 and the four
    // singles; step 2 broadcasts word 2 and serves one more reader of word 3; step 3 the rest.
    auto a = words([](uint32_t l) { return l < 12 ? 1 + l / 4 : l - 8; }, lanes_mask(0, 16));
    CHECK(shared_conflicts(cc1_banks(), a).passes == 3);
    CHECK(shared_conflicts(cc2_banks(), a).passes == 1);
  }
  SECTION("bytes of one word read by different threads broadcast on cc 1.x") {
    auto a = shared_access(1, [](uint32_t l) { return 40 + l % 4; }, lanes_mask(0, 16));
    CHECK(shared_conflicts(cc1_banks(), a).passes == 1);
  }
}

TEST_CASE("8- and 16-bit accesses", "[banks][subword]") {
  SECTION("char shared[tid]: 4-way on cc 1.x, conflict-free on cc 2.x") {
    auto a = shared_access(1, [](uint32_t l) { return l; });
    auto c1 = shared_conflicts(cc1_banks(), a);
    CHECK(c1.max_degree == 4);
    CHECK(c1.passes == 8);
    CHECK(shared_conflicts(cc2_banks(), a).passes == 1);
  }
  SECTION("char shared[4*tid]: conflict-free") {
    auto a = shared_access(1, [](uint32_t l) { return 4 * l; });
    CHECK(shared_conflicts(cc1_banks(), a).passes == 2);
    CHECK(shared_conflicts(cc2_banks(), a).passes == 1);
  }
  SECTION("short shared[tid]: 2-way on cc 1.x") {
    auto a = shared_access(2, [](uint32_t l) { return 2 * l; });
    CHECK(shared_conflicts(cc1_banks(), a).max_degree == 2);
    CHECK(shared_conflicts(cc1_banks(), a).passes == 4);
    CHECK(shared_conflicts(cc2_banks(), a).passes == 1);
  }
  SECTION("short shared[2*tid]: conflict-free") {
    auto a = shared_access(2, [](uint32_t l) { return 4 * l; });
    CHECK(shared_conflicts(cc1_banks(), a).passes == 2);
  }
}

TEST_CASE("64-bit accesses", "[banks][wide]") {
  auto doubles = [](uint32_t stride) { return shared_access(8, [=](uint32_t l) { return 8ull * stride * l; }); };
  SECTION("double shared[tid] on cc 1.x: two 32-bit requests of stride two, each 2-way") {
    auto c = shared_conflicts(cc1_banks(), doubles(1));
    CHECK(c.requests == 4);
    CHECK(c.max_degree == 2);
    CHECK(c.passes == 8);
    CHECK(c.conflicts() == 4);
    CHECK(c.partition_degree == std::vector<uint32_t>{2, 2});
    CHECK(c.partition_passes == std::vector<uint32_t>{4, 4});
    REQUIRE(c.per_request.size() == 4);
    CHECK(c.per_request[2].piece == 1);
    CHECK(c.per_request[2].first_lane == 0);
    CHECK(c.per_request[1].first_lane == 16);
  }
  SECTION("the PG's fix on cc 1.x: lo/hi ints in two arrays, two conflict-free reads") {
    auto lo = words([](uint32_t l) { return l; });
    auto hi = words([](uint32_t l) { return 32 + l; });
    CHECK(shared_conflicts(cc1_banks(), lo).passes + shared_conflicts(cc1_banks(), hi).passes == 4);
  }
  SECTION("double shared[tid] on cc 2.x: one conflict-free request per half-warp") {
    auto c = shared_conflicts(cc2_banks(), doubles(1));
    CHECK(c.requests == 2);
    CHECK(c.max_degree == 1);
    CHECK(c.passes == 2);
    CHECK(c.conflicts() == 0);
  }
  SECTION("double shared[2*tid] on cc 2.x: 2-way in each half-warp") {
    auto c = shared_conflicts(cc2_banks(), doubles(2));
    CHECK(c.max_degree == 2);
    CHECK(c.passes == 4);
  }
  SECTION("ld.v2.f32 is a 64-bit access") {
    auto a = shared_access(4, [](uint32_t l) { return 8ull * l; }, 0xFFFFFFFFu, AccessKind::Load, 2);
    CHECK(shared_conflicts(cc2_banks(), a).passes == 2);
    CHECK(shared_conflicts(cc1_banks(), a).passes == 8);
  }
}

TEST_CASE("Structures read member by member (PG, cc 1.x)", "[banks][cc1]") {
  // struct {float x, y, z;} shared[32]: each member at an odd stride of three words.
  auto xyz = words([](uint32_t l) { return 3ull * l + 1; });
  CHECK(shared_conflicts(cc1_banks(), xyz).passes == 2);
  // struct {float x, y;}: even stride of two words, 2-way.
  auto xy = words([](uint32_t l) { return 2ull * l; });
  CHECK(shared_conflicts(cc1_banks(), xy).max_degree == 2);
}

TEST_CASE("128-bit accesses", "[banks][wide]") {
  auto float4 = [](uint32_t stride) {
    return shared_access(4, [=](uint32_t l) { return 16ull * stride * l; }, 0xFFFFFFFFu, AccessKind::Load, 4);
  };
  SECTION("float4 shared[tid] on cc 2.x: the usual 2-way per quarter-warp") {
    auto c = shared_conflicts(cc2_banks(), float4(1));
    CHECK(c.requests == 4);
    CHECK(c.max_degree == 2);
    CHECK(c.passes == 8);
  }
  SECTION("float4 shared[2*tid] on cc 2.x: 1 + 2 threads per bank = 3-way") {
    auto c = shared_conflicts(cc2_banks(), float4(2));
    CHECK(c.max_degree == 3);
    CHECK(c.passes == 12);
  }
  SECTION("float4 broadcast on cc 2.x: still 2-way per quarter-warp") {
    auto a = shared_access(4, [](uint32_t) { return 64; }, 0xFFFFFFFFu, AccessKind::Load, 4);
    CHECK(shared_conflicts(cc2_banks(), a).passes == 8);
  }
  SECTION("double2 on cc 2.x is a 128-bit access too") {
    auto a = shared_access(8, [](uint32_t l) { return 16ull * l; }, 0xFFFFFFFFu, AccessKind::Load, 2);
    CHECK(shared_conflicts(cc2_banks(), a).passes == 8);
  }
  SECTION("float4 shared[tid] on cc 1.x: four 32-bit requests of stride four, each 4-way") {
    auto c = shared_conflicts(cc1_banks(), float4(1));
    CHECK(c.requests == 8);
    CHECK(c.max_degree == 4);
    CHECK(c.passes == 32);
  }
  SECTION("a quarter-warp only: one request") {
    auto a = shared_access(4, [](uint32_t l) { return 16ull * l; }, lanes_mask(8, 8), AccessKind::Load, 4);
    auto c = shared_conflicts(cc2_banks(), a);
    CHECK(c.requests == 1);
    CHECK(c.per_request[0].first_lane == 8);
    CHECK(c.passes == 2);
  }
}

TEST_CASE("Partial warps", "[banks][partial]") {
  SECTION("16 threads at stride 2: 2-way on cc 1.x, conflict-free on cc 2.x") {
    auto a = words([](uint32_t l) { return 2ull * l; }, lanes_mask(0, 16));
    auto c1 = shared_conflicts(cc1_banks(), a);
    CHECK(c1.passes == 2);
    CHECK(c1.requests == 1);
    CHECK(c1.partition_degree == std::vector<uint32_t>{2, 0});
    auto c2 = shared_conflicts(cc2_banks(), a);
    CHECK(c2.passes == 1);
  }
  SECTION("20 threads, stride 1") {
    auto a = words([](uint32_t l) { return l; }, lanes_mask(0, 20));
    CHECK(shared_conflicts(cc1_banks(), a).passes == 2);
    CHECK(shared_conflicts(cc2_banks(), a).passes == 1);
  }
  SECTION("only the second half-warp") {
    auto a = words([](uint32_t l) { return 2ull * l; }, lanes_mask(16, 16));
    auto c1 = shared_conflicts(cc1_banks(), a);
    CHECK(c1.partition_degree == std::vector<uint32_t>{0, 2});
    CHECK(c1.per_request.size() == 1);
  }
  SECTION("no active thread costs nothing") {
    auto c = shared_conflicts(cc1_banks(), words([](uint32_t l) { return l; }, 0));
    CHECK(c.passes == 0);
    CHECK(c.requests == 0);
  }
}

TEST_CASE("Stores: same-address stores write once, without conflict", "[banks][store]") {
  auto same = words([](uint32_t) { return 9; }, 0xFFFFFFFFu, AccessKind::Store);
  CHECK(shared_conflicts(cc1_banks(), same).passes == 2);
  CHECK(shared_conflicts(cc2_banks(), same).passes == 1);
  auto pairs = words([](uint32_t l) { return l / 2; }, 0xFFFFFFFFu, AccessKind::Store);
  CHECK(shared_conflicts(cc1_banks(), pairs).passes == 2);
  CHECK(shared_conflicts(cc2_banks(), pairs).passes == 1);
  auto stride2 = words([](uint32_t l) { return 2ull * l; }, 0xFFFFFFFFu, AccessKind::Store);
  CHECK(shared_conflicts(cc1_banks(), stride2).passes == 4);
  CHECK(shared_conflicts(cc2_banks(), stride2).passes == 2);
  auto chars = shared_access(1, [](uint32_t l) { return l; }, 0xFFFFFFFFu, AccessKind::Store);
  CHECK(shared_conflicts(cc1_banks(), chars).max_degree == 4);
  CHECK(shared_conflicts(cc2_banks(), chars).passes == 1);
}

TEST_CASE("Atomics serialize every access to a bank", "[banks][atomic]") {
  auto counter = words([](uint32_t) { return 0; }, 0xFFFFFFFFu, AccessKind::Atomic);
  CHECK(shared_conflicts(cc2_banks(), counter).passes == 32);
  CHECK(shared_conflicts(cc1_banks(), counter).passes == 32);
  auto distinct = words([](uint32_t l) { return l; }, 0xFFFFFFFFu, AccessKind::Atomic);
  CHECK(shared_conflicts(cc2_banks(), distinct).passes == 1);
  CHECK(shared_conflicts(cc1_banks(), distinct).passes == 2);
  auto bins = words([](uint32_t l) { return l / 4; }, 0xFFFFFFFFu, AccessKind::Atomic);
  CHECK(shared_conflicts(cc2_banks(), bins).passes == 4);
  CHECK(shared_conflicts(cc1_banks(), bins).passes == 8);
}
