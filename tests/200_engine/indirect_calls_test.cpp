// Indirect calls (function pointers and virtual functions) in the form nvcc 13 emits: a
// function's address from mov.u64 or a module initialiser (pointer tables, vtables),
// `call (r), %rd, (args), prototype;` with a .callprototype, divergent calls (lanes calling
// different functions run one target after another and reconverge), calls from inside a
// function, the same results in timing mode, and faults for addresses that are not
// functions, naming kernel, block, thread and PTX line.
#include <catch2/catch.hpp>

#include "ptx_fixture.hpp"

using ptxtest::ptr;

namespace {

// out[t] = table[t % 3](t, 5) + apply(pick, t) + 1000 * (pick == &f_mul)
// with table = {f_add, f_mul, f_sub}, pick = mov.u64 of f_mul (t odd) or f_sub (t even),
// apply(fp, x) = fp(x, x) called from inside a function. Also stores f_add's address as
// mov.u64 sees it (out2[0]) and as the initialiser holds it (out2[1]).
const char* kTable = R"(
.global .align 8 .u64 table[3] = {f_add, f_mul, f_sub};

.func (.param .b32 r) f_add(.param .b32 a, .param .b32 b)
{
  .reg .b32 %r<4>;
  ld.param.u32 %r1, [a];
  ld.param.u32 %r2, [b];
  add.s32 %r3, %r1, %r2;
  st.param.b32 [r+0], %r3;
  ret;
}
.func (.param .b32 r) f_mul(.param .b32 a, .param .b32 b)
{
  .reg .b32 %r<4>;
  ld.param.u32 %r1, [a];
  ld.param.u32 %r2, [b];
  mul.lo.s32 %r3, %r1, %r2;
  st.param.b32 [r+0], %r3;
  ret;
}
.func (.param .b32 r) f_sub(.param .b32 a, .param .b32 b)
{
  .reg .b32 %r<4>;
  ld.param.u32 %r1, [a];
  ld.param.u32 %r2, [b];
  sub.s32 %r3, %r1, %r2;
  st.param.b32 [r+0], %r3;
  ret;
}
.func (.param .b32 r) apply(.param .b64 fp, .param .b32 x)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [fp];
  ld.param.u32 %r1, [x];
  { // callseq 0, 0
  .param .b32 param0;
  st.param.b32 [param0+0], %r1;
  .param .b32 param1;
  st.param.b32 [param1+0], %r1;
  .param .b32 retval0;
  prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);
  call (retval0),
  %rd1,
  (
  param0,
  param1
  )
  , prototype_0;
  ld.param.b32 %r2, [retval0+0];
  } // callseq 0
  st.param.b32 [r+0], %r2;
  ret;
}

.visible .entry fnptr(.param .u64 out_p, .param .u64 out2_p)
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [out_p];
  ld.param.u64 %rd2, [out2_p];
  mov.u32 %r1, %tid.x;
  rem.u32 %r2, %r1, 3;
  mul.wide.u32 %rd3, %r2, 8;
  mov.u64 %rd4, table;
  add.s64 %rd5, %rd4, %rd3;
  ld.global.u64 %rd6, [%rd5];
  { // callseq 1, 0
  .param .b32 param0;
  st.param.b32 [param0+0], %r1;
  .param .b32 param1;
  st.param.b32 [param1+0], 5;
  .param .b32 retval0;
  prototype_1 : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);
  call (retval0), %rd6, (param0, param1), prototype_1;
  ld.param.b32 %r3, [retval0+0];
  } // callseq 1
  and.b32 %r4, %r1, 1;
  setp.eq.u32 %p1, %r4, 1;
  mov.u64 %rd7, f_mul;
  mov.u64 %rd8, f_sub;
  selp.b64 %rd9, %rd7, %rd8, %p1;
  { // callseq 2, 0
  .param .b64 param0;
  st.param.b64 [param0+0], %rd9;
  .param .b32 param1;
  st.param.b32 [param1+0], %r1;
  .param .b32 retval0;
  call.uni (retval0), apply, (param0, param1);
  ld.param.b32 %r5, [retval0+0];
  } // callseq 2
  add.s32 %r6, %r3, %r5;
  setp.eq.u64 %p2, %rd9, %rd7;
  selp.u32 %r7, 1000, 0, %p2;
  add.s32 %r6, %r6, %r7;
  mul.wide.u32 %rd10, %r1, 4;
  add.s64 %rd11, %rd1, %rd10;
  st.global.u32 [%rd11], %r6;
  mov.u64 %rd12, f_add;
  ld.global.u64 %rd13, [table];
  st.global.v2.u64 [%rd2], {%rd12, %rd13};
  ret;
}
)";

