// issue.unroll_loops (sim/isa/loop_unrolling.hpp): counted single-block loops unrolled
// behind a guard, as ptxas unrolls nvcc's loops 4 times more; what it leaves alone; and
// kernels compute the same for every trip count, lanes of a warp running different ones.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "200_engine/ptx_fixture.hpp"
#include "isa_util.hpp"
#include "sim/isa/loop_unrolling.hpp"
#include "sim/isa/ptx_parser.hpp"
#include "sim/spec/device_spec.hpp"

using warpsim::isa::Kernel;

namespace {

std::unique_ptr<warpsim::isa::Module> parse(const std::string& body) {
  return warpsim::isa::parse_ptx(ptxtest::module(body), "t.ptx");
}

// out[tid] = sum of in[j] for j in [start[tid], start[tid+1]) with the loop of
// per_thread_sum: an up-counting `lt` loop, one element per iteration, so the lanes' trip
// counts differ. Then a down-counting `ne` loop over the same count of elements from the
// end, as nvcc writes an unrolled loop's counter; both sums are stored.
const char* kSums = R"(
.visible .entry sums(.param .u64 start_p, .param .u64 in_p, .param .u64 out_p)
{
	.reg .pred 	%p<6>;
	.reg .b32 	%r<16>;
	.reg .f32 	%f<12>;
	.reg .b64 	%rd<16>;
	ld.param.u64 	%rd1, [start_p];
	ld.param.u64 	%rd2, [in_p];
	ld.param.u64 	%rd3, [out_p];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd4, %r1, 4;
	add.s64 	%rd5, %rd1, %rd4;
	ld.global.u32 	%r2, [%rd5];
	ld.global.u32 	%r3, [%rd5+4];
	mov.f32 	%f1, 0f00000000;
	mov.f32 	%f5, 0f00000000;
	setp.ge.s32 	%p1, %r2, %r3;
	@%p1 bra 	DONE;
	mov.u32 	%r4, %r2;
UP:
	mul.wide.s32 	%rd6, %r4, 4;
	add.s64 	%rd7, %rd2, %rd6;
	ld.global.f32 	%f2, [%rd7];
	add.f32 	%f1, %f1, %f2;
	add.s32 	%r4, %r4, 1;
	setp.lt.s32 	%p2, %r4, %r3;
	@%p2 bra 	UP;
	sub.s32 	%r5, %r3, %r2;
	mul.wide.s32 	%rd8, %r3, 4;
	add.s64 	%rd9, %rd2, %rd8;
DOWN:
	ld.global.f32 	%f6, [%rd9+-4];
	mul.f32 	%f7, %f6, 0f40000000;
	add.f32 	%f5, %f5, %f7;
	add.s64 	%rd9, %rd9, -4;
	add.s32 	%r5, %r5, -1;
	setp.ne.s32 	%p3, %r5, 0;
	@%p3 bra 	DOWN;
DONE:
	mul.wide.u32 	%rd10, %r1, 8;
	add.s64 	%rd11, %rd3, %rd10;
	st.global.f32 	[%rd11], %f1;
	st.global.f32 	[%rd11+4], %f5;
	ret;
}
)";

}  // namespace

