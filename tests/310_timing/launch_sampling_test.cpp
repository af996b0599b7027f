// Sampling over repeated launches (--sample-launches, engine/launch_sampling.hpp): which
// launches are timed, and how an untimed one takes the last timed launch's time.
#include <catch2/catch.hpp>

#include <array>

#include "sim/engine/launch_sampling.hpp"
#include "sim/isa/ir.hpp"
#include "timing_fixture.hpp"

using namespace warpsim;

namespace {

// Kernels that are only identities here (no code).
const isa::Kernel* fake_kernel(size_t id) {
  static const std::array<isa::Kernel, 3> kernels{};
  return &kernels.at(id);
}

LaunchShape shape(size_t kernel, uint32_t grid_x, uint32_t shared = 0) {
  return LaunchShape{fake_kernel(kernel), Dim3{grid_x, 1, 1}, Dim3{128, 1, 1}, shared, {}};
}

// A timed launch: 1000 cycles for 400 warp instructions and 100 transactions.
LaunchStats timed_launch() {
  LaunchStats s;
  s.timing_mode = true;
  s.timing.valid = true;
  s.timing.elapsed_cycles_sm = 1000;
  s.timing.sm_active_cycles = 14000;
  s.timing.issue_slots = 28000;
  s.timing.issued = 400;
  s.timing.stall_memory_dependency = 7000;
  s.timing.achieved_occupancy = 0.25;
  s.exec.inst_executed = 400;
  s.mem.gld_transactions = 100;
  s.mem.l1_hits = 60;
  s.mem.l1_misses = 40;
  s.mem.l2_hits = 30;
  s.per_pc.resize(3);
  s.per_pc[1].stall_cycles = 500;
  return s;
}

}  // namespace

TEST_CASE("310: each launch shape is timed the given number of times, then not", "[timing][sample]") {
  LaunchSampler off(0);
  CHECK(off.time_next(shape(1, 8)));
  off.on_timed(shape(1, 8), timed_launch(), 0);
  CHECK(off.time_next(shape(1, 8)));  // 0: every launch timed

  LaunchSampler two(2);
  const LaunchShape a = shape(1, 8);
  CHECK(two.time_next(a));
  two.on_timed(a, timed_launch(), 0);
  CHECK(two.time_next(a));
  two.on_timed(a, timed_launch(), 1);
  CHECK_FALSE(two.time_next(a));
  // Another kernel, grid, block or dynamic shared size is another shape, timed afresh.
  CHECK(two.time_next(shape(2, 8)));
  CHECK(two.time_next(shape(1, 9)));
  CHECK(two.time_next(shape(1, 8, 1024)));
  CHECK(two.time_next(LaunchShape{fake_kernel(1), Dim3{8, 1, 1}, Dim3{64, 2, 1}, 0, {}}));
}

TEST_CASE("310: an untimed launch takes the last timed launch's time, scaled by its work", "[timing][sample]") {
  DeviceSpec spec = load_device_spec(test::repo("configs/c2070.json"));
  LaunchSampler sampler(1);
  const LaunchShape a = shape(1, 8);
  LaunchStats first = timed_launch();
  first.timing.elapsed_cycles_sm = 5000;  // a cold first launch: not the one used
  sampler.on_timed(a, first, 3);
  sampler.on_timed(a, timed_launch(), 7);

  // The functional run of an untimed launch with 1.5 x the instructions and 2 x the
  // transactions; its own execution counts and its functional cache counts.
  LaunchStats s;
  s.exec.inst_executed = 600;
  s.mem.gld_transactions = 200;
  s.mem.l1_hits = 1;
  s.mem.l1_misses = 199;
  s.per_pc.resize(3);
  s.per_pc[1].executed = 9;
  sampler.estimate(a, s, spec);

  CHECK(s.timing_mode);
  CHECK(s.timing.valid);
  CHECK(s.timing.from_launch.estimated);
  CHECK(s.timing.from_launch.launch == 7);
  CHECK(s.timing.from_launch.scale == Approx(1.5));
  CHECK(s.timing.elapsed_cycles_sm == 1500);  // time follows the instructions
  CHECK(s.timing.duration_ns == Approx(1500 * 1000.0 / spec.clock_mhz));
  CHECK(s.timing.sm_active_cycles == 21000);
  CHECK(s.timing.stall_memory_dependency == 10500);
  CHECK(s.timing.issued == 600);
  CHECK(s.timing.achieved_occupancy == Approx(0.25));
  CHECK(s.per_pc[1].stall_cycles == 750);
  CHECK(s.mem.l1_hits == 120);  // the timed launch's cache counters x the transactions
  CHECK(s.mem.l1_misses == 80);
  CHECK(s.mem.l2_hits == 60);
  // What execution counted is this launch's own.
  CHECK(s.exec.inst_executed == 600);
  CHECK(s.mem.gld_transactions == 200);
  CHECK(s.per_pc[1].executed == 9);
  CHECK(sampler.estimated_launches() == 1);
  // It did other work than the timed launch: the shape's next launch is timed again.
  CHECK(sampler.time_next(a));
}

