// Compute capability 2.x coalescing (the PG figure's cc 2.x column, ld.cg, stores, words
// over 4 bytes, atomics), 32-byte sectors, and the teaching mode of fixed segments with
// the note's 1,024-thread example.
#include "coalescer_fixtures.hpp"

using namespace warpsim::test;
using warpsim::isa::CacheOp;

TEST_CASE("PG figure, cc 2.x column (L1-cached loads, 128-byte lines)", "[coalescer][cc2]") {
  SECTION("aligned and sequential: 1 x 128B at 128") {
    auto a = warp_access(4, [](uint32_t l) { return 128 + 4 * l; });
    auto t = run(cc20(), a);
    CHECK(shape(t) == Shape{{128, 128}});
    CHECK(t[0].lanes == 0xFFFFFFFFu);
    CHECK(t[0].sectors == 0xF);
  }
  SECTION("aligned and non-sequential: 1 x 128B at 128") {
    auto a = warp_access(4, [](uint32_t l) { return 128 + 4 * ((l * 13) % 32); });
    CHECK(shape(run(cc20(), a)) == Shape{{128, 128}});
  }
  SECTION("misaligned and sequential: 1 x 128B at 128, 1 x 128B at 256") {
    auto a = warp_access(4, [](uint32_t l) { return 132 + 4 * l; });
    auto t = run(cc20(), a);
    CHECK(shape(t) == Shape{{128, 128}, {256, 128}});
    CHECK(t[1].lanes == 0x80000000u);
  }
}

TEST_CASE("cc 2.x loads cached in L2 only are serviced in 32-byte segments", "[coalescer][cc2]") {
  auto seq = [](CacheOp op, uint64_t base) {
    auto a = warp_access(4, [base](uint32_t l) { return base + 4 * l; });
    a.cache = op;
    return a;
  };
  SECTION("ld.global.cg, aligned: 4 x 32B") {
    CHECK(shape(run(cc20(), seq(CacheOp::Cg, 0))) == Shape{{0, 32}, {32, 32}, {64, 32}, {96, 32}});
  }
  SECTION("ld.global.cg, misaligned by one word: 5 x 32B") {
    CHECK(shape(run(cc20(), seq(CacheOp::Cg, 132))) ==
          Shape{{128, 32}, {160, 32}, {192, 32}, {224, 32}, {256, 32}});
  }
  SECTION("-dlcm=cg in the config makes default loads uncached; ld.ca still caches") {
    CHECK(run(cc20(false), seq(CacheOp::Default, 0)).size() == 4);
    CHECK(run(cc20(false), seq(CacheOp::Ca, 0)).size() == 1);
    CHECK(run(cc20(true), seq(CacheOp::Default, 0)).size() == 1);
  }
  SECTION("ld.cv and volatile loads bypass L1; ld.cs and ld.lu are cached") {
    CHECK(run(cc20(), seq(CacheOp::Cv, 0)).size() == 4);
    auto v = seq(CacheOp::Default, 0);
    v.is_volatile = true;
    CHECK(run(cc20(), v).size() == 4);
    CHECK(run(cc20(), seq(CacheOp::Cs, 0)).size() == 1);
    CHECK(run(cc20(), seq(CacheOp::Lu, 0)).size() == 1);
  }
  SECTION("local memory is always cached in L1") {
    auto a = seq(CacheOp::Cg, 0);
    a.space = warpsim::isa::Space::Local;
    CHECK(run(cc20(), a).size() == 1);
  }
  SECTION("\"line\" counting: one transaction per 128-byte line, sized by its sectors") {
    auto t = run(cc20(true, L2OnlyTransactions::Line), seq(CacheOp::Cg, 132));
    REQUIRE(t.size() == 2);
    CHECK(t[0] == Transaction{128, 128, 0x7FFFFFFFu, 0xF});
    CHECK(t[1] == Transaction{256, 32, 0x80000000u, 0x1});
  }
  SECTION("scattered loads: L2-only moves a quarter of the bytes") {
    auto a = warp_access(4, [](uint32_t l) { return 128 * l; });
    auto cached = run(cc20(), a);
    auto cg = run(cc20(false), a);
    CHECK(cached.size() == 32);
    CHECK(cg.size() == 32);
    CHECK(warpsim::mem::summarize(cached).bytes == 4096);
    CHECK(warpsim::mem::summarize(cg).bytes == 1024);
  }
}

