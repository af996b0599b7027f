// mbarrier objects (sm/warp_mbarrier_ops.cpp): phases with arrivals, drops, state and
// parity waits in both modes (test_wait spins and try_wait suspends in timing mode), the
// bulk copy completing an mbarrier's transaction bytes when its data has arrived, the
// faults that name the thread, the deadlock report, the reserved shared memory registers,
// and the forms still refused at their line.
#include <catch2/catch.hpp>

#include "ptx_fixture.hpp"

using ptxtest::integer;
using ptxtest::ptr;

namespace {

// 64 threads, three rounds of two phases each: every thread writes (round + 1) * tid to
// vals[tid], arrives and waits (warp 0 with try_wait, warp 1 with test_wait), reads its
// neighbour's value, then arrives and waits again before the next round's writes. Threads
// 48-63 leave in round 1 with arrive_drop, so later phases expect 48 arrivals: within warp
// 1, threads 32-47 wait for the arrivals of threads 48-63 on the branch's other path.
const std::string kPhases = ptxtest::module(R"(
.visible .entry phases(.param .u64 out_p)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<16>;
	.reg .b64 	%rd<8>;
	.shared .align 8 .b64 bar;
	.shared .align 4 .b32 vals[64];
	ld.param.u64 	%rd1, [out_p];
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r2, bar;
	setp.ne.u32 	%p1, %r1, 0;
	@%p1 bra 	SKIP;
	mbarrier.init.shared.b64 	[%r2], 64;
SKIP:
	bar.sync 	0;
	mov.u32 	%r3, vals;
	shl.b32 	%r4, %r1, 2;
	add.u32 	%r5, %r3, %r4;
	add.u32 	%r6, %r1, 1;
	and.b32 	%r6, %r6, 63;
	shl.b32 	%r6, %r6, 2;
	add.u32 	%r6, %r3, %r6;
	mov.u32 	%r7, 0;
	mov.u32 	%r8, 0;
LOOP:
	add.u32 	%r9, %r7, 1;
	mul.lo.u32 	%r9, %r9, %r1;
	st.shared.u32 	[%r5], %r9;
	setp.ge.u32 	%p2, %r1, 48;
	setp.eq.u32 	%p3, %r7, 1;
	and.pred 	%p2, %p2, %p3;
	@%p2 bra 	DROP;
	mbarrier.arrive.shared.b64 	%rd2, [%r2];
	setp.lt.u32 	%p3, %r1, 32;
	@%p3 bra 	TRY;
TEST:
	mbarrier.test_wait.shared.b64 	%p1, [%r2], %rd2;
	@!%p1 bra 	TEST;
	bra.uni 	READ;
TRY:
	mbarrier.try_wait.shared.b64 	%p1, [%r2], %rd2;
	@!%p1 bra 	TRY;
READ:
	ld.shared.u32 	%r10, [%r6];
	add.u32 	%r8, %r8, %r10;
	mbarrier.arrive.release.cta.shared::cta.b64 	%rd3, [%r2];
WAIT2:
	mbarrier.try_wait.acquire.cta.shared::cta.b64 	%p1, [%r2], %rd3;
	@!%p1 bra 	WAIT2;
	add.u32 	%r7, %r7, 1;
	setp.lt.u32 	%p3, %r7, 3;
	@%p3 bra 	LOOP;
	bra.uni 	DONE;
DROP:
	mbarrier.arrive_drop.shared.b64 	%rd2, [%r2];
DONE:
	mul.wide.u32 	%rd4, %r1, 4;
	add.s64 	%rd5, %rd1, %rd4;
	st.global.u32 	[%rd5], %r8;
	ret;
}
)");

uint32_t phases_expected(uint32_t t) {
  if (t < 47) return 6 * (t + 1);  // its neighbour wrote 1x, 2x and 3x
  if (t == 47) return 48 + 96 + 96;  // thread 48 left after writing 2 x 48
  return t == 63 ? 0 : t + 1;  // the leavers read round 0 only (thread 63: vals[0] = 0)
}

