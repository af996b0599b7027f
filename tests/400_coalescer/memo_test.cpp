// MemoryCounter keeps, per pc, the transactions of a full warp's last global accesses and
// reuses them, moved, for the same lane pattern at another place that is a multiple of
// the rules' largest unit away. On every rule set, random sequences of accesses (a few
// patterns at one pc, at places that do and do not keep lane 0's place in its 128-byte
// line, with kinds, element sizes and cache operators changing) must give exactly what
// the coalescer gives each access, and the same counts.
#include <random>

#include "sim/isa/ir.hpp"
#include "sim/memory/memory_counter.hpp"
#include "sim/spec/device_spec.hpp"
#include "tests/400_coalescer/coalescer_fixtures.hpp"

using namespace warpsim::test;

namespace {

struct RuleCase {
  const char* name;
  CoalescerSpec spec;
};

}  // namespace

TEST_CASE("coalescing: a pc's remembered transactions equal the coalescer's for every access", "[coalescer]") {
  warpsim::DeviceSpec device = warpsim::load_device_spec(WARPSIM_SOURCE_DIR "/configs/c2070.json");
  device.has_l1 = false;
  device.has_l2 = false;
  const std::vector<RuleCase> rules = {
      {"cc1.0", cc10()},
      {"cc1.3", cc13()},
      {"cc2.0 L1", cc20(true)},
      {"cc2.0 L2 lines", cc20(false, L2OnlyTransactions::Line)},
      {"sector32", sector32()},
      {"segments 256", segments(32, 256)},
      {"segments 32", segments(8, 32)},
  };
  // Lane patterns in elements: consecutive, two rows, a broadcast, strided, reversed,
  // permuted within a row, and misaligned rows (element offsets that cross units).
  using Pattern = int64_t (*)(uint32_t);
  const std::vector<Pattern> patterns = {
      [](uint32_t l) { return int64_t(l); },
      [](uint32_t l) { return int64_t(l % 16 + (l / 16) * 512); },
      [](uint32_t) { return int64_t(0); },
      [](uint32_t l) { return int64_t(3 * l); },
      [](uint32_t l) { return int64_t(31 - l); },
      [](uint32_t l) { return int64_t((l * 7) % 32); },
      [](uint32_t l) { return int64_t(l % 16 + (l / 16) * 37); },
  };
  // The place a memo is reused at: whole 128-byte lines, or a larger segments rule's segment.
  CHECK(warpsim::mem::largest_unit_bytes(cc13()) == 128);
  CHECK(warpsim::mem::largest_unit_bytes(cc20(false, L2OnlyTransactions::Line)) == 128);
  CHECK(warpsim::mem::largest_unit_bytes(segments(8, 32)) == 128);
  CHECK(warpsim::mem::largest_unit_bytes(segments(32, 256)) == 256);
  std::mt19937_64 rng(2026);
  for (const RuleCase& rc : rules) {
    device.coalescer = rc.spec;
    warpsim::LaunchStats memo_stats, plain_stats;
    memo_stats.per_pc.resize(4);
    plain_stats.per_pc.resize(4);
    warpsim::MemoryCounter counter(device, memo_stats, 32, 1 << 20, false);
    warpsim::isa::Instr in;
    uint64_t hits_possible = 0;
    for (int i = 0; i < 3000; ++i) {
      const uint32_t pc = uint32_t(rng() % 4);
      const Pattern p = patterns[(pc + (rng() % 8 == 0 ? rng() : 0)) % patterns.size()];
      const uint32_t eb = rng() % 6 == 0 ? 8 : rng() % 6 == 0 ? 2 : 4;
      const uint32_t vec = eb == 4 && rng() % 8 == 0 ? 4 : 1;
      // Lane 0 within 64 KB, moved by whole lines, half lines, sectors or elements.
      const uint64_t step = std::vector<uint64_t>{128, 128, 128, 64, 32, eb * vec}[rng() % 6];
      const uint64_t base = (uint64_t(1) << 32) + 4096 + step * (rng() % 256);
      WarpMemAccess a = warp_access(eb, [&](uint32_t l) { return base + uint64_t(p(l) * int64_t(eb * vec)); },
                                    0xFFFFFFFFu, rng() % 5 == 0 ? AccessKind::Store : AccessKind::Load, vec);
      if (rng() % 7 == 0) a.cache = warpsim::isa::CacheOp::Cg;
      if (rng() % 10 == 0) a.mask = 0x0000FFFFu;  // not remembered: coalesced every time
      counter.on_access(a, in, pc, 0, 0);
      const std::vector<Transaction> want = run(rc.spec, a);
      INFO(rc.name << ", access " << i << ", pc " << pc << ", lane 0 at " << base);
      REQUIRE(counter.last_transactions() == want);
      hits_possible += step == 128;
      plain_stats.mem.gld_transactions += a.kind == AccessKind::Load ? want.size() : 0;
      plain_stats.mem.gst_transactions += a.kind == AccessKind::Store ? want.size() : 0;
    }
    CHECK(hits_possible > 1000);
    CHECK(memo_stats.mem.gld_transactions == plain_stats.mem.gld_transactions);
    CHECK(memo_stats.mem.gst_transactions == plain_stats.mem.gst_transactions);
  }
}
