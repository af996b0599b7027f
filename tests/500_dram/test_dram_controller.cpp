// Channel controller behaviour through DramSystem: exact latencies, row-hit streams at peak,
// refresh overhead, scheduler order, page policy, bounded queues, multi-burst requests,
// statistics and determinism under idle skipping.
#include <catch2/catch.hpp>

#include <functional>
#include <random>

#include "dram_test_util.hpp"
#include "sim/foundation/error.hpp"

using namespace dramtest;
using Catch::Matchers::Contains;

namespace {

// The first atom-aligned address (scanning upward) whose decode satisfies `pred`.
uint64_t find_addr(const DramSpec& s, const std::function<bool(const DramAddress&)>& pred) {
  AddressMap m(s);
  for (uint64_t a = 0; a < (uint64_t(1) << 32); a += s.atom_bytes())
    if (pred(m.decode(a))) return a;
  FAIL("no address found");
  return 0;
}

// `n` addresses of one open row: channel 0, `bank`, row 0, cycling through the columns.
std::vector<uint64_t> row_addresses(const DramSpec& s, uint32_t bank) {
  AddressMap m(s);
  std::vector<uint64_t> v;
  for (uint64_t a = 0; v.size() < s.columns; a += s.atom_bytes()) {
    DramAddress d = m.decode(a);
    if (d.channel == 0 && d.bank == bank && d.row == 0) v.push_back(a);
  }
  return v;
}

DramStats stats_of(const DramSystem& sys, uint64_t elapsed) {
  DramStats st;
  sys.fill_stats(st, elapsed);
  return st;
}

}  // namespace

TEST_CASE("Isolated accesses complete after exactly their command latencies", "[dram][controller]") {
  for (const char* name : {"fx5800", "c2070"}) {
    for (bool every_cycle : {false, true}) {
      INFO(name << (every_cycle ? " ticking every cycle" : " with idle skipping"));
      DramSpec s = preset(name);
      const DramTimingSpec& t = s.timing;
      const uint64_t bl = s.burst_cycles();
      AddressMap m(s);
      const DramAddress d0 = m.decode(0);
      const uint64_t other_row = find_addr(s, [&](const DramAddress& d) {
        return d.channel == d0.channel && d.bank == d0.bank && d.row != d0.row;
      });
      const uint64_t other_bank = find_addr(s, [&](const DramAddress& d) {
        return d.channel == d0.channel && d.bank != d0.bank;
      });
      DramSystem sys(s);
      auto c = run(sys,
                   {
                       {5, 0},                   // closed bank
                       {1000, 0},                // row hit
                       {2000, other_row},        // row conflict
                       {3000, other_row, true},  // write, row hit
                       {4000, 0, true},          // write, row conflict
                       {5000, other_bank, true}, // write, closed bank
                   },
                   every_cycle);
      CHECK(c[0].cycle == 5 + t.tRCD + t.tCL + bl);
      CHECK(c[1].cycle == 1000 + t.tCL + bl);
      CHECK(c[2].cycle == 2000 + t.tRP + t.tRCD + t.tCL + bl);
      CHECK(c[3].cycle == 3000 + t.tWL + bl);
      CHECK(c[4].cycle == 4000 + t.tRP + t.tRCDWR + t.tWL + bl);
      CHECK(c[5].cycle == 5000 + t.tRCDWR + t.tWL + bl);
      CHECK(c[3].write);
      DramStats st = stats_of(sys, 6000);
      CHECK(st.row_hits == 2);
      CHECK(st.row_misses == 2);
      CHECK(st.row_conflicts == 2);
      CHECK(st.activates == 4);
      CHECK(st.precharges == 2);
      CHECK(st.bank_level_parallelism == 1.0);  // never two banks busy at once
      CHECK(st.average_read_latency_dram_cycles ==
            Approx(double(3 * t.tCL + 2 * t.tRCD + t.tRP + 3 * bl) / 3));
    }
  }
}

