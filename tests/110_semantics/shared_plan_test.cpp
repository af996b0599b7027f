// A full warp's shared accesses by plan (sm/shared_access_plan.hpp): the runs a pattern of
// addresses splits into, loads by runs equal to lane-by-lane loads on random patterns,
// and in a kernel, one ld.shared and one st.shared executed with changing patterns (the
// plan made again, or reused for a pattern seen just before at another base) give the
// values and the bank-conflict counts that the lanes one by one and shared_passes give.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "110_semantics/shared_fill_ptx.hpp"
#include "200_engine/ptx_fixture.hpp"
#include "sim/sm/shared_access_plan.hpp"
#include "sim/sm/shared_banks.hpp"

namespace {

using warpsim::sm::make_shared_plan;
using warpsim::sm::SharedAccessPlan;

std::vector<uint64_t> addresses(uint32_t (*word)(uint32_t)) {
  std::vector<uint64_t> a(32);
  for (uint32_t l = 0; l < 32; ++l) a[l] = 4ull * word(l);
  return a;
}

// A one-warp kernel around the accesses under test: it fills `words` words of shared
// memory (word w = w * 2654435761), runs `loads` iterations of `load_body` (the table's
// byte offset of the iteration and lane in %r6, its index in %r5, %rd3 = 4 * %r5), then
// `stores` iterations of `store_body` (the offsets after the loads' in the table), and
// copies the shared words to out[dump + w].
std::string plans_kernel(const std::string& name, uint32_t words, int loads, const std::string& load_body,
                         int stores, const std::string& store_body, uint32_t dump) {
  const std::string rows = std::to_string(words / 32);
  return ptxtest::module(".visible .entry " + name + R"((.param .u64 tab, .param .u64 out)
{
  .reg .b32 %r<24>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  .shared .align 16 .b8 sm[)" + std::to_string(4 * words) + R"(];
)" + ptxtest::fill_shared_words(words / 32) + R"(
  mov.u32 %r3, 0;
LOADS:
  shl.b32 %r4, %r3, 5;
  add.s32 %r5, %r4, %r1;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r6, [%rd4];
  add.s32 %r7, %r2, %r6;
)" + load_body + R"(
  add.s32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, )" + std::to_string(loads) + R"(;
  @%p1 bra LOADS;
  bar.sync 0;
  mov.u32 %r3, 0;
STORES:
  add.s32 %r4, %r3, )" + std::to_string(loads) + R"(;
  shl.b32 %r4, %r4, 5;
  add.s32 %r5, %r4, %r1;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r6, [%rd4];
  add.s32 %r7, %r2, %r6;
  mad.lo.u32 %r9, %r3, 100, %r1;
)" + store_body + R"(
  add.s32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, )" + std::to_string(stores) + R"(;
  @%p1 bra STORES;
  bar.sync 0;
  mov.u32 %r3, 0;
DUMP:
  shl.b32 %r4, %r3, 5;
  add.s32 %r5, %r4, %r1;
  shl.b32 %r7, %r5, 2;
  add.s32 %r8, %r2, %r7;
  ld.shared.u32 %r6, [%r8];
  add.s32 %r10, %r5, )" + std::to_string(dump) + R"(;
  mul.wide.u32 %rd3, %r10, 4;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r6;
  add.s32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, )" + rows + R"(;
  @%p1 bra DUMP;
  ret;
}
)");
}

}  // namespace

