// Device functions (.func) and the PTX call ABI: parameters and results through .param,
// structs by value, .local variables in a per-activation frame, recursion on a per-thread
// stack (and its overflow), calls under divergence and divergence inside a function with
// the warp reconverging as CUDA's, guarded calls. The PTX is written here in the form
// nvcc 13 emits (call sequences in braces, %SP/%SPL depots, ret at the end).
#include <catch2/catch.hpp>

#include "ptx_fixture.hpp"
#include "sim/isa/call_stack.hpp"

using ptxtest::DevPtr;
using ptxtest::integer;
using ptxtest::ptr;

namespace {

// fib(n) recursive; twice(x) with a .local array; pick(S, k) with a 16-byte struct argument.
const char* kFunctions = R"(
.func (.param .b32 func_retval0) fib(.param .b32 fib_param_0);

.visible .entry calls(.param .u64 out_p, .param .u64 aux_p)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<6>;
	ld.param.u64 	%rd1, [out_p];
	ld.param.u64 	%rd2, [aux_p];
	cvta.to.global.u64 	%rd3, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd4, %r1, 4;
	add.s64 	%rd5, %rd3, %rd4;
	and.b32 	%r2, %r1, 7;
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 	[param0+0], %r2;
	.param .b32 retval0;
	call.uni (retval0),
	fib,
	(
	param0
	);
	ld.param.b32 	%r3, [retval0+0];
	} // callseq 0
	{ // callseq 1, 0
	.param .b32 param0;
	st.param.b32 	[param0+0], %r1;
	.param .b32 retval0;
	call.uni (retval0), twice, (param0);
	ld.param.b32 	%r4, [retval0+0];
	} // callseq 1
	{ // callseq 2, 0
	.param .align 8 .b8 param0[16];
	st.param.b32 	[param0+0], %r1;
	st.param.b32 	[param0+4], 100;
	st.param.f64 	[param0+8], 0d4000000000000000;
	.param .b32 param1;
	st.param.b32 	[param1+0], 7;
	.param .b32 retval0;
	call.uni (retval0), pick, (param0, param1);
	ld.param.b32 	%r5, [retval0+0];
	} // callseq 2
	mul.lo.s32 	%r6, %r3, 1000000;
	mad.lo.s32 	%r7, %r4, 1000, %r6;
	add.s32 	%r8, %r7, %r5;
	st.global.u32 	[%rd5], %r8;
	ret;
}

.func (.param .b32 func_retval0) fib(.param .b32 fib_param_0)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<9>;
	ld.param.u32 	%r8, [fib_param_0];
	setp.lt.s32 	%p1, %r8, 2;
	@%p1 bra 	$L__BB0_2;
	add.s32 	%r4, %r8, -1;
	{ // callseq 3, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 	[param0+0], %r4;
	.param .b32 retval0;
	call.uni (retval0), fib, (param0);
	ld.param.b32 	%r5, [retval0+0];
	} // callseq 3
	add.s32 	%r6, %r8, -2;
	{ // callseq 4, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 	[param0+0], %r6;
	.param .b32 retval0;
	call.uni (retval0), fib, (param0);
	ld.param.b32 	%r7, [retval0+0];
	} // callseq 4
	add.s32 	%r8, %r7, %r5;
$L__BB0_2:
	st.param.b32 	[func_retval0+0], %r8;
	ret;
}

.func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)
{
	.local .align 16 .b8 	__local_depot1[16];
	.reg .b64 	%SP;
	.reg .b64 	%SPL;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<5>;
	mov.u64 	%SPL, __local_depot1;
	cvta.local.u64 	%SP, %SPL;
	ld.param.u32 	%r1, [twice_param_0];
	add.s32 	%r2, %r1, %r1;
	st.local.u32 	[__local_depot1+4], %r2;
	add.u64 	%rd1, %SP, 8;
	st.u32 	[%rd1], %r1;
	ld.local.u32 	%r3, [%SPL+4];
	ld.local.u32 	%r4, [%SPL+8];
	add.s32 	%r5, %r3, %r4;
	st.param.b32 	[func_retval0+0], %r5;
	ret;
}

