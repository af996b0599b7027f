// Sampled timing (--sample, engine/sampling.hpp): counts stay exact, the time is
// extrapolated from the timed blocks' steady state, small grids are timed in full.
#include <catch2/catch.hpp>

#include "sim/engine/sampling.hpp"
#include "timing_fixture.hpp"

using namespace warpsim;
using warpsim::test::run_spec;

namespace {

LaunchOptions sampled(uint32_t waves) {
  LaunchOptions o;
  o.sample_waves = waves;
  return o;
}

// A timed run of `blocks` blocks that took `cycles`, its finishes not yet noted.
LaunchStats timed_run(uint64_t cycles, uint64_t blocks) {
  LaunchStats s;
  s.timing.valid = true;
  s.timing.elapsed_cycles_sm = cycles;
  s.timing.sample.timed_blocks = blocks;
  return s;
}

}  // namespace

TEST_CASE("310: sampling times whole waves, and only when it leaves most of the grid untimed", "[timing][sample]") {
  CHECK(blocks_to_time(4096, 112, 2) == 224);
  CHECK(blocks_to_time(448, 112, 2) == 224);   // exactly half: still sampled
  CHECK(blocks_to_time(447, 112, 2) == 447);   // more than half would be timed: all of it
  CHECK(blocks_to_time(4096, 112, 0) == 4096);  // off
}

TEST_CASE("310: the steady-state window is half to seven eighths of the timed blocks, a wave at each end",
          "[timing][sample]") {
  const SteadyWindow w = steady_window(100, 10);
  CHECK(w.lo == 50);
  CHECK(w.hi == 87);
  CHECK(w.group == 10);
  CHECK(steady_window(100, 40).group == 19);  // a wave longer than half the window: half of it
  CHECK(steady_window(101, 10).lo == 51);
  CHECK(steady_window(3, 1).group == 0);      // [2, 2]: no window
}

TEST_CASE("310: the sampled time is the timed run plus the steady state per block for the rest", "[timing][sample]") {
  DeviceSpec spec = load_device_spec(test::repo("configs/c2070.json"));
  LaunchStats s = timed_run(1000, 100);
  // 100 timed blocks finishing at one a cycle from 301: 1 cycle per block in the window.
  const SteadyWindow w = steady_window(100, 10);
  for (uint64_t j = 1; j <= 100; ++j) note_finishes(s.timing.sample, w, j - 1, j, 300 + j);
  CHECK(s.timing.sample.lo_blocks == 50);
  CHECK(s.timing.sample.lo_cycle == 350);
  CHECK(s.timing.sample.hi_blocks == 87);
  CHECK(s.timing.sample.hi_cycle == 387);
  s.timing.sm_active_cycles = 14000;
  s.timing.issued = 500;  // instructions and transactions grow x 10, time x 1.9
  s.exec.inst_executed = 5000;
  s.mem.gld_transactions = 300;
  s.mem.l2_hits = 30;
  const TimedWork at_end{500, 30};
  extrapolate_timing(s, spec, at_end, 1000);
  CHECK(s.timing.sample.sampled);
  CHECK(s.timing.sample.cycles_per_block == 1.0);
  CHECK(s.timing.elapsed_cycles_sm == 1000 + 900);
  CHECK(s.timing.sample.timed_cycles == 1000);
  CHECK(s.timing.sample.scale == Approx(1.9));
  CHECK(s.timing.sm_active_cycles == 26600);  // time-integrated: x 1.9
  CHECK(s.timing.issued == 5000);             // follows the instructions: x 10
  CHECK(s.mem.l2_hits == 300);                // follows the transactions: x 10
  CHECK(s.timing.duration_ns == Approx(1900 * 1000.0 / spec.clock_mhz));
}