TEST_CASE("loop unrolling: both counted loops get a guarded 4x body, a 2x block, the loops stay for the rest",
          "[isa][unroll]") {
  auto m = parse(kSums);
  Kernel& k = *m->kernels[0];
  const size_t before = k.code.size();
  CHECK(warpsim::isa::unroll_loops(k, 4) == 2);
  // Per loop: head' (%p = true and the guard: 5), 4 bodies without their test (4 x 5), the
  // guard again (4), the loop's test; at the join a block of 2 (its guard, 2 bodies, the
  // loop's test: 4 + 2 x 5 + 1) and the join's branch; then the loop as it was.
  CHECK(k.code.size() == before + 2 * (5 + 4 * 5 + 4 + 1 + 15 + 1));
  CHECK(k.text.size() == k.code.size());
  const int head = isatest::pc_of(k, "setp.eq %p2, %r4, %r4");
  const int body = head + 5, join = head + 30, past = join + 15, rest = past + 1;
  CHECK(k.code[size_t(head + 4)].a.target == join);                          // too few: to the join
  CHECK(k.code[size_t(body + 20 + 3)].a.target == body);                      // enough: the bodies again
  CHECK(k.text[size_t(join - 1)].rfind("setp.lt.s32 %p2, %r4, %r3", 0) == 0);  // the loop's own test
  // The block of 2: t = x + 1, for the lanes not done (%p), past it with fewer than 2 left.
  CHECK(k.text[size_t(join)].rfind("add %u0_t, %r4, 1;", 0) == 0);
  CHECK(k.text[size_t(join + 1)].find(", %p2;") != std::string::npos);
  CHECK(k.code[size_t(join + 3)].a.target == past);
  CHECK(k.text[size_t(join + 4)] == "mul.wide.s32 %rd6, %r4, 4  // unrolled copy 1 of 2");
  CHECK(k.text[size_t(join + 9)] == "mul.wide.s32 %rd6, %r4, 4  // unrolled copy 2 of 2");
  CHECK(k.code[size_t(join + 4)].d[0].reg != k.code[size_t(join + 9)].d[0].reg);  // renamed in body 1
  CHECK(k.code[size_t(join + 9)].d[0].reg == k.code[size_t(rest)].d[0].reg);      // body 2 keeps the names
  CHECK(k.text[size_t(past - 1)].rfind("setp.lt.s32 %p2, %r4, %r3", 0) == 0);
  CHECK(k.code[size_t(past)].a.target == isatest::pc_of(k, "sub.s32 %r5"));   // done: past the loop
  CHECK(k.text[size_t(rest)] == "mul.wide.s32 %rd6, %r4, 4");
  CHECK(k.code[size_t(rest + 6)].a.target == rest);                           // the kept loop
  // The branch that skips both loops still skips them.
  CHECK(k.code[size_t(isatest::pc_of(k, "@%p1 bra"))].a.target == isatest::pc_of(k, "mul.wide.u32 %rd10"));
}

TEST_CASE("loop unrolling: what it leaves alone", "[isa][unroll]") {
  auto unrolled = [](const std::string& body, const std::string& test = "setp.lt.s32 %p2, %r4, %r3;") {
    auto m = parse(R"(
.visible .entry k(.param .u64 p)
{
	.reg .pred 	%p<6>;
	.reg .b32 	%r<16>;
	.reg .f32 	%f<12>;
	.reg .b64 	%rd<16>;
	ld.param.u64 	%rd1, [p];
	mov.u32 	%r3, 100;
	mov.u32 	%r4, 0;
L:
)" + body + "\n" + test + R"(
	@%p2 bra 	L;
	ret;
}
)");
    return warpsim::isa::unroll_loops(*m->kernels[0], 4);
  };
  const std::string load = "ld.global.f32 %f1, [%rd1];\nadd.f32 %f2, %f2, %f1;\n";
  CHECK(unrolled(load + "add.s32 %r4, %r4, 1;") == 1);
  CHECK(unrolled(load + "bar.sync 0;\nadd.s32 %r4, %r4, 1;") == 0);                 // a barrier
  CHECK(unrolled(load + "shfl.sync.bfly.b32 %r6, %r4, 1, 31, -1;\nadd.s32 %r4, %r4, 1;") == 0);
  CHECK(unrolled(load + "setp.eq.s32 %p1, %r4, 3;\n@%p1 add.s32 %r4, %r4, 1;\nadd.s32 %r4, %r4, 1;") == 0);
  CHECK(unrolled(load + "add.s32 %r4, %r4, %r3;") == 0);                            // step not constant
  CHECK(unrolled(load + "add.s32 %r4, %r4, 1;\nadd.s32 %r3, %r3, 1;") == 0);        // bound moves
  CHECK(unrolled(load + "add.s32 %r4, %r4, -1;") == 0);                             // lt counting down
  CHECK(unrolled(load + "add.s32 %r4, %r4, -1;", "setp.gt.s32 %p2, %r4, 0;") == 1);
  CHECK(unrolled(load + "add.s32 %r4, %r4, 2;", "setp.ne.s32 %p2, %r4, 100;") == 1);
  CHECK(unrolled(load + "add.s32 %r4, %r4, 1;", "setp.eq.s32 %p2, %r4, 100;") == 0);  // eq: not counted
  CHECK(unrolled(load + "selp.f32 %f3, %f1, %f2, %p2;\nadd.s32 %r4, %r4, 1;") == 0);  // reads the test's predicate
  std::string long_body;
  for (int i = 0; i < 64; ++i) long_body += "add.f32 %f2, %f2, %f1;\n";
  CHECK(unrolled(load + long_body + "add.s32 %r4, %r4, 1;") == 0);                  // more than 64
  // `.pragma "nounroll"` at the loop's head (nvcc's remainder loops, `#pragma unroll N`
  // loops): ptxas keeps the loop, and so does warpsim; elsewhere it names no loop.
  CHECK(unrolled(".pragma \"nounroll\";\n" + load + "add.s32 %r4, %r4, 1;") == 0);
  CHECK(unrolled(".pragma \"other\";\n" + load + "add.s32 %r4, %r4, 1;") == 1);
  CHECK(unrolled(load + ".pragma \"nounroll\";\nadd.s32 %r4, %r4, 1;") == 1);
}

