// Compute capability 1.x coalescing: the Programming Guide's Figure "Examples of Global
// Memory Accesses by a Warp, 4-Byte Word per Thread" (cc 1.0/1.1 and 1.2/1.3 columns),
// the lecture's half-warp examples, and word sizes 1 to 16 bytes.
#include <map>

#include "coalescer_fixtures.hpp"

using namespace warpsim::test;

namespace {
// A permutation of 0..15 (7 is odd, so k -> 7k mod 16 is a bijection).
uint32_t perm16(uint32_t k) { return (7 * k) % 16; }
}  // namespace

TEST_CASE("PG figure, aligned and sequential 4-byte words", "[coalescer][cc1]") {
  auto a = warp_access(4, [](uint32_t l) { return 128 + 4 * l; });
  CHECK(shape(run(cc10(), a)) == Shape{{128, 64}, {192, 64}});
  CHECK(shape(run(cc13(), a)) == Shape{{128, 64}, {192, 64}});
  auto t = run(cc13(), a);
  CHECK(t[0].lanes == 0x0000FFFFu);
  CHECK(t[1].lanes == 0xFFFF0000u);
  CHECK(t[0].sectors == 0b0011);
  CHECK(t[1].sectors == 0b1100);
}

TEST_CASE("PG figure, aligned and non-sequential 4-byte words", "[coalescer][cc1]") {
  // Each half-warp permutes the 16 words of its own 64 bytes.
  auto a = warp_access(4, [](uint32_t l) { return 128 + 64 * (l / 16) + 4 * perm16(l % 16); });
  // cc 1.0/1.1: not in sequence, so one 32-byte transaction per thread.
  auto t10 = run(cc10(), a);
  REQUIRE(t10.size() == 32);
  int at[4] = {0, 0, 0, 0};
  for (const auto& x : t10) {
    CHECK(x.size == 32);
    REQUIRE((x.addr >= 128 && x.addr < 256 && x.addr % 32 == 0));
    ++at[(x.addr - 128) / 32];
  }
  // "8 x 32B at 128, 8 x 32B at 160, 8 x 32B at 192, 8 x 32B at 224"
  CHECK(at[0] == 8);
  CHECK(at[1] == 8);
  CHECK(at[2] == 8);
  CHECK(at[3] == 8);
  // cc 1.2/1.3: any order within the segment.
  CHECK(shape(run(cc13(), a)) == Shape{{128, 64}, {192, 64}});
}

TEST_CASE("PG figure, misaligned (by one word) and sequential 4-byte words", "[coalescer][cc1]") {
  auto a = warp_access(4, [](uint32_t l) { return 132 + 4 * l; });
  // cc 1.0/1.1: 7 x 32B at 128, 8 x 32B at 160, 8 x 32B at 192, 8 x 32B at 224, 1 x 32B at 256.
  auto t10 = run(cc10(), a);
  REQUIRE(t10.size() == 32);
  std::map<uint64_t, int> per_addr;
  for (const auto& x : t10) {
    CHECK(x.size == 32);
    ++per_addr[x.addr];
  }
  CHECK(per_addr == std::map<uint64_t, int>{{128, 7}, {160, 8}, {192, 8}, {224, 8}, {256, 1}});
  // cc 1.2/1.3: 1 x 128B at 128, 1 x 64B at 192, 1 x 32B at 256.
  CHECK(shape(run(cc13(), a)) == Shape{{128, 128}, {192, 64}, {256, 32}});
  auto t13 = run(cc13(), a);
  CHECK(t13[0].lanes == 0x0000FFFFu);
  CHECK(t13[1].lanes == 0x7FFF0000u);
  CHECK(t13[2].lanes == 0x80000000u);
}

TEST_CASE("Lecture: sequential and aligned half-warp is one 64-byte transaction", "[coalescer][cc1]") {
  auto a = warp_access(4, [](uint32_t l) { return 4 * l; }, lanes_mask(0, 16));
  CHECK(shape(run(cc13(), a)) == Shape{{0, 64}});
  CHECK(shape(run(cc10(), a)) == Shape{{0, 64}});
}

TEST_CASE("Lecture: sequential but misaligned half-warp", "[coalescer][cc1]") {
  SECTION("within one 128-byte segment: one 128-byte transaction") {
    auto a = warp_access(4, [](uint32_t l) { return 4 + 4 * l; }, lanes_mask(0, 16));
    CHECK(shape(run(cc13(), a)) == Shape{{0, 128}});
    CHECK(run(cc10(), a).size() == 16);  // cc 1.0/1.1: 16 separate transactions
  }
  SECTION("thread 0 at address 116, split across segments: one 64-byte and one 32-byte transaction") {
    auto a = warp_access(4, [](uint32_t l) { return 116 + 4 * l; }, lanes_mask(0, 16));
    // Threads 0-2 (116..127) only use 96..127; threads 3-15 (128..179) use 128..191.
    CHECK(shape(run(cc13(), a)) == Shape{{96, 32}, {128, 64}});
  }
}