.func (.param .b32 func_retval0) pick(.param .align 8 .b8 pick_param_0[16], .param .b32 pick_param_1)
{
	.reg .b32 	%r<5>;
	.reg .f64 	%fd<2>;
	ld.param.u32 	%r1, [pick_param_0];
	ld.param.u32 	%r2, [pick_param_0+4];
	ld.param.f64 	%fd1, [pick_param_0+8];
	ld.param.u32 	%r3, [pick_param_1];
	cvt.rzi.s32.f64 	%r4, %fd1;
	mad.lo.s32 	%r4, %r3, %r4, %r2;
	sub.s32 	%r4, %r4, %r1;
	st.param.b32 	[func_retval0+0], %r4;
	ret;
}
)";

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

}  // namespace

TEST_CASE("calls: arguments, results, structs, .local frames and recursion", "[engine][calls]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(kFunctions));
  REQUIRE(k.functions.size() == 3);
  CHECK(k.functions[0].name == "fib");
  CHECK(k.functions[1].name == "twice");
  CHECK(k.functions[1].depot_bytes == 16);
  CHECK(k.calls.size() == 5);
  DevPtr out = sim.zeros<int32_t>(64);
  sim.run(k, {1, 1, 1}, {64, 1, 1}, {ptr(out), ptr(out)});
  auto got = sim.download<int32_t>(out, 64);
  for (int t = 0; t < 64; ++t) {
    INFO("thread " << t);
    // fib(t % 8), twice(t) = 2t + t, pick({t, 100, 2.0}, 7) = 7 * 2 + 100 - t
    CHECK(got[t] == fib(t & 7) * 1000000 + 3 * t * 1000 + (114 - t));
  }
}

TEST_CASE("calls: the same results in timing mode", "[engine][calls]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(kFunctions));
  DevPtr out = sim.zeros<int32_t>(64);
  warpsim::LaunchOptions o;
  o.mode = warpsim::SimMode::Timing;
  warpsim::KernelArg args[] = {ptr(out), ptr(out)};
  sim.dev.launch(k, {2, 1, 1}, {32, 1, 1}, 0, args, o);
  auto got = sim.download<int32_t>(out, 32);
  for (int t = 0; t < 32; ++t) CHECK(got[t] == fib(t & 7) * 1000000 + 3 * t * 1000 + (114 - t));
}

namespace {

// A call by the odd lanes only; inside, the even-numbered callers return early through a
// second ret. activemask is recorded inside, after the early return's reconvergence point,
// and back in the kernel after the call's branch reconverges.
const char* kDivergent = R"(
.visible .entry divergent(.param .u64 out_p)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<10>;
	.reg .b64 	%rd<6>;
	ld.param.u64 	%rd1, [out_p];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 16;
	add.s64 	%rd4, %rd2, %rd3;
	and.b32 	%r2, %r1, 1;
	setp.eq.s32 	%p1, %r2, 0;
	mov.u32 	%r3, -1;
	@%p1 bra 	$L__skip;
	{
	.param .b32 param0;
	st.param.b32 	[param0+0], %r1;
	.param .b32 retval0;
	call (retval0), inner, (param0);
	ld.param.b32 	%r3, [retval0+0];
	}
$L__skip:
	activemask.b32 	%r4;
	st.global.v2.u32 	[%rd4], {%r3, %r4};
	setp.lt.u32 	%p2, %r1, 8;
	mov.u32 	%r5, 0;
	{
	.param .b32 param0;
	st.param.b32 	[param0+0], %r1;
	.param .b32 retval0;
	@%p2 call (retval0), inner, (param0);
	ld.param.b32 	%r5, [retval0+0];
	}
	st.global.u32 	[%rd4+8], %r5;
	ret;
}