TEST_CASE("310: blocks finishing a wave at a time give the waves' period per wave, not a flatter line",
          "[timing][sample]") {
  DeviceSpec spec = load_device_spec(test::repo("configs/c2070.json"));
  // 81 timed blocks, 10 to a wave, the q-th wave's all finishing at cycle 100 + 80 q:
  // 8 cycles per block. The window, counts 41..70, is three whole bursts.
  LaunchStats s = timed_run(1000, 81);
  const SteadyWindow w = steady_window(81, 10);
  REQUIRE(w.lo == 41);
  REQUIRE(w.hi == 70);
  for (uint64_t q = 0; q < 9; ++q)
    note_finishes(s.timing.sample, w, 10 * q, std::min<uint64_t>(81, 10 * q + 10), 100 + 80 * q);
  const TimingStats::Sample& f = s.timing.sample;
  CHECK(f.group == 10);
  CHECK(f.head_first == 41);
  CHECK(f.tail_first == 61);
  CHECK(f.head_cycles == 10 * 420);  // the 5th burst
  CHECK(f.tail_cycles == 10 * 580);  // the 7th
  extrapolate_timing(s, spec, TimedWork{0, 0}, 1000);
  CHECK(s.timing.sample.cycles_per_block == 8.0);
  CHECK(s.timing.elapsed_cycles_sm == 1000 + 919 * 8);
  // A least-squares line through the same 30 finishes is flatter, 7.12 (about 8 x (1 - 1/3^2)
  // for three bursts), which the two groups' means avoid.
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (uint64_t j = 41; j <= 70; ++j) {
    const double y = 100 + 80 * double((j - 1) / 10);
    n += 1, sx += double(j), sy += y, sxx += double(j * j), sxy += double(j) * y;
  }
  CHECK((n * sxy - sx * sy) / (n * sxx - sx * sx) < 7.2);
  // Too few blocks for a window: proportional.
  LaunchStats few = timed_run(90, 3);
  for (uint64_t j = 1; j <= 3; ++j) note_finishes(few.timing.sample, steady_window(3, 1), j - 1, j, 30 * j);
  extrapolate_timing(few, spec, TimedWork{0, 0}, 30);
  CHECK(few.timing.elapsed_cycles_sm == 900);
}

TEST_CASE("310: a sampled run keeps every execution count exact and its time near the full run's",
          "[timing][sample]") {
  auto full = run_spec("kernels/vecadd/vecadd_1m.json", "c2070");
  auto part = run_spec("kernels/vecadd/vecadd_1m.json", "c2070", {}, {}, SimMode::Timing, sampled(8));
  REQUIRE(full.correct);
  REQUIRE(part.correct);  // the functional rest computed every block
  const LaunchStats &f = full.stats, &p = part.stats;
  REQUIRE(p.timing.sample.sampled);
  CHECK_FALSE(f.timing.sample.sampled);
  // 4,096 blocks of 256 threads; 6 blocks per SM (1,536 threads) x 14 SMs = 84 per wave.
  CHECK(p.occupancy.blocks_per_sm == 6);
  CHECK(p.timing.sample.timed_blocks == 8 * 84);
  CHECK(p.timing.waves == f.timing.waves);
  CHECK(p.exec.inst_executed == f.exec.inst_executed);
  CHECK(p.exec.thread_inst_executed == f.exec.thread_inst_executed);
  CHECK(p.exec.gld_requests == f.exec.gld_requests);
  CHECK(p.exec.gst_requests == f.exec.gst_requests);
  CHECK(p.exec.divergent_branch == f.exec.divergent_branch);
  CHECK(p.mem.gld_transactions == f.mem.gld_transactions);
  CHECK(p.mem.gst_transactions == f.mem.gst_transactions);
  CHECK(p.mem.gld_bytes_transferred == f.mem.gld_bytes_transferred);
  // The time: measured -3.5 % here with 8 waves (-3.3 % from a line through the window's
  // finishes, -2.5 % from its two ends alone); docs/performance.md tables every spec's error.
  const double error = double(p.timing.elapsed_cycles_sm) / double(f.timing.elapsed_cycles_sm) - 1.0;
  CHECK(std::abs(error) < 0.05);
  CHECK(p.dram.read_bytes == Approx(double(f.dram.read_bytes)).epsilon(0.05));
}

TEST_CASE("310: a grid too small to sample is timed in full, identically", "[timing][sample]") {
  auto full = run_spec("kernels/vecadd/vecadd_1003.json", "c2070");
  auto part = run_spec("kernels/vecadd/vecadd_1003.json", "c2070", {}, {}, SimMode::Timing, sampled(2));
  CHECK_FALSE(part.stats.timing.sample.sampled);
  CHECK(part.stats.timing.elapsed_cycles_sm == full.stats.timing.elapsed_cycles_sm);
  CHECK(part.stats.mem.l2_hits == full.stats.mem.l2_hits);
  CHECK(part.stats.dram.read_bytes == full.stats.dram.read_bytes);
}

TEST_CASE("310: sampled runs are deterministic", "[timing][sample]") {
  auto a = run_spec("kernels/matmul/matmul_tiled_512.json", "c2070", {{"width", 256}}, {}, SimMode::Timing, sampled(1));
  auto b = run_spec("kernels/matmul/matmul_tiled_512.json", "c2070", {{"width", 256}}, {}, SimMode::Timing, sampled(1));
  REQUIRE(a.correct);
  REQUIRE(a.stats.timing.sample.sampled);
  CHECK(a.stats.timing.elapsed_cycles_sm == b.stats.timing.elapsed_cycles_sm);
  CHECK(a.stats.timing.sample.hi_cycle == b.stats.timing.sample.hi_cycle);
  CHECK(a.stats.dram.read_bytes == b.stats.dram.read_bytes);
  CHECK(a.stats.timing.stall_memory_dependency == b.stats.timing.stall_memory_dependency);
}