TEST_CASE("Lecture: strided half-warp is one 128-byte transaction, half wasted", "[coalescer][cc1]") {
  auto a = warp_access(4, [](uint32_t l) { return 8 * l; }, lanes_mask(0, 16));
  auto t = run(cc13(), a);
  CHECK(shape(t) == Shape{{0, 128}});
  CHECK(warpsim::mem::summarize(t).bytes == 128);  // 64 bytes requested
  CHECK(run(cc10(), a).size() == 16);
}

TEST_CASE("cc1.3 stride sweep for one half-warp of 4-byte words", "[coalescer][cc1]") {
  // stride in words -> transactions: 1: 64 B; 2: 128 B; 4: two 128 B; 8: four 128 B; 16: eight;
  // 32 (128-byte stride): 16 transactions of 32 B.
  struct Row { uint64_t stride; Shape expect; };
  const Row rows[] = {
      {1, {{0, 64}}},
      {2, {{0, 128}}},
      {4, {{0, 128}, {128, 128}}},
      {8, {{0, 128}, {128, 128}, {256, 128}, {384, 128}}},
      {32, {{0, 32}, {128, 32}, {256, 32}, {384, 32}, {512, 32}, {640, 32}, {768, 32}, {896, 32},
            {1024, 32}, {1152, 32}, {1280, 32}, {1408, 32}, {1536, 32}, {1664, 32}, {1792, 32}, {1920, 32}}},
  };
  for (const auto& r : rows) {
    CAPTURE(r.stride);
    auto a = warp_access(4, [&](uint32_t l) { return 4 * r.stride * l; }, lanes_mask(0, 16));
    CHECK(shape(run(cc13(), a)) == r.expect);
  }
}

TEST_CASE("cc1.x word sizes 1, 2, 8 and 16 bytes", "[coalescer][cc1]") {
  SECTION("1-byte words: 32-byte segments, each half-warp separately") {
    auto a = warp_access(1, [](uint32_t l) { return l; });
    CHECK(shape(run(cc13(), a)) == Shape{{0, 32}, {0, 32}});
    CHECK(run(cc10(), a).size() == 32);  // 1-byte words never coalesce on cc 1.0/1.1
  }
  SECTION("2-byte words: 64-byte segments reduced to 32 bytes") {
    auto a = warp_access(2, [](uint32_t l) { return 2 * l; });
    CHECK(shape(run(cc13(), a)) == Shape{{0, 32}, {32, 32}});
    CHECK(run(cc10(), a).size() == 32);
  }
  SECTION("8-byte words: one 128-byte transaction per half-warp") {
    auto a = warp_access(8, [](uint32_t l) { return 8 * l; });
    CHECK(shape(run(cc13(), a)) == Shape{{0, 128}, {128, 128}});
    CHECK(shape(run(cc10(), a)) == Shape{{0, 128}, {128, 128}});
  }
  SECTION("16-byte words (ld.v4.f32): a half-warp spans 256 B = two 128-byte transactions") {
    auto a = warp_access(4, [](uint32_t l) { return 16 * l; }, 0xFFFFFFFFu, AccessKind::Load, 4);
    auto t13 = run(cc13(), a);
    CHECK(shape(t13) == Shape{{0, 128}, {128, 128}, {256, 128}, {384, 128}});
    CHECK(t13[0].lanes == 0x000000FFu);
    CHECK(t13[1].lanes == 0x0000FF00u);
    auto t10 = run(cc10(), a);
    CHECK(shape(t10) == Shape{{0, 128}, {128, 128}, {256, 128}, {384, 128}});
    CHECK(t10[1].lanes == 0x0000FF00u);
  }
  SECTION("16-byte words on cc1.0 need only 128-byte alignment (8 words per segment)") {
    auto a = warp_access(16, [](uint32_t l) { return 128 + 16 * l; }, lanes_mask(0, 16));
    CHECK(shape(run(cc10(), a)) == Shape{{128, 128}, {256, 128}});
  }
}

TEST_CASE("cc1.0 alignment and sequence requirements", "[coalescer][cc1]") {
  SECTION("4-byte words starting on a 64-byte boundary coalesce") {
    auto a = warp_access(4, [](uint32_t l) { return 64 + 4 * l; }, lanes_mask(0, 16));
    CHECK(shape(run(cc10(), a)) == Shape{{64, 64}});
  }
  SECTION("4-byte words starting 32 bytes into a segment do not") {
    auto a = warp_access(4, [](uint32_t l) { return 32 + 4 * l; }, lanes_mask(0, 16));
    auto t = run(cc10(), a);
    CHECK(t.size() == 16);
    for (const auto& x : t) CHECK(x.size == 32);
    CHECK(shape(run(cc13(), a)) == Shape{{0, 128}});  // cc1.3: 32..95 uses both halves
  }
  SECTION("8-byte words need a 128-byte segment") {
    auto a = warp_access(8, [](uint32_t l) { return 64 + 8 * l; }, lanes_mask(0, 16));
    CHECK(run(cc10(), a).size() == 16);
    CHECK(shape(run(cc13(), a)) == Shape{{64, 64}, {128, 64}});
  }
  SECTION("two threads swapping words break the sequence") {
    auto a = warp_access(4, [](uint32_t l) { return l == 0 ? 4 : l == 1 ? 0 : 4 * l; }, lanes_mask(0, 16));
    CHECK(run(cc10(), a).size() == 16);
    CHECK(shape(run(cc13(), a)) == Shape{{0, 64}});
  }
}

