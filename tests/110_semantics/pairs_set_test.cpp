// .bf16x2 arithmetic, cvt.rn.{f16x2,bf16x2}.f32 packing two floats, and set (a comparison
// written as a value), min/max.NaN, with an H200's results for the same sources
// (tests/750_runtime/programs/pairs_and_set_results.expected), without nvcc; and the type
// combinations set refuses.
#include <catch2/catch.hpp>

#include "eval.hpp"

using semtest::eval;
using semtest::Types;

namespace {

uint64_t pack(uint64_t high, uint64_t low) { return high << 16 | low; }

uint64_t run(const std::string& code, const Types& t, uint64_t a, uint64_t b = 0, uint64_t c = 0) {
  return eval(code, t, {{a, b, c, 0, 0}})[0].d;
}

}  // namespace

TEST_CASE("pairs: bf16x2 arithmetic works on each half as bf16 does", "[semantics][half]") {
  const Types t("b32", "b32", "b32", "b32");
  const uint64_t q = 0x7FC5, nq = 0xFFC7, one = 0x3F80, onep = 0x3F81, h8 = 0x3B80, x1625 = 0x3F88;
  // Low half: a NaN (the canonical result); high half: a tie that rounds to even.
  CHECK(run("add.bf16x2 %d, %a, %b;", t, pack(onep, q), pack(h8, one)) == 0x3F827FFF);
  CHECK(run("sub.bf16x2 %d, %a, %b;", t, pack(nq, one), pack(q, h8)) == 0x7FFF3F7F);
  CHECK(run("mul.bf16x2 %d, %a, %b;", t, pack(0x7F7F, x1625), pack(0xBF80, x1625)) == 0xFF7F3F90);
  CHECK(run("add.rn.bf16x2 %d, %a, %b;", t, pack(0x7F80, 1), pack(one, 1)) == 0x7F800002);
  // fma rounds once per half: 1.0625^2 + a tiny addend is no tie.
  CHECK(run("fma.rn.bf16x2 %d, %a, %b, %c;", t, pack(one, x1625), pack(h8, x1625), pack(one, 0x0D80)) ==
        0x3F803F91);
  CHECK(run("fma.rn.bf16x2 %d, %a, %b, %c;", t, pack(0xBF80, one), pack(one, 0x8000), pack(one, 0)) == 0);
  // min/max: one NaN gives the other source, -0 is below +0.
  CHECK(run("min.bf16x2 %d, %a, %b;", t, pack(0x8000, 0), pack(0, 0x8000)) == 0x80008000);
  CHECK(run("max.bf16x2 %d, %a, %b;", t, pack(0x8000, 0), pack(0, 0x8000)) == 0);
  CHECK(run("max.bf16x2 %d, %a, %b;", t, pack(q, 0x7F83), pack(nq, one)) == 0x7FFF3F80);
  CHECK(run("neg.bf16x2 %d, %a;", Types("b32", "b32"), pack(q, 0xBF80)) == 0x7FFF3F80);
  CHECK(run("abs.bf16x2 %d, %a;", Types("b32", "b32"), pack(0xFF80, nq)) == 0x7F807FFF);
}

TEST_CASE("pairs: cvt.rn.f16x2.f32 and cvt.rn.bf16x2.f32 put a in the upper half", "[semantics][half]") {
  const Types t("b32", "f32", "f32");
  // a: a NaN with a payload (the canonical NaN); b: 1 + 2^-8 + 2^-16 ... as the H200 rounds.
  CHECK(run("cvt.rn.bf16x2.f32 %d, %a, %b;", t, 0x7FC00123, 0x3F808000) == 0x7FFF3F80);
  CHECK(run("cvt.rn.f16x2.f32 %d, %a, %b;", t, 0x7FC00123, 0x3F808000) == 0x7FFF3C04);
  CHECK(run("cvt.rn.bf16x2.f32 %d, %a, %b;", t, 0x3F818000, 0x3F808001) == 0x3F823F81);
  CHECK(run("cvt.rn.f16x2.f32 %d, %a, %b;", t, 0x477FF001, 0x33800000) == 0x7C000001);  // overflow, 2^-24
  CHECK(run("cvt.rn.bf16x2.f32 %d, %a, %b;", t, 0x3F800000, 0x7F7FFFFF) == 0x3F807F80);
  CHECK(run("cvt.rn.f16x2.f32 %d, %a, %b;", t, 0x80000000, 0xFF800000) == 0x8000FC00);
}

