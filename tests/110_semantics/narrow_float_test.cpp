// The narrow formats' instructions: rounding to f16, bf16 and the fp8 formats
// (small_float_bits.hpp), cvt to and from .e4m3x2/.e5m2x2, cvt with .rz, .relu and
// .satfinite, cvt to tf32 with .rn/.rz/.rna.satfinite, fma.relu, min/max.xorsign.abs and
// tanh/ex2.approx on halves. The expected bits are an H200's
// (tests/750_runtime/programs/relu_fp8_results.expected), so these run without nvcc.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>

#include "eval.hpp"
#include "sim/isa/half_bits.hpp"
#include "sim/isa/small_float_bits.hpp"

using semtest::eval;
using semtest::Types;
namespace d = warpsim::isa::detail;

namespace {

uint64_t run(const std::string& code, const Types& t, uint64_t a, uint64_t b = 0, uint64_t c = 0) {
  return eval(code, t, {{a, b, c, 0, 0}})[0].d;
}

std::string refusal(const std::string& line) {
  return ptxtest::ptx_error(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                            ".reg .b32 %r<4>;\n.reg .b16 %h<4>;\n.reg .f32 %f<4>;\n" +
                            line + "\nret;\n}\n");
}

}  // namespace

TEST_CASE("narrow formats: the generic rounding equals the f16 and bf16 conversions", "[semantics][half]") {
  // Every 4093rd f32 bit pattern (about a million, all exponents and both signs): the
  // magnitude to nearest even equals to_half's and to_bf16's (overflow: infinity).
  int checked = 0;
  for (uint64_t u = 0; u < (uint64_t(1) << 32); u += 4093) {
    const float x = std::bit_cast<float>(static_cast<uint32_t>(u));
    if (!std::isfinite(x)) continue;
    uint32_t h = d::round_magnitude(x, d::kF16Format, false);
    if (h > d::kF16Format.max_finite) h = d::kF16Format.inf_bits;
    uint32_t b = d::round_magnitude(x, d::kBF16Format, false);
    if (b > d::kBF16Format.max_finite) b = d::kBF16Format.inf_bits;
    if (h != (d::to_half(x) & 0x7FFFu) || b != (d::to_bf16(x) & 0x7FFFu)) {
      INFO(u);
      CHECK(h == (d::to_half(x) & 0x7FFFu));
      CHECK(b == (d::to_bf16(x) & 0x7FFFu));
    }
    ++checked;
  }
  CHECK(checked > 1000000);
  // Toward zero: 65520 (an f16 tie) and 65536 stay at 65504; the largest float at bf16's largest.
  CHECK(d::round_magnitude(65520.0, d::kF16Format, true) == 0x7BFF);
  CHECK(d::round_magnitude(65536.0, d::kF16Format, true) > d::kF16Format.max_finite);
  CHECK(d::round_magnitude(std::bit_cast<float>(0x7F7FFFFFu), d::kBF16Format, true) == 0x7F7F);
}

TEST_CASE("narrow formats: every fp8 value reads back and rounds to itself", "[semantics][half]") {
  for (const auto* f : {&d::kE4M3Format, &d::kE5M2Format}) {
    for (int v = 0; v < 256; ++v) {
      const double x = d::fp8_value(static_cast<uint8_t>(v), *f);
      INFO(v);
      if ((v & 0x7F) == 0x7F || (f->inf_bits && (v & 0x7F) > f->inf_bits)) {
        CHECK(std::isnan(x));
      } else if (f->inf_bits && (v & 0x7F) == f->inf_bits) {
        CHECK(std::isinf(x));
      } else {
        CHECK(std::signbit(x) == bool(v & 0x80));
        CHECK(d::round_magnitude(x, *f, false) == uint32_t(v & 0x7F));
      }
    }
  }
  CHECK(d::fp8_value(0x7E, d::kE4M3Format) == 448.0);
  CHECK(d::fp8_value(0x01, d::kE4M3Format) == std::ldexp(1.0, -9));
  CHECK(d::fp8_value(0x7B, d::kE5M2Format) == 57344.0);
  CHECK(d::fp8_value(0x01, d::kE5M2Format) == std::ldexp(1.0, -16));
}

