// Linking the PTX of separately compiled units (isa/ptx_link.hpp): what is resolved, kept
// once, renamed and renumbered, checked on hand-written modules in nvcc's layout and by
// parsing the result.
#include <catch2/catch.hpp>

#include "sim/foundation/error.hpp"
#include "sim/isa/ptx_link.hpp"
#include "sim/isa/ptx_parser.hpp"

using namespace warpsim::isa;

namespace {

const std::string kUnitA = R"(.version 8.5
.target sm_75
.address_size 64

.file 1 "/src/a.cu"
.extern .func  (.param .b32 func_retval0) twice
(
	.param .b32 twice_param_0
)
;
.extern .global .align 4 .u32 scale;
.extern .entry _Z4in_bPi(
	.param .u64 _Z4in_bPi_param_0
)
;
.global .align 1 .b8 $str[3] = {97, 10, 0};
.weak .func  (.param .b32 func_retval0) plus_one(
	.param .b32 plus_one_param_0
)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [plus_one_param_0];
	add.s32 %r2, %r1, 1;
	st.param.b32 [func_retval0], %r2;
	ret;
}
.func  (.param .b32 func_retval0) local_fn(
	.param .b32 local_fn_param_0
)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [local_fn_param_0];
	mul.lo.s32 %r2, %r1, 3;
	st.param.b32 [func_retval0], %r2;
	ret;
}
.visible .entry _Z1kPi(
	.param .u64 _Z1kPi_param_0
)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<4>;
	.loc 1 3 1
	ld.param.u64 %rd1, [_Z1kPi_param_0];
	ld.global.u32 %r1, [scale];
	{ .param .b32 p0; st.param.b32 [p0], %r1; .param .b32 r0;
	call.uni (r0), local_fn, (p0); ld.param.b32 %r2, [r0]; }
	{ .param .b32 p0; st.param.b32 [p0], %r2; .param .b32 r0;
	call.uni (r0), twice, (p0); ld.param.b32 %r3, [r0]; }
	st.global.u32 [%rd1], %r3;
	mov.u64 %rd2, $str;
	mov.u64 %rd3, _Z4in_bPi;
	st.global.u64 [%rd1+8], %rd3;
	ret;
}
)";

const std::string kUnitB = R"(.version 9.0
.target sm_75
.address_size 64

.file 1 "/src/b.cu"
.file 2 "/src/common.h"
.visible .global .align 4 .u32 scale = 5;
.global .align 1 .b8 $str[3] = {98, 10, 0};
.weak .func  (.param .b32 func_retval0) plus_one(
	.param .b32 plus_one_param_0
)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [plus_one_param_0];
	add.s32 %r2, %r1, 1;
	st.param.b32 [func_retval0], %r2;
	ret;
}
.func  (.param .b32 func_retval0) local_fn(
	.param .b32 local_fn_param_0
)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [local_fn_param_0];
	mul.lo.s32 %r2, %r1, 7;
	st.param.b32 [func_retval0], %r2;
	ret;
}
.visible .func  (.param .b32 func_retval0) twice(
	.param .b32 twice_param_0
)
{
	.reg .b32 %r<3>;
	.loc 2 1 1
	ld.param.u32 %r1, [twice_param_0];
	shl.b32 %r2, %r1, 1;
	st.param.b32 [func_retval0], %r2;
	ret;
}
.visible .entry _Z4in_bPi(
	.param .u64 _Z4in_bPi_param_0
)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	.loc 1 9 1
	ld.param.u64 %rd1, [_Z4in_bPi_param_0];
	{ .param .b32 p0; st.param.b32 [p0], 2; .param .b32 r0;
	call.uni (r0), local_fn, (p0); ld.param.b32 %r1, [r0]; }
	mov.u64 %rd2, $str;
	st.global.u32 [%rd1+4], %r1;
	ret;
}
)";

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("ptx link: one unit is returned as written") {
  CHECK(link_ptx({{"a", kUnitA}}) == kUnitA);
}