TEST_CASE("cc 2.x splits words over 4 bytes into half- and quarter-warp requests", "[coalescer][cc2]") {
  SECTION("8-byte words: one 128-byte line per half-warp") {
    auto t = run(cc20(), warp_access(8, [](uint32_t l) { return 8 * l; }));
    CHECK(shape(t) == Shape{{0, 128}, {128, 128}});
    CHECK(t[0].lanes == 0x0000FFFFu);
  }
  SECTION("16-byte words (ld.v4.f32): one line per quarter-warp") {
    auto t = run(cc20(), warp_access(4, [](uint32_t l) { return 16 * l; }, 0xFFFFFFFFu, AccessKind::Load, 4));
    CHECK(shape(t) == Shape{{0, 128}, {128, 128}, {256, 128}, {384, 128}});
    CHECK(t[2].lanes == 0x00FF0000u);
  }
  SECTION("8-byte broadcast: each half-warp requests the line") {
    CHECK(shape(run(cc20(), warp_access(8, [](uint32_t) { return 40; }))) == Shape{{0, 128}, {0, 128}});
  }
  SECTION("8-byte words uncached: 32-byte segments per half-warp") {
    auto t = run(cc20(false), warp_access(8, [](uint32_t l) { return 8 * l; }));
    CHECK(t.size() == 8);
  }
}

TEST_CASE("cc 2.x word sizes, broadcast and partial warps", "[coalescer][cc2]") {
  CHECK(shape(run(cc20(), warp_access(1, [](uint32_t l) { return l; }))) == Shape{{0, 128}});
  CHECK(shape(run(cc20(), warp_access(2, [](uint32_t l) { return 2 * l; }))) == Shape{{0, 128}});
  CHECK(shape(run(cc20(), warp_access(4, [](uint32_t) { return 100; }))) == Shape{{0, 128}});
  CHECK(shape(run(cc20(false), warp_access(4, [](uint32_t) { return 100; }))) == Shape{{96, 32}});
  CHECK(shape(run(cc20(), warp_access(4, [](uint32_t l) { return 4 * l; }, lanes_mask(0, 20)))) ==
        Shape{{0, 128}});
  CHECK(shape(run(cc20(false), warp_access(4, [](uint32_t l) { return 4 * l; }, lanes_mask(0, 20)))) ==
        Shape{{0, 32}, {32, 32}, {64, 32}});
  CHECK(run(cc20(), warp_access(4, [](uint32_t l) { return 4 * l; }, 0)).empty());
}

TEST_CASE("cc 2.x stores go to L2: 32-byte segments", "[coalescer][cc2]") {
  auto store = [](uint64_t stride, uint64_t base) {
    return warp_access(4, [=](uint32_t l) { return base + 4 * stride * l; }, 0xFFFFFFFFu, AccessKind::Store);
  };
  SECTION("aligned sequential: 4 x 32B (segment32), 1 x 128B (line)") {
    CHECK(shape(run(cc20(), store(1, 0))) == Shape{{0, 32}, {32, 32}, {64, 32}, {96, 32}});
    CHECK(shape(run(cc20(true, L2OnlyTransactions::Line), store(1, 0))) == Shape{{0, 128}});
  }
  SECTION("stride 2: 8 x 32B (segment32), 2 lines (line)") {
    CHECK(run(cc20(), store(2, 0)).size() == 8);
    CHECK(shape(run(cc20(true, L2OnlyTransactions::Line), store(2, 0))) == Shape{{0, 128}, {128, 128}});
  }
  SECTION("stores ignore the L1 caching switch") {
    CHECK(run(cc20(false), store(1, 0)).size() == 4);
    CHECK(run(cc20(true), store(1, 0)).size() == 4);
  }
  SECTION("same-address stores write once") {
    auto t = run(cc20(), store(0, 64));
    CHECK(shape(t) == Shape{{64, 32}});
    CHECK(t[0].lanes == 0xFFFFFFFFu);
  }
  SECTION("sparse line: line counting sizes it 64 B for two used sectors") {
    auto a = warp_access(4, [](uint32_t l) { return l < 16 ? 0 : 96; }, 0xFFFFFFFFu, AccessKind::Store);
    auto t = run(cc20(true, L2OnlyTransactions::Line), a);
    REQUIRE(t.size() == 1);
    CHECK(t[0] == Transaction{0, 64, 0xFFFFFFFFu, 0b1001});
  }
}