TEST_CASE("fp8: cvt to and from .e4m3x2 and .e5m2x2 as an H200 computes them", "[semantics][half]") {
  const Types two("b16", "f32", "f32");
  // a to the upper byte; 449 rounds to 448, a NaN of either sign is 0x7F, infinities and
  // 57344 saturate at 448, 3 x 2^-11 rounds up to 2^-9, 2^-10 ties down to 0.
  CHECK(run("cvt.rn.satfinite.e4m3x2.f32 %d, %a, %b;", two, 0x43E08000, 0x7FC00123) == 0x7E7F);
  CHECK(run("cvt.rn.satfinite.e4m3x2.f32 %d, %a, %b;", two, 0xFFC00001, 0x3F980000) == 0x7F3A);
  CHECK(run("cvt.rn.satfinite.e4m3x2.f32 %d, %a, %b;", two, 0x80000000, 0x47600000) == 0x807E);
  CHECK(run("cvt.rn.satfinite.e4m3x2.f32 %d, %a, %b;", two, 0x3AC00000, 0xC0300000) == 0x01C3);
  CHECK(run("cvt.rn.satfinite.e4m3x2.f32 %d, %a, %b;", two, 0x47700000, 0x3A800000) == 0x7E00);
  // .relu: negatives and -0 are +0, a NaN stays the NaN.
  CHECK(run("cvt.rn.satfinite.relu.e4m3x2.f32 %d, %a, %b;", two, 0x3B000000, 0xA8000000) == 0x0100);
  CHECK(run("cvt.rn.satfinite.relu.e4m3x2.f32 %d, %a, %b;", two, 0xBF800000, 0x7F800000) == 0x007E);
  // E5M2: 61440 ties to infinity's encoding and saturates; 2^-16 is its smallest subnormal.
  CHECK(run("cvt.rn.satfinite.e5m2x2.f32 %d, %a, %b;", two, 0x47700000, 0x3A800000) == 0x7B14);
  CHECK(run("cvt.rn.satfinite.e5m2x2.f32 %d, %a, %b;", two, 0xFF800000, 0x37800000) == 0xFB01);
  CHECK(run("cvt.rn.satfinite.relu.e5m2x2.f32 %d, %a, %b;", two, 0xFF800000, 0x37800000) == 0x0001);
  // From an f16x2, the upper half to the upper byte.
  const Types from_pair("b16", "b32");
  CHECK(run("cvt.rn.satfinite.e4m3x2.f16x2 %d, %a;", from_pair, 0x7E000001) == 0x7F00);
  CHECK(run("cvt.rn.satfinite.e4m3x2.f16x2 %d, %a;", from_pair, 0xBC403800) == 0xB830);
  CHECK(run("cvt.rn.satfinite.relu.e5m2x2.f16x2 %d, %a;", from_pair, 0x5F407B00) == 0x5F7B);
  CHECK(run("cvt.rn.satfinite.relu.e5m2x2.f16x2 %d, %a;", from_pair, 0x80005F00) == 0x005F);
  // To f16x2: exact; NaNs are the canonical f16 NaN; .relu makes negatives +0.
  const Types to_pair("b32", "b16");
  CHECK(run("cvt.rn.f16x2.e4m3x2 %d, %a;", to_pair, 0x7F7E) == 0x7FFF5F00);
  CHECK(run("cvt.rn.f16x2.e4m3x2 %d, %a;", to_pair, 0x8180) == 0x98008000);
  CHECK(run("cvt.rn.relu.f16x2.e4m3x2 %d, %a;", to_pair, 0xFFFE) == 0x7FFF0000);
  CHECK(run("cvt.rn.f16x2.e5m2x2 %d, %a;", to_pair, 0x7D7C) == 0x7FFF7C00);
}

