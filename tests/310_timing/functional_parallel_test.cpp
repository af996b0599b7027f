// Functional launches with blocks on several threads (engine/functional_parallel.hpp):
// blocks that share global data across threads, faults, limits and barrier deadlocks give
// what one thread gives, and the parallel path runs where it may (its report says so).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "200_engine/ptx_fixture.hpp"
#include "sim/engine/functional_parallel.hpp"
#include "copy_or_fault.hpp"
#include "stats_dump.hpp"

using namespace warpsim;
using ptxtest::ptr;

namespace {

// mode 0: block b's thread 0 adds 1 to what block b-1 stored at out[b-1] and stores it at
//         out[b] (serially each block sees the one before, so out[b] = b + 1);
// mode 1: every thread stores its global index at out[0] (the last block's last thread wins);
// mode 2: block b stores out[b+1] + b at out[b] (serially it reads the next block's word
//         before that block rewrites it: out[b] = 7 + b);
// mode 3: each thread writes its own word at out[global index] (neighbouring blocks write
//         adjacent words of one sector and touch no common byte).
// Every thread first loops `spin` times, so a block is long enough to overlap another.
const std::string kShare = ptxtest::module(R"(
.visible .entry share(.param .u64 out, .param .u32 mode, .param .u32 spin)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .reg .pred %p<6>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [mode];
  ld.param.u32 %r2, [spin];
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %ctaid.x;
  mov.u32 %r5, %ntid.x;
  mad.lo.u32 %r6, %r4, %r5, %r3;
  mov.u32 %r7, 0;
SPIN:
  add.u32 %r7, %r7, 1;
  setp.lt.u32 %p1, %r7, %r2;
  @%p1 bra SPIN;
  setp.eq.u32 %p2, %r1, 0;
  @%p2 bra CHAIN;
  setp.eq.u32 %p2, %r1, 1;
  @%p2 bra LAST;
  setp.eq.u32 %p2, %r1, 2;
  @%p2 bra AHEAD;
  mul.wide.u32 %rd2, %r6, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r6;
  ret;
CHAIN:
  setp.ne.u32 %p3, %r3, 0;
  @%p3 bra DONE;
  mov.u32 %r8, 0;
  setp.eq.u32 %p4, %r4, 0;
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  @%p4 bra FIRST;
  ld.global.u32 %r8, [%rd3+-4];
FIRST:
  add.u32 %r8, %r8, 1;
  st.global.u32 [%rd3], %r8;
  ret;
LAST:
  st.global.u32 [%rd1], %r6;
  ret;
AHEAD:
  setp.ne.u32 %p3, %r3, 0;
  @%p3 bra DONE;
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r9, [%rd3+4];
  add.u32 %r9, %r9, %r4;
  st.global.u32 [%rd3], %r9;
  ret;
DONE:
  ret;
}
)");

struct ShareRun {
  std::string dump;
  std::vector<uint32_t> out;
  FunctionalParallelReport report;
};

// `host`: `out` is host memory mapped into the device (zero-copy), n words long, so its one
// page is shorter than a device page.
ShareRun run_share(uint32_t threads, uint32_t mode, uint32_t blocks, uint32_t per_block = 64, uint32_t spin = 40,
                   bool host = false) {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(kShare);
  const uint32_t n = blocks * per_block + 1;
  std::vector<uint32_t> init(n, 7);
  if (mode == 3) init.assign(n, 0);
  DevPtr dout = 0;
  if (host) {
    dout = reinterpret_cast<DevPtr>(init.data());
    sim.dev.map_external(dout, init.data(), n * sizeof(uint32_t), "host");
  } else {
    dout = sim.upload(init);
  }
  LaunchOptions o;
  o.mode = SimMode::Functional;
  o.threads = threads;
  o.threads_adaptive = false;  // chunks dealt in turn: every thread runs blocks, however busy the host
  ShareRun r;
  o.parallel_report = &r.report;
  r.dump = test::dump_all(sim.dev.launch(k, {blocks, 1, 1}, {per_block, 1, 1}, 0,
                                         std::vector<KernelArg>{ptr(dout), KernelArg::integer(int64_t(mode)),
                                                                KernelArg::integer(int64_t(spin))},
                                         o));
  r.out = sim.download<uint32_t>(dout, n);
  return r;
}

}  // namespace

