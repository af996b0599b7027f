// issue.if_convert (sim/isa/if_conversion.hpp): a branch over a short block with a load
// becomes predication, as ptxas does for bounds-checked loads; what it leaves alone; and a
// kernel computes the same either way, some lanes taking the branch and some not.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "200_engine/ptx_fixture.hpp"
#include "isa_util.hpp"
#include "sim/isa/if_conversion.hpp"
#include "sim/isa/ptx_parser.hpp"
#include "sim/spec/device_spec.hpp"

using warpsim::isa::Kernel;

namespace {

// out[tid] = tid < n ? in[tid] : -1, then the same for in[tid + 32], as nvcc writes a
// bounds-checked tile load: the default value, a branch around the address and the load.
const char* kBounded = R"(
.visible .entry bounded(.param .u64 in_p, .param .u64 out_p, .param .u32 n_p)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<8>;
	.reg .f32 	%f<8>;
	.reg .b64 	%rd<12>;
	ld.param.u64 	%rd1, [in_p];
	ld.param.u64 	%rd2, [out_p];
	ld.param.u32 	%r1, [n_p];
	mov.u32 	%r2, %tid.x;
	setp.ge.u32 	%p1, %r2, %r1;
	mov.f32 	%f1, 0fBF800000;
	@%p1 bra 	SKIP1;
	mul.wide.u32 	%rd3, %r2, 4;
	add.s64 	%rd4, %rd1, %rd3;
	ld.global.f32 	%f1, [%rd4];
SKIP1:
	add.s32 	%r3, %r2, 32;
	setp.lt.u32 	%p2, %r3, %r1;
	mov.f32 	%f2, 0fBF800000;
	@!%p2 bra 	SKIP2;
	mul.wide.u32 	%rd5, %r3, 4;
	add.s64 	%rd6, %rd1, %rd5;
	ld.global.f32 	%f2, [%rd6];
SKIP2:
	add.f32 	%f3, %f1, %f2;
	mul.wide.u32 	%rd7, %r2, 4;
	add.s64 	%rd8, %rd2, %rd7;
	st.global.f32 	[%rd8], %f3;
	ret;
}
)";

std::unique_ptr<warpsim::isa::Module> parse(const std::string& body) {
  return warpsim::isa::parse_ptx(ptxtest::module(body), "t.ptx");
}

}  // namespace

TEST_CASE("if conversion: a branch around a bounds-checked load becomes its guard", "[isa][ifconv]") {
  auto m = parse(kBounded);
  Kernel& k = *m->kernels[0];
  const size_t before = k.code.size();
  CHECK(warpsim::isa::if_convert_skips(k) == 2);
  CHECK(k.code.size() == before - 2);
  CHECK(k.num_branches == 0);
  const auto& l1 = k.code[size_t(isatest::pc_of(k, "@!%p1 ld.global.f32 %f1"))];
  CHECK((l1.has_guard && l1.guard_neg));
  const auto& l2 = k.code[size_t(isatest::pc_of(k, "@%p2 ld.global.f32 %f2"))];
  CHECK((l2.has_guard && !l2.guard_neg));
  CHECK(isatest::pc_of(k, "@!%p1 mul.wide.u32 %rd3") + 2 == isatest::pc_of(k, "@!%p1 ld.global.f32 %f1"));
  CHECK(k.text.size() == k.code.size());
}

TEST_CASE("if conversion: stores, long blocks, inner labels and guarded code keep their branch", "[isa][ifconv]") {
  auto converted = [](const std::string& block, const std::string& guard = "@%p1") {
    auto m = parse(R"(
.visible .entry k(.param .u64 p)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<12>;
	.reg .f32 	%f<12>;
	.reg .b64 	%rd<8>;
	ld.param.u64 	%rd1, [p];
	mov.u32 	%r1, %tid.x;
	setp.eq.u32 	%p1, %r1, 0;
	setp.eq.u32 	%p2, %r1, 1;
)" + guard + R"( bra 	SKIP;
)" + block + R"(
SKIP:
	ret;
}
)");
    return warpsim::isa::if_convert_skips(*m->kernels[0]);
  };
  CHECK(converted("add.s32 %r2, %r1, 1;\nld.global.f32 %f1, [%rd1];") == 1);
  CHECK(converted("add.s32 %r2, %r1, 1;\nld.global.f32 %f1, [%rd1];", "@%p1 bra.uni SKIP;\n//") == 0);
  CHECK(converted("add.s32 %r2, %r1, 1;") == 0);                                   // no load to hide
  CHECK(converted("ld.global.f32 %f1, [%rd1];\nst.global.f32 [%rd1], %f1;") == 0);   // a store
  CHECK(converted("ld.global.f32 %f1, [%rd1];\nbar.sync 0;") == 0);                  // a barrier
  CHECK(converted("@%p2 ld.global.f32 %f1, [%rd1];") == 0);                          // already guarded
  CHECK(converted("ld.global.f32 %f1, [%rd1];\nsetp.eq.f32 %p1, %f1, 0f00000000;") == 0);  // rewrites the guard
  CHECK(converted("ld.shared.f32 %f1, [%rd1];") == 0);                               // a short load
  std::string nine = "ld.global.f32 %f1, [%rd1];\n";
  for (int i = 0; i < 8; ++i) nine += "add.s32 %r2, %r2, 1;\n";
  CHECK(converted(nine) == 0);                                                         // longer than 8
  CHECK(converted("ld.global.f32 %f1, [%rd1];\n@%p2 bra INNER;\nINNER:\nadd.s32 %r2, %r1, 1;") == 0);
  CHECK(converted("ld.global.f32 %f1, [%rd1];\nINNER:\nadd.s32 %r2, %r1, 1;\n@%p2 bra INNER;") == 0);
}

TEST_CASE("if conversion: kernels compute the same with and without it", "[isa][ifconv]") {
  auto run = [](bool convert, uint32_t n) {
    warpsim::DeviceSpec spec = warpsim::load_device_spec(WARPSIM_SOURCE_DIR "/configs/h100.json");
    spec.issue.if_convert = convert;
    warpsim::Device dev(spec);
    const auto& k = dev.load_ptx(ptxtest::module(kBounded), "t.ptx").kernels[0];
    std::vector<float> in(64);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.5f + 1.0f;
    const warpsim::DevPtr pin = dev.malloc(in.size() * 4), out = dev.malloc(32 * 4);
    dev.copy_to_device(pin, in.data(), in.size() * 4);
    const std::vector<warpsim::KernelArg> args{ptxtest::ptr(pin), ptxtest::ptr(out), ptxtest::integer(n)};
    warpsim::LaunchOptions o;
    o.mode = warpsim::SimMode::Timing;
    const auto stats = dev.launch(*k, {1, 1, 1}, {32, 1, 1}, 0, args, o);
    std::vector<float> r(32);
    dev.copy_from_device(r.data(), out, r.size() * 4);
    return std::make_pair(r, stats);
  };
  for (uint32_t n : {0u, 20u, 40u, 64u}) {
    INFO("n = " << n);
    const auto [plain, plain_stats] = run(false, n);
    const auto [conv, conv_stats] = run(true, n);
    for (size_t i = 0; i < 32; ++i) CHECK(ptxtest::fbits(plain[i]) == ptxtest::fbits(conv[i]));
    CHECK(plain_stats.exec.gld_requests == conv_stats.exec.gld_requests);
    CHECK(conv_stats.exec.branch == 0);
  }
}
