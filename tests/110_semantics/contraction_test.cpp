// Multiply-add contraction: which mul/add pairs compute one fma, as ptxas fuses them
// (contraction.hpp; the patterns an H100 fused are in tests/750_runtime/programs/contraction.cu).
// Inputs are chosen so that the fused and the unfused results differ in every case.
#include <catch2/catch.hpp>

#include <cmath>

#include "eval.hpp"
#include "sim/isa/contraction.hpp"

using semtest::bits;
using semtest::eval;
using semtest::from_bits;
using semtest::Types;

namespace {

// (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: the last term is lost when the product is rounded, so
// a*b - (1 + 2^-11) is 0 unfused and 2^-24 fused.
const float a32 = 1.0f + std::ldexp(1.0f, -12);
const float c32 = 1.0f + std::ldexp(1.0f, -11);
const double a64 = 1.0 + std::ldexp(1.0, -27);
const double c64 = 1.0 + std::ldexp(1.0, -26);

float run32(const std::string& code) {
  const auto out = eval(code, Types("f32", "f32", "f32", "f32"), {{bits(a32), bits(a32), bits(c32), 0, 0}});
  return from_bits<float>(out[0].d);
}

}  // namespace

TEST_CASE("a mul feeding an add or sub becomes one fma", "[semantics][float][contraction]") {
  const float fused = std::ldexp(1.0f, -24);
  // a*b - c fused: the exact product minus c.
  CHECK(run32("{ .reg .f32 p; mul.f32 p, %a, %b; sub.f32 %d, p, %c; }") == fused);
  // c - a*b fused: the negated exact product plus c.
  CHECK(run32("{ .reg .f32 p; mul.f32 p, %a, %b; sub.f32 %d, %c, p; }") == -fused);
  // The product as either operand of an add (c negated first so the sum is small).
  CHECK(run32("{ .reg .f32 p, n; neg.f32 n, %c; mul.f32 p, %a, %b; add.f32 %d, p, n; }") == fused);
  CHECK(run32("{ .reg .f32 p, n; neg.f32 n, %c; mul.f32 p, %a, %b; add.f32 %d, n, p; }") == fused);
  // ftz forms fuse with each other.
  CHECK(run32("{ .reg .f32 p; mul.ftz.f32 p, %a, %b; sub.ftz.f32 %d, p, %c; }") == fused);
  // f64 like f32.
  const auto out = eval("{ .reg .f64 p; mul.f64 p, %a, %b; sub.f64 %d, p, %c; }", Types("f64", "f64", "f64", "f64"),
                        {{bits(a64), bits(a64), bits(c64), 0, 0}});
  CHECK(from_bits<double>(out[0].d) == std::ldexp(1.0, -54));
}

TEST_CASE("of two products, the first operand's is fused", "[semantics][float][contraction]") {
  // p = a*a (loses 2^-24), q = c*1: p - q fuses p and gives 2^-24; q - p would fuse q and give 0.
  CHECK(run32("{ .reg .f32 p, q, one; mov.f32 one, 0f3F800000; mul.f32 p, %a, %b; mul.f32 q, %c, one; "
              "sub.f32 %d, p, q; }") == std::ldexp(1.0f, -24));
  CHECK(run32("{ .reg .f32 p, q, one; mov.f32 one, 0f3F800000; mul.f32 p, %a, %b; mul.f32 q, %c, one; "
              "sub.f32 %d, q, p; }") == 0.0f);
}

TEST_CASE("what the code generator does not fuse stays two roundings", "[semantics][float][contraction]") {
  // mul.rn and add.rn are never fused.
  CHECK(run32("{ .reg .f32 p; mul.rn.f32 p, %a, %b; sub.f32 %d, p, %c; }") == 0.0f);
  CHECK(run32("{ .reg .f32 p; mul.f32 p, %a, %b; sub.rn.f32 %d, p, %c; }") == 0.0f);
  // A product with another use (an H100 keeps it and adds separately).
  CHECK(run32("{ .reg .f32 p, s; mul.f32 p, %a, %b; sub.f32 s, p, %c; add.f32 %d, s, p; }") ==
        1.0f + std::ldexp(1.0f, -11));
  // A mul and an add in different blocks.
  CHECK(run32("{ .reg .f32 p; mul.f32 p, %a, %b; bra.uni L1; L1: sub.f32 %d, p, %c; }") == 0.0f);
  // A mul whose source is overwritten before the add: the fma would read the new value.
  CHECK(run32("{ .reg .f32 p, x; mov.f32 x, %a; mul.f32 p, x, %b; mov.f32 x, 0f00000000; sub.f32 %d, p, %c; "
              "add.f32 %d, %d, x; }") == 0.0f);
  // Mixed ftz, and mixed precision, are not fused.
  CHECK(run32("{ .reg .f32 p; mul.ftz.f32 p, %a, %b; sub.f32 %d, p, %c; }") == 0.0f);
  // A predicated mul under a different guard than the add.
  CHECK(run32("{ .reg .f32 p; .reg .pred t; setp.eq.f32 t, %a, %a; mov.f32 p, 0f00000000; @t mul.f32 p, %a, %b; "
              "sub.f32 %d, p, %c; }") == 0.0f);
}