int32_t want_table(int32_t t) {
  const int32_t first = t % 3 == 0 ? t + 5 : t % 3 == 1 ? t * 5 : t - 5;
  const int32_t second = (t & 1) ? t * t : 0;
  return first + second + ((t & 1) ? 1000 : 0);
}

}  // namespace

TEST_CASE("indirect calls: a pointer table, divergent targets, a call from a function", "[engine][calls][indirect]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(kTable));
  // The kernel links every function whose address the module takes, plus apply.
  CHECK(k.functions.size() == 4);
  CHECK(k.function_addresses.size() == 3);
  for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
    INFO((mode == warpsim::SimMode::Timing ? "timing" : "functional"));
    auto out = sim.zeros<int32_t>(100);
    auto out2 = sim.zeros<uint64_t>(2);
    warpsim::LaunchOptions o;
    o.mode = mode;
    warpsim::KernelArg args[] = {ptr(out), ptr(out2)};
    auto st = sim.dev.launch(k, {2, 1, 1}, {100, 1, 1}, 0, args, o);
    auto got = sim.download<int32_t>(out, 100);
    for (int32_t t = 0; t < 100; ++t) {
      INFO("thread " << t);
      CHECK(got[t] == want_table(t));
    }
    // A function's address is the same from mov.u64 and from an initialiser, and stable.
    auto addr = sim.download<uint64_t>(out2, 2);
    CHECK(addr[0] == warpsim::isa::kFunctionAddressBase);  // f_add: the module's first .func
    CHECK(addr[1] == addr[0]);
    CHECK(st.exec.inst_executed > 0);
  }
}

TEST_CASE("indirect calls: a virtual call through a vtable, as nvcc writes it", "[engine][calls][indirect]") {
  // Shape objects built in local memory: vptr = _ZTV + 16; area() is the vtable's slot 0,
  // sides() slot 1; thread t makes a Square (t even) or a Triangle (t odd).
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.global .align 8 .u64 _ZTV2Sq[4] = {0, 0, sq_area, sq_sides};
.global .align 8 .u64 _ZTV3Tri[4] = {0, 0, tri_area, tri_sides};
.func (.param .b32 r) sq_area(.param .b64 self, .param .b32 s)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [s];
  mul.lo.s32 %r2, %r1, %r1;
  st.param.b32 [r+0], %r2;
  ret;
}
.func (.param .b32 r) sq_sides(.param .b64 self)
{
  st.param.b32 [r+0], 4;
  ret;
}
.func (.param .b32 r) tri_area(.param .b64 self, .param .b32 s)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [s];
  mul.lo.s32 %r2, %r1, %r1;
  shr.s32 %r2, %r2, 1;
  st.param.b32 [r+0], %r2;
  ret;
}
.func (.param .b32 r) tri_sides(.param .b64 self)
{
  st.param.b32 [r+0], 3;
  ret;
}
.visible .entry shapes(.param .u64 out_p)
{
  .local .align 8 .b8 __local_depot0[8];
  .reg .b64 %SP, %SPL;
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  ld.param.u64 %rd1, [out_p];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  mov.u64 %rd2, _ZTV2Sq;
  mov.u64 %rd3, _ZTV3Tri;
  selp.b64 %rd4, %rd2, %rd3, %p1;
  cvta.global.u64 %rd4, %rd4;
  add.s64 %rd5, %rd4, 16;
  st.local.u64 [%SPL], %rd5;
  ld.u64 %rd6, [%SP];
  ld.u64 %rd7, [%rd6];
  { // callseq 0, 0
  .param .b64 param0;
  st.param.b64 [param0+0], %SP;
  .param .b32 param1;
  st.param.b32 [param1+0], %r1;
  .param .b32 retval0;
  prototype_0 : .callprototype (.param .b32 _) _ (.param .b64 _, .param .b32 _);
  call (retval0), %rd7, (param0, param1), prototype_0;
  ld.param.b32 %r3, [retval0+0];
  } // callseq 0
  ld.u64 %rd8, [%rd6+8];
  { // callseq 1, 0
  .param .b64 param0;
  st.param.b64 [param0+0], %SP;
  .param .b32 retval0;
  prototype_1 : .callprototype (.param .b32 _) _ (.param .b64 _);
  call (retval0), %rd8, (param0), prototype_1;
  ld.param.b32 %r4, [retval0+0];
  } // callseq 1
  mad.lo.s32 %r5, %r4, 100000, %r3;
  mul.wide.u32 %rd9, %r1, 4;
  add.s64 %rd10, %rd1, %rd9;
  st.global.u32 [%rd10], %r5;
  ret;
}
)"));
  for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
    auto out = sim.zeros<int32_t>(64);
    warpsim::LaunchOptions o;
    o.mode = mode;
    warpsim::KernelArg args[] = {ptr(out)};
    sim.dev.launch(k, {1, 1, 1}, {64, 1, 1}, 0, args, o);
    auto got = sim.download<int32_t>(out, 64);
    for (int32_t t = 0; t < 64; ++t) {
      INFO("thread " << t);
      CHECK(got[t] == ((t & 1) ? 3 * 100000 + t * t / 2 : 4 * 100000 + t * t));
    }
  }
}

