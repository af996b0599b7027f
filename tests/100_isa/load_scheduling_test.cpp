// The ptxas-like list schedule of issue.hoist_loads (sim/isa/load_scheduling.hpp): global
// loads and their address arithmetic move ahead of independent arithmetic within a basic
// block; dependences, memory order, fences and labels hold; shared loads keep their place;
// and a kernel computes the same results either way.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "200_engine/ptx_fixture.hpp"
#include "isa_util.hpp"
#include "sim/isa/load_scheduling.hpp"
#include "sim/isa/ptx_parser.hpp"
#include "sim/spec/device_spec.hpp"

using warpsim::isa::Kernel;

namespace {

// The instructions' texts in code order, from the first one starting with `from` for n.
std::vector<std::string> texts(const Kernel& k, const std::string& from, size_t n) {
  const int at = isatest::pc_of(k, from);
  return {k.text.begin() + at, k.text.begin() + std::min(k.text.size(), size_t(at) + n)};
}

// Whether the instruction whose text starts with `a` comes before the one starting with `b`.
bool comes_before(const Kernel& k, const std::string& a, const std::string& b) {
  INFO(a << " before " << b);
  return isatest::pc_of(k, a) < isatest::pc_of(k, b);
}

std::unique_ptr<warpsim::isa::Module> parse(const std::string& body) {
  return warpsim::isa::parse_ptx(ptxtest::module(body), "t.ptx");
}

// An unrolled loop as nvcc writes matmul_simple's: address, load, load, fma, three times;
// every load is to a line of its own (a 128-byte stride), so each one misses.
const char* kUnrolled = R"(
.visible .entry dot(.param .u64 a_p, .param .u64 b_p, .param .u64 out_p, .param .u32 n_p)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<8>;
	.reg .f32 	%f<20>;
	.reg .b64 	%rd<20>;
	ld.param.u64 	%rd1, [a_p];
	ld.param.u64 	%rd2, [b_p];
	ld.param.u64 	%rd3, [out_p];
	ld.param.u32 	%r1, [n_p];
	mov.u32 	%r2, 0;
	mov.f32 	%f1, 0f00000000;
LOOP:
	ld.global.f32 	%f2, [%rd1];
	ld.global.f32 	%f3, [%rd2];
	fma.rn.f32 	%f4, %f2, %f3, %f1;
	add.s64 	%rd4, %rd1, 128;
	ld.global.f32 	%f5, [%rd4];
	ld.global.f32 	%f6, [%rd2+128];
	fma.rn.f32 	%f7, %f5, %f6, %f4;
	add.s64 	%rd5, %rd4, 128;
	ld.global.f32 	%f8, [%rd5];
	ld.global.f32 	%f9, [%rd2+256];
	fma.rn.f32 	%f1, %f8, %f9, %f7;
	add.s64 	%rd1, %rd5, 128;
	add.s64 	%rd2, %rd2, 384;
	add.s32 	%r2, %r2, 3;
	setp.lt.u32 	%p1, %r2, %r1;
	@%p1 bra 	LOOP;
	st.global.f32 	[%rd3], %f1;
	ret;
}
)";

}  // namespace