TEST_CASE("310: blocks that read or write what another thread's blocks wrote run again serially",
          "[functional][parallel]") {
  for (uint32_t mode : {0u, 1u, 2u}) {
    INFO("mode " << mode);
    const ShareRun one = run_share(1, mode, 200);
    CHECK(one.report.epochs == 0);
    if (mode == 0)
      for (uint32_t b = 0; b < 200; ++b) REQUIRE(one.out[b] == b + 1);
    if (mode == 1) CHECK(one.out[0] == 200 * 64 - 1);
    if (mode == 2)
      for (uint32_t b = 0; b < 200; ++b) REQUIRE(one.out[b] == 7 + b);
    // The first epoch deals one block to each thread in turn, so block 1 (the second thread's)
    // meets block 0's bytes in every mode: the epoch is undone and runs again serially.
    for (uint32_t t : {2u, 3u, 4u}) {
      INFO("threads " << t);
      const ShareRun par = run_share(t, mode, 200);
      CHECK(par.dump == one.dump);
      CHECK(par.out == one.out);
      CHECK(par.report.conflicts >= 1);
      CHECK(par.report.serial_blocks > 0);
    }
    // The same with `out` in mapped host memory: undoing an epoch restores its bytes.
    const ShareRun host1 = run_share(1, mode, 200, 64, 40, true);
    CHECK(host1.out == one.out);
    const ShareRun host2 = run_share(2, mode, 200, 64, 40, true);
    CHECK(host2.out == one.out);  // (statistics differ: the host buffer's alignment is malloc's)
    CHECK(host2.report.conflicts >= 1);
  }
}

TEST_CASE("310: blocks that write neighbouring words of one sector run in parallel", "[functional][parallel]") {
  const ShareRun one = run_share(1, 3, 300, 40);
  for (uint32_t i = 0; i < 300 * 40; ++i) REQUIRE(one.out[i] == i);
  for (uint32_t t : {2u, 3u}) {
    INFO("threads " << t);
    const ShareRun par = run_share(t, 3, 300, 40);
    CHECK(par.dump == one.dump);
    CHECK(par.out == one.out);
    CHECK(par.report.epochs >= 1);
    CHECK(par.report.serial_epochs == 0);
    CHECK(par.report.conflicts == 0);
  }
  // "auto": every core this process may use (the same results; in parallel where there are several).
  const ShareRun autorun = run_share(kAutoThreads, 3, 300, 40);
  CHECK(autorun.dump == one.dump);
  CHECK(autorun.out == one.out);
  CHECK((autorun.report.epochs >= 1) == (host_cores() > 1));
}