TEST_CASE("A long row-hit stream reaches the channel's peak bandwidth", "[dram][controller]") {
  SECTION("FX5800: exactly tRCD + tCL + N bursts") {
    DramSpec s = preset("fx5800");
    const auto row = row_addresses(s, 0);
    const uint64_t n = 1000;
    std::vector<Arrival> reqs;
    for (uint64_t i = 0; i < n; ++i) reqs.push_back({0, row[i % row.size()]});
    DramSystem sys(s);
    auto c = run(sys, reqs);
    const uint64_t end = s.timing.tRCD + s.timing.tCL + n * s.burst_cycles();
    CHECK(c.back().cycle == end);
    DramStats st = stats_of(sys, end);
    CHECK(st.channels[0].busy_cycles == n * s.burst_cycles());
    CHECK(st.row_hits == n - 1);
    CHECK(st.row_misses == 1);
    CHECK(st.read_transactions == n);
    const double channel_peak = s.peak_bandwidth_gbps() / s.channels;
    CHECK(st.achieved_bandwidth_gbps == Approx(channel_peak * double(n * 2) / double(end)));
    CHECK(st.channels[0].utilization == Approx(2000.0 / 2022.0));
  }
  SECTION("C2070: alternating bank groups hide tCCDL") {
    DramSpec s = preset("c2070");
    const auto a = row_addresses(s, 0), b = row_addresses(s, 4);  // groups 0 and 1
    const uint64_t n = 4000;
    std::vector<Arrival> reqs;
    for (uint64_t i = 0; i < n; ++i) reqs.push_back({0, (i % 2 ? b : a)[(i / 2) % a.size()]});
    DramSystem sys(s);
    auto c = run(sys, reqs);
    DramStats st = stats_of(sys, c.back().cycle);
    CHECK(st.channels[0].utilization > 0.99);
    CHECK(st.channels[0].busy_cycles == n * 2);
    // The same stream in one bank group is held to one burst per tCCDL = 3 cycles.
    std::vector<Arrival> same;
    for (uint64_t i = 0; i < n; ++i) same.push_back({0, a[i % a.size()]});
    DramSystem sys2(s);
    auto c2 = run(sys2, same);
    CHECK(c2.back().cycle == s.timing.tRCD + (n - 1) * s.timing.tCCDL + s.timing.tCL + 2);
  }
}

TEST_CASE("Refresh costs the row-hit stream tRP + tRFC + tRCD per tREFI", "[dram][controller][refresh]") {
  DramSpec s = preset("fx5800", {"dram.timing.tREFI=3120", "dram.timing.tRFC=88"});
  const auto row = row_addresses(s, 0);
  const uint64_t n = 30000;
  std::vector<Arrival> reqs;
  for (uint64_t i = 0; i < n; ++i) reqs.push_back({0, row[i % row.size()]});
  DramSystem sys(s);
  auto c = run(sys, reqs);
  const uint64_t end = c.back().cycle;
  DramStats st = stats_of(sys, end);
  const uint64_t refreshes = st.channels[0].refreshes;
  CHECK(refreshes == end / 3120);
  const uint64_t per_refresh = s.timing.tRP + 88 + s.timing.tRCD;
  CHECK(end == s.timing.tRCD + s.timing.tCL + 2 * n + refreshes * per_refresh);
  const double util = st.channels[0].utilization;
  CHECK(util < 1.0 - 88.0 / 3120);
  CHECK(util > 1.0 - double(per_refresh) / 3120 - 0.001);
  // Idle channels refresh too, so with refresh on there is always a next event.
  CHECK(sys.next_event_cycle() < UINT64_MAX);
  CHECK(st.channels[1].refreshes == st.channels[0].refreshes);
}

TEST_CASE("FR-FCFS serves a younger row hit before an older conflict, FCFS does not",
          "[dram][controller][scheduler]") {
  // Channel 0, bank 0: A row 0, B row 1, C row 0 (FX5800 addresses).
  const std::vector<Arrival> reqs = {{0, 0x0}, {1, 0x20000}, {2, 0x20}};
  SECTION("fr-fcfs") {
    DramSystem sys(preset("fx5800"));
    auto c = run(sys, reqs);
    CHECK(c[0].cycle == 24);  // ACT 0, RD 12
    CHECK(c[2].cycle == 26);  // RD 14
    CHECK(c[1].cycle == 59);  // PRE 25 (tRAS), ACT 35, RD 47
    DramStats st = stats_of(sys, 59);
    CHECK(st.row_hits == 1);
    CHECK(st.row_misses == 1);
    CHECK(st.row_conflicts == 1);
  }
  SECTION("fcfs") {
    DramSystem sys(preset("fx5800", {"dram.scheduler=fcfs"}));
    auto c = run(sys, reqs);
    CHECK(c[0].cycle == 24);
    CHECK(c[1].cycle == 59);
    CHECK(c[2].cycle == 94);  // PRE 60 (tRAS after ACT 35), ACT 70, RD 82
    DramStats st = stats_of(sys, 94);
    CHECK(st.row_hits == 0);
    CHECK(st.row_misses == 1);
    CHECK(st.row_conflicts == 2);
  }
}

