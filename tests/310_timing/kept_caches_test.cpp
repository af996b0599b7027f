// Caches and DRAM across launches (LaunchOptions::cache_control): with Keep a launch finds
// the L2 and DRAM as the last one left them and its L1s empty, as on hardware; with Flush
// (the default) every launch starts cold. Statistics are always the launch's own.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "200_engine/ptx_fixture.hpp"
#include "sim/launch/launch_spec.hpp"
#include "stats_dump.hpp"
#include "timing_fixture.hpp"

using namespace warpsim;

namespace {

// vecAdd on 3 x 64 KiB: fits the C2070's 768 KiB L2 and the H100's 50 MB.
LaunchSpec small_vecadd() { return load_launch_spec(test::repo("kernels/vecadd/vecadd_1m.json"), {{"n", 16384}}); }

LaunchOptions options(CacheControl c, SimMode mode = SimMode::Timing, uint32_t threads = 1) {
  LaunchOptions o;
  o.cache_control = c;
  o.mode = mode;
  o.threads = threads;
  o.threads_adaptive = false;
  return o;
}

// `count` launches of the spec on one device.
std::vector<LaunchStats> launches(const std::string& config, CacheControl c, int count,
                                  SimMode mode = SimMode::Timing, uint32_t threads = 1) {
  Device dev(load_device_spec(test::repo("configs/" + config + ".json")));
  PreparedLaunch p = prepare(dev, small_vecadd());
  std::vector<LaunchStats> out;
  for (int i = 0; i < count; ++i) out.push_back(launch(dev, p, options(c, mode, threads)));
  REQUIRE(check_outputs(dev, p).passed);
  return out;
}

}  // namespace

TEST_CASE("310: with flushed caches every launch of the same work is the same", "[timing][caches]") {
  for (const char* config : {"c2070", "h100", "fx5800"}) {
    INFO(config);
    const auto runs = launches(config, CacheControl::Flush, 3);
    CHECK(test::dump_all(runs[1]) == test::dump_all(runs[0]));
    CHECK(test::dump_all(runs[2]) == test::dump_all(runs[0]));
  }
}

TEST_CASE("310: kept caches: the second launch finds its data in the L2, its L1s empty", "[timing][caches]") {
  for (const char* config : {"c2070", "h100"}) {
    INFO(config);
    const auto cold = launches(config, CacheControl::Flush, 1);
    const auto kept = launches(config, CacheControl::Keep, 3);
    // The first launch on a device is cold either way.
    CHECK(test::dump_all(kept[0]) == test::dump_all(cold[0]));
    const MemStats& first = kept[0].mem;
    REQUIRE(first.l2_misses > 0);
    REQUIRE(kept[0].dram.read_bytes > 0);
    for (int i : {1, 2}) {
      INFO("launch " << i);
      const MemStats& m = kept[i].mem;
      // Every sector A and B are read from and C is written to is in the L2 already.
      CHECK(m.l2_misses == 0);
      CHECK(m.l2_hits == first.l2_hits + first.l2_misses);
      // The reads alone: the first launch's sectors of A and B, all found now.
      CHECK(first.l2_read_sector_hits < first.l2_read_sectors);
      CHECK(m.l2_read_sectors == first.l2_read_sectors);
      CHECK(m.l2_read_sector_hits == m.l2_read_sectors);
      CHECK(m.l2_read_sectors < m.l2_hits);  // C's writes are not reads
      CHECK(kept[i].dram.read_bytes == 0);
      CHECK(kept[i].dram.read_transactions == 0);
      // The L1s start empty at every launch, so they count what the first launch counted.
      CHECK(m.l1_hits == first.l1_hits);
      CHECK(m.l1_misses == first.l1_misses);
      // Counts of the work itself do not depend on the caches.
      CHECK(m.gld_transactions == first.gld_transactions);
      CHECK(kept[i].exec.inst_executed == kept[0].exec.inst_executed);
      CHECK(kept[i].timing.elapsed_cycles_sm < kept[0].timing.elapsed_cycles_sm);
    }
  }
}