// One thread: an mbarrier expecting one arrival and 256 transaction bytes, a bulk copy of
// 256 bytes from `in` to shared memory, then try_wait by parity, %clock and the data.
const std::string kBulk = ptxtest::module(R"(
.visible .entry bulk(.param .u64 in_p, .param .u64 out_p, .param .u32 bytes, .param .u32 skew)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<8>;
	.shared .align 8 .b64 bar;
	.shared .align 16 .b8 buf[256];
	ld.param.u64 	%rd1, [in_p];
	ld.param.u64 	%rd2, [out_p];
	ld.param.u32 	%r9, [bytes];
	ld.param.u32 	%r10, [skew];
	mov.u32 	%r1, bar;
	mov.u32 	%r2, buf;
	add.u32 	%r2, %r2, %r10;
	mbarrier.init.shared::cta.b64 	[%r1], 1;
	mbarrier.arrive.expect_tx.relaxed.cta.shared::cta.b64 	%rd3, [%r1], 256;
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes 	[%r2], [%rd1], %r9, [%r1];
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 	%p1, [%r1], 0;
	@!%p1 bra 	WAIT;
	mov.u32 	%r3, %clock;
	ld.shared.u32 	%r4, [%r2];
	ld.shared.u32 	%r5, [%r2+252];
	st.global.u32 	[%rd2], %r3;
	st.global.u32 	[%rd2+4], %r4;
	st.global.u32 	[%rd2+8], %r5;
	mbarrier.inval.shared::cta.b64 	[%r1];
	ret;
}
)");

// One warp, one instruction under test between an mbarrier.init and the end: `init` is the
// count, `body` the instruction (the mbarrier's address in %r1, the state in %rd2).
std::string misuse(uint32_t init, const std::string& body) {
  return ptxtest::module(R"(
.visible .entry misuse()
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<4>;
	.shared .align 8 .b64 bar[2];
	mov.u32 	%r1, bar;
	mov.u32 	%r2, %tid.x;
	setp.ne.u32 	%p1, %r2, 0;
	@%p1 bra 	BODY;
	)" + (init ? "mbarrier.init.shared.b64 [%r1], " + std::to_string(init) + ";" : std::string()) + R"(
BODY:
	)" + body + R"(
	ret;
}
)");
}

warpsim::LaunchStats launch(ptxtest::Sim& sim, const warpsim::isa::Kernel& k, warpsim::Dim3 block,
                            const std::vector<warpsim::KernelArg>& args, warpsim::SimMode mode) {
  warpsim::LaunchOptions o;
  o.mode = mode;
  return sim.dev.launch(k, {1, 1, 1}, block, 0, args, o);
}

}  // namespace

TEST_CASE("mbarrier phases, drops, state and parity waits in both modes", "[engine][mbarrier]") {
  for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
    INFO((mode == warpsim::SimMode::Timing ? "timing" : "functional"));
    ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
    const auto& k = sim.kernel(kPhases);
    auto dout = sim.zeros<uint32_t>(64);
    launch(sim, k, {64, 1, 1}, {ptr(dout)}, mode);
    const auto out = sim.download<uint32_t>(dout, 64);
    for (uint32_t t = 0; t < 64; ++t) {
      INFO("thread " << t);
      CHECK(out[t] == phases_expected(t));
    }
  }
}

TEST_CASE("a bulk copy completes its mbarrier's transaction bytes when its data arrives", "[engine][mbarrier]") {
  std::vector<uint32_t> in(64);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = 500 + i;
  for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
    INFO((mode == warpsim::SimMode::Timing ? "timing" : "functional"));
    ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
    const auto& k = sim.kernel(kBulk);
    auto din = sim.upload(in);
    auto dout = sim.zeros<uint32_t>(3);
    const auto stats = launch(sim, k, {1, 1, 1}, {ptr(din), ptr(dout), integer(256), integer(0)}, mode);
    const auto out = sim.download<uint32_t>(dout, 3);
    CHECK(out[1] == 500u);
    CHECK(out[2] == 563u);
    CHECK(stats.exec.gld_requests == 1);  // 16 chunks of 16 bytes: one warp-wide access
    if (mode == warpsim::SimMode::Timing) {
      // The wait ended after the copy's DRAM round trip (the H100 config's is over 500 cycles).
      INFO("clock after the wait: " << out[0]);
      CHECK(out[0] > 500u);
    }
  }
  ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
  const auto& k = sim.kernel(kBulk);
  auto din = sim.zeros<uint32_t>(64);
  auto dout = sim.zeros<uint32_t>(3);
  auto size = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {1, 1, 1}, {ptr(din), ptr(dout), integer(250), integer(0)}); });
  REQUIRE(size.type == "KernelFault");
  CHECK_THAT(size.what, Catch::StartsWith("cp.async.bulk of 250 bytes from 0x") &&
                            Catch::Contains("a non-zero multiple of 16 bytes") && Catch::Contains("thread (0,0,0)"));
  auto oob = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {1, 1, 1}, {ptr(din + 16), ptr(dout), integer(256), integer(0)}); });
  REQUIRE(oob.type == "KernelFault");
  CHECK_THAT(oob.what, Catch::StartsWith("out-of-bounds cp.async.bulk read of 256 bytes at 0x"));
  auto past = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {1, 1, 1}, {ptr(din), ptr(dout), integer(256), integer(16)}); });
  REQUIRE(past.type == "KernelFault");
  CHECK_THAT(past.what, Catch::StartsWith("out-of-bounds cp.async.bulk of 256 bytes to shared offset 32"));
}