TEST_CASE("loop unrolling: a module-scope nounroll pragma keeps every loop", "[isa][unroll]") {
  auto count = [](const std::string& pragma) {
    auto m = warpsim::isa::parse_ptx(ptxtest::module(pragma + kSums), "t.ptx");
    return warpsim::isa::unroll_loops(*m->kernels[0], 4);
  };
  CHECK(count("") == 2);
  CHECK(count(".pragma \"nounroll\";\n") == 0);
}

TEST_CASE("loop unrolling: kernels compute the same for every trip count", "[isa][unroll]") {
  // 32 lanes with trip counts 0 .. 31 (lane i sums in[s_i .. s_i + i)), and once with all
  // lanes at 13: whole unrolled passes, a remainder, divergence between the two.
  auto run = [](uint32_t factor, bool same_counts) {
    warpsim::DeviceSpec spec = warpsim::load_device_spec(WARPSIM_SOURCE_DIR "/configs/h100.json");
    spec.issue.unroll_loops = factor;
    warpsim::Device dev(spec);
    const auto& k = dev.load_ptx(ptxtest::module(kSums), "t.ptx").kernels[0];
    std::vector<uint32_t> start(33);
    for (uint32_t i = 0; i <= 32; ++i) start[i] = same_counts ? i * 13 : i * (i - 1) / 2;
    std::vector<float> in(start[32] + 8);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 23) * 0.75f - 3.0f;
    const warpsim::DevPtr ps = dev.malloc(start.size() * 4), pin = dev.malloc(in.size() * 4), out = dev.malloc(32 * 8);
    dev.copy_to_device(ps, start.data(), start.size() * 4);
    dev.copy_to_device(pin, in.data(), in.size() * 4);
    const std::vector<warpsim::KernelArg> args{ptxtest::ptr(ps), ptxtest::ptr(pin), ptxtest::ptr(out)};
    warpsim::LaunchOptions o;
    o.mode = warpsim::SimMode::Timing;
    const auto stats = dev.launch(*k, {1, 1, 1}, {32, 1, 1}, 0, args, o);
    std::vector<float> r(64);
    dev.copy_from_device(r.data(), out, r.size() * 4);
    return std::make_pair(r, stats);
  };
  for (bool same : {false, true}) {
    INFO((same ? "every lane 13 iterations" : "lane i: i iterations"));
    const auto [plain, plain_stats] = run(0, same);
    for (uint32_t factor : {2u, 4u, 8u}) {
      INFO("factor " << factor);
      const auto [unrolled, unrolled_stats] = run(factor, same);
      for (size_t i = 0; i < plain.size(); ++i) CHECK(ptxtest::fbits(plain[i]) == ptxtest::fbits(unrolled[i]));
      // Without divergence the same loads issue; with it, lanes that leave the unrolled
      // loop at different times run the rest apart, as on the GPU.
      if (same) CHECK(plain_stats.exec.gld_requests == unrolled_stats.exec.gld_requests);
      if (same) CHECK(plain_stats.mem.gld_transactions == unrolled_stats.mem.gld_transactions);
    }
  }
}