TEST_CASE("load scheduling: global loads and their addresses go ahead of the fmas", "[isa][schedule]") {
  auto m = parse(kUnrolled);
  Kernel& k = *m->kernels[0];
  const int loop = isatest::pc_of(k, "ld.global.f32 %f2");
  const auto before = k.code.size();
  CHECK(warpsim::isa::schedule_loads_first(k) > 0);
  CHECK(k.code.size() == before);
  CHECK(texts(k, "ld.global.f32 %f2", 16) == std::vector<std::string>{
                                                 "ld.global.f32 %f2, [%rd1]",
                                                 "ld.global.f32 %f3, [%rd2]",
                                                 "add.s64 %rd4, %rd1, 128",
                                                 "ld.global.f32 %f5, [%rd4]",
                                                 "ld.global.f32 %f6, [%rd2+128]",
                                                 "add.s64 %rd5, %rd4, 128",
                                                 "ld.global.f32 %f8, [%rd5]",
                                                 "ld.global.f32 %f9, [%rd2+256]",
                                                 "fma.rn.f32 %f4, %f2, %f3, %f1",
                                                 "fma.rn.f32 %f7, %f5, %f6, %f4",
                                                 "fma.rn.f32 %f1, %f8, %f9, %f7",
                                                 "add.s64 %rd1, %rd5, 128",
                                                 "add.s64 %rd2, %rd2, 384",
                                                 "add.s32 %r2, %r2, 3",
                                                 "setp.lt.u32 %p1, %r2, %r1",
                                                 "@%p1 bra LOOP"});
  // The block still starts where the label points, and the branch still targets it.
  CHECK(isatest::pc_of(k, "ld.global.f32 %f2") == loop);
  CHECK(k.code[static_cast<size_t>(isatest::pc_of(k, "@%p1 bra"))].a.target == loop);
  // The entry block's parameter loads and the store after the loop keep their places.
  CHECK(isatest::pc_of(k, "ld.param.u64 %rd1") == 0);
  CHECK(k.text[k.text.size() - 2] == "st.global.f32 [%rd3], %f1");
}

TEST_CASE("load scheduling: no load crosses a store, barrier, volatile access or its own dependences",
          "[isa][schedule]") {
  auto m = parse(R"(
.visible .entry k(.param .u64 p)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<8>;
	.shared .align 4 .b8 sh[64];
	ld.param.u64 	%rd1, [p];
	add.s32 	%r1, %r1, 1;
	st.global.u32 	[%rd1], %r1;
	ld.global.u32 	%r2, [%rd1+4];
	add.s32 	%r3, %r1, 2;
	bar.sync 	0;
	ld.global.u32 	%r4, [%rd1+8];
	add.s32 	%r5, %r3, %r3;
	ld.volatile.global.u32 	%r6, [%rd1+12];
	add.s32 	%r7, %r5, 1;
	ld.global.u32 	%r8, [%rd1+16];
	add.s32 	%r9, %r7, %r7;
	setp.eq.s32 	%p1, %r9, 0;
	@%p1 ld.global.u32 	%r10, [%rd1+20];
	mov.u32 	%r3, %r10;
	add.s32 	%r11, %r2, 1;
	ld.global.u32 	%r11, [%rd1+24];
	ld.shared.u32 	%r1, [sh];
	add.s32 	%r5, %r5, 7;
	ld.global.u32 	%r5, [%rd1+28];
	st.global.u32 	[%rd1+32], %r5;
	ret;
}
)");
  Kernel& k = *m->kernels[0];
  warpsim::isa::schedule_loads_first(k);
  auto before = [&](const std::string& a, const std::string& b) { return comes_before(k, a, b); };
  CHECK(before("st.global.u32 [%rd1], %r1", "ld.global.u32 %r2"));   // memory order
  CHECK(before("bar.sync", "ld.global.u32 %r4"));                    // barrier
  CHECK(before("add.s32 %r3, %r1, 2", "bar.sync"));
  CHECK(before("ld.volatile.global.u32 %r6", "add.s32 %r7"));        // volatile: stays put
  CHECK(before("add.s32 %r5, %r3, %r3", "ld.volatile.global.u32 %r6"));
  CHECK(before("ld.volatile.global.u32 %r6", "ld.global.u32 %r8"));  // loads keep their order
  CHECK(before("setp.eq.s32 %p1", "@%p1 ld.global.u32 %r10"));       // its guard
  CHECK(before("add.s32 %r11, %r2, 1", "ld.global.u32 %r11"));       // output dependence
  CHECK(before("add.s32 %r5, %r5, 7", "ld.global.u32 %r5"));         // anti dependence
  CHECK(before("add.s32 %r11, %r2, 1", "ld.shared.u32 %r1"));        // shared loads keep their place
  CHECK(before("ld.global.u32 %r5", "st.global.u32 [%rd1+32], %r5"));
  CHECK(k.text.back() == "ret");
}