TEST_CASE("set: a comparison as all ones or 1.0, per half on pairs", "[semantics][half]") {
  const uint64_t f1 = 0x3F800000, f2 = 0x40000000, fq = 0x7FC00001;
  CHECK(run("set.lt.u32.s32 %d, %a, %b;", Types("u32", "s32", "s32"), 0xFFFFFFFF, 1) == 0xFFFFFFFF);
  CHECK(run("set.lo.u32.u32 %d, %a, %b;", Types("u32", "u32", "u32"), 0xFFFFFFFF, 1) == 0);
  CHECK(run("set.hi.s32.u64 %d, %a, %b;", Types("s32", "u64", "u64"), ~uint64_t(0), 1) == 0xFFFFFFFF);
  CHECK(run("set.ge.s32.s16 %d, %a, %b;", Types("s32", "s16", "s16"), 0x8000, 0x7FFF) == 0);
  CHECK(run("set.ne.u32.b16 %d, %a, %b;", Types("u32", "b16", "b16"), 0xFFFF, 0xFFFF) == 0);
  CHECK(run("set.lt.f32.f32 %d, %a, %b;", Types("f32", "f32", "f32"), f1, f2) == f1);
  CHECK(run("set.lt.f32.f32 %d, %a, %b;", Types("f32", "f32", "f32"), 0, 1) == f1);  // 0 < a subnormal
  CHECK(run("set.ge.ftz.u32.f32 %d, %a, %b;", Types("u32", "f32", "f32"), 0, 1) == 0xFFFFFFFF);  // flushed
  CHECK(run("set.gtu.u32.f32 %d, %a, %b;", Types("u32", "f32", "f32"), fq, f1) == 0xFFFFFFFF);
  CHECK(run("set.nan.s32.f64 %d, %a, %b;", Types("s32", "f64", "f64"), 0x7FF8000000000001ull,
            0x3FF0000000000000ull) == 0xFFFFFFFF);
  CHECK(run("set.eq.f16.f32 %d, %a, %b;", Types("b16", "f32", "f32"), 0, 0x80000000) == 0x3C00);
  CHECK(run("set.le.bf16.f32 %d, %a, %b;", Types("b16", "f32", "f32"), f1, f2) == 0x3F80);
  CHECK(run("set.lt.u16.f16 %d, %a, %b;", Types("u16", "b16", "b16"), 0x3C00, 0x4000) == 0xFFFF);
  CHECK(run("set.gt.ftz.f16.f16 %d, %a, %b;", Types("b16", "b16", "b16"), 1, 0) == 0);
  CHECK(run("set.neu.u32.bf16 %d, %a, %b;", Types("u32", "b16", "b16"), 0x7FC5, 0x3F80) == 0xFFFFFFFF);
  const Types pairs("b32", "b32", "b32");
  CHECK(run("set.gt.f16x2.f16x2 %d, %a, %b;", pairs, 0x40003C00, 0x3C004000) == 0x3C000000);
  CHECK(run("set.gt.f16x2.f16x2 %d, %a, %b;", pairs, 0x00013C00, 0x00003C00) == 0x3C000000);  // no ftz
  CHECK(run("set.le.u32.f16x2 %d, %a, %b;", pairs, 0x7E058000, 0x3C000000) == 0x0000FFFF);
  CHECK(run("set.ltu.bf16x2.bf16x2 %d, %a, %b;", pairs, 0x7F80BF80, 0x7F803F80) == 0x00003F80);
  CHECK(run("set.eq.u32.bf16x2 %d, %a, %b;", pairs, 0x7F80BF80, 0x7F803F80) == 0xFFFF0000);
}