TEST_CASE("cvt: .rz, .relu and .satfinite from f32 to the halves and tf32", "[semantics][half]") {
  const Types h("b16", "f32"), w("b32", "f32"), pair("b32", "f32", "f32");
  CHECK(run("cvt.rn.satfinite.f16.f32 %d, %a;", h, 0x477FF000) == 0x7BFF);  // the tie with infinity
  CHECK(run("cvt.rn.satfinite.f16.f32 %d, %a;", h, 0xFF800000) == 0xFBFF);
  CHECK(run("cvt.rz.f16.f32 %d, %a;", h, 0x47800000) == 0x7BFF);
  CHECK(run("cvt.rz.f16.f32 %d, %a;", h, 0xFF800000) == 0xFC00);  // infinity stays
  CHECK(run("cvt.rn.relu.f16.f32 %d, %a;", h, 0x80000001) == 0);
  CHECK(run("cvt.rn.relu.f16.f32 %d, %a;", h, 0x7FC00001) == 0x7FFF);
  CHECK(run("cvt.rz.relu.satfinite.f16.f32 %d, %a;", h, 0xFF800000) == 0);
  CHECK(run("cvt.rn.satfinite.bf16.f32 %d, %a;", h, 0x7F7F8000) == 0x7F7F);
  CHECK(run("cvt.rz.bf16.f32 %d, %a;", h, 0x3F818000) == 0x3F81);
  CHECK(run("cvt.rn.relu.f16x2.f32 %d, %a, %b;", pair, 0xBFC00000, 0x3F801000) == 0x00003C00);
  // tf32: .rn ties to even, NaNs become 0x7FFFE000; .rna.satfinite steps the top exponent down.
  CHECK(run("cvt.rn.tf32.f32 %d, %a;", w, 0x3F801000) == 0x3F800000);
  CHECK(run("cvt.rn.tf32.f32 %d, %a;", w, 0x7F7FF000) == 0x7F800000);
  CHECK(run("cvt.rn.tf32.f32 %d, %a;", w, 0xFF812345) == 0x7FFFE000);
  CHECK(run("cvt.rz.tf32.f32 %d, %a;", w, 0x7F7FFFFF) == 0x7F7FE000);
  CHECK(run("cvt.rna.satfinite.tf32.f32 %d, %a;", w, 0x7F800000) == 0x7F7FE000);
  CHECK(run("cvt.rna.satfinite.tf32.f32 %d, %a;", w, 0x7FC00123) == 0x7FBFE000);
  CHECK(run("cvt.rna.satfinite.tf32.f32 %d, %a;", w, 0xFF812345) == 0xFF810000);
}

TEST_CASE("fma.relu and min/max.xorsign.abs as an H200 computes them", "[semantics][half]") {
  const Types h("b16", "b16", "b16", "b16"), w("b32", "b32", "b32", "b32");
  CHECK(run("fma.rn.relu.f16 %d, %a, %b, %c;", h, 0x3C00, 0xC000, 0x3C00) == 0);
  CHECK(run("fma.rn.relu.f16 %d, %a, %b, %c;", h, 0x8000, 0x3C00, 0x8000) == 0);  // -0 is +0
  CHECK(run("fma.rn.relu.f16 %d, %a, %b, %c;", h, 0x7BFF, 0x7BFF, 0) == 0x7C00);
  CHECK(run("fma.rn.ftz.relu.f16x2 %d, %a, %b, %c;", w, 0x04004000, 0x38004200, 0x00003800) == 0x4680);
  CHECK(run("fma.rn.relu.bf16 %d, %a, %b, %c;", h, 0xBF80, 0x3F80, 0x3F00) == 0);
  CHECK(run("fma.rn.relu.bf16x2 %d, %a, %b, %c;", w, 0xFF7F7F7F, 0x7F7F7F7F, 0) == 0x7F80);
  const Types x("b32", "b32", "b32");
  CHECK(run("min.xorsign.abs.f32 %d, %a, %b;", x, 0xC0000000, 0x40400000) == 0xC0000000);
  CHECK(run("max.xorsign.abs.f32 %d, %a, %b;", x, 0xC0000000, 0xC0400000) == 0x40400000);
  CHECK(run("min.xorsign.abs.f32 %d, %a, %b;", x, 0xFFC00001, 0xBF800000) == 0x3F800000);  // a NaN's sign counts
  CHECK(run("max.NaN.xorsign.abs.f32 %d, %a, %b;", x, 0x3F800000, 0x7F800001) == 0x7FFFFFFF);
  CHECK(run("min.ftz.xorsign.abs.f32 %d, %a, %b;", x, 0x80000003, 0x00000002) == 0x80000000);
  CHECK(run("max.NaN.xorsign.abs.f16x2 %d, %a, %b;", x, 0xFC007E00, 0x3C00FE00) == 0xFC007FFF);
  CHECK(run("min.NaN.xorsign.abs.bf16x2 %d, %a, %b;", x, 0x80030001, 0x0002C000) == 0x80028001);
  CHECK(run("max.xorsign.abs.bf16 %d, %a, %b;", Types("b16", "b16", "b16"), 0x0001, 0xC000) == 0xC000);
}