TEST_CASE("cc1.x inactive threads and partial warps", "[coalescer][cc1]") {
  SECTION("inactive threads do not break cc1.0 coalescing") {
    auto a = warp_access(4, [](uint32_t l) { return 4 * l; }, 0x55555555u);
    auto t = run(cc10(), a);
    CHECK(shape(t) == Shape{{0, 64}, {64, 64}});
    CHECK(t[0].lanes == 0x00005555u);
  }
  SECTION("a warp of 20 threads") {
    auto a = warp_access(4, [](uint32_t l) { return 4 * l; }, lanes_mask(0, 20));
    CHECK(shape(run(cc13(), a)) == Shape{{0, 64}, {64, 32}});
    CHECK(shape(run(cc10(), a)) == Shape{{0, 64}, {64, 64}});  // cc1.0 issues the full 64 bytes
  }
  SECTION("only the upper half of a half-warp active") {
    auto a = warp_access(4, [](uint32_t l) { return 4 * l; }, lanes_mask(8, 8));
    CHECK(shape(run(cc13(), a)) == Shape{{32, 32}});
    CHECK(shape(run(cc10(), a)) == Shape{{0, 64}});
  }
  SECTION("no active thread: no transaction") {
    auto a = warp_access(4, [](uint32_t l) { return 4 * l; }, 0);
    CHECK(run(cc13(), a).empty());
    CHECK(run(cc10(), a).empty());
  }
}

TEST_CASE("cc1.x same-address accesses", "[coalescer][cc1]") {
  auto bcast = [](AccessKind k) { return warp_access(4, [](uint32_t) { return 100; }, 0xFFFFFFFFu, k); };
  SECTION("broadcast load: cc1.3 one 32-byte transaction per half-warp") {
    auto t = run(cc13(), bcast(AccessKind::Load));
    CHECK(shape(t) == Shape{{96, 32}, {96, 32}});
    CHECK(t[0].lanes == 0x0000FFFFu);
  }
  SECTION("broadcast load: cc1.0 one 32-byte transaction per thread") {
    CHECK(shape(run(cc10(), bcast(AccessKind::Load))) == repeat(96, 32, 32));
  }
  SECTION("same-address store writes once per half-warp") {
    auto t = run(cc10(), bcast(AccessKind::Store));
    CHECK(shape(t) == Shape{{96, 32}, {96, 32}});
    CHECK(t[0].lanes == 0x0000FFFFu);
    CHECK(t[1].lanes == 0xFFFF0000u);
    CHECK(shape(run(cc13(), bcast(AccessKind::Store))) == Shape{{96, 32}, {96, 32}});
  }
  SECTION("pairs of threads storing to the same word: one transaction per distinct address") {
    auto a = warp_access(4, [](uint32_t l) { return 4 * (l / 2); }, lanes_mask(0, 16), AccessKind::Store);
    auto t = run(cc10(), a);
    REQUIRE(t.size() == 8);
    CHECK(t[0].lanes == 0b11u);
    CHECK(shape(run(cc13(), a)) == Shape{{0, 32}});
  }
}

TEST_CASE("cc1.x stores follow the load rules", "[coalescer][cc1]") {
  auto a = warp_access(4, [](uint32_t l) { return 132 + 4 * l; }, 0xFFFFFFFFu, AccessKind::Store);
  CHECK(shape(run(cc13(), a)) == Shape{{128, 128}, {192, 64}, {256, 32}});
  CHECK(run(cc10(), a).size() == 32);
}

TEST_CASE("cc1.x atomics", "[coalescer][cc1][atomic]") {
  SECTION("distinct sequential words coalesce on cc1.3 like loads") {
    auto a = warp_access(4, [](uint32_t l) { return 4 * l; }, 0xFFFFFFFFu, AccessKind::Atomic);
    CHECK(shape(run(cc13(), a)) == Shape{{0, 64}, {64, 64}});
    CHECK(run(cc10(), a).size() == 32);  // cc 1.1 atomics are never coalesced
  }
  SECTION("every thread on one counter: one transaction per thread") {
    auto a = warp_access(4, [](uint32_t) { return 64; }, 0xFFFFFFFFu, AccessKind::Atomic);
    CHECK(shape(run(cc13(), a)) == repeat(64, 32, 32));
  }
  SECTION("histogram with 4 bins: the k-th update of a bin goes in the k-th transaction") {
    auto a = warp_access(4, [](uint32_t l) { return 4 * (l % 4); }, lanes_mask(0, 16), AccessKind::Atomic);
    auto t = run(cc13(), a);
    CHECK(shape(t) == repeat(0, 32, 4));
    CHECK(t[0].lanes == 0x000Fu);
    CHECK(t[3].lanes == 0xF000u);
  }
}