TEST_CASE("shared access plans: the runs of a warp's addresses", "[semantics][memory][shared]") {
  SharedAccessPlan p;
  make_shared_plan(addresses([](uint32_t l) { return l + 3; }).data(), 4, p);
  REQUIRE(p.nruns == 1);
  CHECK(p.runs[0].first == 0);
  CHECK(p.runs[0].count == 32);
  CHECK(!p.runs[0].same_address);
  CHECK(p.delta[31] == 124);
  CHECK(p.halves == 0);  // one run: not the two-halves shape

  // A tiled kernel's row operand (two rows of a 16x16 block: one address per half-warp)...
  make_shared_plan(addresses([](uint32_t l) { return l < 16 ? 5u : 21u; }).data(), 4, p);
  REQUIRE(p.nruns == 2);
  CHECK((p.runs[0].first == 0 && p.runs[0].count == 16 && p.runs[0].same_address));
  CHECK((p.runs[1].first == 16 && p.runs[1].count == 16 && p.runs[1].same_address));
  CHECK(p.halves == (SharedAccessPlan::kHalves | SharedAccessPlan::kFirstSame | SharedAccessPlan::kSecondSame));

  // ... and its column operand (both half-warps read the same 16 consecutive words).
  make_shared_plan(addresses([](uint32_t l) { return l % 16; }).data(), 4, p);
  REQUIRE(p.nruns == 2);
  CHECK((p.runs[1].first == 16 && p.runs[1].count == 16 && !p.runs[1].same_address));
  CHECK(p.delta[16] == 0);
  CHECK(p.halves == SharedAccessPlan::kHalves);
  // A row half and a column half; halves of 8 and 24 lanes are not the shape.
  make_shared_plan(addresses([](uint32_t l) { return l < 16 ? 40 + l : 9u; }).data(), 4, p);
  CHECK(p.halves == (SharedAccessPlan::kHalves | SharedAccessPlan::kSecondSame));
  make_shared_plan(addresses([](uint32_t l) { return l < 8 ? 40 + l : 9u; }).data(), 4, p);
  CHECK(p.nruns == 2);
  CHECK(p.halves == 0);

  // Consecutive 8-byte words are a run for 8-byte elements, not for 4-byte ones.
  make_shared_plan(addresses([](uint32_t l) { return 2 * l; }).data(), 8, p);
  CHECK(p.nruns == 1);
  make_shared_plan(addresses([](uint32_t l) { return 2 * l; }).data(), 4, p);
  CHECK(p.nruns == 0);  // 32 runs of one lane: more than kMaxRuns

  // Eight runs are kept; a ninth makes the plan lane by lane.
  make_shared_plan(addresses([](uint32_t l) { return (l / 4) * 100 + l % 4; }).data(), 4, p);
  CHECK(p.nruns == 8);
  make_shared_plan(addresses([](uint32_t l) { return l < 28 ? (l / 4) * 100 + l % 4 : 1000 + 7 * l; }).data(), 4, p);
  CHECK(p.nruns == 0);
}