TEST_CASE("mbarrier misuse faults name the thread and a phase that never completes is a deadlock",
          "[engine][mbarrier][fault]") {
  auto fault_of = [](const std::string& text, uint32_t threads = 32) {
    ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
    const auto& k = sim.kernel(text);
    return ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {threads, 1, 1}, {}); });
  };
  auto uninit = fault_of(misuse(0, "mbarrier.arrive.shared.b64 %rd2, [%r1];"));
  REQUIRE(uninit.type == "KernelFault");
  CHECK_THAT(uninit.what, Catch::StartsWith("mbarrier.arrive on an mbarrier that is not initialised") &&
                              Catch::Contains("thread (0,0,0)"));
  auto many = fault_of(misuse(2, "mbarrier.arrive.shared.b64 %rd2, [%r1], 3;"));
  REQUIRE(many.type == "KernelFault");
  CHECK_THAT(many.what, Catch::StartsWith("3 arrival(s) at an mbarrier whose phase waits for 2"));
  auto completes = fault_of(misuse(64, "mbarrier.arrive.noComplete.shared.b64 %rd2, [%r1], 2;"));
  REQUIRE(completes.type == "KernelFault");  // 32 lanes x 2 arrivals: lane 31's completes the phase
  CHECK_THAT(completes.what, Catch::StartsWith("mbarrier.arrive.noComplete completes the phase") &&
                                 Catch::Contains("thread (31,0,0)"));
  auto misaligned = fault_of(misuse(1, "mbarrier.arrive.shared.b64 %rd2, [%r1+4];"));
  REQUIRE(misaligned.type == "KernelFault");
  CHECK_THAT(misaligned.what, Catch::StartsWith("misaligned mbarrier at shared offset 4"));
  auto zero = fault_of(misuse(0, "mbarrier.init.shared.b64 [%r1], 0;"));
  REQUIRE(zero.type == "KernelFault");
  CHECK_THAT(zero.what, Catch::StartsWith("mbarrier.init with count 0 (the PTX ISA allows 1 to 2^20 - 1)"));
  // 64 arrivals expected, 32 threads arrive: the waits never end (functional mode reports it).
  auto never = fault_of(misuse(64, R"(mbarrier.arrive.shared.b64 %rd2, [%r1];
WAIT:
	mbarrier.try_wait.shared.b64 %p1, [%r1], %rd2;
	@!%p1 bra WAIT;)"));
  REQUIRE(never.type == "KernelFault");
  CHECK(never.fault == warpsim::KernelFault::Kind::Deadlock);
  CHECK_THAT(never.what, Catch::StartsWith("mbarrier deadlock in kernel 'misuse', block (0,0,0): 1 warp(s) wait at an "
                                           "mbarrier for a phase that never completes") &&
                             Catch::Contains("PTX line 19"));
}

TEST_CASE("a timed try_wait gives up after the configured limit and test_wait spins", "[engine][mbarrier][timing]") {
  // One thread arrives at an mbarrier expecting two arrivals and try_waits once: the wait
  // returns false after mbarrier_try_wait_cycles; a test_wait returns at once.
  auto clock_after = [](const std::string& wait) {
    const std::string text = ptxtest::module(R"(
.visible .entry once(.param .u64 out_p)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<4>;
	.shared .align 8 .b64 bar;
	ld.param.u64 	%rd1, [out_p];
	mov.u32 	%r1, bar;
	mbarrier.init.shared.b64 	[%r1], 2;
	mbarrier.arrive.shared.b64 	%rd2, [%r1];
	mov.u32 	%r2, %clock;
	)" + wait + R"( 	%p1, [%r1], %rd2;
	mov.u32 	%r3, %clock;
	selp.u32 	%r4, 1, 0, %p1;
	sub.u32 	%r3, %r3, %r2;
	st.global.u32 	[%rd1], %r3;
	st.global.u32 	[%rd1+4], %r4;
	ret;
}
)");
    ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
    const auto& k = sim.kernel(text);
    auto dout = sim.zeros<uint32_t>(2);
    launch(sim, k, {1, 1, 1}, {ptr(dout)}, warpsim::SimMode::Timing);
    return sim.download<uint32_t>(dout, 2);
  };
  const auto tried = clock_after("mbarrier.try_wait.shared.b64");
  const auto tested = clock_after("mbarrier.test_wait.shared.b64");
  CHECK(tried[1] == 0u);
  CHECK(tested[1] == 0u);
  INFO("try_wait took " << tried[0] << " cycles, test_wait " << tested[0]);
  CHECK(tried[0] >= ptxtest::h100_spec().issue.mbarrier_try_wait_cycles);
  CHECK(tried[0] < ptxtest::h100_spec().issue.mbarrier_try_wait_cycles + 100);
  CHECK(tested[0] < 100u);
}

