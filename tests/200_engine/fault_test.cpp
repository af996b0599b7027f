// Faults while a kernel runs: out-of-bounds and misaligned global/shared/local accesses
// (KernelFault::MemoryAccess naming kernel, block, thread, PTX line and source line,
// address and size), the instruction limit, trap; the device stays usable afterwards.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "ptx_fixture.hpp"

using ptxtest::ptr;

namespace {

// A 2D kernel: thread (x, y) of block (bx, by) accesses element idx[(by * 2 + bx) * 32 + y * 8 + x] of A
// with the access in `access` (%rd3 = &A[idx], %r5 = idx, %f1 = value).
std::string kernel(const std::string& access) {
  return ptxtest::module(R"(
.visible .entry oob(.param .u64 a, .param .u64 idx)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<8>;
  .reg .f32 %f<3>;
  .shared .align 16 .b8 tile[256];
  .local .align 8 .b8 depot[40];
  .loc 1 10 0
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [idx];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %tid.y;
  mad.lo.u32 %r3, %r2, 8, %r1;
  mov.u32 %r4, %ctaid.x;
  mov.u32 %r9, %ctaid.y;
  mad.lo.u32 %r4, %r9, 2, %r4;
  mad.lo.u32 %r3, %r4, 32, %r3;
  mul.wide.u32 %rd4, %r3, 4;
  add.s64 %rd5, %rd2, %rd4;
  ld.global.s32 %r5, [%rd5];
  mul.wide.s32 %rd6, %r5, 4;
  add.s64 %rd3, %rd1, %rd6;
  mov.f32 %f1, 0f3F800000;
  .loc 1 42 7
  )" + access + R"(
  .loc 1 50 1
  ret;
}
.file 1 "oob.cu"
)");
}

struct Fault {
  ptxtest::Thrown t;
  uint64_t base = 0;
  std::string text;
};

// Runs `access` with 2x2 blocks of 8x4 threads; thread (3,2) of block (1,1) (the last block)
// uses index `bad`, every other thread index 0.
Fault run(ptxtest::Sim& sim, const std::string& access, int32_t bad, uint32_t a_elems = 100) {
  INFO(access << " with index " << bad);
  Fault f;
  f.text = kernel(access);
  const auto& k = sim.kernel(f.text, "oob", "oob.ptx");
  auto a = sim.zeros<float>(a_elems);
  sim.dev.set_label(a, "A");
  f.base = a;
  std::vector<int32_t> idx(4 * 32, 0);
  idx[3 * 32 + 2 * 8 + 3] = bad;
  auto di = sim.upload(idx);
  f.t = ptxtest::catch_error([&] {
    warpsim::LaunchStats st = sim.run(k, {2, 2, 1}, {8, 4, 1}, {ptr(a), ptr(di)});
    (void)st;
  });
  return f;
}

uint32_t access_line(const std::string& text) {
  size_t at = text.rfind(".loc 1 42 7");  // the last one: right before the faulting instruction
  return 2 + static_cast<uint32_t>(std::count(text.begin(), text.begin() + at, '\n'));
}

std::string where(const Fault& f, const std::string& instr) {
  return fmt::format(" in kernel 'oob', block (1,1,0), thread (3,2,0), at oob.ptx:{} `{}`, source oob.cu:42",
                     access_line(f.text), instr);
}

}  // namespace

TEST_CASE("out-of-bounds global loads and stores name the kernel, block, thread, line, address and size",
          "[engine][fault]") {
  ptxtest::Sim sim;
  // Index 100 of a 100-element buffer: just past the end.
  auto f = run(sim, "ld.global.f32 %f2, [%rd3];", 100);
  REQUIRE(f.t.type == "KernelFault");
  CHECK(f.t.fault == warpsim::KernelFault::Kind::MemoryAccess);
  CHECK(f.t.what == fmt::format("out-of-bounds global load of 4 bytes at {:#x} (0 bytes past the end of buffer 'A' "
                                "(400 bytes at {:#x})){}",
                                f.base + 400, f.base, where(f, "ld.global.f32 %f2, [%rd3]")));
  auto s = run(sim, "st.global.f32 [%rd3], %f1;", 103);
  CHECK(s.t.what == fmt::format("out-of-bounds global store of 4 bytes at {:#x} (12 bytes past the end of buffer "
                                "'A' (400 bytes at {:#x})){}",
                                s.base + 412, s.base, where(s, "st.global.f32 [%rd3], %f1")));
  // Before the start (on a fresh device, so that no other allocation lies below A).
  ptxtest::Sim fresh;
  auto neg = run(fresh, "st.global.f32 [%rd3], %f1;", -2);
  CHECK(neg.t.what == fmt::format("out-of-bounds global store of 4 bytes at {:#x} (8 bytes before buffer 'A' (400 "
                                  "bytes at {:#x})){}",
                                  neg.base - 8, neg.base, where(neg, "st.global.f32 [%rd3], %f1")));
  // An 8-byte access that starts inside a 396-byte buffer and ends outside it.
  auto straddle = run(sim, "ld.global.v2.f32 {%f1, %f2}, [%rd3];", 98, 99);
  CHECK(straddle.t.what == fmt::format("out-of-bounds global load of 8 bytes at {:#x} (straddles the end of buffer "
                                       "'A' (396 bytes at {:#x})){}",
                                       straddle.base + 392, straddle.base,
                                       where(straddle, "ld.global.v2.f32 {%f1, %f2}, [%rd3]")));
}