TEST_CASE("fr-fcfs-wd holds writes behind reads, then drains them in a batch", "[dram][controller][scheduler]") {
  // Channel 0, bank 0, row 0 (FX5800 addresses): an older write and a younger read hit the
  // same row. FR-FCFS serves the older first; fr-fcfs-wd the read, the write when no read is left.
  const std::vector<Arrival> pair = {{0, 0x0, true}, {1, 0x20}};
  {
    DramSystem sys(preset("fx5800"));
    auto c = run(sys, pair);
    CHECK(c[0].cycle < c[1].cycle);
  }
  {
    DramSystem sys(preset("fx5800", {"dram.scheduler=fr-fcfs-wd"}));
    auto c = run(sys, pair);
    CHECK(c[1].cycle < c[0].cycle);
  }
  // Eight writes (half the queue of 16) arrive, then reads keep coming: the writes are
  // drained down to two (an eighth) while the reads wait, so six writes finish before the
  // first read that arrived after them; the last two wait for the reads.
  std::vector<Arrival> reqs;
  for (int i = 0; i < 8; ++i) reqs.push_back({0, uint64_t(i) * 0x20, true});
  for (int i = 0; i < 6; ++i) reqs.push_back({1, 0x400 + uint64_t(i) * 0x20});
  DramSystem sys(preset("fx5800", {"dram.scheduler=fr-fcfs-wd"}));
  auto c = run(sys, reqs);
  const uint64_t first_read = std::min_element(c.begin() + 8, c.end(), [](auto& a, auto& b) { return a.cycle < b.cycle; })->cycle;
  int before = 0;
  for (int i = 0; i < 8; ++i) before += c[i].cycle < first_read;
  CHECK(before == 6);
}

TEST_CASE("Closed-page policy precharges after each request unless the row is wanted",
          "[dram][controller]") {
  SECTION("a later access to the same row is a miss") {
    DramSystem closed(preset("fx5800", {"dram.page_policy=closed"}));
    auto c = run(closed, {{0, 0x0}, {1000, 0x20}});
    CHECK(c[1].cycle == 1000 + 12 + 10 + 2);
    DramStats st = stats_of(closed, c[1].cycle);
    CHECK(st.row_misses == 2);
    CHECK(st.precharges == 2);
    DramSystem open(preset("fx5800"));
    auto o = run(open, {{0, 0x0}, {1000, 0x20}});
    CHECK(o[1].cycle == 1000 + 10 + 2);
  }
  SECTION("a queued hit keeps the row open") {
    DramSystem closed(preset("fx5800", {"dram.page_policy=closed"}));
    auto c = run(closed, {{0, 0x0}, {1, 0x20}});
    CHECK(c[1].cycle == 26);
    DramStats st = stats_of(closed, 26);
    CHECK(st.row_hits == 1);
    CHECK(st.precharges == 1);
  }
}

TEST_CASE("Queues are bounded and nothing is dropped", "[dram][controller]") {
  DramSpec s = preset("fx5800");
  const auto row = row_addresses(s, 0);
  DramSystem sys(s);
  for (uint64_t i = 0; i < 16; ++i) {
    REQUIRE(sys.can_accept(row[i], false));
    sys.enqueue(DramRequest{i, row[i], 32, false}, 0);
  }
  CHECK_FALSE(sys.can_accept(row[16], false));
  CHECK(sys.can_accept(0x100, false));  // channel 1 is empty
  CHECK_THROWS_WITH(sys.enqueue(DramRequest{16, row[16], 32, false}, 0),
                    Contains("channel 0 queue is full"));
  uint64_t now = 0;
  for (;;) {
    sys.tick(now);
    if (sys.can_accept(row[16], false)) break;
    now = std::max(now + 1, sys.next_event_cycle());
  }
  CHECK(now == 12);  // the first RD freed its slot
  ++now;
  sys.enqueue(DramRequest{16, row[16], 32, false}, now);
  std::vector<uint64_t> done;
  while (sys.busy()) {
    sys.tick(now);
    for (auto& c : sys.completions()) done.push_back(c.id);
    sys.completions().clear();
    now = std::max(now + 1, sys.next_event_cycle());
  }
  CHECK(done.size() == 17);
  CHECK(sys.next_event_cycle() == UINT64_MAX);  // idle, refresh off
}

