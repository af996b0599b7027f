// The optional, data-driven timing keys added for the H100 config: each defaults to the
// behaviour the C2070 and FX5800 configs always had, and each changes timing as documented.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "sim/engine/device.hpp"
#include "sim/foundation/error.hpp"
#include "sim/launch/launch_spec.hpp"
#include "sim/spec/device_spec.hpp"

using namespace warpsim;

namespace {

std::string repo(const std::string& rel) { return std::string(WARPSIM_SOURCE_DIR) + "/" + rel; }

LaunchStats timed(const std::string& config, const std::vector<std::string>& sets, const std::string& spec,
                  const std::map<std::string, int64_t>& vars = {}) {
  Device dev(load_device_spec(repo("configs/" + config + ".json"), sets));
  PreparedLaunch p = prepare(dev, load_launch_spec(repo(spec), vars));
  LaunchOptions o;
  o.mode = SimMode::Timing;
  LaunchStats s = launch(dev, p, o);
  REQUIRE(check_outputs(dev, p).passed);
  return s;
}

}  // namespace

TEST_CASE("310: optional timing keys default to the old behaviour", "[timing][config]") {
  const DeviceSpec c = load_device_spec(repo("configs/c2070.json"));
  CHECK(c.launch_overhead_cycles == 0);
  CHECK(c.issue.lsu_transactions_per_cycle == 1);
  CHECK(c.partition.dram_queue_limit == 64);
  const DeviceSpec h = load_device_spec(repo("configs/h100.json"));
  CHECK(h.launch_overhead_cycles == 4182);
  CHECK(h.issue.lsu_transactions_per_cycle == 4);
  CHECK(h.partition.dram_queue_limit == 256);
  CHECK_THROWS_AS(load_device_spec(repo("configs/c2070.json"), {"issue.lsu_transactions_per_cycle=33"}), ConfigError);
  CHECK_THROWS_AS(load_device_spec(repo("configs/c2070.json"), {"partition.dram_queue_limit=0"}), ConfigError);
  CHECK_THROWS_AS(load_device_spec(repo("configs/h100.json"), {"launch_overhead_cycles=-1"}), ConfigError);
  CHECK_NOTHROW(load_device_spec(repo("configs/h100.json"), {"launch_overhead_cycles=0"}));
  // The H100's measured rates; none on the older devices; out-of-range values are refused.
  CHECK(c.block_dispatch_cycles == 0);
  CHECK(c.issue.partial_store_cycles == 0);
  CHECK_FALSE(c.issue.hoist_loads);
  CHECK(h.block_dispatch_cycles == 1.2);
  CHECK(h.issue.partial_store_cycles == 3);
  CHECK(h.issue.hoist_loads);
  CHECK_FALSE(c.issue.merge_shared_loads);
  CHECK(h.issue.merge_shared_loads);
  CHECK_FALSE(c.issue.if_convert);
  CHECK(h.issue.if_convert);
  CHECK(c.issue.unroll_loops == 0);
  CHECK(h.issue.unroll_loops == 4);
  CHECK_THROWS_AS(load_device_spec(repo("configs/h100.json"), {"issue.unroll_loops=17"}), ConfigError);
  CHECK(c.shared.rules == sm::BankRules::Cc2);
  CHECK(h.shared.rules == sm::BankRules::Cc9);
  CHECK_THROWS_AS(load_device_spec(repo("configs/h100.json"), {"block_dispatch_cycles=-0.5"}), ConfigError);
  CHECK_THROWS_AS(load_device_spec(repo("configs/h100.json"), {"issue.partial_store_cycles=1001"}), ConfigError);
}

TEST_CASE("310: launch_overhead_cycles adds exactly its cycles to the kernel's time", "[timing][config]") {
  const std::string spec = "kernels/vecadd/vecadd_1003.json";
  const LaunchStats base = timed("h100", {"launch_overhead_cycles=0"}, spec);
  const LaunchStats more = timed("h100", {}, spec);
  CHECK(more.timing.elapsed_cycles_sm == base.timing.elapsed_cycles_sm + 4182);
  CHECK(more.timing.duration_ns == Approx(base.timing.duration_ns + 4182 * 1000.0 / 1980).epsilon(1e-12));
  CHECK(more.timing.issued == base.timing.issued);
}

TEST_CASE("310: more LSU transactions per cycle speed up an uncoalesced copy", "[timing][config]") {
  // stride 32: every lane's word is its own transaction, so the LSU hand-over dominates.
  const std::string spec = "kernels/memory/stride_copy.json";
  const std::map<std::string, int64_t> vars = {{"n", 8192}, {"stride", 32}};
  // (Its stores write 4 bytes of each sector: without partial_store_cycles they cost what
  // whole ones do, and without the block dispatch rate its 32 blocks start together, so the
  // hand-over is what differs.)
  const LaunchStats one = timed(
      "h100", {"issue.lsu_transactions_per_cycle=1", "issue.partial_store_cycles=0", "block_dispatch_cycles=0"}, spec,
      vars);
  const LaunchStats four = timed("h100", {"issue.partial_store_cycles=0", "block_dispatch_cycles=0"}, spec, vars);
  CHECK(four.exec.inst_executed == one.exec.inst_executed);
  CHECK(four.timing.elapsed_cycles_sm < one.timing.elapsed_cycles_sm);
}

