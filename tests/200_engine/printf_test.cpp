// Device printf (vprintf) and assert (__assertfail): the C conversions with their flags,
// width and precision over CUDA's argument buffer; output in a fixed order (block, warp,
// the warp's printf calls, lane) in both modes; a failed assert stops the launch naming
// the thread, expression, file and line. Also %globaltimer, %envreg and WARP_SZ.
#include <catch2/catch.hpp>

#include <cstring>

#include "ptx_fixture.hpp"
#include "sim/sm/device_printf.hpp"

using ptxtest::DevPtr;
using ptxtest::ptr;

namespace {

// An argument buffer laid out as nvcc does: each value at the next offset aligned to its size.
struct ArgBuffer {
  std::vector<uint8_t> bytes;
  std::vector<std::string> strings;  // %s targets, "addressed" by index + 1
  template <class T>
  ArgBuffer& add(T v) {
    size_t at = (bytes.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T);
    bytes.resize(at + sizeof(T));
    std::memcpy(bytes.data() + at, &v, sizeof(T));
    return *this;
  }
  ArgBuffer& str(const std::string& s) {
    strings.push_back(s);
    return add<uint64_t>(strings.size());
  }
  std::string format(const std::string& f, int& consumed) {
    size_t off = 0;
    warpsim::sm::PrintfArgs a;
    a.next = [&](uint32_t n) -> uint64_t {
      off = (off + n - 1) / n * n;
      REQUIRE(off + n <= bytes.size());
      uint64_t v = 0;
      std::memcpy(&v, bytes.data() + off, n);
      off += n;
      return v;
    };
    a.string_at = [&](uint64_t p) { return strings.at(p - 1); };
    std::string out = warpsim::sm::format_device_printf(f, a, consumed);
    CHECK(off == bytes.size());  // every argument used
    return out;
  }
};

// "{104, 105, 0}": a string as the bytes of a .global .b8 initialiser, with its NUL.
std::string init_of(const std::string& s) {
  std::string out = "{";
  for (unsigned char c : s) out += std::to_string(c) + ", ";
  return out + "0}";
}

}  // namespace

TEST_CASE("printf: conversions, flags, width and precision follow the C rules", "[engine][printf]") {
  int n = -1;
  CHECK(ArgBuffer()
            .add<int32_t>(-42).add<int32_t>(42).add<uint32_t>(3000000000u).add<uint32_t>(255).add<uint32_t>(255)
            .add<uint32_t>(8).add<int32_t>('A').add<int32_t>(7).add<int32_t>(7).add<int32_t>(7).add<int32_t>(7)
            .add<int32_t>(7)
            .format("%d %i %u %x %X %o %c|%5d|%-5d|%05d|%+d|% d", n) ==
        "-42 42 3000000000 ff FF 10 A|    7|7    |00007|+7| 7");
  CHECK(n == 12);
  CHECK(ArgBuffer()
            .add<int64_t>(-5000000000).add<int64_t>(1).add<uint64_t>(~uint64_t(0)).add<uint64_t>(0xdeadbeefcafe)
            .add<int32_t>(70000).add<int32_t>(300)
            .format("%ld %lld %lu %llx %hd %hhu", n) ==
        "-5000000000 1 18446744073709551615 deadbeefcafe 4464 44");
  CHECK(n == 6);
  CHECK(ArgBuffer()
            .add(1.5).add(3.14159).add(12345.678).add(0.000123).add(100000.0).add(1e-5).add(1e20)
            .format("%f %.2f %e %10.3e %g %g %G", n) ==
        "1.500000 3.14 1.234568e+04  1.230e-04 100000 1e-05 1E+20");
  CHECK(ArgBuffer().str("hi").str("ab").str("xyz").add<int32_t>('o').add<int32_t>('k').format("%s|%-6s|%.2s|%c%c", n) ==
        "hi|ab    |xy|ok");
  CHECK(ArgBuffer().add<uint64_t>(0x1000).format("%p %%", n) == "0x1000 %");
  CHECK(n == 1);
  CHECK(ArgBuffer().add<int32_t>(4).add<int32_t>(9).add<int32_t>(1).add(2.7).format("%*d|%.*f", n) == "   9|2.7");
  CHECK(n == 4);
  CHECK(ArgBuffer().format("%y and %n, 100%% and %5", n) == "%y and %n, 100% and %5");
  CHECK(n == 0);
}