TEST_CASE("an address just before a buffer is described relative to that buffer", "[engine][fault]") {
  ptxtest::Sim sim;
  sim.zeros<float>(128);  // an allocation below A
  auto neg = run(sim, "st.global.f32 [%rd3], %f1;", -2);
  CHECK(neg.t.what.find("(8 bytes before buffer 'A'") != std::string::npos);
}

TEST_CASE("misaligned accesses", "[engine][fault]") {
  ptxtest::Sim sim;
  // The bad thread's index is a byte offset here.
  const std::string byte_addr = "cvt.s64.s32 %rd7, %r5;\n  add.s64 %rd7, %rd1, %rd7;\n  .loc 1 42 7\n  ";
  auto f = run(sim, byte_addr + "ld.global.f32 %f2, [%rd7];", 6);
  CHECK(f.t.fault == warpsim::KernelFault::Kind::MemoryAccess);
  CHECK(f.t.what == fmt::format("misaligned global load of 4 bytes at {:#x} (must be 4-byte aligned){}", f.base + 6,
                                where(f, "ld.global.f32 %f2, [%rd7]")));
  auto v = run(sim, byte_addr + "st.global.v4.f32 [%rd7], {%f1, %f1, %f1, %f1};", 8);
  CHECK(v.t.what == fmt::format("misaligned global store of 16 bytes at {:#x} (must be 16-byte aligned){}",
                                v.base + 8, where(v, "st.global.v4.f32 [%rd7], {%f1, %f1, %f1, %f1}")));
  auto sh = run(sim, "mov.u32 %r6, tile;\n  shl.b32 %r7, %r5, 1;\n  add.u32 %r6, %r6, %r7;\n"
                     "  .loc 1 42 7\n  st.shared.f32 [%r6], %f1;",
                3);
  CHECK(sh.t.what.find("misaligned shared store of 4 bytes at 0x6 (must be 4-byte aligned)") == 0);
}

TEST_CASE("out-of-bounds shared and local accesses, directly and through generic addresses", "[engine][fault]") {
  ptxtest::Sim sim;
  auto sh = run(sim, "mov.u32 %r6, tile;\n  shl.b32 %r7, %r5, 2;\n  add.u32 %r6, %r6, %r7;\n"
                     "  .loc 1 42 7\n  ld.shared.f32 %f2, [%r6];",
                64);
  CHECK(sh.t.fault == warpsim::KernelFault::Kind::MemoryAccess);
  CHECK(sh.t.what == "out-of-bounds shared load of 4 bytes at offset 256 (the block has 256 bytes of shared memory: "
                     "256 static + 0 dynamic)" +
                         where(sh, "ld.shared.f32 %f2, [%r6]"));
  // A negative shared offset wraps to a huge 32-bit offset: still caught.
  auto shneg = run(sim, "mov.u32 %r6, tile;\n  shl.b32 %r7, %r5, 2;\n  add.u32 %r6, %r6, %r7;\n"
                        "  .loc 1 42 7\n  st.shared.f32 [%r6], %f1;",
                   -1);
  CHECK(shneg.t.what.find("out-of-bounds shared store of 4 bytes at offset 4294967292") == 0);
  auto loc = run(sim, "mov.u64 %rd7, depot;\n  add.s64 %rd7, %rd7, %rd6;\n  .loc 1 42 7\n  st.local.f32 [%rd7], %f1;", 10);
  CHECK(loc.t.what == "out-of-bounds local store of 4 bytes at offset 40 (the thread has 40 bytes of local memory)" +
                          where(loc, "st.local.f32 [%rd7], %f1"));
  auto gen = run(sim,
                 "mov.u64 %rd7, depot;\n  cvta.local.u64 %rd7, %rd7;\n  add.s64 %rd7, %rd7, %rd6;\n"
                 "  .loc 1 42 7\n  ld.f32 %f2, [%rd7];",
                 12);
  CHECK(gen.t.what.find("out-of-bounds local load of 4 bytes at offset 48") == 0);
  auto gsh = run(sim,
                 "mov.u64 %rd7, tile;\n  cvta.shared.u64 %rd7, %rd7;\n  add.s64 %rd7, %rd7, %rd6;\n"
                 "  .loc 1 42 7\n  st.f32 [%rd7], %f1;",
                 70);
  CHECK(gsh.t.what.find("out-of-bounds shared store of 4 bytes at offset 280") == 0);
  // A null pointer through a generic address is a global access to address 0.
  auto null = run(sim, "mov.u64 %rd7, 0;\n  .loc 1 42 7\n  ld.u32 %r8, [%rd7];", 0);
  CHECK(null.t.what.find("out-of-bounds global load of 4 bytes at 0x0 (") == 0);
}