TEST_CASE("tanh.approx and ex2.approx on halves", "[semantics][half]") {
  const Types h("b16", "b16"), w("b32", "b32");
  // Values the H200 gives too (tools/calibration/half_approx_sweep.cu): zeros, saturation,
  // exact powers of two, subnormal results, NaNs.
  CHECK(run("tanh.approx.f16 %d, %a;", h, 0x8000) == 0x8000);
  CHECK(run("tanh.approx.f16 %d, %a;", h, 0x7C00) == 0x3C00);
  CHECK(run("tanh.approx.f16 %d, %a;", h, 0x4800) == 0x3C00);
  CHECK(run("tanh.approx.f16 %d, %a;", h, 0xFE00) == 0x7FFF);
  CHECK(run("tanh.approx.bf16 %d, %a;", h, 0x8001) == 0x8001);
  CHECK(run("ex2.approx.f16 %d, %a;", h, 0x4800) == 0x5C00);
  CHECK(run("ex2.approx.f16 %d, %a;", h, 0xCE00) == 0x0001);  // 2^-24
  CHECK(run("ex2.approx.f16 %d, %a;", h, 0xFC00) == 0);
  CHECK(run("ex2.approx.ftz.bf16 %d, %a;", h, 0x4300) == 0x7F80);
  CHECK(run("ex2.approx.ftz.bf16 %d, %a;", h, 0xC310) == 0);  // 2^-144: flushed
  CHECK(run("ex2.approx.ftz.bf16 %d, %a;", h, 0x8001) == 0x3F80);  // a flushed source
  CHECK(run("ex2.approx.f16x2 %d, %a;", w, 0x3C004800) == 0x40005C00);
  CHECK(run("tanh.approx.bf16x2 %d, %a;", w, 0x7F80FF80) == 0x3F80BF80);
}

TEST_CASE("narrow formats: forms PTX does not have are refused with the line", "[semantics][half]") {
  auto refuses = [&](const std::string& line, const std::string& what) {
    INFO(line);
    CHECK_THAT(refusal(line), Catch::Contains("t.ptx:9") && Catch::Contains(what));
  };
  refuses("cvt.rn.e4m3x2.f32 %h1, %f1, %f2;", "needs .satfinite");
  refuses("cvt.rz.satfinite.e5m2x2.f32 %h1, %f1, %f2;", "takes .rn");
  refuses("cvt.rn.satfinite.e4m3x2.f64 %h1, %f1;", "takes .f32 or .f16x2");
  refuses("cvt.rn.satfinite.f16x2.e4m3x2 %r1, %h1;", "takes no .satfinite");
  refuses("cvt.rn.relu.f32.f16 %f1, %h1;", ".relu and .satfinite apply to cvt from .f32");
  refuses("cvt.rn.relu.tf32.f32 %r1, %f1;", "unsupported PTX");
  refuses("fma.rn.relu.f32 %f1, %f1, %f2, %f3;", "fma.relu takes .f16");
  refuses("fma.rn.sat.relu.f16 %h1, %h1, %h2, %h3;", "one of .relu and .sat");
  refuses("min.xorsign.f32 %f1, %f2, %f3;", "takes .xorsign and .abs together");
  refuses("max.xorsign.abs.f64 %r1, %r2, %r3;", "max.xorsign.abs takes .f32");
  refuses("ex2.approx.ftz.f16 %h1, %h2;", "ex2.approx takes .ftz on .bf16");
  refuses("sqrt.approx.f16 %h1, %h2;", "sqrt on .f16 (of the special functions, halves have tanh.approx");
}