TEST_CASE("shared access plans: loads by runs equal loads lane by lane, and offsets compare against the deltas",
          "[semantics][memory][shared]") {
  std::mt19937_64 rng(12345);
  std::vector<uint8_t> sh(4096);
  for (auto& b : sh) b = uint8_t(rng());
  int with_runs = 0, with_halves = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    // Random runs of random lengths, each at one word or at consecutive words.
    std::vector<uint64_t> addr(32);
    for (uint32_t l = 0; l < 32;) {
      const uint32_t n = std::min<uint32_t>(32 - l, 1 + uint32_t(rng() % (trial % 3 == 0 ? 32 : 12)));
      const uint64_t start = 4 * (rng() % 960);
      const bool same = rng() % 2;
      for (uint32_t k = 0; k < n; ++k) addr[l + k] = start + (same ? 0 : 4 * k);
      l += n;
    }
    if (trial % 5 == 0) {
      // Two half-warp runs, each at one word or at consecutive words.
      for (uint32_t h = 0; h < 2; ++h) {
        const uint64_t start = 4 * (rng() % 960);
        const bool same = rng() % 2;
        for (uint32_t k = 0; k < 16; ++k) addr[16 * h + k] = start + (same ? 0 : 4 * k);
      }
    }
    SharedAccessPlan p;
    make_shared_plan(addr.data(), 4, p);
    if (p.nruns == 0) continue;
    ++with_runs;
    with_halves += p.halves != 0;
    std::vector<uint64_t> got(32, 0xDEADull), want(32);
    warpsim::sm::load_runs_u32(p, sh.data() + addr[0], got.data());
    for (int l = 0; l < 32; ++l) {
      uint32_t x;
      std::memcpy(&x, sh.data() + addr[l], 4);
      want[l] = x;
    }
    INFO("trial " << trial << ", runs " << int(p.nruns));
    REQUIRE(got == want);

    // The same lanes from a base register and an offset: no difference against the plan's
    // deltas; one lane moved, a difference.
    std::vector<uint64_t> base(32), out(32);
    for (int l = 0; l < 32; ++l) base[l] = addr[l] + 0xFFFFFF00ull;  // wraps to 32 bits with the offset
    uint64_t differs = 1;
    const uint64_t any = warpsim::sm::full_warp_offsets_against(base.data(), 0x100, p.delta.data(), out.data(),
                                                                differs);
    CHECK(differs == 0);
    CHECK(out == addr);
    uint64_t all = 0;
    for (uint64_t a : addr) all |= a;
    CHECK(any == all);

    // The same lanes again, loaded by the plan without their addresses: the same values,
    // lane 0's offset back; anywhere else at the same offsets, that place's values.
    p.pattern = 1;
    std::vector<uint64_t> by_plan(32, 0xDEADull);
    uint64_t lane0 = 0;
    lane0 = warpsim::sm::load_u32_by_plan(p, base.data(), 0x100, sh.data(), sh.size(), by_plan.data());
    CHECK(lane0 == addr[0]);
    CHECK(by_plan == want);
    // Known to sit at the plan's offsets: lane 0 alone gives the same load.
    std::vector<uint64_t> by_known(32, 0xDEADull);
    lane0 = warpsim::sm::load_u32_by_known_plan(p, base[0], 0x100, sh.data(), sh.size(), by_known.data());
    CHECK(lane0 == addr[0]);
    CHECK(by_known == want);
    // The destination register the base register (ld.shared.u32 %r1, [%r1]).
    std::vector<uint64_t> in_place = base;
    REQUIRE(warpsim::sm::load_u32_by_plan(p, in_place.data(), 0x100, sh.data(), sh.size(), in_place.data()) ==
            addr[0]);
    CHECK(in_place == want);
    const int64_t room = int64_t(sh.size()) - 4 - p.max_delta - int64_t(addr[0]);
    const int64_t shift = 4 * (int64_t(rng() % 64) - 32);
    if (int64_t(addr[0]) + p.min_delta + shift >= 0 && shift <= room) {
      std::vector<uint64_t> moved(32);
      for (int l = 0; l < 32; ++l) moved[l] = base[l] + uint64_t(shift);
      lane0 = warpsim::sm::load_u32_by_plan(p, moved.data(), 0x100, sh.data(), sh.size(), by_plan.data());
      REQUIRE(lane0 == addr[0] + uint64_t(shift));
      for (int l = 0; l < 32; ++l) {
        uint32_t x;
        std::memcpy(&x, sh.data() + addr[l] + shift, 4);
        CHECK(by_plan[l] == x);
      }
    }
    // Nothing loaded where it does not hold: misaligned, past the end, before the start
    // (a lane wrapped), or a lane moved.
    std::vector<uint64_t> untouched(32, 0xBEEFull);
    auto refused = [&](const std::vector<uint64_t>& b, uint64_t off, uint64_t limit) {
      std::vector<uint64_t> d = untouched;
      const bool took =
          warpsim::sm::load_u32_by_plan(p, b.data(), off, sh.data(), limit, d.data()) != warpsim::sm::kNotByPlan;
      return !took && d == untouched;
    };
    CHECK(refused(base, 0x102, sh.size()));
    CHECK(refused(base, 0x100, addr[0] + p.max_delta + 3));
    CHECK(!refused(base, 0x100, addr[0] + p.max_delta + 4));
    // And by lane 0 alone the same bounds: misaligned, past the end, a lane before the start.
    auto refused_known = [&](uint64_t off, uint64_t limit) {
      std::vector<uint64_t> d = untouched;
      const bool took =
          warpsim::sm::load_u32_by_known_plan(p, base[0], off, sh.data(), limit, d.data()) != warpsim::sm::kNotByPlan;
      return !took && d == untouched;
    };
    CHECK(refused_known(0x102, sh.size()));
    CHECK(refused_known(0x100, addr[0] + p.max_delta + 3));
    CHECK(!refused_known(0x100, addr[0] + p.max_delta + 4));
    if (p.min_delta < 0) CHECK(refused_known(0x100 - addr[0] + uint64_t(-p.min_delta) - 4, sh.size()));
    CHECK(refused_known(0x100 - addr[0] - 4, sh.size()));
    // Lane 0 low enough that the lowest lane is at -4 (wrapped to 2^32 - 4).
    if (p.min_delta < 0) CHECK(refused(base, 0x100 - addr[0] + uint64_t(-p.min_delta) - 4, sh.size()));
    CHECK(refused(base, 0x100 - addr[0] - 4, sh.size()));  // lane 0 at -4, wrapped to 2^32 - 4
    base[rng() % 32] += 4;
    warpsim::sm::full_warp_offsets_against(base.data(), 0x100, p.delta.data(), out.data(), differs);
    CHECK(differs != 0);
    CHECK(refused(base, 0x100, sh.size()));
  }
  CHECK(with_runs > 500);
  CHECK(with_halves > 300);
}