namespace {

// Calls whatever address the kernel parameter holds (plus the thread index times `step`).
const char* kCallParam = R"(
.func (.param .b32 r) one(.param .b32 a)
{
  st.param.b32 [r+0], 1;
  ret;
}
.func (.param .b64 r) wide(.param .b64 a)
{
  st.param.b64 [r+0], 2;
  ret;
}
.visible .entry callp(.param .u64 fp, .param .u64 step, .param .u64 out_p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [fp];
  ld.param.u64 %rd2, [step];
  mov.u64 %rd5, one;
  mov.u64 %rd6, wide;
  mov.u32 %r1, %tid.x;
  cvt.u64.u32 %rd3, %r1;
  mad.lo.s64 %rd4, %rd3, %rd2, %rd1;
  {
  .param .b32 param0;
  st.param.b32 [param0+0], %r1;
  .param .b32 retval0;
  prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);
  call (retval0), %rd4, (param0), prototype_0;
  ld.param.b32 %r2, [retval0+0];
  }
  ld.param.u64 %rd7, [out_p];
  st.global.u32 [%rd7], %r2;
  ret;
}
)";

}  // namespace

TEST_CASE("indirect calls: addresses that are not functions fault, never crash", "[engine][calls][indirect]") {
  ptxtest::Sim sim;
  const std::string text = ptxtest::module(kCallParam);
  const auto& k = sim.kernel(text, "", "callp.ptx");
  const uint64_t one = warpsim::isa::kFunctionAddressBase, wide = one + 16;
  auto out = sim.zeros<int32_t>(1);
  const size_t line = 1 + std::count(text.begin(), text.begin() + text.find("  call (retval0), %rd4"), '\n');
  struct Case {
    uint64_t base, step;
    std::string want;
  };
  const std::vector<Case> cases = {
      {0, 0, "indirect call of address 0x0, which is not the address of a device function of this module in kernel "
             "'callp', block (0,0,0), thread (0,0,0), at callp.ptx:" + std::to_string(line) +
             " `call (retval0), %rd4, (param0), prototype_0`"},
      {one, 0, ""},
      // Thread 0 calls 'one', thread 1 one + 8 (no function starts there), thread 2 'wide':
      // the lowest calling thread with a bad target is named.
      {one, 8, "indirect call of address 0x7c0000000008, which is not the address of a device function of this "
               "module in kernel 'callp', block (0,0,0), thread (1,0,0)"},
      {wide, 0, "indirect call of 'wide' (address 0x7c0000000010) through a prototype with other parameters"},
  };
  for (const Case& c : cases) {
    INFO(std::hex << c.base << " + t * " << c.step);
    for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
      warpsim::LaunchOptions o;
      o.mode = mode;
      warpsim::KernelArg args[] = {ptxtest::integer(int64_t(c.base)), ptxtest::integer(int64_t(c.step)), ptr(out)};
      auto t = ptxtest::catch_error([&] { sim.dev.launch(k, {1, 1, 1}, {32, 1, 1}, 0, args, o); });
      if (c.want.empty()) {
        CHECK(t.type == "none");
        CHECK(sim.download<int32_t>(out, 1)[0] == 1);
        continue;
      }
      INFO(t.what);
      REQUIRE(t.type == "KernelFault");
      CHECK(t.fault == warpsim::KernelFault::Kind::MemoryAccess);
      CHECK(t.what.rfind(c.want, 0) == 0);
    }
  }
}