namespace {

std::string printf_module() {
  return ptxtest::module(
      ".extern .func  (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0,\n"
      "\t.param .b64 vprintf_param_1\n)\n;\n"
      ".global .align 1 .b8 $str[22] = " + init_of("b%d t%d x=%.1f %s\n") + ";\n" +
      ".global .align 1 .b8 $str$1[3] = " + init_of("hi") + ";\n" +
      ".global .align 1 .b8 $str$2[9] = " + init_of("even %d\n") + ";\n" + R"(
.visible .entry talk(.param .u64 out_p)
{
	.local .align 8 .b8 	__local_depot0[24];
	.reg .b64 	%SP;
	.reg .b64 	%SPL;
	.reg .pred 	%p<2>;
	.reg .b32 	%r<8>;
	.reg .f64 	%fd<3>;
	.reg .b64 	%rd<12>;
	mov.u64 	%SPL, __local_depot0;
	cvta.local.u64 	%SP, %SPL;
	ld.param.u64 	%rd1, [out_p];
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r2, %ctaid.x;
	cvt.rn.f64.u32 	%fd1, %r1;
	mul.f64 	%fd2, %fd1, 0d3FE0000000000000;
	add.u64 	%rd2, %SP, 0;
	st.local.v2.u32 	[%SPL], {%r2, %r1};
	st.local.f64 	[%SPL+8], %fd2;
	mov.u64 	%rd3, $str$1;
	cvta.global.u64 	%rd4, %rd3;
	st.local.u64 	[%SPL+16], %rd4;
	mov.u64 	%rd5, $str;
	cvta.global.u64 	%rd6, %rd5;
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd6;
	.param .b64 param1;
	st.param.b64 	[param1+0], %rd2;
	.param .b32 retval0;
	call.uni (retval0),
	vprintf,
	(
	param0,
	param1
	);
	ld.param.b32 	%r3, [retval0+0];
	} // callseq 0
	cvta.to.global.u64 	%rd7, %rd1;
	mad.lo.s32 	%r4, %r2, 40, %r1;
	mul.wide.u32 	%rd8, %r4, 4;
	add.s64 	%rd9, %rd7, %rd8;
	st.global.u32 	[%rd9], %r3;
	and.b32 	%r5, %r1, 1;
	setp.ne.s32 	%p1, %r5, 0;
	@%p1 bra 	$L__BB0_2;
	st.local.u32 	[%SPL], %r1;
	mov.u64 	%rd10, $str$2;
	cvta.global.u64 	%rd11, %rd10;
	{ // callseq 1, 0
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd11;
	.param .b64 param1;
	st.param.b64 	[param1+0], %rd2;
	.param .b32 retval0;
	call.uni (retval0), vprintf, (param0, param1);
	} // callseq 1
$L__BB0_2:
	ret;
}
)");
}

std::vector<std::string> expected_talk() {
  std::vector<std::string> want;
  for (int b = 0; b < 2; ++b)
    for (int w = 0; w < 2; ++w) {
      int first = 32 * w, last = std::min(40, 32 * w + 32);
      for (int t = first; t < last; ++t) want.push_back("b" + std::to_string(b) + " t" + std::to_string(t) + " x=" +
                                                        std::to_string(t / 2) + (t % 2 ? ".5" : ".0") + " hi\n");
      for (int t = first; t < last; t += 2) want.push_back("even " + std::to_string(t) + "\n");
    }
  return want;
}

std::vector<std::string> run_talk(warpsim::SimMode mode, std::vector<int32_t>* returned = nullptr) {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(printf_module());
  DevPtr out = sim.zeros<int32_t>(80);
  std::vector<std::string> got;
  warpsim::LaunchOptions o;
  o.mode = mode;
  o.printf_sink = [&](std::string_view s) { got.emplace_back(s); };
  warpsim::KernelArg args[] = {ptr(out)};
  sim.dev.launch(k, {2, 1, 1}, {40, 1, 1}, 0, args, o);
  if (returned) *returned = sim.download<int32_t>(out, 80);
  return got;
}

}  // namespace

TEST_CASE("printf: output by block, warp, call and lane, the same in both modes", "[engine][printf]") {
  std::vector<int32_t> returned;
  auto functional = run_talk(warpsim::SimMode::Functional, &returned);
  CHECK(functional == expected_talk());
  CHECK(returned == std::vector<int32_t>(80, 4));  // printf returns the number of arguments
  CHECK(run_talk(warpsim::SimMode::Timing) == expected_talk());
}