TEST_CASE("Multi-atom requests are consecutive bursts, counted in 32-byte transactions",
          "[dram][controller]") {
  SECTION("FX5800: 128 bytes = 4 bursts of 32") {
    DramSystem sys(preset("fx5800"));
    auto c = run(sys, {{0, 0x0, false, 128}});
    CHECK(c[0].cycle == 12 + 3 * 2 + 10 + 2);
    DramStats st = stats_of(sys, c[0].cycle);
    CHECK(st.read_transactions == 4);
    CHECK(st.read_bytes == 128);
    CHECK(st.requests == 1);
    CHECK(st.channels[0].busy_cycles == 8);
  }
  SECTION("C2070: 128 bytes = 2 bursts of 64 in one bank group") {
    DramSystem sys(preset("c2070"));
    auto c = run(sys, {{0, 0x0, false, 128}, {1000, 0x40, true, 32}});
    CHECK(c[0].cycle == 12 + 3 + 12 + 2);  // second RD waits tCCDL
    DramStats st = stats_of(sys, 2000);
    CHECK(st.read_transactions == 4);
    CHECK(st.read_bytes == 128);
    CHECK(st.write_transactions == 2);  // a 32-byte write still moves a 64-byte atom
    CHECK(st.write_bytes == 64);
  }
  SECTION("a request spanning two channels is refused") {
    DramSystem sys(preset("fx5800"));
    CHECK_THROWS_WITH(sys.enqueue(DramRequest{7, 0xF0, 32, false}, 0),
                      Contains("DRAM request 7 at 0xf0 of 32 bytes spans more than one DRAM row"));
    CHECK_THROWS_WITH(sys.enqueue(DramRequest{8, 0x0, 0, false}, 0), Contains("zero bytes"));
  }
}

TEST_CASE("Bank-level parallelism counts banks with outstanding requests", "[dram][controller]") {
  DramSpec s = preset("fx5800");
  DramSystem sys(s);
  // Bank 0 and bank 1 of channel 0, both at cycle 0: both busy until 24 / 32.
  auto c = run(sys, {{0, 0x0}, {0, 0x4000}});
  CHECK(c[0].cycle == 24);
  CHECK(c[1].cycle == 8 + 12 + 10 + 2);  // ACT waits tRRD = 8
  DramStats st = stats_of(sys, 32);
  CHECK(st.channels[0].bank_busy_cycles == 24 + 32);
  CHECK(st.channels[0].active_cycles == 32);
  CHECK(st.bank_level_parallelism == Approx(56.0 / 32.0));
  CHECK(st.utilization == Approx(4.0 / 32.0 / 8));  // 4 busy cycles on 1 of 8 channels
}

TEST_CASE("Idle skipping and ticking every cycle give identical results", "[dram][controller]") {
  for (const char* name : {"fx5800", "c2070"}) {
    for (const char* policy : {"fr-fcfs", "fcfs", "fr-fcfs-wd"}) {
      INFO(name << " " << policy);
      DramSpec s = preset(name, {std::string("dram.scheduler=") + policy,
                                 "dram.timing.tREFI=2000", "dram.timing.tRFC=60"});
      std::mt19937_64 rng(42);
      std::vector<Arrival> reqs;
      uint64_t t = 0;
      for (int i = 0; i < 3000; ++i) {
        t += rng() % 4;
        reqs.push_back({t, (rng() % (uint64_t(1) << 30)) & ~uint64_t(31), rng() % 3 == 0});
      }
      DramSystem a(s), b(s);
      auto ca = run(a, reqs, false);
      auto cb = run(b, reqs, true);
      bool same = true;
      for (size_t i = 0; i < reqs.size(); ++i)
        same = same && ca[i].id == i && ca[i].cycle == cb[i].cycle && ca[i].cycle >= reqs[i].cycle;
      CHECK(same);
      uint64_t end = 0;
      for (auto& c : ca) end = std::max(end, c.cycle);
      DramStats sa = stats_of(a, end), sb = stats_of(b, end);
      CHECK(sa.requests == 3000);
      CHECK(sa.row_hits == sb.row_hits);
      CHECK(sa.row_conflicts == sb.row_conflicts);
      CHECK(sa.refreshes == sb.refreshes);
      CHECK(sa.bank_level_parallelism == sb.bank_level_parallelism);
      CHECK(sa.row_hits + sa.row_misses + sa.row_conflicts == 3000);
    }
  }
}