TEST_CASE("load scheduling: kernels compute the same with and without it", "[isa][schedule]") {
  // The spec runner checks every spec's results on the H100 config, which schedules; here a
  // hand-written unrolled loop, bit for bit and instruction for instruction.
  auto run = [](bool hoist) {
    warpsim::DeviceSpec spec = warpsim::load_device_spec(WARPSIM_SOURCE_DIR "/configs/h100.json");
    spec.issue.hoist_loads = hoist;
    warpsim::Device dev(spec);
    const auto& k = dev.load_ptx(ptxtest::module(kUnrolled), "t.ptx").kernels[0];
    std::vector<float> a(96 * 32), b(96 * 32);
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = float(i % 17) * 0.37f - 2.5f;
      b[i] = float(i % 13) * -0.61f + 1.25f;
    }
    const warpsim::DevPtr pa = dev.malloc(a.size() * 4), pb = dev.malloc(b.size() * 4), out = dev.malloc(4);
    dev.copy_to_device(pa, a.data(), a.size() * 4);
    dev.copy_to_device(pb, b.data(), b.size() * 4);
    const std::vector<warpsim::KernelArg> args{ptxtest::ptr(pa), ptxtest::ptr(pb), ptxtest::ptr(out),
                                               ptxtest::integer(96)};
    warpsim::LaunchOptions o;
    o.mode = warpsim::SimMode::Timing;
    const auto stats = dev.launch(*k, {1, 1, 1}, {1, 1, 1}, 0, args, o);
    float r = 0;
    dev.copy_from_device(&r, out, 4);
    return std::make_pair(r, stats);
  };
  const auto [plain, plain_stats] = run(false);
  const auto [hoisted, hoisted_stats] = run(true);
  CHECK(ptxtest::fbits(plain) == ptxtest::fbits(hoisted));
  CHECK(plain_stats.exec.inst_executed == hoisted_stats.exec.inst_executed);
  CHECK(plain_stats.exec.gld_requests == hoisted_stats.exec.gld_requests);
  // One thread, 32 iterations of three global load pairs that each miss: with the loads
  // issued together, each iteration waits for memory about once instead of three times.
  CHECK(hoisted_stats.timing.elapsed_cycles_sm * 2 < plain_stats.timing.elapsed_cycles_sm);
}

TEST_CASE("load scheduling: a global load moves above a shared store, not above a generic one",
          "[isa][schedule]") {
  // ptxas issues the tiled kernels' LDGs ahead of their STSs (docs/measurements/
  // h100_shared_sass.txt): different state spaces never overlap. A generic address may be
  // either, and a global store may be the same word.
  auto m = parse(R"(
.visible .entry k(.param .u64 p)
{
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<8>;
	.shared .align 4 .b8 sh[64];
	ld.param.u64 	%rd1, [p];
	mov.u32 	%r1, %tid.x;
	ld.global.u32 	%r2, [%rd1];
	st.shared.u32 	[sh], %r2;
	ld.global.u32 	%r3, [%rd1+4];
	st.u32 	[%rd1+64], %r3;
	ld.global.u32 	%r4, [%rd1+8];
	st.global.u32 	[%rd1+128], %r4;
	ld.global.u32 	%r5, [%rd1+12];
	add.s32 	%r6, %r5, %r4;
	st.global.u32 	[%rd1+192], %r6;
	ret;
}
)");
  Kernel& k = *m->kernels[0];
  warpsim::isa::schedule_loads_first(k);
  auto before = [&](const std::string& a, const std::string& b) { return comes_before(k, a, b); };
  CHECK(before("ld.global.u32 %r3", "st.shared.u32 [sh], %r2"));      // global over shared
  CHECK(before("st.u32 [%rd1+64], %r3", "ld.global.u32 %r4"));          // not over a generic store
  CHECK(before("st.global.u32 [%rd1+128], %r4", "ld.global.u32 %r5"));  // nor a global one
}