TEST_CASE("cc 2.x atomics are performed in L2, one 32-byte transaction per access to a location",
          "[coalescer][cc2][atomic]") {
  SECTION("distinct consecutive words: 4 x 32B") {
    auto a = warp_access(4, [](uint32_t l) { return 4 * l; }, 0xFFFFFFFFu, AccessKind::Atomic);
    CHECK(shape(run(cc20(), a)) == Shape{{0, 32}, {32, 32}, {64, 32}, {96, 32}});
  }
  SECTION("one counter: 32 transactions") {
    auto a = warp_access(4, [](uint32_t) { return 256; }, 0xFFFFFFFFu, AccessKind::Atomic);
    CHECK(shape(run(cc20(), a)) == repeat(256, 32, 32));
  }
  SECTION("8 bins, 4 updates each: 4 transactions") {
    auto a = warp_access(4, [](uint32_t l) { return 4 * (l % 8); }, 0xFFFFFFFFu, AccessKind::Atomic);
    auto t = run(cc20(), a);
    CHECK(shape(t) == repeat(0, 32, 4));
    CHECK(t[0].lanes == 0x000000FFu);
  }
}

TEST_CASE("sector32: distinct 32-byte sectors per request", "[coalescer][sector32]") {
  struct Row { const char* what; uint32_t elem, vec; std::function<uint64_t(uint32_t)> addr; size_t sectors; };
  const Row rows[] = {
      {"aligned floats", 4, 1, [](uint32_t l) { return 4 * l; }, 4},
      {"floats misaligned by one word", 4, 1, [](uint32_t l) { return 132 + 4 * l; }, 5},
      {"floats, stride 2", 4, 1, [](uint32_t l) { return 8 * l; }, 8},
      {"floats, stride 8 (32 B)", 4, 1, [](uint32_t l) { return 32 * l; }, 32},
      {"doubles", 8, 1, [](uint32_t l) { return 8 * l; }, 8},
      {"float4", 4, 4, [](uint32_t l) { return 16 * l; }, 16},
      {"chars", 1, 1, [](uint32_t l) { return l; }, 1},
      {"broadcast", 4, 1, [](uint32_t) { return 200; }, 1},
  };
  for (const auto& r : rows) {
    CAPTURE(r.what);
    auto t = run(sector32(), warp_access(r.elem, r.addr, 0xFFFFFFFFu, AccessKind::Load, r.vec));
    CHECK(t.size() == r.sectors);
    for (const auto& x : t) CHECK(x.size == 32);
  }
  auto t = run(sector32(), warp_access(4, [](uint32_t l) { return 132 + 4 * l; }));
  CHECK(t[0] == Transaction{128, 32, 0x7Fu, 0x1});
  CHECK(t[4] == Transaction{256, 32, 0x80000000u, 0x1});
  auto at = warp_access(4, [](uint32_t) { return 0; }, lanes_mask(0, 3), AccessKind::Atomic);
  CHECK(run(sector32(), at).size() == 3);
}

TEST_CASE("segments: distinct aligned segments per sub-warp", "[coalescer][segments]") {
  CHECK(shape(run(segments(32, 128), warp_access(4, [](uint32_t l) { return 132 + 4 * l; }))) ==
        Shape{{128, 128}, {256, 128}});
  CHECK(shape(run(segments(16, 64), warp_access(4, [](uint32_t l) { return 4 * l; }))) ==
        Shape{{0, 64}, {64, 64}});
  CHECK(run(segments(8, 16), warp_access(4, [](uint32_t l) { return 4 * l; })).size() == 8);
  CHECK(run(segments(32, 256), warp_access(4, [](uint32_t l) { return 8 * l; })).front().sectors == 0);
}

TEST_CASE("The note's example: warp of 16, 64-byte segments, 1,024 threads", "[coalescer][segments]") {
  // 1,024 threads = 64 warps of 16 threads; A is a float array at a cudaMalloc-aligned address.
  const auto spec = segments(16, 64);
  const uint64_t A = 0x200000;
  auto total = [&](uint64_t stride, AccessKind kind) {
    uint32_t n = 0;
    for (uint32_t warp = 0; warp < 64; ++warp) {
      auto a = warp_access(4, [&](uint32_t lane) { return A + 4 * stride * (16 * warp + lane); }, 0xFFFFu, kind);
      n += warpsim::mem::transaction_count(spec, a);
    }
    return n;
  };
  SECTION("A[tid] += 2: 64 load transactions (and 64 stores)") {
    CHECK(total(1, AccessKind::Load) == 64);
    CHECK(total(1, AccessKind::Store) == 64);
  }
  SECTION("A[2*tid] += 2: 128 load transactions (and 128 stores)") {
    CHECK(total(2, AccessKind::Load) == 128);
    CHECK(total(2, AccessKind::Store) == 128);
  }
}

TEST_CASE("coalesce rejects spaces that are not coalesced", "[coalescer]") {
  auto a = warp_access(4, [](uint32_t l) { return 4 * l; });
  a.space = warpsim::isa::Space::Shared;
  std::vector<Transaction> out;
  CHECK_THROWS_AS(warpsim::mem::coalesce(cc20(), a, out), std::invalid_argument);
}