TEST_CASE("the reserved shared memory registers name a region after the block's own", "[engine][mbarrier]") {
  const std::string text = ptxtest::module(R"(
.visible .entry reserved(.param .u64 out_p)
{
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<4>;
	.shared .align 4 .b8 own[100];
	ld.param.u64 	%rd1, [out_p];
	mov.u32 	%r1, %reserved_smem_offset_begin;
	mov.u32 	%r2, %reserved_smem_offset_end;
	mov.u32 	%r3, %reserved_smem_offset_cap;
	mov.u32 	%r4, %reserved_smem_offset_0;
	mov.u32 	%r5, %reserved_smem_offset_1;
	add.u32 	%r6, %r1, %r3;
	st.shared.u32 	[%r6+-4], %r3;
	ld.shared.u32 	%r7, [%r6+-4];
	st.global.u32 	[%rd1], %r1;
	st.global.u32 	[%rd1+4], %r2;
	st.global.u32 	[%rd1+8], %r7;
	st.global.u32 	[%rd1+12], %r4;
	st.global.u32 	[%rd1+16], %r5;
	ret;
}
)");
  ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
  const auto& k = sim.kernel(text);
  auto dout = sim.zeros<uint32_t>(5);
  sim.run(k, {1, 1, 1}, {1, 1, 1}, {ptr(dout)});
  // The kernel's 100 bytes, then 1 KB from offset 128; an H200 gives 0, 288, 1024, 0, 0 with
  // the region first (docs/measurements/h200_mbarrier_probe_2026-12-03.txt).
  CHECK(sim.download<uint32_t>(dout, 5) == std::vector<uint32_t>{128, 128 + 288, 1024, 128, 128});
  // The C2070 (cc 2.0) has no reserved shared memory, nor mbarriers: no image of either kernel.
  ptxtest::Sim fermi{warpsim::Device(ptxtest::c2070())};
  auto fout = fermi.zeros<uint32_t>(5);
  auto old = ptxtest::catch_error([&] { fermi.run(fermi.kernel(text), {1, 1, 1}, {1, 1, 1}, {ptr(fout)}); });
  REQUIRE(old.type == "LaunchError");
  CHECK_THAT(old.what, Catch::StartsWith("no kernel image is available for execution on the device: kernel 'reserved' "
                                         "uses the reserved shared memory (`mov.u32") &&
                           Catch::Contains("which the Tesla C2070 (cc 2.0) does not have; it needs cc 8.0 or later"));
  auto mbar = ptxtest::catch_error([&] { fermi.run(fermi.kernel(kPhases), {1, 1, 1}, {64, 1, 1}, {ptr(fout)}); });
  REQUIRE(mbar.type == "LaunchError");
  CHECK_THAT(mbar.what, Catch::Contains("uses mbarrier objects (`mbarrier.init.shared.b64"));
}

TEST_CASE("mbarrier forms warpsim does not implement are refused at their line", "[engine][mbarrier]") {
  auto one = [](const std::string& instr) {
    return ptxtest::ptx_error(ptxtest::module(".visible .entry f()\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t" +
                                              instr + "\n\tret;\n}\n"));
  };
  CHECK_THAT(one("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1];"),
             Catch::Contains(":8: unsupported PTX: mbarrier.arrive") &&
                 Catch::Contains("(mbarrier on .shared::cluster (an mbarrier in another block's shared memory))"));
  CHECK_THAT(one("cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], %r2;"),
             Catch::Contains(":8: unsupported PTX: cp.async.bulk") && Catch::Contains("(cp.async .bulk_group (bulk copies"));
  CHECK_THAT(one("mbarrier.init.shared.b32 [%r1], %r2;"), Catch::Contains("parse error: mbarrier takes .b64"));
  CHECK_THAT(one("mbarrier.test_wait.noComplete.shared.b64 %r1, [%r1], %rd1;"),
             Catch::Contains("parse error: .noComplete is for mbarrier.arrive"));
}