TEST_CASE("set: .and/.or/.xor combine the comparison with a predicate", "[semantics][half]") {
  const uint64_t f1 = 0x3F800000, f2 = 0x40000000, fq = 0x7FC00001;
  for (uint64_t p : {0, 1}) {
    INFO(p);
    CHECK(run("set.gt.and.u32.s32 %d, %a, %b, %c;", Types("u32", "s32", "s32", "pred"), 2, 1, p) ==
          (p ? 0xFFFFFFFF : 0));
    CHECK(run("set.eq.or.f32.f32 %d, %a, %b, %c;", Types("f32", "f32", "f32", "pred"), fq, fq, p) ==
          (p ? f1 : 0));
    CHECK(run("set.lt.xor.u32.f32 %d, %a, %b, !%c;", Types("u32", "f32", "f32", "pred"), f1, f2, p) ==
          (p ? 0xFFFFFFFF : 0));
    CHECK(run("set.gt.and.f16x2.f16x2 %d, %a, %b, %c;", Types("b32", "b32", "b32", "pred"), 0x40003C00, 0x3C004000,
              p) == (p ? 0x3C000000 : 0));
  }
}

TEST_CASE("pairs: setp on .f16x2 and .bf16x2 writes the lower halves' result to p, the upper's to q",
          "[semantics][half]") {
  // p + 2q, as pairs_and_set_results.cu prints it.
  auto setp2 = [](const std::string& op, uint64_t a, uint64_t b, uint64_t c = 0) {
    const std::string code = "{.reg .pred p, q;\n" + op +
                             " p|q, %a, %b" + (c > 1 ? "" : ", %c") +
                             ";\nselp.u32 %d, 1, 0, p;\n@q add.u32 %d, %d, 2;}";
    return run(code, Types("u32", "b32", "b32", "pred"), a, b, c);
  };
  const uint64_t none = 2;  // no predicate source
  CHECK(setp2("setp.lt.f16x2", 0x40003C00, 0x3C004000, none) == 1);
  CHECK(setp2("setp.lt.f16x2", 0x3C004000, 0x40003C00, none) == 2);
  CHECK(setp2("setp.lt.f16x2", 0x80007E05, 0x00003C00, none) == 0);  // a NaN; -0 < +0 is false
  CHECK(setp2("setp.geu.bf16x2", 0x3F807FC5, 0x40003F80, none) == 1);
  CHECK(setp2("setp.geu.bf16x2", 0x0000BF80, 0x80003F80, none) == 2);
  CHECK(setp2("setp.eq.and.f16x2", 0x3C003C00, 0x3C003C00, 0) == 0);
  CHECK(setp2("setp.eq.and.f16x2", 0x3C003C00, 0x3C003C00, 1) == 3);
  CHECK(setp2("setp.eq.and.f16x2", 0x3C000000, 0x40008000, 1) == 1);
}

