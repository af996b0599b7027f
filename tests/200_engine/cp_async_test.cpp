// cp.async (sm_80's asynchronous copy from global to shared memory): 4, 8 and 16 bytes per
// lane, src-size zero-filling the rest and an ignore-src predicate; the warp's
// cp.async.wait_group waits for the copies in timing mode; faults name the thread; the
// tensor (TMA) forms are refused at their line (the bulk copy: mbarrier_test.cpp).
#include <catch2/catch.hpp>

#include "ptx_fixture.hpp"

using ptxtest::integer;
using ptxtest::ptr;

namespace {

// Each thread copies 16 bytes of `in` to shared (reading `keep` of them), and 4 more bytes
// unless it is odd (ignore-src); then waits and writes the 20 shared bytes to `out`.
const std::string kKernel = ptxtest::module(R"(
.visible .entry copy(.param .u64 in_p, .param .u64 out_p, .param .u32 keep)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<8>;
	.shared .align 16 .b8 buf[2560];
	ld.param.u64 	%rd1, [in_p];
	ld.param.u64 	%rd2, [out_p];
	ld.param.u32 	%r9, [keep];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 16;
	add.s64 	%rd4, %rd1, %rd3;
	shl.b32 	%r2, %r1, 4;
	mov.u32 	%r3, buf;
	add.s32 	%r4, %r3, %r2;
	cp.async.cg.shared.global [%r4], [%rd4], 16, %r9;
	and.b32 	%r5, %r1, 1;
	setp.ne.u32 	%p1, %r5, 0;
	shl.b32 	%r6, %r1, 2;
	add.s32 	%r7, %r3, %r6;
	add.s32 	%r7, %r7, 2048;
	cvt.u64.u32 	%rd5, %r6;
	add.s64 	%rd5, %rd1, %rd5;
	cp.async.ca.shared.global [%r7], [%rd5], 4, %p1;
	cp.async.commit_group;
	cp.async.wait_group 0;
	ld.shared.v4.u32 	{%r8, %r9, %r10, %r11}, [%r4];
	mul.wide.u32 	%rd6, %r1, 20;
	add.s64 	%rd6, %rd2, %rd6;
	st.global.u32 	[%rd6], %r8;
	st.global.u32 	[%rd6+4], %r9;
	st.global.u32 	[%rd6+8], %r10;
	st.global.u32 	[%rd6+12], %r11;
	ld.shared.u32 	%r8, [%r7];
	st.global.u32 	[%rd6+16], %r8;
	ret;
}
)");

}  // namespace

TEST_CASE("cp.async copies global to shared with zero fill and waits in both modes", "[engine][cp_async]") {
  std::vector<uint32_t> in(32 * 4);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = 1000 + i;
  for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
    INFO((mode == warpsim::SimMode::Timing ? "timing" : "functional"));
    for (uint32_t keep : {16u, 8u}) {
      INFO("src-size " << keep);
      ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
      const auto& k = sim.kernel(kKernel);
      auto din = sim.upload(in);
      auto dout = sim.zeros<uint32_t>(32 * 5);
      warpsim::LaunchOptions o;
      o.mode = mode;
      const std::vector<warpsim::KernelArg> args{ptr(din), ptr(dout), integer(keep)};
      const auto stats = sim.dev.launch(k, {1, 1, 1}, {32, 1, 1}, 0, args, o);
      const auto out = sim.download<uint32_t>(dout, 32 * 5);
      for (uint32_t t = 0; t < 32; ++t) {
        INFO("thread " << t);
        for (uint32_t j = 0; j < 4; ++j) CHECK(out[t * 5 + j] == (j * 4 < keep ? in[t * 4 + j] : 0u));
        CHECK(out[t * 5 + 4] == (t % 2 ? 0u : in[t]));  // odd threads: ignore-src, zeros
      }
      CHECK(stats.exec.gld_requests == 2);
      if (mode == warpsim::SimMode::Timing) {
        // The shared loads waited for the copies: the kernel lasts at least a DRAM round trip.
        CHECK(stats.timing.elapsed_cycles_sm > 500);
      }
    }
  }
}

