// issue.merge_shared_loads (sim/isa/shared_load_merging.hpp): consecutive 32-bit shared
// loads from one provably aligned base become one vector load, as ptxas makes LDS.128; the
// alignment proof, the motion rules and the renumbering of branch targets; and a kernel
// computes the same with and without it.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "200_engine/ptx_fixture.hpp"
#include "isa_util.hpp"
#include "sim/isa/ptx_parser.hpp"
#include "sim/isa/shared_load_merging.hpp"
#include "sim/spec/device_spec.hpp"

using warpsim::isa::Kernel;

namespace {

std::unique_ptr<warpsim::isa::Module> parse(const std::string& body) {
  return warpsim::isa::parse_ptx(ptxtest::module(body), "t.ptx");
}

// A row of a 16x16 tile as nvcc writes the tiled matmul's inner loop: tile + ty*64 is
// 16-byte aligned, so the four loads of each k-step group can be one LDS.128. A loop around
// it checks that the branch target is renumbered.
const char* kRow = R"(
.visible .entry row(.param .u64 out_p, .param .u32 n_p)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<12>;
	.reg .f32 	%f<20>;
	.reg .b64 	%rd<4>;
	.shared .align 4 .b8 pad[4];
	.shared .align 16 .b8 tile[1024];
	ld.param.u64 	%rd1, [out_p];
	ld.param.u32 	%r9, [n_p];
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r2, %tid.y;
	shl.b32 	%r3, %r1, 2;
	shl.b32 	%r4, %r2, 6;
	mov.u32 	%r5, tile;
	add.s32 	%r6, %r5, %r4;
	add.s32 	%r7, %r6, %r3;
	cvt.rn.f32.u32 	%f1, %r1;
	st.shared.f32 	[%r7], %f1;
	bar.sync 	0;
	mov.f32 	%f10, 0f00000000;
	mov.u32 	%r10, 0;
LOOP:
	ld.shared.f32 	%f2, [%r6];
	ld.shared.f32 	%f3, [%r7];
	fma.rn.f32 	%f10, %f2, %f3, %f10;
	ld.shared.f32 	%f4, [%r6+4];
	fma.rn.f32 	%f10, %f4, %f3, %f10;
	ld.shared.f32 	%f5, [%r6+8];
	fma.rn.f32 	%f10, %f5, %f3, %f10;
	ld.shared.f32 	%f6, [%r6+12];
	fma.rn.f32 	%f10, %f6, %f3, %f10;
	ld.shared.f32 	%f7, [%r6+16];
	ld.shared.f32 	%f8, [%r6+20];
	add.f32 	%f10, %f10, %f7;
	add.f32 	%f10, %f10, %f8;
	add.s32 	%r10, %r10, 1;
	setp.lt.u32 	%p1, %r10, %r9;
	@%p1 bra 	LOOP;
	mad.lo.s32 	%r11, %r2, 16, %r1;
	mul.wide.u32 	%rd2, %r11, 4;
	add.s64 	%rd3, %rd1, %rd2;
	st.global.f32 	[%rd3], %f10;
	ret;
}
)";

}  // namespace

TEST_CASE("shared load merging: a 16-byte-aligned row becomes one v4 load, the next pair a v2", "[isa][merge]") {
  auto m = parse(kRow);
  Kernel& k = *m->kernels[0];
  const size_t before = k.code.size();
  CHECK(warpsim::isa::merge_shared_loads(k) == 4);  // 3 into the v4, 1 into the v2
  CHECK(k.code.size() == before - 4);
  const int v4 = isatest::pc_of(k, "ld.shared.v4.f32");
  CHECK(k.text[size_t(v4)].rfind("ld.shared.v4.f32 \t{%f2, %f4, %f5, %f6}, [%r6];", 0) == 0);
  CHECK(k.code[size_t(v4)].vec == 4);
  const int v2 = isatest::pc_of(k, "ld.shared.v2.f32");
  CHECK(k.text[size_t(v2)].rfind("ld.shared.v2.f32 \t{%f7, %f8}, [%r6+16];", 0) == 0);
  // %r7 = tile + ty*64 + tx*4 is only 4-byte aligned: its load stays scalar.
  CHECK(isatest::pc_of(k, "ld.shared.f32 %f3, [%r7]") == v4 + 1);
  // The loop's branch still targets its first instruction, the merged load.
  CHECK(k.code[size_t(isatest::pc_of(k, "@%p1 bra"))].a.target == v4);
  CHECK(k.text.size() == k.code.size());
}