TEST_CASE("indirect calls: what the loader refuses", "[isa][calls][indirect]") {
  using ptxtest::ptx_error;
  const std::string head = ".version 7.0\n.target sm_75\n.address_size 64\n.func f(.param .b32 a)\n{\nret;\n}\n";
  auto kernel = [&](const std::string& body) {
    return head + ".entry k()\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n.param .b32 param0;\n" + body +
           "\nret;\n}\n";
  };
  // Body lines start at line 13.
  CHECK(ptx_error(kernel("call %rd1, (param0), proto;")) ==
        "t.ptx:13:22: parse error: 'proto' is not a .callprototype label of this body");
  CHECK(ptx_error(kernel("call %rd1, (param0);")) ==
        "t.ptx:13: unsupported PTX: call %rd1, (param0);  (an indirect call without a .callprototype (a .calltargets "
        "list or none))");
  CHECK(ptx_error(kernel("t: .calltargets f;\ncall %rd1, (param0), t;")) ==
        "t.ptx:13: unsupported PTX: t: .calltargets f;  (indirect calls with a .calltargets list)");
  CHECK(ptx_error(kernel("p: .callprototype _ (.param .b32 _);\ncall %r1, (param0), p;")) ==
        "t.ptx:14:6: parse error: '%r1' holds a function's address: a 64-bit register is needed");
  CHECK(ptx_error(kernel("p: .callprototype _ (.param .b64 _);\ncall %rd1, (param0), p;")) ==
        "t.ptx:14:13: parse error: argument 0 of 'p' is 8 bytes; 'param0' has 4");
  CHECK(ptx_error(kernel("p: .callprototype x (.param .b32 _);")) ==
        "t.ptx:13:19: parse error: expected '_' in a .callprototype, got 'x'");
  CHECK(ptx_error(kernel("p: .callprototype _ (.param .b32 _);\np: .callprototype _ (.param .b32 _);")) ==
        "t.ptx:14:1: parse error: duplicate label 'p'");
  CHECK(ptx_error(kernel("mov.u32 %r1, f;")) ==
        "t.ptx:13: unsupported PTX: mov.u32 %r1, f;  (the address of function 'f' in a register narrower than 64 "
        "bits)");
  CHECK(ptx_error(kernel("ld.global.u32 %r1, [f];")) ==
        "t.ptx:13:20: parse error: 'f' is a device function; only its address can be taken (mov.u64)");
  CHECK(ptx_error(kernel("call.uni f, (param0), p;")) ==
        "t.ptx:13: unsupported PTX: call.uni f, (param0), p;  (a direct call with a prototype or a target list)");
  // Initialisers: a function's address in 64-bit elements only; unknown names as before.
  CHECK(ptx_error(head + ".global .align 4 .u32 t32[1] = {f};\n.entry k()\n{\nret;\n}\n") ==
        "t.ptx:8: unsupported PTX: .global .align 4 .u32 t32[1] = {f};  (an address initialiser in a variable "
        "narrower than 64 bits)");
  CHECK(ptx_error(head + ".global .align 8 .u64 t64[1] = {g};\n.entry k()\n{\nret;\n}\n") ==
        "t.ptx:8: unsupported PTX: .global .align 8 .u64 t64[1] = {g};  (initialiser takes the address of 'g', which "
        "is not an earlier .global/.const variable or a function of this module)");
}