TEST_CASE("pairs: min/max.NaN give the canonical NaN for any NaN source", "[semantics][half]") {
  const Types w("b32", "b32", "b32"), h("b16", "b16", "b16");
  CHECK(run("min.NaN.f32 %d, %a, %b;", w, 0x7FC00001, 0x3F800000) == 0x7FFFFFFF);
  CHECK(run("max.NaN.f32 %d, %a, %b;", w, 0x3F800000, 0xFFC00005) == 0x7FFFFFFF);
  CHECK(run("max.NaN.f32 %d, %a, %b;", w, 0x7F800003, 0x40000000) == 0x7FFFFFFF);  // signalling
  CHECK(run("min.NaN.f32 %d, %a, %b;", w, 0, 0x80000000) == 0x80000000);
  CHECK(run("max.NaN.f32 %d, %a, %b;", w, 0x3F800000, 0x40000000) == 0x40000000);
  CHECK(run("min.NaN.f16 %d, %a, %b;", h, 0x3C00, 0xFE07) == 0x7FFF);
  CHECK(run("min.NaN.f16 %d, %a, %b;", h, 0, 0x8000) == 0x8000);
  CHECK(run("min.NaN.bf16 %d, %a, %b;", h, 0x7F83, 0x4000) == 0x7FFF);
  CHECK(run("min.NaN.bf16 %d, %a, %b;", h, 0, 0x8000) == 0x8000);
  CHECK(run("max.NaN.f16x2 %d, %a, %b;", w, 0x80007C01, 0x00003C00) == 0x00007FFF);
  CHECK(run("max.NaN.bf16x2 %d, %a, %b;", w, 0x3F807FC5, 0x40003F80) == 0x40007FFF);
  // Without .NaN, one NaN source gives the other (bf16_results.cu, nan_results_half.cu).
  CHECK(run("max.bf16x2 %d, %a, %b;", w, 0x3F807FC5, 0x40003F80) == 0x40003F80);
  const std::string e = ptxtest::ptx_error(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                                           ".reg .f64 %fd<3>;\nmin.NaN.f64 %fd1, %fd2, %fd2;\nret;\n}\n");
  CHECK_THAT(e, Catch::Contains("t.ptx:7") && Catch::Contains("min.NaN takes .f32, .f16, .f16x2, .bf16 or .bf16x2"));
}

TEST_CASE("set: type combinations PTX does not have are refused with the line", "[semantics][half]") {
  auto refuses = [&](const std::string& line, const std::string& what) {
    const std::string ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                            ".reg .b32 %r<4>;\n.reg .b16 %h<4>;\n.reg .pred %p;\n" +
                            line + "\nret;\n}\n";
    INFO(line);
    const std::string e = ptxtest::ptx_error(ptx);
    CHECK_THAT(e, Catch::Contains("t.ptx:9") && Catch::Contains(what));
  };
  refuses("set.lt.u16.u32 %h1, %r1, %r2;", "set does not write .u16 from .u32");
  refuses("set.lt.f16x2.f32 %r1, %r2, %r3;", "set does not write .f16x2 from .f32");
  refuses("set.lt.u32.pred %r1, %p, %p;", "set does not compare .pred");
  refuses("set.nan.u32.s32 %r1, %r2, %r3;", "does not apply to .s32");
  refuses("set.lo.u32.f32 %r1, %r2, %r3;", "does not apply to .f32");
  refuses("set.lt.and.u32.s32 %r1, %r2, %r3;", "needs a predicate source");
  refuses("set.u32.s32 %r1, %r2, %r3;", "needs a comparison operator");
}

TEST_CASE("pairs: cvt.rna.tf32.f32 rounds ties away and keeps NaNs' upper bits as they are", "[semantics][half]") {
  const Types t("b32", "f32");
  CHECK(run("cvt.rna.tf32.f32 %d, %a;", t, 0x3F801000) == 0x3F802000);  // a tie, away from zero
  CHECK(run("cvt.rna.tf32.f32 %d, %a;", t, 0xBF801000) == 0xBF802000);
  CHECK(run("cvt.rna.tf32.f32 %d, %a;", t, 0x3F800FFF) == 0x3F800000);
  CHECK(run("cvt.rna.tf32.f32 %d, %a;", t, 0x7F7FFFFF) == 0x7F800000);  // the largest float: infinity
  // NaNs and infinity lose the low 13 bits only (the H200): no quieting.
  CHECK(run("cvt.rna.tf32.f32 %d, %a;", t, 0xFF812345) == 0xFF812000);
  CHECK(run("cvt.rna.tf32.f32 %d, %a;", t, 0x7F800001) == 0x7F800000);
  CHECK(run("cvt.rna.tf32.f32 %d, %a;", t, 0x7FC00123) == 0x7FC00000);
  CHECK(run("cvt.rna.tf32.f32 %d, %a;", t, 0x7FFFFFFF) == 0x7FFFE000);
}