TEST_CASE("shared load merging: no merge without a proof of alignment or across what it may not cross",
          "[isa][merge]") {
  auto merged = [](const std::string& body) {
    auto m = parse(R"(
.visible .entry k(.param .u64 p, .param .u32 q)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<12>;
	.reg .f32 	%f<12>;
	.reg .b64 	%rd<4>;
	.shared .align 16 .b8 tile[256];
	.shared .align 4 .b8 pad[4];
	.shared .align 4 .b8 odd[20];
	mov.u32 	%r1, %tid.x;
	shl.b32 	%r2, %r1, 4;
	mov.u32 	%r3, tile;
	add.s32 	%r4, %r3, %r2;
)" + body + R"(
	ret;
}
)");
    return warpsim::isa::merge_shared_loads(*m->kernels[0]);
  };
  const std::string row = "ld.shared.f32 %f1, [%r4];\nld.shared.f32 %f2, [%r4+4];\n"
                          "ld.shared.f32 %f3, [%r4+8];\nld.shared.f32 %f4, [%r4+12];\n";
  CHECK(merged(row) == 3);
  // Offsets that do not start at a 16-byte boundary: the pairs at +4 and +12 are not
  // 8-byte aligned either, so only the pair at +8 merges.
  CHECK(merged("ld.shared.f32 %f1, [%r4+4];\nld.shared.f32 %f2, [%r4+8];\n"
               "ld.shared.f32 %f3, [%r4+12];\nld.shared.f32 %f4, [%r4+16];\n") == 1);
  // A base whose alignment comes from a parameter, or a symbol at offset 260 (after tile
  // and pad): nothing is proven.
  CHECK(merged("ld.param.u32 %r5, [q];\nadd.s32 %r6, %r3, %r5;\n" + std::string(
                   "ld.shared.f32 %f1, [%r6];\nld.shared.f32 %f2, [%r6+4];\n")) == 0);
  CHECK(merged("mov.u32 %r5, odd;\nld.shared.f32 %f1, [%r5];\nld.shared.f32 %f2, [%r5+4];\n") == 0);
  // 260 + 4 is 8-byte aligned, but the analysis knows divisors, not remainders: no merge.
  CHECK(merged("mov.u32 %r5, odd;\nld.shared.f32 %f1, [%r5+4];\nld.shared.f32 %f2, [%r5+8];\n") == 0);
  // An absolute address is known exactly.
  CHECK(merged("ld.shared.f32 %f1, [odd+4];\nld.shared.f32 %f2, [odd+8];\n") == 1);
  // A register with two definitions is as aligned as the worse one.
  CHECK(merged("setp.eq.u32 %p1, %r1, 0;\n@%p1 add.s32 %r4, %r4, 4;\n" + row) == 0);
  // A store, barrier or branch between the loads.
  CHECK(merged("ld.shared.f32 %f1, [%r4];\nst.shared.f32 [%r4+64], %f1;\nld.shared.f32 %f2, [%r4+4];\n") == 0);
  CHECK(merged("ld.shared.f32 %f1, [%r4];\nbar.sync 0;\nld.shared.f32 %f2, [%r4+4];\n") == 0);
  // The base register rewritten between them, or the later load's destination used there.
  CHECK(merged("ld.shared.f32 %f1, [%r4];\nadd.s32 %r4, %r4, 0;\nld.shared.f32 %f2, [%r4+4];\n") == 0);
  CHECK(merged("ld.shared.f32 %f1, [%r4];\nadd.f32 %f3, %f2, %f1;\nld.shared.f32 %f2, [%r4+4];\n") == 0);
  CHECK(merged("ld.shared.f32 %f1, [%r4];\nmov.f32 %f2, %f1;\nld.shared.f32 %f2, [%r4+4];\n") == 0);
  // Guarded, volatile or of different types.
  CHECK(merged("setp.eq.u32 %p1, %r1, 0;\n@%p1 ld.shared.f32 %f1, [%r4];\nld.shared.f32 %f2, [%r4+4];\n") == 0);
  CHECK(merged("ld.volatile.shared.f32 %f1, [%r4];\nld.volatile.shared.f32 %f2, [%r4+4];\n") == 0);
  CHECK(merged("ld.shared.f32 %f1, [%r4];\nld.shared.u32 %r8, [%r4+4];\n") == 0);
  // Loads from elsewhere in between do not matter.
  CHECK(merged("ld.shared.f32 %f1, [%r4];\nld.shared.f32 %f5, [%r4+128];\nld.shared.f32 %f2, [%r4+4];\n") == 1);
}

TEST_CASE("shared load merging: kernels compute the same with and without it", "[isa][merge]") {
  auto run = [](bool merge) {
    warpsim::DeviceSpec spec = warpsim::load_device_spec(WARPSIM_SOURCE_DIR "/configs/h100.json");
    spec.issue.merge_shared_loads = merge;
    warpsim::Device dev(spec);
    const auto& k = dev.load_ptx(ptxtest::module(kRow), "t.ptx").kernels[0];
    const warpsim::DevPtr out = dev.malloc(256 * 4);
    const std::vector<warpsim::KernelArg> args{ptxtest::ptr(out), ptxtest::integer(5)};
    warpsim::LaunchOptions o;
    o.mode = warpsim::SimMode::Timing;
    const auto stats = dev.launch(*k, {1, 1, 1}, {16, 16, 1}, 0, args, o);
    std::vector<float> r(256);
    dev.copy_from_device(r.data(), out, r.size() * 4);
    return std::make_pair(r, stats);
  };
  const auto [plain, plain_stats] = run(false);
  const auto [merged, merged_stats] = run(true);
  for (size_t i = 0; i < plain.size(); ++i) CHECK(ptxtest::fbits(plain[i]) == ptxtest::fbits(merged[i]));
  // 8 warps x 5 iterations x 4 loads fewer; the v4 load of one row per half-warp costs 2
  // wavefronts where its 4 scalar loads cost 4.
  CHECK(plain_stats.exec.inst_executed - merged_stats.exec.inst_executed == 8 * 5 * 4);
  CHECK(plain_stats.exec.shared_load_requests - merged_stats.exec.shared_load_requests == 8 * 5 * 4);
  CHECK(plain_stats.mem.shared_load_transactions - merged_stats.mem.shared_load_transactions == 8 * 5 * 3);
}