.func (.param .b32 func_retval0) inner(.param .b32 inner_param_0)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<6>;
	ld.param.u32 	%r1, [inner_param_0];
	activemask.b32 	%r2;
	and.b32 	%r3, %r1, 2;
	setp.ne.s32 	%p1, %r3, 0;
	@%p1 bra 	$L__late;
	st.param.b32 	[func_retval0+0], %r2;
	ret;
$L__late:
	setp.gt.u32 	%p2, %r1, 20;
	mov.u32 	%r4, 7;
	st.param.b32 	[func_retval0+0], %r4;
	@%p2 ret;
	activemask.b32 	%r5;
	st.param.b32 	[func_retval0+0], %r5;
	ret;
}
)";

}  // namespace

TEST_CASE("calls: divergent calls and returns reconverge", "[engine][calls]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(kDivergent));
  REQUIRE(k.functions.size() == 1);
  DevPtr out = sim.zeros<uint32_t>(4 * 32);
  sim.run(k, {1, 1, 1}, {32, 1, 1}, {ptr(out)});
  auto got = sim.download<uint32_t>(out, 4 * 32);
  for (uint32_t t = 0; t < 32; ++t) {
    INFO("thread " << t);
    uint32_t r = got[4 * t], after = got[4 * t + 1], guarded = got[4 * t + 2];
    if (t % 2 == 0) CHECK(r == 0xFFFFFFFFu);                       // did not call
    else if ((t & 2) == 0) CHECK(r == 0xAAAAAAAAu);                // all odd lanes inside
    else if (t > 20) CHECK(r == 7u);                               // guarded ret
    else CHECK(r == 0x00088888u);                                   // odd, bit 1 set, <= 20: 3,7,11,15,19
    CHECK(after == 0xFFFFFFFFu);  // the whole warp again after the call's branch
    // The guarded call: lanes 0-7 call (all of them inside), the others keep param's old value.
    if (t < 8) CHECK(guarded == ((t & 2) ? 0x000000CCu : 0x000000FFu));
  }
}

namespace {

const char* kRunaway = R"(
.func down(.param .b32 down_param_0)
{
	.reg .b32 	%r<3>;
	ld.param.u32 	%r1, [down_param_0];
	add.s32 	%r2, %r1, 1;
	{
	.param .b32 param0;
	st.param.b32 	[param0+0], %r2;
	call.uni down, (param0);
	}
	ret;
}

.visible .entry runaway()
{
	.reg .b32 	%r<2>;
	mov.u32 	%r1, %tid.x;
	{
	.param .b32 param0;
	st.param.b32 	[param0+0], %r1;
	call.uni down, (param0);
	}
	ret;
}
)";

}  // namespace

TEST_CASE("calls: unbounded recursion stops at the per-thread stack", "[engine][calls]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(kRunaway));
  const auto& f = k.functions.at(0);
  // %__frame (8), %r0..%r2 (4 each), temp none, params: formal + call-site (4 + 4).
  CHECK(f.save_bytes == 8 + 3 * 4 + 8);
  CHECK(f.frame_bytes == 32);
  auto t = ptxtest::catch_error([&] { sim.run(k, {2, 1, 1}, {4, 1, 1}, {}); });
  REQUIRE(t.type == "KernelFault");
  CHECK(t.fault == warpsim::KernelFault::Kind::MemoryAccess);
  CHECK_THAT(t.what, Catch::StartsWith("stack overflow: the call of 'down' at call depth 33 needs 1056 bytes") &&
                         Catch::Contains("more than the thread's 1024-byte stack") &&
                         Catch::Contains("in kernel 'runaway', block (0,0,0), thread (0,0,0)"));
  // A larger stack goes deeper before it overflows.
  warpsim::LaunchOptions o;
  o.mode = warpsim::SimMode::Functional;
  o.stack_bytes = 4096;
  auto t2 = ptxtest::catch_error([&] { sim.dev.launch(k, {1, 1, 1}, {4, 1, 1}, 0, {}, o); });
  CHECK_THAT(t2.what, Catch::Contains("at call depth 129 needs 4128 bytes"));
}

