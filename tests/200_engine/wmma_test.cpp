// wmma in the engine: a 16x16x16 half-precision multiply-add through global memory gives
// the exact product in both modes, with the H100's loads and stores (ncu: 4 + 4 + 4 load
// requests and 4 store requests per warp); and what a program may get wrong is a fault
// naming the thread: part of a warp, lanes with different addresses, a misaligned or
// out-of-bounds matrix. A device without tensor cores refuses the launch.
#include <catch2/catch.hpp>

#include "ptx_fixture.hpp"
#include "sim/isa/half_bits.hpp"

using ptxtest::DevPtr;
using ptxtest::integer;
using ptxtest::ptr;

namespace {

// D = A * B + C for one 16x16 tile: A row-major and B column-major halves, C and D
// row-major floats. Lane i's matrix address is advanced by i * lane_step bytes, and the
// load of A is executed only by the threads below `active`.
const std::string kKernel = ptxtest::module(R"(
.visible .entry mm(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd, .param .u32 lane_step,
                   .param .u32 active)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<40>;
	.reg .b64 	%rd<8>;
	.reg .f32 	%f<20>;
	ld.param.u64 	%rd1, [pa];
	ld.param.u64 	%rd2, [pb];
	ld.param.u64 	%rd3, [pc];
	ld.param.u64 	%rd4, [pd];
	ld.param.u32 	%r30, [lane_step];
	ld.param.u32 	%r31, [active];
	mov.u32 	%r32, %tid.x;
	mul.wide.u32 	%rd5, %r32, %r30;
	add.s64 	%rd1, %rd1, %rd5;
	setp.lt.u32 	%p1, %r32, %r31;
	@%p1 wmma.load.a.sync.aligned.row.m16n16k16.global.f16 	{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], 16;
	wmma.load.b.sync.aligned.col.m16n16k16.global.f16 	{%r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18}, [%rd2];
	wmma.load.c.sync.aligned.row.m16n16k16.global.f32 	{%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, [%rd3], 16;
	wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f11, %f12, %f13, %f14, %f15, %f16, %f17, %f18}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18}, {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};
	wmma.store.d.sync.aligned.row.m16n16k16.global.f32 	[%rd4], {%f11, %f12, %f13, %f14, %f15, %f16, %f17, %f18}, 16;
	ret;
}
)");

struct Tile {
  std::vector<uint16_t> a, b;  // halves: a[i * 16 + k], b[j * 16 + k] (column-major)
  std::vector<float> c;
  std::vector<float> want;     // A * B + C
};

Tile make_tile() {
  Tile t;
  t.a.resize(256), t.b.resize(256), t.c.resize(256), t.want.resize(256);
  std::vector<double> a(256), b(256);
  for (int i = 0; i < 256; ++i) {
    a[i] = (i * 7 % 9) - 4;
    b[i] = (i * 5 % 7) - 3;
    t.a[i] = warpsim::isa::detail::to_half(a[i]);
    t.b[i] = warpsim::isa::detail::to_half(b[i]);
    t.c[i] = float(i % 11) - 5;
  }
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      double s = t.c[i * 16 + j];
      for (int k = 0; k < 16; ++k) s += a[i * 16 + k] * b[j * 16 + k];
      t.want[i * 16 + j] = float(s);
    }
  return t;
}

struct Buffers {
  DevPtr a, b, c, d;
};

Buffers upload(ptxtest::Sim& sim, const Tile& t) {
  return {sim.upload(t.a), sim.upload(t.b), sim.upload(t.c), sim.zeros<float>(256)};
}

std::vector<warpsim::KernelArg> args(const Buffers& b, int64_t a_offset = 0, int64_t lane_step = 0, int64_t active = 32) {
  return {warpsim::KernelArg::ptr(b.a + a_offset), ptr(b.b), ptr(b.c), ptr(b.d), integer(lane_step), integer(active)};
}

}  // namespace