TEST_CASE("310: only a shape whose timed launches did the same work goes untimed", "[timing][sample]") {
  DeviceSpec spec = load_device_spec(test::repo("configs/c2070.json"));
  LaunchSampler sampler(2);
  const LaunchShape a = shape(1, 8);
  LaunchStats one = timed_launch(), other = timed_launch();
  other.mem.gld_transactions = 106;  // 6 % more transactions: other work
  sampler.on_timed(a, one, 0);
  sampler.on_timed(a, other, 1);
  CHECK(sampler.time_next(a));  // the two timed launches differ: time a third
  LaunchStats near = other;
  near.exec.inst_executed = 410;  // 2.4 % more instructions: the same work
  sampler.on_timed(a, near, 2);
  REQUIRE_FALSE(sampler.time_next(a));
  // Untimed launches of the same work keep the streak; one of other work ends it.
  LaunchStats same = near;
  sampler.estimate(a, same, spec);
  CHECK(same.timing.from_launch.launch == 2);
  CHECK_FALSE(sampler.time_next(a));
  LaunchStats longer = near;
  longer.exec.longest_warp_instructions = 100;  // was 0: its longest warp differs
  sampler.estimate(a, longer, spec);
  CHECK(sampler.time_next(a));
}

TEST_CASE("310: the time scales with the busiest SM's work, not the whole launch's", "[timing][sample]") {
  // Less than a wave: 4 blocks, one on each SM (the C2070 has 14). The later launch does
  // 3 x the instructions, but its longest block only 2 x the longest before: the time doubles.
  DeviceSpec spec = load_device_spec(test::repo("configs/c2070.json"));
  LaunchSampler sampler(1);
  const LaunchShape a = shape(1, 4);
  LaunchStats ref = timed_launch();
  ref.exec.inst_executed = 150;
  ref.exec.round_robin_sm_instructions = {30, 60, 40, 20};
  sampler.on_timed(a, ref, 0);
  LaunchStats s;
  s.exec.inst_executed = 450;
  s.exec.round_robin_sm_instructions = {120, 120, 120, 90};
  s.mem.gld_transactions = 100;
  sampler.estimate(a, s, spec);
  CHECK(s.timing.from_launch.scale == Approx(2.0));
  CHECK(s.timing.elapsed_cycles_sm == 2000);
  CHECK(s.timing.issued == 1200);  // issue follows all the instructions: x 3
  CHECK(s.mem.l1_hits == 60);      // caches follow the transactions: x 1
}

TEST_CASE("310: a kernel that reads a clock is always timed", "[timing][sample]") {
  // A wait for a timeout on %globaltimer runs until the time says stop: a functional run
  // would do other work.
  isa::Kernel clocked;
  isa::Instr read;
  read.op = isa::Op::ReadGlobalTimer;
  clocked.code.push_back(read);
  LaunchSampler sampler(1);
  const LaunchShape a{&clocked, Dim3{1, 1, 1}, Dim3{1, 1, 1}, 0, {}};
  for (uint64_t i = 0; i < 3; ++i) {
    CHECK(sampler.time_next(a));
    sampler.on_timed(a, timed_launch(), i);
  }
}