TEST_CASE("ptx link: externs resolve to the other unit and colliding internal names are renamed") {
  const std::string linked = link_ptx({{"a", kUnitA}, {"b", kUnitB}});
  INFO(linked);
  CHECK(linked.rfind(".version 9.0\n.target sm_75\n.address_size 64\n", 0) == 0);  // the newer version
  CHECK(count(linked, ".extern") == 0);                       // every declaration has its definition
  CHECK(count(linked, ".weak .func") == 1);                   // plus_one kept once
  CHECK(count(linked, "local_fn_$1") == 2);                   // b's static function: header and call
  CHECK(count(linked, "$str_$1") == 2);                       // b's string: declaration and use
  CHECK(count(linked, ".file 2 \"/src/b.cu\"") == 1);         // b's files after a's one
  CHECK(count(linked, ".file 3 \"/src/common.h\"") == 1);
  CHECK(count(linked, ".loc 3 1 1") == 1);
  CHECK(count(linked, ".loc 2 9 1") == 1);
  CHECK(linked.find(".visible .global .align 4 .u32 scale = 5;") < linked.find(".visible .entry _Z1kPi"));  // variables first

  auto m = parse_ptx(linked, "linked.ptx");
  REQUIRE(m->kernels.size() == 2);
  CHECK(m->kernels[0]->name == "_Z1kPi");
  CHECK(m->kernels[1]->name == "_Z4in_bPi");
  CHECK(m->files.at(3) == "/src/common.h");
  CHECK(m->globals.size() == 3);  // scale, a's $str, b's $str_$1
}

TEST_CASE("ptx link: two definitions of a visible name are an error naming both units") {
  std::string twin = kUnitB;
  twin.replace(twin.find(".weak .func"), 11, ".visible .func");
  std::string other = twin;
  CHECK_THROWS_WITH(link_ptx({{"one.cu", twin}, {"two.cu", other}}),
                    Catch::Contains("is defined in one.cu and in two.cu"));
}

TEST_CASE("ptx link: an unterminated statement names its unit and line") {
  CHECK_THROWS_AS(link_ptx({{"a", kUnitA}, {"broken.cu", ".version 8.5\n.target sm_75\n.global .u32 x = {1, 2\n"}}),
                  warpsim::PtxError);
  CHECK_THROWS_WITH(link_ptx({{"a", kUnitA}, {"broken.cu", ".version 8.5\n.target sm_75\n.global .u32 x = {1, 2\n"}}),
                    Catch::StartsWith("broken.cu:3:1: link:"));
}

TEST_CASE("ptx link: a unit alone names what it lacks") {
  // Unit a takes the address of b's kernel (.extern .entry): parsed alone, that is the error,
  // at the mov that takes it (the prototype itself is accepted).
  std::string alone = kUnitA;
  alone.replace(alone.find(".extern .global .align 4 .u32 scale;"), 36, "");  // its other extern use
  alone.replace(alone.find("ld.global.u32 %r1, [scale];"), 27, "mov.u32 %r1, 5;");
  alone.replace(alone.find("call.uni (r0), twice, (p0);"), 27, "call.uni (r0), plus_one, (p0);");
  CHECK_THROWS_WITH(parse_ptx(alone, "a.ptx"),
                    Catch::Contains("a.ptx:52: unsupported PTX: mov.u64 %rd3, _Z4in_bPi;") &&
                        Catch::Contains("kernel '_Z4in_bPi' is defined in another translation unit"));
}

TEST_CASE("ptx link: a static function named as another unit's visible one is renamed in its own unit") {
  // a.cu's static local_fn and c.cu's visible local_fn share a mangled name: a's calls stay a's.
  const std::string c = R"(.version 8.5
.target sm_75
.address_size 64
.visible .func  (.param .b32 func_retval0) local_fn(
	.param .b32 local_fn_param_0
)
{
	.reg .b32 %r<2>;
	st.param.b32 [func_retval0], 99;
	ret;
}
)";
  const std::string linked = link_ptx({{"a", kUnitA}, {"b", kUnitB}, {"c", c}});
  INFO(linked);
  CHECK(count(linked, "local_fn_$0") == 2);  // a's: header and call
  CHECK(count(linked, "local_fn_$1") == 2);  // b's
  CHECK(count(linked, ") local_fn(") == 1);  // c's keeps its name
  CHECK(parse_ptx(linked, "linked.ptx")->kernels.size() == 2);
}