TEST_CASE("a kernel's shared load and store at one pc with changing patterns: values and bank conflicts",
          "[semantics][memory][shared]") {
  // Byte offsets per iteration and lane: eight load patterns (a pattern twice in a row, at
  // another base, or the same base: the plan reused), then six store patterns (overlapping
  // runs, one address for many lanes, lane by lane).
  using Word = uint32_t (*)(uint32_t);
  const std::vector<Word> loads = {
      [](uint32_t l) { return l; },
      [](uint32_t l) { return 8 + l; },
      [](uint32_t l) { return l < 16 ? 5u : 21u; },
      [](uint32_t l) { return l < 16 ? 5u : 21u; },
      [](uint32_t l) { return l < 16 ? l : 16 + l; },  // two rows in the same banks: 2 passes
      [](uint32_t l) { return 2 * l; },                // stride 2: 2 passes, lane by lane
      [](uint32_t l) { return l < 16 ? 64 + l : 80 + l; },
      [](uint32_t l) { return l < 16 ? 64 + l : 80 + l; },
  };
  const std::vector<Word> stores = {
      [](uint32_t l) { return l; },
      [](uint32_t l) { return l < 16 ? 3u : 40u; },
      [](uint32_t l) { return 50 + l % 16; },
      [](uint32_t l) { return 70 + l % 16; },
      [](uint32_t l) { return 127 - l; },
      [](uint32_t l) { return l < 8 ? 100 + l : 100u; },
  };
  std::vector<uint32_t> table;
  for (Word f : loads)
    for (uint32_t l = 0; l < 32; ++l) table.push_back(4 * f(l));
  for (Word f : stores)
    for (uint32_t l = 0; l < 32; ++l) table.push_back(4 * f(l));

  static ptxtest::Sim s;
  const std::string text = plans_kernel("plans", 128, 8, R"(
  ld.shared.u32 %r8, [%r7];
  ld.shared.s16 %r11, [%r7+2];
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r8;
  st.global.u32 [%rd5+2048], %r11;)",
                                        6, "  st.shared.u32 [%r7], %r9;", 256);
  const auto& k = s.kernel(text, "plans", "shared_plans.ptx");
  auto dtab = s.upload(table);
  auto dout = s.upload(std::vector<uint32_t>(768, 0));
  const warpsim::LaunchStats st = s.run(k, {1, 1, 1}, {32, 1, 1}, {ptxtest::ptr(dtab), ptxtest::ptr(dout)});
  const std::vector<uint32_t> out = s.download<uint32_t>(dout, 768);

  auto init = [](uint32_t w) { return uint32_t(w * 2654435761u); };
  std::vector<uint32_t> mem(128);
  for (uint32_t w = 0; w < 128; ++w) mem[w] = init(w);
  for (size_t i = 0; i < loads.size(); ++i)
    for (uint32_t l = 0; l < 32; ++l) {
      INFO("load pattern " << i << ", lane " << l);
      const uint32_t w = loads[i](l);
      CHECK(out[i * 32 + l] == mem[w]);
      CHECK(out[512 + i * 32 + l] == uint32_t(int32_t(int16_t(mem[w] >> 16))));
    }
  for (size_t i = 0; i < stores.size(); ++i)
    for (uint32_t l = 0; l < 32; ++l) mem[stores[i](l)] = uint32_t(i * 100 + l);  // lane order
  for (uint32_t w = 0; w < 128; ++w) {
    INFO("word " << w);
    CHECK(out[256 + w] == mem[w]);
  }

  // Loads: the eight patterns as u32 and s16, then the four rows of the dump. The
  // u32 patterns by hand (C2070: 32 banks of 4 bytes): 1, 1, 1, 1, 2, 2, 2, 2 passes.
  warpsim::mem::WarpMemAccess a;
  uint64_t passes = 0, conflicts = 0;
  for (size_t i = 0; i < loads.size(); ++i)
    for (uint32_t bytes : {4u, 2u}) {
      a.set(warpsim::isa::Space::Shared, warpsim::mem::AccessKind::Load, bytes, 1, 0xFFFFFFFFu);
      for (uint32_t l = 0; l < 32; ++l) a.addr[l] = 4 * loads[i](l) + (bytes == 2 ? 2 : 0);
      const auto p = warpsim::sm::shared_passes(ptxtest::c2070().shared, a);
      passes += p.passes;
      conflicts += p.conflicts();
      if (bytes == 4) CHECK(p.passes == (i < 4 ? 1u : 2u));
    }
  const warpsim::MemStats& m = st.mem;
  CHECK(st.exec.shared_load_requests == 8 * 2 + 4);
  CHECK(m.shared_load_transactions == passes + 4);
  CHECK(m.shared_load_bank_conflicts == conflicts);
  CHECK(m.shared_load_transactions == 12 + 12 + 4);
  CHECK(m.shared_load_bank_conflicts == 4 + 4);
}