TEST_CASE("wmma.mma of a 16x16x16 half tile is exact with the H100's loads and stores", "[engine][wmma]") {
  const Tile t = make_tile();
  for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
    INFO((mode == warpsim::SimMode::Timing ? "timing" : "functional"));
    ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
    const auto& k = sim.kernel(kKernel);
    const Buffers b = upload(sim, t);
    warpsim::LaunchOptions o;
    o.mode = mode;
    const auto stats = sim.dev.launch(k, {1, 1, 1}, {32, 1, 1}, 0, args(b), o);
    CHECK(sim.download<float>(b.d, 256) == t.want);
    // A and B: one 4-byte load per distinct register (4 each); C: register pairs, 8 bytes (4);
    // D: 4 stores of 8 bytes. Each covers 8 rows x 16 or 32 bytes: 8 sectors.
    CHECK(stats.exec.gld_requests == 12);
    CHECK(stats.mem.gld_transactions == 96);
    CHECK(stats.exec.gst_requests == 4);
    CHECK(stats.mem.gst_transactions == 32);
  }
}

TEST_CASE("wmma skipped by the whole warp is skipped and by part of it is a fault", "[engine][wmma][fault]") {
  const Tile t = make_tile();
  ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
  const auto& k = sim.kernel(kKernel);
  const Buffers b = upload(sim, t);
  // No thread loads A: its registers stay 0, so D = C.
  sim.run(k, {1, 1, 1}, {32, 1, 1}, args(b, 0, 0, 0));
  CHECK(sim.download<float>(b.d, 256) == t.c);
  auto half = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {32, 1, 1}, args(b, 0, 0, 16)); });
  REQUIRE(half.type == "KernelFault");
  CHECK(half.fault == warpsim::KernelFault::Kind::Trap);
  CHECK_THAT(half.what, Catch::StartsWith("wmma.load executed by 16 of the warp's 32 threads (lanes 0x0000ffff): "
                                          "wmma needs the whole warp (.sync.aligned)") &&
                            Catch::Contains("thread (0,0,0)"));
  // A block of 16 threads has a warp of 16.
  auto small = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {16, 1, 1}, args(b)); });
  REQUIRE(small.type == "KernelFault");
  CHECK_THAT(small.what, Catch::StartsWith("wmma.load executed by 16 of the warp's 32 threads"));
}

TEST_CASE("wmma matrices that differ between lanes or are misaligned or out of bounds are faults", "[engine][wmma][fault]") {
  const Tile t = make_tile();
  ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
  const auto& k = sim.kernel(kKernel);
  const Buffers b = upload(sim, t);
  auto lanes = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {32, 1, 1}, args(b, 0, 32)); });
  REQUIRE(lanes.type == "KernelFault");
  CHECK_THAT(lanes.what, Catch::StartsWith("wmma.load with a matrix address that differs between lanes") &&
                             Catch::Contains("wmma needs one address for the warp") && Catch::Contains("thread (1,0,0)"));
  auto misaligned = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {32, 1, 1}, args(b, 2)); });
  REQUIRE(misaligned.type == "KernelFault");
  CHECK_THAT(misaligned.what, Catch::StartsWith("misaligned global wmma.load: the matrix at 0x") &&
                                  Catch::Contains("with a stride of 16 elements (32 bytes) must be 4-byte aligned"));
  // The 512-byte A read from its second half: rows 8-15 run past the allocation.
  auto oob = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {32, 1, 1}, args(b, 256)); });
  REQUIRE(oob.type == "KernelFault");
  CHECK(oob.fault == warpsim::KernelFault::Kind::MemoryAccess);
  CHECK_THAT(oob.what, Catch::StartsWith("out-of-bounds global wmma.load of 2 bytes at 0x"));
}

TEST_CASE("a kernel with wmma does not launch on a device without tensor cores", "[engine][wmma]") {
  ptxtest::Sim sim;  // the C2070
  const auto& k = sim.kernel(kKernel);
  const Buffers b = upload(sim, make_tile());
  auto e = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {32, 1, 1}, args(b)); });
  REQUIRE(e.type == "LaunchError");
  CHECK_THAT(e.what, Catch::StartsWith("no kernel image is available for execution on the device: kernel 'mm' uses "
                                       "tensor cores (`@%p1 wmma.load.a.sync.aligned.row.m16n16k16.global.f16") &&
                         Catch::EndsWith("which the Tesla C2070 (cc 2.0) does not have; wmma needs cc 7.0 or later "
                                         "(--config h100)"));
}