TEST_CASE("310: kept DRAM state: each launch counts only its own DRAM requests", "[timing][caches]") {
  // The FX5800 has no caches: every launch reads and writes DRAM alike, and its counts are
  // its own, not the device's running total.
  const auto cold = launches("fx5800", CacheControl::Flush, 1);
  const auto kept = launches("fx5800", CacheControl::Keep, 3);
  CHECK(test::dump_all(kept[0]) == test::dump_all(cold[0]));
  for (int i : {1, 2}) {
    INFO("launch " << i);
    CHECK(kept[i].dram.requests == cold[0].dram.requests);
    CHECK(kept[i].dram.read_bytes == cold[0].dram.read_bytes);
    CHECK(kept[i].dram.write_bytes == cold[0].dram.write_bytes);
    CHECK(kept[i].dram.row_hits + kept[i].dram.row_misses + kept[i].dram.row_conflicts == cold[0].dram.requests);
    CHECK(kept[i].dram.dram_cycles > 0);
    CHECK(kept[i].dram.dram_cycles < 2 * cold[0].dram.dram_cycles);
    CHECK(kept[i].dram.utilization <= 1.0);
  }
}

TEST_CASE("310: kept caches give the same statistics for any thread count", "[timing][caches][parallel]") {
  const auto one = launches("h100", CacheControl::Keep, 3, SimMode::Timing, 1);
  const auto two = launches("h100", CacheControl::Keep, 3, SimMode::Timing, 2);
  for (int i = 0; i < 3; ++i) CHECK(test::dump_all(two[i]) == test::dump_all(one[i]));
}

TEST_CASE("310: kept caches in functional mode: the L2 keeps its lines, the L1s do not", "[timing][caches]") {
  const auto cold = launches("c2070", CacheControl::Flush, 2, SimMode::Functional);
  CHECK(test::dump_all(cold[1]) == test::dump_all(cold[0]));
  const auto kept = launches("c2070", CacheControl::Keep, 2, SimMode::Functional);
  CHECK(test::dump_all(kept[0]) == test::dump_all(cold[0]));
  CHECK(kept[1].mem.l2_misses == 0);
  CHECK(kept[1].mem.l2_hits == kept[0].mem.l2_hits + kept[0].mem.l2_misses);
  CHECK(kept[1].mem.l1_hits == kept[0].mem.l1_hits);
  CHECK(kept[1].mem.l1_misses == kept[0].mem.l1_misses);
}

TEST_CASE("310: every functional launch on a device starts with empty L1s whatever the last one did",
          "[timing][caches]") {
  // The device reuses the functional L1s from launch to launch (remaking those a launch
  // used): a launch after one that used only a few SMs, or after one with another L1/shared
  // split (the H100's carveout), counts what it counts on a fresh device.
  for (const std::string config : {"c2070", "h100"}) {
    INFO(config);
    Device dev(load_device_spec(test::repo("configs/" + config + ".json")));
    const PreparedLaunch big = prepare(dev, small_vecadd());
    const PreparedLaunch few =
        prepare(dev, load_launch_spec(test::repo("kernels/vecadd/vecadd_1m.json"), {{"n", 1000}}));
    const LaunchOptions o = options(CacheControl::Flush, SimMode::Functional);
    const std::string first = test::dump_all(launch(dev, big, o));
    CHECK(launch(dev, big, o).mem.l1_misses > 0);
    CHECK(test::dump_all(launch(dev, big, o)) == first);
    launch(dev, few, o);  // 4 blocks: 4 SMs' L1s used
    CHECK(test::dump_all(launch(dev, big, o)) == first);
    LaunchOptions other = o;
    other.shared_preference.carveout_percent = 100;  // most of the H100's L1 as shared memory
    launch(dev, big, other);
    CHECK(test::dump_all(launch(dev, big, o)) == first);
    Device fresh(load_device_spec(test::repo("configs/" + config + ".json")));
    CHECK(test::dump_all(launch(fresh, prepare(fresh, small_vecadd()), o)) == first);
  }
}

