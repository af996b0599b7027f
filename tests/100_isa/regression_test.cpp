// Regression tests for loader bugs found while writing this suite; each case failed
// before the commit that added it.
#include <catch2/catch.hpp>

#include "isa_util.hpp"
#include "sim/isa/ptx_parser.hpp"

using isatest::ptx_error;

namespace {

std::string kernel_line(const std::string& line) {
  return isatest::module(".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
                         ".reg .f32 %f<4>;\n.reg .pred %p<2>;\n" +
                         line + "\nret;\n}\n");  // `line` is line 10
}

}  // namespace

TEST_CASE("instructions outside the subset are unsupported even when their operand syntax is not parsed",
          "[isa][reject][regression]") {
  // Before: "t.ptx:10:47: parse error: expected ']', got ','" and similar.
  CHECK(ptx_error(kernel_line("tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [tex0, {%f0, %f1}];")) ==
        "t.ptx:10: unsupported PTX: tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [tex0, {%f0, %f1}];  (tex through 'tex0' "
        "(texture/surface references were removed in CUDA 12; use texture and surface objects))");
  CHECK(ptx_error(kernel_line("call (%r1), %rd1, (%r2), proto_0;")) ==
        "t.ptx:10:26: parse error: 'proto_0' is not a .callprototype label of this body");
  CHECK(ptx_error(kernel_line("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r0, %r1, %r2, %r3}, [%rd1];")) ==
        "t.ptx:10: unsupported PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r0, %r1, %r2, %r3}, [%rd1];  "
        "(instruction 'ldmatrix')");
  CHECK(ptx_error(kernel_line("@%p1 suld.b.2d.v4.b32.trap {%r0, %r1, %r2, %r3}, [surf, {%r1, %r2}];")) ==
        "t.ptx:10: unsupported PTX: @%p1 suld.b.2d.v4.b32.trap {%r0, %r1, %r2, %r3}, [surf, {%r1, %r2}];  "
        "(suld through 'surf' (texture/surface references were removed in CUDA 12; use texture and surface objects))");
  // A register where an instruction belongs is still a parse error.
  CHECK(ptx_error(kernel_line("%r1, %r2;")) == "t.ptx:10:1: parse error: expected an instruction, got '%r1'");
}

TEST_CASE("atomics with a type PTX does not define are unsupported, not silently executed as no-ops",
          "[isa][reject][regression]") {
  // Before: accepted, and the engine's atomic left memory unchanged and returned 0.
  CHECK(ptx_error(kernel_line("atom.global.add.u16 %r1, [%rd1], %r2;")) ==
        "t.ptx:10: unsupported PTX: atom.global.add.u16 %r1, [%rd1], %r2;  (atom.add on .u16)");
  CHECK(ptx_error(kernel_line("red.shared.or.b8 [%rd1], %r2;")) ==
        "t.ptx:10: unsupported PTX: red.shared.or.b8 [%rd1], %r2;  (red.or on .b8)");
  CHECK(ptx_error(kernel_line("atom.global.and.f32 %f1, [%rd1], %f2;")) ==
        "t.ptx:10: unsupported PTX: atom.global.and.f32 %f1, [%rd1], %f2;  (atom.and on .f32)");
  CHECK(ptx_error(kernel_line("atom.global.max.f32 %f1, [%rd1], %f2;")) ==
        "t.ptx:10: unsupported PTX: atom.global.max.f32 %f1, [%rd1], %f2;  (atom.max on .f32)");
  CHECK(ptx_error(kernel_line("atom.global.exch.f32 %f1, [%rd1], %f2;")) ==
        "t.ptx:10: unsupported PTX: atom.global.exch.f32 %f1, [%rd1], %f2;  (atom.exch on .f32)");
  CHECK(ptx_error(kernel_line("red.global.inc.s32 [%rd1], %r2;")) ==
        "t.ptx:10: unsupported PTX: red.global.inc.s32 [%rd1], %r2;  (red.inc on .s32)");
  CHECK(ptx_error(kernel_line("atom.global.dec.u64 %rd2, [%rd1], %rd3;")) ==
        "t.ptx:10: unsupported PTX: atom.global.dec.u64 %rd2, [%rd1], %rd3;  (atom.dec on .u64)");
  // What nvcc emits for the CUDA atomics stays accepted.
  for (const char* ok : {"atom.global.add.u32 %r1, [%rd1], %r2;", "atom.global.add.f32 %f1, [%rd1], %f2;",
                         "atom.global.add.u64 %rd2, [%rd1], %rd3;", "atom.global.add.f64 %rd2, [%rd1], %rd3;",
                         "atom.shared.min.s32 %r1, [%rd1], %r2;", "atom.global.max.u64 %rd2, [%rd1], %rd3;",
                         "atom.global.exch.b32 %r1, [%rd1], %r2;", "atom.global.cas.b64 %rd2, [%rd1], %rd3, %rd1;",
                         "atom.global.inc.u32 %r1, [%rd1], %r2;", "atom.global.xor.b64 %rd2, [%rd1], %rd3;",
                         "red.global.add.f32 [%rd1], %f1;", "atom.add.u32 %r1, [%rd1], 1;"}) {
    INFO(ok);
    CHECK(ptx_error(kernel_line(ok)) == "");
  }
}