namespace {

std::string assert_module() {
  return ptxtest::module(
      ".extern .func  (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0,\n"
      "\t.param .b64 vprintf_param_1\n)\n;\n"
      ".extern .func __assertfail\n(\n\t.param .b64 __assertfail_param_0,\n\t.param .b64 __assertfail_param_1,\n"
      "\t.param .b32 __assertfail_param_2,\n\t.param .b64 __assertfail_param_3,\n\t.param .b64 __assertfail_param_4\n)\n;\n"
      ".global .align 1 .b8 __unnamed_1[17] = " + init_of("void check(int*)") + ";\n" +
      ".global .align 1 .b8 $str[7] = " + init_of("i < 37") + ";\n" +
      ".global .align 1 .b8 $str$1[9] = " + init_of("check.cu") + ";\n" +
      ".global .align 1 .b8 $str$2[8] = " + init_of("before\n") + ";\n" + R"(
.visible .entry check()
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<9>;
	mov.u32 	%r1, %tid.x;
	setp.ne.s32 	%p2, %r1, 0;
	@%p2 bra 	$L__BB0_1;
	mov.u64 	%rd7, $str$2;
	cvta.global.u64 	%rd8, %rd7;
	{
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd8;
	.param .b64 param1;
	st.param.b64 	[param1+0], 0;
	.param .b32 retval0;
	call.uni (retval0), vprintf, (param0, param1);
	}
$L__BB0_1:
	mov.u32 	%r2, %ctaid.x;
	setp.eq.s32 	%p1, %r2, 0;
	@%p1 bra 	$L__BB0_2;
	setp.lt.s32 	%p1, %r1, 37;
	@%p1 bra 	$L__BB0_2;
	mov.u64 	%rd1, $str;
	cvta.global.u64 	%rd2, %rd1;
	mov.u64 	%rd3, $str$1;
	cvta.global.u64 	%rd4, %rd3;
	mov.u64 	%rd5, __unnamed_1;
	cvta.global.u64 	%rd6, %rd5;
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd2;
	.param .b64 param1;
	st.param.b64 	[param1+0], %rd4;
	.param .b32 param2;
	st.param.b32 	[param2+0], 12;
	.param .b64 param3;
	st.param.b64 	[param3+0], %rd6;
	.param .b64 param4;
	st.param.b64 	[param4+0], 1;
	call.uni
	__assertfail,
	(
	param0,
	param1,
	param2,
	param3,
	param4
	);
	} // callseq 0
$L__BB0_2:
	ret;
}
)");
}

}  // namespace

TEST_CASE("assert: the launch stops naming the thread, expression, file and line", "[engine][printf]") {
  for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
    ptxtest::Sim sim;
    const auto& k = sim.kernel(assert_module());
    std::vector<std::string> printed;
    warpsim::LaunchOptions o;
    o.mode = mode;
    o.printf_sink = [&](std::string_view s) { printed.emplace_back(s); };
    auto t = ptxtest::catch_error([&] { sim.dev.launch(k, {2, 1, 1}, {40, 1, 1}, 0, {}, o); });
    REQUIRE(t.type == "KernelFault");
    CHECK(t.fault == warpsim::KernelFault::Kind::Assert);
    CHECK_THAT(t.what, Catch::StartsWith("device assert failed: check.cu:12: void check(int*): Assertion `i < 37` "
                                         "failed in kernel 'check', block (1,0,0), thread (37,0,0), at test.ptx:") &&
                           Catch::EndsWith("`call.uni __assertfail, ( param0, param1, param2, param3, param4 )`"));
    // printf output of the threads that ran before the fault is delivered.
    if (mode == warpsim::SimMode::Functional) CHECK(printed == std::vector<std::string>{"before\n", "before\n"});
    else CHECK(!printed.empty());
  }
}

TEST_CASE("special registers: %globaltimer advances, %envreg reads 0, WARP_SZ is 32", "[engine][printf]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry specials(.param .u64 out_p)
{
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<8>;
	ld.param.u64 	%rd1, [out_p];
	mov.u64 	%rd2, %globaltimer;
	mov.u32 	%r1, %envreg3;
	mov.u32 	%r2, %envreg31;
	mov.u32 	%r3, WARP_SZ;
	add.s32 	%r4, %r3, 1;
	add.s32 	%r4, %r4, 1;
	add.s32 	%r4, %r4, 1;
	mov.u64 	%rd3, %globaltimer;
	mov.u32 	%r5, %globaltimer_lo;
	mov.u32 	%r6, %globaltimer_hi;
	sub.s64 	%rd4, %rd3, %rd2;
	st.global.v2.u64 	[%rd1], {%rd2, %rd4};
	st.global.v4.u32 	[%rd1+16], {%r1, %r2, %r3, %r5};
	st.global.u32 	[%rd1+32], %r6;
	ret;
}
)"));
  DevPtr out = sim.zeros<uint32_t>(10);
  sim.run(k, {1, 1, 1}, {1, 1, 1}, {ptr(out)});
  auto got = sim.download<uint32_t>(out, 10);
  uint64_t first = got[0] | uint64_t(got[1]) << 32, elapsed = got[2] | uint64_t(got[3]) << 32;
  // Functional mode: simulated time is the instruction count, at the C2070's 1150 MHz.
  CHECK(first == uint64_t(1 * 1000 / 1150.0));
  CHECK(elapsed == uint64_t(8 * 1000 / 1150.0) - first);
  CHECK(got[4] == 0);
  CHECK(got[5] == 0);
  CHECK(got[6] == 32);
  CHECK(got[7] == uint32_t(uint64_t(9 * 1000 / 1150.0)));
  CHECK(got[8] == 0);
}