TEST_CASE("310: faults, limits and deadlocks stop parallel functional blocks as they stop one thread",
          "[functional][parallel]") {
  // Thread 2373 (block 37) of copy_or_fault reads far past its buffer; the others copy
  // in[i] = i + 1 to out[i].
  struct Outcome {
    ptxtest::Thrown thrown;
    std::vector<float> out;
  };
  auto attempt = [&](uint32_t threads, uint64_t max_instructions) {
    copytest::CopyOrFault c("c2070", threads);
    const uint32_t n = 64 * 80;
    std::vector<float> in(n);
    for (uint32_t i = 0; i < n; ++i) in[i] = float(i + 1);
    c.sim.dev.copy_to_device(c.din, in.data(), n * sizeof(float));
    // An output buffer never written before: the undone epochs must leave its pages as they
    // found them (zeros where no block before the fault wrote).
    c.dout = c.sim.dev.malloc(n * sizeof(float));
    c.o.cache_control = CacheControl::Flush;
    c.o.limits.max_warp_instructions = max_instructions;
    Outcome r;
    r.thrown = ptxtest::catch_error([&] { c.launch(2373, 80); });
    r.out = c.sim.download<float>(c.dout, n);
    return r;
  };
  const Outcome fault1 = attempt(1, 0);
  REQUIRE(fault1.thrown.type == "KernelFault");
  CHECK(fault1.thrown.what.find("block (37,") != std::string::npos);
  CHECK(fault1.out[2367] == 2368.0f);  // blocks before the fault stored their values
  CHECK(fault1.out[40 * 64] == 0.0f);  // blocks after it did not run
  const Outcome limit1 = attempt(1, 1500);
  REQUIRE(limit1.thrown.type == "KernelFault");
  for (uint32_t t : {2u, 3u, 8u}) {
    INFO("threads " << t);
    const Outcome fault = attempt(t, 0);
    CHECK(fault.thrown.type == fault1.thrown.type);
    CHECK(fault.thrown.what == fault1.thrown.what);
    CHECK(fault.out == fault1.out);
    const Outcome limit = attempt(t, 1500);
    CHECK(limit.thrown.what == limit1.thrown.what);
    CHECK(limit.out == limit1.out);
  }

  // In block 150, lanes 0-15 wait at a barrier inside divergent code: a deadlock.
  const std::string deadlock_text = ptxtest::module(R"(
.visible .entry stuck(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  setp.eq.u32 %p1, %r2, 150;
  setp.lt.and.u32 %p2, %r1, 16, %p1;
  @!%p2 bra SKIP;
  bar.sync 0;
SKIP:
  bar.sync 0;
  ret;
}
)");
  auto stuck = [&](uint32_t threads) {
    ptxtest::Sim sim;
    const auto& k = sim.kernel(deadlock_text);
    auto dout = sim.zeros<uint32_t>(200 * 64);
    LaunchOptions o;
    o.mode = SimMode::Functional;
    o.threads = threads;
    const ptxtest::Thrown t =
        ptxtest::catch_error([&] { sim.dev.launch(k, {200, 1, 1}, {64, 1, 1}, 0, std::vector<KernelArg>{ptr(dout)}, o); });
    return std::pair{t, sim.download<uint32_t>(dout, 200 * 64)};
  };
  const auto [dead1, out1] = stuck(1);
  REQUIRE(dead1.type == "KernelFault");
  const auto [dead2, out2] = stuck(2);
  CHECK(dead2.what == dead1.what);
  CHECK(out2 == out1);
}

TEST_CASE("310: kernels whose blocks see each other's order run on one thread", "[functional][parallel]") {
  ptxtest::Sim sim;
  const auto& atomics = sim.kernel(ptxtest::module(R"(
.visible .entry count(.param .u64 c)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [c];
  atom.global.add.u32 %r1, [%rd1], 1;
  ret;
}
)"));
  CHECK(!blocks_may_run_in_parallel(atomics));
  const auto& clock = sim.kernel(ptxtest::module(R"(
.visible .entry t(.param .u64 c)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [c];
  mov.u32 %r1, %clock;
  st.global.u32 [%rd1], %r1;
  ret;
}
)"));
  CHECK(!blocks_may_run_in_parallel(clock));
  const auto& shared_atomics = sim.kernel(ptxtest::module(R"(
.visible .entry s(.param .u64 c)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  .shared .u32 x;
  ld.param.u64 %rd1, [c];
  atom.shared.add.u32 %r1, [x], 1;
  st.global.u32 [%rd1], %r1;
  ret;
}
)"));
  CHECK(blocks_may_run_in_parallel(shared_atomics));
  // A launch of the atomic kernel with threads takes the serial path: nothing in the report.
  auto dc = sim.zeros<uint32_t>(1);
  LaunchOptions o;
  o.mode = SimMode::Functional;
  o.threads = 2;
  FunctionalParallelReport rep;
  o.parallel_report = &rep;
  sim.dev.launch(atomics, {100, 1, 1}, {32, 1, 1}, 0, std::vector<KernelArg>{ptr(dc)}, o);
  CHECK(sim.download<uint32_t>(dc, 1)[0] == 3200);
  CHECK(rep.epochs == 0);
  CHECK(rep.serial_blocks == 0);
}