TEST_CASE("310: byte-masked stores hold the load/store unit for partial_store_cycles", "[timing][config]") {
  const std::string spec = "kernels/microbench/scattered_stores.json";
  // Coalesced (stride 1): whole sectors, not affected at all.
  const std::map<std::string, int64_t> whole = {{"threads", 65536}, {"stride", 1}, {"shift", 16}};
  CHECK(timed("h100", {"issue.partial_store_cycles=0"}, spec, whole).timing.elapsed_cycles_sm ==
        timed("h100", {}, spec, whole).timing.elapsed_cycles_sm);
  // Stride 8: 4 bytes of 32 sectors per store. Each SM's unit then takes one sector per
  // 3 cycles: 65,536 sectors over 132 SMs need at least 496 x 3 cycles per SM.
  const std::map<std::string, int64_t> partial = {{"threads", 65536}, {"stride", 8}, {"shift", 13}};
  const LaunchStats free_ = timed("h100", {"issue.partial_store_cycles=0"}, spec, partial);
  const LaunchStats three = timed("h100", {}, spec, partial);
  CHECK(three.exec.inst_executed == free_.exec.inst_executed);
  CHECK(three.mem.gst_transactions == 65536);
  CHECK(three.timing.elapsed_cycles_sm > free_.timing.elapsed_cycles_sm);
  CHECK(three.timing.elapsed_cycles_sm >= 4182 + 65536 / 132 * 3);
}

TEST_CASE("310: blocks start no faster than block_dispatch_cycles allows", "[timing][config]") {
  const std::string spec = "kernels/microbench/block_launch.json";
  // 13,200 blocks that do nothing: 1.2 cycles per block for the whole GPU is at least 15,840
  // cycles; without the rate they start as fast as slots free up.
  const std::map<std::string, int64_t> many = {{"blocks", 13200}, {"block_size", 256}};
  const LaunchStats free_ = timed("h100", {"block_dispatch_cycles=0"}, spec, many);
  const LaunchStats rated = timed("h100", {}, spec, many);
  CHECK(rated.exec.inst_executed == free_.exec.inst_executed);
  CHECK(free_.timing.elapsed_cycles_sm - 4182 < 15840);
  CHECK(rated.timing.elapsed_cycles_sm - 4182 >= 15840);
  CHECK(rated.timing.elapsed_cycles_sm - 4182 < 15840 + 2000);
  // A grid of one block per SM waits at most 132 x 1.2 cycles for its last block to start,
  // and the blocks still spread over all SMs (round robin), one each.
  const std::map<std::string, int64_t> one_wave = {{"blocks", 132}, {"block_size", 256}};
  const LaunchStats a = timed("h100", {"block_dispatch_cycles=0"}, spec, one_wave);
  const LaunchStats b = timed("h100", {}, spec, one_wave);
  CHECK(b.timing.elapsed_cycles_sm >= a.timing.elapsed_cycles_sm);
  CHECK(b.timing.elapsed_cycles_sm <= a.timing.elapsed_cycles_sm + 160);
}

TEST_CASE("310: sequences_hold_dispatch: a division's SASS sequence takes its scheduler's issue slots",
          "[timing][config]") {
  // Harris's reduce0 computes tid % (2*s) every step: with the key, the 22 instructions of
  // each rem.s32 issue one per cycle and nothing else issues from that scheduler meanwhile;
  // without it they only keep the ALU busy and shared loads, stores and branches of other
  // warps slip in. Counts are the PTX's either way.
  const std::string spec = "kernels/reduction/harris_reduce0.json";
  const std::map<std::string, int64_t> vars{{"n", 65536}};
  const LaunchStats off = timed("h100", {"issue.sequences_hold_dispatch=false"}, spec, vars);
  const LaunchStats on = timed("h100", {}, spec, vars);
  CHECK(on.exec.inst_executed == off.exec.inst_executed);
  CHECK(on.timing.elapsed_cycles_sm > off.timing.elapsed_cycles_sm);
  // Without a division nothing changes.
  const LaunchStats plain_off = timed("h100", {"issue.sequences_hold_dispatch=false"}, "kernels/vecadd/vecadd_1m.json");
  const LaunchStats plain_on = timed("h100", {}, "kernels/vecadd/vecadd_1m.json");
  CHECK(plain_on.timing.elapsed_cycles_sm == plain_off.timing.elapsed_cycles_sm);
  CHECK(load_device_spec(repo("configs/h100.json")).issue.sequences_hold_dispatch);
  CHECK_FALSE(load_device_spec(repo("configs/c2070.json")).issue.sequences_hold_dispatch);
}