TEST_CASE("dynamic shared memory is bounded by the launch's size", "[engine][fault]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.extern .shared .align 16 .b8 dyn[];
.visible .entry d(.param .u32 i)
{
  .reg .b32 %r<4>;
  .shared .align 4 .b8 fixed[20];
  ld.param.u32 %r1, [i];
  mov.u32 %r2, dyn;
  add.u32 %r2, %r2, %r1;
  st.shared.u32 [%r2], %r1;
  st.shared.u32 [fixed], %r1;
  ret;
}
)"));
  CHECK(k.static_shared_bytes == 20);
  // dyn starts at 32 (20 rounded up to 16); with 64 dynamic bytes the block has 96.
  sim.run(k, {1, 1, 1}, {1, 1, 1}, {ptxtest::integer(60)}, 64);
  auto t = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {1, 1, 1}, {ptxtest::integer(64)}, 64); });
  CHECK(t.what.find("out-of-bounds shared store of 4 bytes at offset 96 (the block has 96 bytes of shared memory: ") ==
        0);
}

TEST_CASE("the shared-memory fault names the launch's dynamic size", "[engine][fault]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.extern .shared .align 16 .b8 dyn[];
.visible .entry d()
{
  .reg .b32 %r<4>;
  .shared .align 4 .b8 fixed[20];
  mov.u32 %r2, dyn;
  st.shared.u32 [%r2+64], %r2;
  st.shared.u32 [fixed], %r2;
  ret;
}
)"));
  auto t = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {1, 1, 1}, {}, 64); });
  CHECK(t.what.find("64 dynamic") != std::string::npos);
}

TEST_CASE("the device stays usable after memory faults", "[engine][fault]") {
  ptxtest::Sim sim;
  for (int32_t bad : {100, -1, 1000000}) run(sim, "st.global.f32 [%rd3], %f1;", bad);
  auto ok = run(sim, "st.global.f32 [%rd3], %f1;", 99);
  CHECK(ok.t.type == "none");
  CHECK(sim.download<float>(ok.base, 100)[99] == 1.0f);
  CHECK(sim.download<float>(ok.base, 100)[0] == 1.0f);
}

TEST_CASE("the instruction limit stops an infinite loop", "[engine][fault]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry spin(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
LOOP:
  add.u32 %r1, %r1, 1;
  st.global.u32 [%rd1], %r1;
  bra.uni LOOP;
}
)"));
  auto out = sim.zeros<uint32_t>(1);
  warpsim::Limits limits;
  limits.max_warp_instructions = 5000;
  auto t = ptxtest::catch_error([&] { sim.run(k, {4, 1, 1}, {64, 1, 1}, {ptr(out)}, 0, limits); });
  CHECK(t.type == "KernelFault");
  CHECK(t.fault == warpsim::KernelFault::Kind::LimitExceeded);
  CHECK(t.what == "kernel 'spin' stopped: instruction limit of 5000 warp instructions exceeded after 5001 "
                  "(infinite loop?)");
  // The first warp ran alone; instruction 5001 (executed, then the limit) is iteration 1667's store.
  CHECK(sim.download<uint32_t>(out, 1)[0] == 1667);
  // Still usable, and a limit the kernel stays under is no fault.
  const auto& fin = sim.kernel(ptxtest::module(".visible .entry f(.param .u64 out)\n{\n.reg .b64 %rd1;\n"
                                               "ld.param.u64 %rd1, [out];\nst.global.u32 [%rd1], 7;\nret;\n}\n"));
  limits.max_warp_instructions = 3 * 8;
  sim.run(fin, {4, 1, 1}, {64, 1, 1}, {ptr(out)}, 0, limits);
  CHECK(sim.download<uint32_t>(out, 1)[0] == 7);
}

TEST_CASE("trap stops the kernel naming the thread", "[engine][fault]") {
  ptxtest::Sim sim;
  const std::string text = ptxtest::module(R"(
.visible .entry t()
{
  .reg .b32 %r1;
  .reg .pred %p1;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 37;
  @%p1 trap;
  ret;
}
)");
  const auto& k = sim.kernel(text, "", "trap.ptx");
  auto t = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {64, 1, 1}, {}); });
  CHECK(t.type == "KernelFault");
  uint32_t line = 1 + static_cast<uint32_t>(std::count(text.begin(), text.begin() + text.find("@%p1 trap"), '\n'));
  CHECK(t.what == fmt::format("trap instruction executed in kernel 't', block (0,0,0), thread (37,0,0), at "
                              "trap.ptx:{} `@%p1 trap`",
                              line));
}

TEST_CASE("trap is reported as KernelFault::Kind::Trap", "[engine][fault]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(".visible .entry t()\n{\ntrap;\n}\n"));
  auto t = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {1, 1, 1}, {}); });
  REQUIRE(t.type == "KernelFault");
  CHECK(t.fault == warpsim::KernelFault::Kind::Trap);
}