TEST_CASE("a branch to a label after the last instruction lands on an implicit ret", "[isa][parse][regression]") {
  // Before: the label resolved to code.size(), one past the last instruction, so the CFG
  // indexed past its block table and the warp would have fetched past the end of the code.
  const std::string text = isatest::module(
      ".entry k(.param .u64 out)\n{\n.reg .pred %p;\n.reg .b32 %r<2>;\n.reg .b64 %rd<3>;\n"
      "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd1, %rd1, %rd2;\n"
      "setp.lt.u32 %p, %r1, 4;\n@%p bra END;\nst.global.u32 [%rd1], %r1;\nret;\nEND:\n}\n");
  auto m = warpsim::isa::parse_ptx(text, "t.ptx");
  const auto& k = *m->kernels[0];
  REQUIRE(k.code.size() == 9);
  CHECK(k.code[8].op == warpsim::isa::Op::Ret);
  CHECK(k.code[5].a.target == 8);
  for (const auto& in : k.code)
    if (in.op == warpsim::isa::Op::Bra) {
      CHECK(in.a.target < static_cast<int32_t>(k.code.size()));
      CHECK(in.reconv < static_cast<int32_t>(k.code.size()));
    }
  ptxtest::Sim sim;
  const auto& kk = sim.kernel(text);
  auto out = sim.upload(std::vector<uint32_t>(8, 0xAAAAAAAAu));
  sim.run(kk, {1, 1, 1}, {8, 1, 1}, {ptxtest::ptr(out)});
  CHECK(sim.download<uint32_t>(out, 8) ==
        std::vector<uint32_t>{0xAAAAAAAAu, 0xAAAAAAAAu, 0xAAAAAAAAu, 0xAAAAAAAAu, 4, 5, 6, 7});
}

TEST_CASE("a kernel without instructions is reported at its name", "[isa][reject][regression]") {
  // Before: at the token after the closing brace (here the next kernel's .entry, line 7).
  CHECK(ptx_error(isatest::module(".entry empty()\n{\nL:\n}\n.entry next()\n{\nret;\n}\n")) ==
        "t.ptx:4:8: parse error: kernel 'empty' has no instructions");
}

TEST_CASE("an if inside an infinite loop reconverges inside it, so a barrier after it is no deadlock",
          "[isa][cfg][regression]") {
  // for (;;) { if (tid < 16) x++; __syncthreads(); }  stopped by the instruction limit.
  // Before: every block of the loop had a virtual exit edge, the if's reconvergence point was
  // the kernel exit, half the warp waited at bar.sync for the other half parked on the stack,
  // and the launch failed with a (wrong) barrier-deadlock report.
  const std::string text = isatest::module(R"(
.entry spin()
{
  .reg .b32 %r<3>;
  .reg .pred %p1;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
LOOP:
  @!%p1 bra JOIN;
  add.u32 %r2, %r2, 1;
JOIN:
  bar.sync 0;
  bra.uni LOOP;
}
)");
  ptxtest::Sim sim;
  const auto& k = sim.kernel(text);
  warpsim::Limits limits;
  limits.max_warp_instructions = 1000;
  auto t = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {64, 1, 1}, {}, 0, limits); });
  CHECK(t.type == "KernelFault");
  CHECK(t.fault == warpsim::KernelFault::Kind::LimitExceeded);
  CHECK(t.what == "kernel 'spin' stopped: instruction limit of 1000 warp instructions exceeded after 1001 "
                  "(infinite loop?)");
}