TEST_CASE("cp.async faults name the thread and its bulk forms are refused", "[engine][cp_async][fault]") {
  ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
  const auto& k = sim.kernel(kKernel);
  auto din = sim.zeros<uint32_t>(32 * 4);
  auto dout = sim.zeros<uint32_t>(32 * 5);
  auto big = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {32, 1, 1}, {ptr(din), ptr(dout), integer(20)}); });
  REQUIRE(big.type == "KernelFault");
  CHECK_THAT(big.what, Catch::StartsWith("cp.async reads 20 bytes of a 16-byte copy") && Catch::Contains("thread (0,0,0)"));
  auto oob = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {32, 1, 1}, {ptr(din + 16), ptr(dout), integer(16)}); });
  REQUIRE(oob.type == "KernelFault");
  CHECK_THAT(oob.what, Catch::StartsWith("out-of-bounds cp.async read of 16 bytes at 0x") &&
                           Catch::Contains("thread (31,0,0)"));
  auto mis = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {32, 1, 1}, {ptr(din + 4), ptr(dout), integer(16)}); });
  REQUIRE(mis.type == "KernelFault");
  CHECK_THAT(mis.what, Catch::StartsWith("misaligned cp.async of 16 bytes from 0x"));
  const std::string bulk = ptxtest::module(R"(
.visible .entry b(.param .u64 p)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<4>;
	cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], [%r3];
	ret;
}
)");
  CHECK_THAT(ptxtest::ptx_error(bulk), Catch::Contains(":9: unsupported PTX: cp.async.bulk") &&
                                           Catch::Contains("cp.async .tensor (bulk copies other than global to "
                                                           "shared with mbarrier completion, tensor (TMA) copies"));
  const std::string small_cg = ptxtest::module(R"(
.visible .entry b(.param .u64 p)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<4>;
	cp.async.cg.shared.global [%r1], [%rd1], 4;
	ret;
}
)");
  CHECK_THAT(ptxtest::ptx_error(small_cg), Catch::Contains("parse error: cp.async.cg copies 16 bytes"));
}

namespace {

// One thread: copies `in[0]` to shared (group 0), commits, then loads in[32] from global
// and copies from the address it read (group 1, issued a DRAM round trip later), commits
// (unless WAIT is wait_all), waits with WAIT and stores %clock.
std::string groups_kernel(const std::string& commit2, const std::string& wait) {
  return ptxtest::module(R"(
.visible .entry groups(.param .u64 in_p, .param .u64 out_p)
{
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<8>;
	.shared .align 16 .b8 buf[64];
	ld.param.u64 	%rd1, [in_p];
	ld.param.u64 	%rd2, [out_p];
	mov.u32 	%r1, buf;
	cp.async.ca.shared.global [%r1], [%rd1], 4;
	cp.async.commit_group;
	ld.global.u64 	%rd3, [%rd1+256];
	add.s64 	%rd4, %rd1, %rd3;
	cp.async.ca.shared.global [%r1+16], [%rd4], 4;
	)" + commit2 + R"(
	)" + wait + R"(
	mov.u32 	%r2, %clock;
	ld.shared.u32 	%r3, [%r1];
	st.global.u32 	[%rd2], %r2;
	st.global.u32 	[%rd2+4], %r3;
	ret;
}
)");
}

}  // namespace

TEST_CASE("cp.async.wait_group N waits for all but the N newest groups in timing mode", "[engine][cp_async][timing]") {
  // in[64] (byte 256) holds 4096: the second copy reads in + 4096 bytes, another DRAM line.
  std::vector<uint64_t> in(1024, 7);
  in[32] = 4096;
  auto clock_after = [&](const std::string& commit2, const std::string& wait) {
    ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
    const auto& k = sim.kernel(groups_kernel(commit2, wait));
    auto din = sim.upload(in);
    auto dout = sim.zeros<uint32_t>(2);
    warpsim::LaunchOptions o;
    o.mode = warpsim::SimMode::Timing;
    const std::vector<warpsim::KernelArg> args{ptr(din), ptr(dout)};
    sim.dev.launch(k, {1, 1, 1}, {1, 1, 1}, 0, args, o);
    const auto out = sim.download<uint32_t>(dout, 2);
    CHECK(out[1] == 7u);  // the first copy arrived before the shared load
    return out[0];
  };
  const uint32_t newest_pending = clock_after("cp.async.commit_group;", "cp.async.wait_group 1;");
  const uint32_t none_pending = clock_after("cp.async.commit_group;", "cp.async.wait_group 0;");
  const uint32_t all = clock_after("", "cp.async.wait_all;");
  const uint32_t uncommitted = clock_after("", "cp.async.wait_group 0;");
  INFO("wait_group 1: " << newest_pending << ", wait_group 0: " << none_pending << ", wait_all: " << all
                        << ", uncommitted + wait_group 0: " << uncommitted);
  // wait_group 1 leaves the second copy in flight; 0 and wait_all wait a DRAM round trip more.
  CHECK(none_pending > newest_pending + 300);
  CHECK(all == none_pending);
  // The second copy of the last variant was never committed: wait_group 0 does not wait for it.
  CHECK(uncommitted == newest_pending);
}