TEST_CASE("310: an address scheme that changes bank within an L2 line gets one DRAM request per row",
          "[timing][config][dram]") {
  // row_column_bank moves to the next bank every 32-byte atom; the L2's 128-byte write-backs
  // and multi-sector fills are split per bank and row instead of stopping the launch. The
  // same sectors move either way.
  // An L2 of 1.6 MB (160 slices x 8 sets x 10 ways) makes the copy write dirty lines back.
  const std::string spec = "kernels/transpose/copy_2048.json";
  const std::string small_l2 = "l2.size_bytes=1638400";
  const LaunchStats a = timed("h100", {small_l2}, spec);
  const LaunchStats b = timed("h100", {small_l2, "dram.address_map.scheme=row_column_bank"}, spec);
  REQUIRE(a.dram.write_bytes > 0);
  CHECK(b.dram.write_bytes > 0);  // which lines are dirty at the end depends on the timing
  CHECK(b.dram.read_bytes == a.dram.read_bytes);
  CHECK(b.exec.inst_executed == a.exec.inst_executed);
  CHECK(b.timing.elapsed_cycles_sm != a.timing.elapsed_cycles_sm);
}

TEST_CASE("310: lsu_line_requests: a warp's sectors of one line are one request, so a sector pair is "
          "fetched once and found by no other request",
          "[timing][config]") {
  // 32 warps each read one full line of A and one of B: 64 lines, 256 sectors. The H100's L2
  // fetches 64-byte pairs (l2.fetch_bytes). Asked per sector, the second sector of each pair
  // finds the first one's fetch on its way (a hit to ncu); asked per line, nothing hits, as
  // ncu shows for a streaming read (docs/calibration.md, "Hit rates").
  const std::map<std::string, int64_t> n1024{{"n", 1024}};
  const LaunchStats line = timed("h100", {}, "kernels/vecadd/vecadd_1003.json", n1024);
  const LaunchStats sector = timed("h100", {"issue.lsu_line_requests=false"}, "kernels/vecadd/vecadd_1003.json", n1024);
  for (const LaunchStats* s : {&line, &sector}) {
    CHECK(s->mem.l2_read_sectors == 256);
    CHECK(s->mem.l1_sectors == 256);
    CHECK(s->dram.read_bytes == 64 * 128);  // each pair read from DRAM once either way
  }
  CHECK(line.mem.l1_misses == 64);     // one L1 request per line
  CHECK(sector.mem.l1_misses == 256);  // one per sector
  CHECK(line.mem.l2_read_sector_hits == 0);
  CHECK(sector.mem.l2_read_sector_hits == 128);

  // Around the L1 (volatile loads): one request per line too, answered sector by sector.
  const std::map<std::string, int64_t> n1024b{{"n", 1024}, {"block_size", 256}};
  const LaunchStats vline = timed("h100", {}, "kernels/divergence/divergence_warps.json", n1024b);
  const LaunchStats vsector =
      timed("h100", {"issue.lsu_line_requests=false"}, "kernels/divergence/divergence_warps.json", n1024b);
  CHECK(vline.mem.l2_read_sectors == 128);
  CHECK(vsector.mem.l2_read_sectors == 128);
  CHECK(vline.mem.l2_read_sector_hits == 0);
  CHECK(vsector.mem.l2_read_sector_hits == 64);
}

TEST_CASE("310: dram_request_bytes splits a missed line into DRAM requests of that size", "[timing][config]") {
  const std::map<std::string, int64_t> n1024{{"n", 1024}};
  const LaunchStats split = timed("h100", {}, "kernels/vecadd/vecadd_1003.json", n1024);
  const LaunchStats whole = timed("h100", {"partition.dram_request_bytes=0"}, "kernels/vecadd/vecadd_1003.json", n1024);
  CHECK(split.dram.read_bytes == whole.dram.read_bytes);
  // Every DRAM request is one row hit, miss or conflict: the 64 lines of A and B are 128
  // requests of 64 bytes, or 64 of 128 (C's stores stay in the write-back L2).
  const auto requests = [](const LaunchStats& s) { return s.dram.row_hits + s.dram.row_misses + s.dram.row_conflicts; };
  CHECK(requests(split) == 128);
  CHECK(requests(whole) == 64);
}

TEST_CASE("310: the new partition and issue keys: bad values name their key path", "[timing][config]") {
  auto error_of = [](const std::vector<std::string>& sets) -> std::string {
    try {
      load_device_spec(repo("configs/h100.json"), sets);
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  };
  for (const char* bad : {"partition.dram_request_bytes=48", "partition.dram_request_bytes=16"}) {
    INFO(bad);
    const std::string e = error_of({bad});
    CHECK_THAT(e, Catch::Contains("partition.dram_request_bytes") && Catch::Contains("power of two from 32"));
  }
  CHECK_THAT(error_of({"partition.dram_queue_sector_limit=2000000"}),
             Catch::Contains("partition.dram_queue_sector_limit") && Catch::Contains("at most 1048576"));
  CHECK_THAT(error_of({"l2.fetch_bytes=256"}), Catch::Contains("l2.fetch_bytes"));
  CHECK_THAT(error_of({"issue.lsu_line_requests=3"}), Catch::Contains("issue.lsu_line_requests"));
  CHECK(error_of({"partition.dram_request_bytes=0", "l2.fetch_bytes=32", "issue.lsu_line_requests=false"}).empty());
}