TEST_CASE("a kernel's vector shared load and store at one pc with changing patterns: values and bank conflicts",
          "[semantics][memory][shared]") {
  // ld.shared.v4.u32 (one element a sink) at 16-byte slots q, st.shared.v2.u32 at 8-byte
  // slots o, per iteration and lane from the table: runs at one slot, consecutive slots,
  // overlapping runs, and lane by lane.
  using Slot = uint32_t (*)(uint32_t);
  const std::vector<Slot> loads = {
      [](uint32_t l) { return l; },
      [](uint32_t l) { return l < 16 ? 3u : 9u; },
      [](uint32_t l) { return l < 16 ? 3u : 9u; },
      [](uint32_t l) { return 127 - l; },
      [](uint32_t l) { return 64 + l % 16; },
  };
  const std::vector<Slot> stores = {
      [](uint32_t l) { return l; },
      [](uint32_t l) { return l < 16 ? 5u : 200u; },
      [](uint32_t l) { return 100 + l % 8; },
      [](uint32_t l) { return 255 - l; },
  };
  std::vector<uint32_t> table;
  for (Slot f : loads)
    for (uint32_t l = 0; l < 32; ++l) table.push_back(16 * f(l));
  for (Slot f : stores)
    for (uint32_t l = 0; l < 32; ++l) table.push_back(8 * f(l));

  static ptxtest::Sim s;
  const std::string text = plans_kernel("vplans", 512, 5, R"(
  mov.u32 %r10, 7;
  ld.shared.v4.u32 {%r8, %r9, _, %r11}, [%r7];
  mul.wide.u32 %rd3, %r5, 16;
  add.s64 %rd5, %rd2, %rd3;
  st.global.v4.u32 [%rd5], {%r8, %r9, %r10, %r11};)",
                                        4, R"(
  add.s32 %r12, %r9, 50;
  st.shared.v2.u32 [%r7], {%r9, %r12};)", 1024);
  const auto& k = s.kernel(text, "vplans", "shared_vector_plans.ptx");
  auto dtab = s.upload(table);
  auto dout = s.upload(std::vector<uint32_t>(1536, 0));
  const warpsim::LaunchStats st = s.run(k, {1, 1, 1}, {32, 1, 1}, {ptxtest::ptr(dtab), ptxtest::ptr(dout)});
  const std::vector<uint32_t> out = s.download<uint32_t>(dout, 1536);

  std::vector<uint32_t> mem(512);
  for (uint32_t w = 0; w < 512; ++w) mem[w] = uint32_t(w * 2654435761u);
  for (size_t i = 0; i < loads.size(); ++i)
    for (uint32_t l = 0; l < 32; ++l) {
      INFO("load pattern " << i << ", lane " << l);
      const uint32_t w = 4 * loads[i](l);
      const size_t o = (i * 32 + l) * 4;
      CHECK(out[o] == mem[w]);
      CHECK(out[o + 1] == mem[w + 1]);
      CHECK(out[o + 2] == 7u);  // the sink left %r10 alone
      CHECK(out[o + 3] == mem[w + 3]);
    }
  for (size_t i = 0; i < stores.size(); ++i)
    for (uint32_t l = 0; l < 32; ++l) {  // lane order
      mem[2 * stores[i](l)] = uint32_t(i * 100 + l);
      mem[2 * stores[i](l) + 1] = uint32_t(i * 100 + l + 50);
    }
  for (uint32_t w = 0; w < 512; ++w) {
    INFO("word " << w);
    CHECK(out[1024 + w] == mem[w]);
  }

  warpsim::mem::WarpMemAccess a;
  uint64_t load_passes = 16, store_passes = 16;  // the dump's and the initial rows: one each
  for (size_t i = 0; i < loads.size(); ++i) {
    a.set(warpsim::isa::Space::Shared, warpsim::mem::AccessKind::Load, 4, 4, 0xFFFFFFFFu);
    for (uint32_t l = 0; l < 32; ++l) a.addr[l] = 16 * loads[i](l);
    load_passes += warpsim::sm::shared_passes(ptxtest::c2070().shared, a).passes;
  }
  for (size_t i = 0; i < stores.size(); ++i) {
    a.set(warpsim::isa::Space::Shared, warpsim::mem::AccessKind::Store, 4, 2, 0xFFFFFFFFu);
    for (uint32_t l = 0; l < 32; ++l) a.addr[l] = 8 * stores[i](l);
    store_passes += warpsim::sm::shared_passes(ptxtest::c2070().shared, a).passes;
  }
  CHECK(st.exec.shared_load_requests == 5 + 16);
  CHECK(st.exec.shared_store_requests == 16 + 4);
  CHECK(st.mem.shared_load_transactions == load_passes);
  CHECK(st.mem.shared_store_transactions == store_passes);
}