TEST_CASE("310: after a launch that faults, the next starts with cold caches", "[timing][caches]") {
  const std::string text = ptxtest::module(R"(
.visible .entry late_fault(.param .u64 in)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  .reg .f32 %f<2>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [in];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  setp.eq.u32 %p1, %r4, 5000;
  selp.u32 %r5, 100000000, %r4, %p1;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  ret;
}
)");
  const auto cold = launches("c2070", CacheControl::Flush, 1);
  Device dev(load_device_spec(test::repo("configs/c2070.json")));
  PreparedLaunch p = prepare(dev, small_vecadd());
  const isa::Kernel& k = *dev.load_ptx(text, "fault.ptx").kernels.at(0);
  const DevPtr buf = dev.malloc(8192 * 4);
  const LaunchOptions keep = options(CacheControl::Keep);
  launch(dev, p, keep);
  const ptxtest::Thrown fault = ptxtest::catch_error(
      [&] { dev.launch(k, {32, 1, 1}, {256, 1, 1}, 0, std::vector<KernelArg>{KernelArg::ptr(buf)}, keep); });
  REQUIRE(fault.type == "KernelFault");
  // The fault stopped the memory system mid-launch; the next launch starts afresh.
  CHECK(test::dump_all(launch(dev, p, keep)) == test::dump_all(cold[0]));
  // And the one after it finds the L2 warm again.
  CHECK(launch(dev, p, keep).mem.l2_misses == 0);
}

TEST_CASE("310: forget_caches makes the next launch start cold", "[timing][caches]") {
  const auto cold = launches("h100", CacheControl::Flush, 1);
  Device dev(load_device_spec(test::repo("configs/h100.json")));
  PreparedLaunch p = prepare(dev, small_vecadd());
  const LaunchOptions keep = options(CacheControl::Keep);
  launch(dev, p, keep);
  CHECK(launch(dev, p, keep).mem.l2_misses == 0);
  dev.forget_caches();
  CHECK(test::dump_all(launch(dev, p, keep)) == test::dump_all(cold[0]));
}

TEST_CASE("310: a timeline of a later launch counts DRAM commands from that launch's start", "[timing][caches]") {
  // The FX5800 goes to DRAM at every launch: the second launch's commands must fall within
  // its own cycles, as the first launch's do (the memory system's clock runs on inside).
  const std::string path = std::string(WARPSIM_BINARY_DIR) + "/kept_caches_timeline.json";
  Device dev(load_device_spec(test::repo("configs/fx5800.json")));
  PreparedLaunch p = prepare(dev, small_vecadd());
  LaunchOptions o = options(CacheControl::Keep);
  launch(dev, p, o);
  o.timeline_path = path;
  const LaunchStats second = launch(dev, p, o);
  const nlohmann::json t = nlohmann::json::parse(std::ifstream(path));
  uint64_t dram = 0, last = 0;
  for (const auto& e : t["traceEvents"])
    if (e.value("cat", "") == "dram") {
      ++dram;
      last = std::max(last, e["ts"].get<uint64_t>());
    }
  std::filesystem::remove(path);
  CHECK(dram > 0);
  CHECK(last <= second.timing.elapsed_cycles_sm);
}

TEST_CASE("310: functional mode looks a load's sectors of one line up together, as timing mode does",
          "[timing][caches]") {
  // H100 (issue.lsu_line_requests): vecAdd's warps read 128-byte lines; each line is one L1
  // lookup and one L2 request of four sectors, which miss together (the L2's 64-byte
  // fetches made the second sector of each pair a hit when sectors were looked up one by one).
  const LaunchStats t = launches("h100", CacheControl::Flush, 1, SimMode::Timing)[0];
  const LaunchStats f = launches("h100", CacheControl::Flush, 1, SimMode::Functional)[0];
  const MemStats &tm = t.mem, &fm = f.mem;
  CHECK(fm.l1_sectors == tm.l1_sectors);
  CHECK(fm.l1_hits + fm.l1_misses == tm.l1_hits + tm.l1_misses);
  CHECK(fm.l2_read_sectors == tm.l2_read_sectors);
  CHECK(fm.l2_read_sector_hits == 0);
  CHECK(tm.l2_read_sector_hits == 0);
  CHECK(fm.l2_read_transactions == tm.l2_read_transactions);
  CHECK(fm.l2_write_transactions == tm.l2_write_transactions);
  // Two loads of 16384 floats: 128 lines each, one lookup per line.
  CHECK(fm.l1_hits + fm.l1_misses == 2 * 16384 * 4 / 128);
}
