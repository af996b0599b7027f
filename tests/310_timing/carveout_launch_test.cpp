// Launches run with the L1/shared split their preferences and shared memory give
// (DeviceSpec::carveout): the L1's size follows it in both modes, the occupancy counts
// against its shared capacity, and kept caches survive a change of split with the L1s empty.
#include <catch2/catch.hpp>

#include "sim/launch/launch_spec.hpp"
#include "stats_dump.hpp"
#include "timing_fixture.hpp"

using namespace warpsim;

namespace {

constexpr uint32_t KB = 1024;

// One thread chases 128-byte steps through `words` 4-byte words, `steps` times: 8192 words
// (32 KB, 256 lines) and 1024 steps make four passes over the lines.
LaunchSpec chase(uint32_t words, uint32_t steps) {
  return load_launch_spec(test::repo("kernels/microbench/pointer_chase.json"), {{"n", words}, {"steps", steps}});
}

LaunchOptions opts(SimMode mode, int cache_config = 0, CacheControl cc = CacheControl::Flush, uint32_t threads = 1) {
  LaunchOptions o;
  o.mode = mode;
  o.cache_control = cc;
  o.threads = threads;
  o.threads_adaptive = false;
  o.shared_preference.function_cache = cache_config;
  return o;
}

LaunchStats run_once(const char* config, const LaunchSpec& spec, const LaunchOptions& o) {
  Device dev(load_device_spec(test::repo(std::string("configs/") + config + ".json")));
  PreparedLaunch p = prepare(dev, spec);
  LaunchStats s = launch(dev, p, o);
  REQUIRE(check_outputs(dev, p).passed);
  return s;
}

}  // namespace

TEST_CASE("310: C2070 PreferL1: a 32 KB chase fits the 48 KB L1 and thrashes the 16 KB one", "[timing][carveout]") {
  const LaunchSpec spec = chase(8192, 1024);
  for (SimMode mode : {SimMode::Timing, SimMode::Functional}) {
    INFO((mode == SimMode::Timing ? "timing" : "functional"));
    const LaunchStats def = run_once("c2070", spec, opts(mode));
    CHECK(def.l1_bytes == 16 * KB);
    CHECK(def.occupancy.shared_memory_per_sm == 48 * KB);
    CHECK(def.mem.l1_hits == 0);  // 256 lines through 32 sets x 4 ways, LRU: every step misses
    CHECK(def.mem.l1_misses == 1024);
    const LaunchStats l1 = run_once("c2070", spec, opts(mode, /*PreferL1*/ 2));
    CHECK(l1.l1_bytes == 48 * KB);
    CHECK(l1.occupancy.shared_memory_per_sm == 16 * KB);
    CHECK(l1.mem.l1_misses == 256);  // the first pass; the three others hit
    CHECK(l1.mem.l1_hits == 768);
    CHECK(l1.exec.inst_executed == def.exec.inst_executed);
    if (mode == SimMode::Timing) CHECK(l1.timing.elapsed_cycles_sm < def.timing.elapsed_cycles_sm);
  }
  // The spec's own key does the same as the option.
  LaunchSpec keyed = spec;
  keyed.cache_config = 2;
  CHECK(test::dump_all(run_once("c2070", keyed, opts(SimMode::Timing))) ==
        test::dump_all(run_once("c2070", spec, opts(SimMode::Timing, 2))));
}

TEST_CASE("310: C2070 PreferL1 lowers the occupancy of shared-memory blocks to the 16 KB split", "[timing][carveout]") {
  LaunchSpec spec = chase(2048, 64);
  spec.shared_bytes = 6 * KB;
  const LaunchStats def = run_once("c2070", spec, opts(SimMode::Functional));
  CHECK(def.occupancy.limit_shared == 8);  // 48 KB / 6 KB
  const LaunchStats l1 = run_once("c2070", spec, opts(SimMode::Functional, 2));
  CHECK(l1.occupancy.limit_shared == 2);  // 16 KB / 6 KB
  CHECK(l1.occupancy.blocks_per_sm == 2);
  CHECK(l1.occupancy.limiter == "shared memory");
  // A block that does not fit the preferred split gets the other one.
  spec.shared_bytes = 20 * KB;
  const LaunchStats big = run_once("c2070", spec, opts(SimMode::Functional, 2));
  CHECK(big.occupancy.shared_memory_per_sm == 48 * KB);
  CHECK(big.l1_bytes == 16 * KB);
}

TEST_CASE("310: H100: blocks with much shared memory leave a 28 KB L1", "[timing][carveout]") {
  LaunchSpec spec = chase(8192, 1024);  // 32 KB
  const LaunchStats none = run_once("h100", spec, opts(SimMode::Timing));
  CHECK(none.occupancy.shared_memory_per_sm == 32 * KB);  // 32 blocks x the 1 KB reserved
  CHECK(none.l1_bytes == 224 * KB);
  CHECK(none.mem.l1_hits == 768);
  spec.shared_bytes = 40 * KB;  // 5 blocks of 41 KB per SM need the 228 KB carveout
  const LaunchStats big = run_once("h100", spec, opts(SimMode::Timing));
  CHECK(big.occupancy.shared_memory_per_sm == 228 * KB);
  CHECK(big.occupancy.blocks_per_sm == 5);
  CHECK(big.l1_bytes == 28 * KB);
  CHECK(big.mem.l1_hits == 0);
  CHECK(big.timing.elapsed_cycles_sm > none.timing.elapsed_cycles_sm);
}

TEST_CASE("310: kept caches across a change of split: the L2 stays, the L1 is rebuilt", "[timing][carveout][caches]") {
  for (uint32_t threads : {1u, 2u}) {
    INFO(threads << " threads");
    Device dev(load_device_spec(test::repo("configs/c2070.json")));
    PreparedLaunch p = prepare(dev, chase(8192, 1024));
    const LaunchStats a = launch(dev, p, opts(SimMode::Timing, 0, CacheControl::Keep, threads));
    const LaunchStats b = launch(dev, p, opts(SimMode::Timing, 2, CacheControl::Keep, threads));
    const LaunchStats c = launch(dev, p, opts(SimMode::Timing, 0, CacheControl::Keep, threads));
    CHECK(a.mem.l2_misses > 0);
    CHECK(b.mem.l2_misses == 0);  // the chain is in the L2 from launch a
    CHECK(b.mem.l1_hits == 768);
    CHECK(b.l1_bytes == 48 * KB);
    CHECK(c.mem.l2_misses == 0);
    CHECK(c.mem.l1_hits == 0);
    CHECK(c.l1_bytes == 16 * KB);
    CHECK(test::dump_all(c) == test::dump_all(launch(dev, p, opts(SimMode::Timing, 0, CacheControl::Keep, threads))));
    // Back to the 48 KB split: the L1s launch b left (parked while the 16 KB ones ran) start
    // empty again, so the launch repeats b (an L1 kept with b's lines would hit 1024 times);
    // only the DRAM's clock, which does not stop between launches, may count a cycle more.
    const LaunchStats d = launch(dev, p, opts(SimMode::Timing, 2, CacheControl::Keep, threads));
    CHECK(d.mem.l1_hits == 768);
    CHECK(d.mem.l1_misses == b.mem.l1_misses);
    CHECK(d.timing.elapsed_cycles_sm == b.timing.elapsed_cycles_sm);
    CHECK(d.timing.stall_memory_dependency == b.timing.stall_memory_dependency);
  }
}