namespace {

// leaf() has a 1,400-byte .local array, so calling it needs more than the default 1 KB stack.
const char* kDeepFrame = R"(
.func (.param .b32 r) leaf(.param .b32 x)
{
	.local .align 4 .b8 	__local_depot9[1400];
	.reg .b64 	%SP, %SPL;
	.reg .b32 	%r<4>;
	mov.u64 	%SPL, __local_depot9;
	ld.param.u32 	%r1, [x];
	st.local.u32 	[%SPL+1396], %r1;
	ld.local.u32 	%r2, [%SPL+1396];
	add.s32 	%r3, %r2, 7;
	st.param.b32 	[r+0], %r3;
	ret;
}

.visible .entry deep(.param .u64 out)
{
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [out];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	{
	.param .b32 param0;
	st.param.b32 	[param0+0], %r1;
	.param .b32 retval0;
	call.uni (retval0), leaf, (param0);
	ld.param.b32 	%r2, [retval0+0];
	}
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd3, %rd2, %rd3;
	st.global.u32 	[%rd3], %r2;
	ret;
}
)";

}  // namespace

TEST_CASE("calls: without recursion the stack is what the deepest chain needs, as the driver sets it",
          "[engine][calls]") {
  // CUDA raises the per-thread stack at launch to what ptxas computed for a call graph
  // without recursion; cudaLimitStackSize (1 KB by default) bounds recursive code only.
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(kDeepFrame));
  const auto need = warpsim::isa::static_stack_bytes(k);
  REQUIRE(need.has_value());
  CHECK(*need == k.functions.at(0).frame_bytes);
  CHECK(*need > 1400);
  CHECK(k.static_stack_bytes == need);  // found once, when the module loads
  DevPtr out = sim.zeros<uint32_t>(32);
  sim.run(k, {1, 1, 1}, {32, 1, 1}, {ptr(out)});  // the default 1024-byte limit
  auto got = sim.download<uint32_t>(out, 32);
  for (uint32_t t = 0; t < 32; ++t) CHECK(got[t] == t + 7);
  // Recursion has no static bound.
  const auto& runaway = sim.kernel(ptxtest::module(kRunaway));
  CHECK_FALSE(warpsim::isa::static_stack_bytes(runaway).has_value());
  CHECK_FALSE(runaway.static_stack_bytes.has_value());
}

TEST_CASE("calls: what the loader refuses", "[isa][calls]") {
  using ptxtest::ptx_error;
  const std::string head = ".version 7.0\n.target sm_75\n.address_size 64\n";
  // Line 4 onwards.
  CHECK(ptx_error(head + ".entry k()\n{\n.param .b32 param0;\ncall.uni nowhere, (param0);\nret;\n}\n") ==
        "t.ptx:7:10: parse error: call of undeclared function 'nowhere'");
  CHECK(ptx_error(head + ".extern .func ext(.param .b32 a);\n.entry k()\n{\n.param .b32 param0;\n"
                         "call.uni ext, (param0);\nret;\n}\n") ==
        "t.ptx:8: unsupported PTX: call.uni ext, (param0);  (call of external function 'ext' (separate "
        "compilation))");
  CHECK(ptx_error(head + ".entry k()\n{\n.reg .b64 %rd<2>;\n.param .b32 param0;\ncall.uni %rd1, (param0);\nret;\n}\n") ==
        "t.ptx:8: unsupported PTX: call.uni %rd1, (param0);  (an indirect call without a .callprototype (a "
        ".calltargets list or none))");
  CHECK(ptx_error(head + ".func f(.param .b32 a)\n{\nret;\n}\n.entry k()\n{\n.param .b64 param0;\n"
                         "call.uni f, (param0);\nret;\n}\n") ==
        "t.ptx:11:14: parse error: argument 0 of 'f' is 4 bytes; 'param0' has 8");
  CHECK(ptx_error(head + ".func f(.reg .b32 a)\n{\nret;\n}\n") ==
        "t.ptx:4: unsupported PTX: .func f(.reg .b32 a)  (register parameters of device functions)");
}