TEST_CASE("width and saturation modifiers PTX does not define are parse errors, not silent no-ops",
          "[isa][reject][regression]") {
  // Before: mad.wide.s64 was accepted and never wrote its destination; mul24.wide computed .lo;
  // add.sat.u32 wrapped around.
  CHECK(ptx_error(kernel_line("mad.wide.s64 %rd1, %rd2, %rd3, %rd1;")) ==
        "t.ptx:10:1: parse error: mad.wide takes 16- or 32-bit types");
  CHECK(ptx_error(kernel_line("mul.wide.u64 %rd1, %rd2, %rd3;")) ==
        "t.ptx:10:1: parse error: mul.wide takes 16- or 32-bit types");
  CHECK(ptx_error(kernel_line("mul24.wide.s32 %rd1, %r1, %r2;")) == "t.ptx:10:1: parse error: mul24 takes .lo or .hi");
  CHECK(ptx_error(kernel_line("mad24.lo.s16 %r1, %r1, %r2, %r3;")) ==
        "t.ptx:10:1: parse error: mad24 takes .s32 or .u32");
  CHECK(ptx_error(kernel_line("add.sat.u32 %r1, %r2, %r3;")) ==
        "t.ptx:10:1: parse error: .sat on add applies to .s32, .f32, .f16 and .f16x2 add/sub");
  CHECK(ptx_error(kernel_line("min.sat.s32 %r1, %r2, %r3;")) ==
        "t.ptx:10:1: parse error: .sat on min applies to .s32, .f32, .f16 and .f16x2 add/sub");
  CHECK(ptx_error(kernel_line("mad.lo.sat.s32 %r1, %r2, %r3, %r1;")) ==
        "t.ptx:10:1: parse error: .sat on mad applies to .f32, .f16, .f16x2 and .hi.s32");
  CHECK(ptx_error(kernel_line("mul.hi.f32 %f1, %f2, %f3;")) == "t.ptx:10:1: parse error: mul.hi is integer-only");
  // The defined forms load.
  for (const char* ok : {"mad.wide.s32 %rd1, %r1, %r2, %rd1;", "mul.wide.u16 %r1, %r2, %r3;", "mad24.hi.sat.s32 %r1, %r1, %r2, %r3;",
                         "mul24.lo.u32 %r1, %r2, %r3;", "add.sat.s32 %r1, %r2, %r3;", "sub.sat.f32 %f1, %f2, %f3;",
                         "mad.hi.sat.s32 %r1, %r1, %r2, %r3;", "mad.rn.sat.f32 %f1, %f2, %f3, %f1;", "mul.sat.f32 %f1, %f2, %f3;",
                         "fma.rn.sat.f32 %f1, %f2, %f3, %f1;", "mul.rn.f64 %rd1, %rd2, %rd3;",
                         "add.sat.f16x2 %r1, %r2, %r3;", "fma.rn.sat.f16x2 %r1, %r2, %r3, %r1;"}) {
    INFO(ok);
    CHECK(ptx_error(kernel_line(ok)) == "");
  }
}

TEST_CASE("variable sizes do not wrap around, and local memory is limited to 512 KiB per thread",
          "[isa][reject][regression]") {
  auto body = [](const std::string& decls) {
    return isatest::module(".entry k()\n{\n.reg .b32 %r1;\n" + decls + "\nret;\n}\n");  // decls from line 7
  };
  // Before: a[...][...] multiplied to 0 bytes; two arrays summed to 104 bytes of "static shared
  // memory" with b placed at 4294967200; a 400 MB local array loaded and the launch threw
  // std::bad_alloc (not a warpsim error) allocating it for every thread.
  CHECK(ptx_error(body(".shared .b8 c[4294967296][4294967296];")) == "t.ptx:7:13: parse error: variable too large");
  CHECK(ptx_error(body(".shared .u32 c[2147483648];")) == "t.ptx:7:14: parse error: variable too large");
  CHECK(ptx_error(body(".shared .align 4 .b8 a[4294967200];\n.shared .align 4 .b8 b[200];\nst.shared.u32 [b], %r1;")) ==
        "t.ptx:8: unsupported PTX: .shared .align 4 .b8 b[200];  (shared variables of more than 4 GiB in total)");
  CHECK(ptx_error(body(".local .align 4 .b8 depot[400000000];")) ==
        "t.ptx:7: unsupported PTX: .local .align 4 .b8 depot[400000000];  (more than 512 KiB of local memory per "
        "thread)");
  CHECK(ptx_error(body(".local .align 8 .b8 d1[524280];\n.local .align 16 .b8 d2[8];")) ==
        "t.ptx:8: unsupported PTX: .local .align 16 .b8 d2[8];  (more than 512 KiB of local memory per thread)");
  auto m = warpsim::isa::parse_ptx(body(".local .align 8 .b8 d1[524280];\n.local .align 8 .b8 d2[8];"), "t.ptx");
  CHECK(m->kernels[0]->local_bytes == 524288);
}

TEST_CASE("'|p' is a parse error except on the destination of setp and shfl", "[isa][reject][regression]") {
  // Before: the '|%p1' was parsed and silently dropped.
  CHECK(ptx_error(kernel_line("add.s32 %r1|%p1, %r2, %r3;")) ==
        "t.ptx:10:9: parse error: '|' (a second predicate destination) is only for setp and shfl destinations");
  CHECK(ptx_error(kernel_line("setp.lt.s32 %p0, %r1|%p1, %r3;")) ==
        "t.ptx:10:18: parse error: '|' (a second predicate destination) is only for setp and shfl destinations");
  CHECK(ptx_error(kernel_line("setp.lt.s32 %p0|%p1, %r1, %r3;")) == "");
  CHECK(ptx_error(kernel_line("shfl.sync.up.b32 %r1|%p1, %r2, 1, 0, -1;")) == "");
}
