// The liveness-based register estimate (32-bit words live at once; 64-bit values count
// twice; guarded definitions do not end a value's life; special registers are free).
#include <catch2/catch.hpp>

#include "isa_util.hpp"
#include "sim/isa/cfg.hpp"
#include "sim/isa/ptx_parser.hpp"

using namespace warpsim::isa;

namespace {

uint32_t estimate(const std::string& body) {
  auto m = parse_ptx(isatest::module(".entry k(.param .u64 p, .param .u64 q)\n{\n.reg .b32 %r<8>;\n"
                                     ".reg .b64 %rd<4>;\n.reg .f64 %fd<4>;\n.reg .pred %p<2>;\n" +
                                     body + "\n}\n"),
                     "regs.ptx");
  const Kernel& k = *m->kernels[0];
  CHECK(estimate_registers(k) == k.estimated_registers);
  return k.estimated_registers;
}

}  // namespace

TEST_CASE("register estimate: straight-line code", "[isa][regs]") {
  CHECK(estimate("ret;") == 2);  // never below what a minimal kernel uses
  // Three loads live together with the 64-bit pointer: 2 + 3.
  CHECK(estimate(R"(
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
  ld.global.u32 %r2, [%rd1+4];
  ld.global.u32 %r3, [%rd1+8];
  add.s32 %r4, %r1, %r2;
  add.s32 %r4, %r4, %r3;
  st.global.u32 [%rd1], %r4;
  ret;)") == 5);
  // Doubles count two words each: rd1 + fd1 + fd2 (or rd1 + rd2 + fd1).
  CHECK(estimate(R"(
  ld.param.u64 %rd1, [p];
  ld.param.u64 %rd2, [q];
  ld.global.f64 %fd1, [%rd1];
  ld.global.f64 %fd2, [%rd2];
  add.f64 %fd3, %fd1, %fd2;
  st.global.f64 [%rd1], %fd3;
  ret;)") == 6);
  // A vector load defines four registers at once.
  CHECK(estimate(R"(
  ld.param.u64 %rd1, [p];
  ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];
  add.s32 %r1, %r1, %r2;
  add.s32 %r1, %r1, %r3;
  add.s32 %r1, %r1, %r4;
  st.global.u32 [%rd1], %r1;
  ret;)") == 6);
}

TEST_CASE("register estimate: guarded definitions, specials and loops", "[isa][regs]") {
  // r2 = 7 stays live across the guarded move, so it overlaps r1 and r3: 2 + 3.
  CHECK(estimate(R"(
  ld.param.u64 %rd1, [p];
  mov.u32 %r2, 7;
  mov.u32 %r1, %tid.x;
  mul.lo.u32 %r3, %r1, 2;
  setp.lt.u32 %p1, %r1, 4;
  @%p1 mov.u32 %r2, %r3;
  st.global.u32 [%rd1], %r2;
  ret;)") == 5);
  // Special registers are not allocated: reading three of them costs nothing.
  CHECK(estimate(R"(
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %ctaid.x;
  mad.lo.s32 %r1, %r3, %r2, %r1;
  st.global.u32 [%rd1], %r1;
  ret;)") == 5);
  // Loop-carried values stay live around the back edge: rd1, i, sum, and the bound.
  CHECK(estimate(R"(
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r3, [%rd1];
  mov.u32 %r1, 0;
  mov.u32 %r2, 0;
L:
  add.u32 %r2, %r2, %r1;
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p1, %r1, %r3;
  @%p1 bra L;
  st.global.u32 [%rd1], %r2;
  ret;)") == 5);
}
