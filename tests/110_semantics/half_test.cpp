// Half precision: .f16 and .f16x2 arithmetic (round to nearest even, .ftz, .sat) on .b16
// and .b32 registers, conversions between .f16/.bf16 and .f32/.f64 at edge values
// (subnormals, ties, overflow to infinity, NaN), and the nvcc idiom of packing halves
// with mov.b32 {lo, hi}.
#include <catch2/catch.hpp>

#include "eval.hpp"

using semtest::eval;
using semtest::Types;

namespace {

uint64_t f32(float f) { return std::bit_cast<uint32_t>(f); }
uint64_t f64(double d) { return std::bit_cast<uint64_t>(d); }

}  // namespace

TEST_CASE("half: f32 to f16 rounds to nearest even, with subnormals, overflow and NaN", "[semantics][half]") {
  const std::vector<std::pair<float, uint16_t>> cases = {
      {1.0f, 0x3C00},           {-2.0f, 0xC000},          {65504.0f, 0x7BFF},  // largest half
      {65520.0f, 0x7C00},        // halfway to the next binade: rounds up to infinity
      {65519.0f, 0x7BFF},        {1e10f, 0x7C00},          {-1e10f, 0xFC00},
      {0x1p-24f, 0x0001},        // smallest subnormal
      {0x1p-25f, 0x0000},        // exactly half of it: ties to even (0)
      {0x1.8p-25f, 0x0001},      // above the tie
      {0x3p-25f, 0x0002},        // 1.5 ulp of a subnormal: tie, to even (2)
      {0x1p-14f, 0x0400},        // smallest normal
      {1.0f + 0x1p-11f, 0x3C00}, // tie between 1 and 1+2^-10: even (1)
      {1.0f + 0x3p-11f, 0x3C02}, // tie between 1+2^-10 and 1+2^-9: even
      {-0.0f, 0x8000},           {INFINITY, 0x7C00},
  };
  std::vector<semtest::Case> in;
  for (auto& [f, h] : cases) in.push_back({f32(f), 0, 0, 0, 0});
  auto out = eval("cvt.rn.f16.f32 %d, %a;", Types("b16", "f32"), in);
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO(cases[i].first);
    CHECK(out[i].d == cases[i].second);
  }
  auto nan = eval("cvt.rn.f16.f32 %d, %a;", Types("b16", "f32"), {{f32(NAN), 0, 0, 0, 0}});
  CHECK((nan[0].d & 0x7C00) == 0x7C00);
  CHECK((nan[0].d & 0x3FF) != 0);
}

TEST_CASE("half: f16 to f32 and f64 is exact, bf16 both ways", "[semantics][half]") {
  auto out = eval("cvt.f32.f16 %d, %a;", Types("f32", "b16"),
                  {{0x3C00, 0, 0, 0, 0}, {0x0001, 0, 0, 0, 0}, {0x7BFF, 0, 0, 0, 0}, {0xFC00, 0, 0, 0, 0},
                   {0x8000, 0, 0, 0, 0}, {0x3555, 0, 0, 0, 0}});
  CHECK(out[0].d == f32(1.0f));
  CHECK(out[1].d == f32(0x1p-24f));
  CHECK(out[2].d == f32(65504.0f));
  CHECK(out[3].d == f32(-INFINITY));
  CHECK(out[4].d == f32(-0.0f));
  CHECK(out[5].d == f32(0x1.554p-2f));
  auto d = eval("cvt.f64.f16 %d, %a;", Types("f64", "b16"), {{0x0200, 0, 0, 0, 0}});
  CHECK(d[0].d == f64(0x1p-15));
  auto b = eval("cvt.rn.bf16.f32 %d, %a;", Types("b16", "f32"),
                {{f32(1.0f), 0, 0, 0, 0}, {f32(1.0f + 0x1p-8f), 0, 0, 0, 0}, {f32(1.0f + 0x3p-8f), 0, 0, 0, 0},
                 {f32(-3.0f), 0, 0, 0, 0}});
  CHECK(b[0].d == 0x3F80);
  CHECK(b[1].d == 0x3F80);  // tie: to even
  CHECK(b[2].d == 0x3F82);  // tie: to even (up)
  CHECK(b[3].d == 0xC040);
  auto bf = eval("cvt.f32.bf16 %d, %a;", Types("f32", "b16"), {{0x4049, 0, 0, 0, 0}});
  CHECK(bf[0].d == f32(3.140625f));
}

TEST_CASE("half: add, sub, mul, fma, min, max, neg, abs on .f16", "[semantics][half]") {
  // 1 + 2^-11 is not a half: 1 + 2^-10 + 2^-11 (from fma) is a tie and rounds to even.
  const semtest::Case c = {0x3C00 /*1*/, 0x4000 /*2*/, 0x3E00 /*1.5*/, 0, 0};
  CHECK(eval("add.rn.f16 %d, %a, %b;", Types("b16", "b16", "b16"), {c})[0].d == 0x4200);   // 3
  CHECK(eval("sub.f16 %d, %a, %b;", Types("b16", "b16", "b16"), {c})[0].d == 0xBC00);      // -1
  CHECK(eval("mul.f16 %d, %b, %c;", Types("b16", "b16", "b16", "b16"), {c})[0].d == 0x4200);  // 3
  CHECK(eval("fma.rn.f16 %d, %a, %b, %c;", Types("b16", "b16", "b16", "b16"), {c})[0].d == 0x4300);  // 3.5
  CHECK(eval("min.f16 %d, %a, %b;", Types("b16", "b16", "b16"), {c})[0].d == 0x3C00);
  CHECK(eval("max.f16 %d, %a, %b;", Types("b16", "b16", "b16"), {c})[0].d == 0x4000);
  CHECK(eval("neg.f16 %d, %a;", Types("b16", "b16"), {c})[0].d == 0xBC00);
  CHECK(eval("abs.f16 %d, %a;", Types("b16", "b16"), {{0xBC00, 0, 0, 0, 0}})[0].d == 0x3C00);
  // Products that overflow become infinity; .sat clamps to [0, 1]; .ftz flushes subnormals.
  CHECK(eval("mul.f16 %d, %a, %b;", Types("b16", "b16", "b16"), {{0x7BFF, 0x4000, 0, 0, 0}})[0].d == 0x7C00);
  CHECK(eval("fma.rn.sat.f16 %d, %a, %b, %c;", Types("b16", "b16", "b16", "b16"), {c})[0].d == 0x3C00);
  CHECK(eval("mul.f16 %d, %a, %b;", Types("b16", "b16", "b16"), {{0x0400, 0x3800, 0, 0, 0}})[0].d == 0x0200);
  CHECK(eval("mul.ftz.f16 %d, %a, %b;", Types("b16", "b16", "b16"), {{0x0400, 0x3800, 0, 0, 0}})[0].d == 0x0000);
}

TEST_CASE("half: .f16x2 works on both halves, halves pack with mov.b32 {lo, hi}", "[semantics][half]") {
  // a = {1, 2}, b = {1.5, -4}: low half first.
  const semtest::Case c = {0x40003C00, 0xC4003E00, 0x3C003C00, 0, 0};
  CHECK(eval("add.f16x2 %d, %a, %b;", Types("b32", "b32", "b32"), {c})[0].d == 0xC0004100);  // {2.5, -2}
  CHECK(eval("mul.f16x2 %d, %a, %b;", Types("b32", "b32", "b32"), {c})[0].d == 0xC8003E00);  // {1.5, -8}
  CHECK(eval("fma.rn.f16x2 %d, %a, %b, %c;", Types("b32", "b32", "b32", "b32"), {c})[0].d == 0xC7004100);  // {2.5, -7}
  CHECK(eval("neg.f16x2 %d, %a;", Types("b32", "b32"), {c})[0].d == 0xC000BC00);
  auto packed = eval("{.reg .f16 low;\n cvt.rn.f16.f32 low, %a;\n mov.b32 %d, {low,low};}", Types("b32", "f32"),
                     {{f32(0.5f), 0, 0, 0, 0}});
  CHECK(packed[0].d == 0x38003800);
  auto high = eval("{.reg .f16 low,high;\n mov.b32 {low,high},%a;\n cvt.f32.f16 %d, high;}", Types("f32", "b32"),
                   {{0x4200BC00, 0, 0, 0, 0}});
  CHECK(high[0].d == f32(3.0f));
}

TEST_CASE("half: bf16 arithmetic rounds once, min/max order -0 below +0, NaNs are canonical", "[semantics][half]") {
  // The H200's results (tests/750_runtime/programs/bf16_results.expected), without nvcc.
  const uint64_t q = 0x7FC5, nq = 0xFFC7, one = 0x3F80, h8 = 0x3B80, x1625 = 0x3F88;
  auto op = [](const char* code, uint64_t a, uint64_t b, uint64_t c = 0) {
    return eval(code, Types("b16", "b16", "b16", "b16"), {{a, b, c, 0, 0}})[0].d;
  };
  CHECK(op("add.bf16 %d, %a, %b;", one, h8) == 0x3F80);     // 1 + 2^-8: a tie, to even
  CHECK(op("add.bf16 %d, %a, %b;", 0x3F81, h8) == 0x3F82);  // the other tie, to even
  CHECK(op("add.bf16 %d, %a, %b;", 0x7F7F, 0x7F7F) == 0x7F80);  // overflow
  CHECK(op("add.bf16 %d, %a, %b;", 1, 1) == 2);              // subnormals kept
  CHECK(op("mul.bf16 %d, %a, %b;", 1, 1) == 0);              // underflow
  CHECK(op("sub.bf16 %d, %a, %b;", 0x8000, 0) == 0x8000);
  CHECK(op("add.bf16 %d, %a, %b;", q, one) == 0x7FFF);
  CHECK(op("mul.bf16 %d, %a, %b;", 0x7F80, 0) == 0x7FFF);
  // 1.0625^2 is a tie between two bf16; a tiny addend either side decides it (one rounding).
  CHECK(op("fma.rn.bf16 %d, %a, %b, %c;", x1625, x1625, 0x0D80) == 0x3F91);
  CHECK(op("fma.rn.bf16 %d, %a, %b, %c;", x1625, x1625, 0x8D80) == 0x3F90);
  CHECK(op("fma.rn.bf16 %d, %a, %b, %c;", x1625, x1625, 0) == 0x3F90);
  CHECK(op("fma.rn.bf16 %d, %a, %b, %c;", 0x7F80, 0, one) == 0x7FFF);
  CHECK(op("min.bf16 %d, %a, %b;", 0, 0x8000) == 0x8000);
  CHECK(op("max.bf16 %d, %a, %b;", 0x8000, 0) == 0);
  CHECK(op("min.bf16 %d, %a, %b;", q, one) == one);
  CHECK(op("max.bf16 %d, %a, %b;", one, nq) == one);
  CHECK(op("min.bf16 %d, %a, %b;", q, nq) == 0x7FFF);
  CHECK(eval("neg.bf16 %d, %a;", Types("b16", "b16"), {{nq, 0, 0, 0, 0}})[0].d == 0x7FFF);
  CHECK(eval("abs.bf16 %d, %a;", Types("b16", "b16"), {{0xBF80, 0, 0, 0, 0}})[0].d == 0x3F80);
  // f64 -> bf16: ties to even, one rounding, a NaN keeps its sign only; back: exact.
  auto to_bf16 = [](uint64_t x) { return eval("cvt.rn.bf16.f64 %d, %a;", Types("b16", "f64"), {{x, 0, 0, 0, 0}})[0].d; };
  CHECK(to_bf16(0x3FF0100000000000ull) == 0x3F80);
  CHECK(to_bf16(0x3FF0100000000001ull) == 0x3F81);
  CHECK(to_bf16(0xFFF8000000000007ull) == 0xFFC0);
  CHECK(to_bf16(0x47F0000000000000ull) == 0x7F80);
  CHECK(eval("cvt.f64.bf16 %d, %a;", Types("f64", "b16"), {{0xFFC7, 0, 0, 0, 0}})[0].d == 0xFFF8E00000000000ull);
}

TEST_CASE("half: integers to bf16 round once, as an H200 rounds them", "[semantics][half]") {
  // The H200's results (tests/750_runtime/programs/bf16_results.expected), without nvcc.
  auto cvt = [](const char* from, uint64_t x) {
    const std::string text = std::string("cvt.rn.bf16.") + from + " %d, %a;";
    return eval(text, Types("b16", from), {{x, 0, 0, 0, 0}})[0].d;
  };
  // 2^24 + 2^16 + 1: past a bf16 tie by one, which a float would round to the tie.
  CHECK(cvt("s32", 0x01010001) == 0x4B81);
  CHECK(cvt("u32", 0x01010001) == 0x4B81);
  CHECK(cvt("s32", 0x01010000) == 0x4B80);  // the tie, to even
  CHECK(cvt("s32", 0x01030000) == 0x4B82);  // the other tie, to even
  CHECK(cvt("s32", 0x80000000) == 0xCF00);
  CHECK(cvt("u32", 0x80000000) == 0x4F00);
  CHECK(cvt("s32", 0xFEFEFFFF) == 0xCB81);
  CHECK(cvt("u32", 0xFFFFFFFF) == 0x4F80);  // rounds up to 2^32
  CHECK(cvt("s32", 0xFFFFFFFF) == 0xBF80);
  // 2^60 + 2^52 + 1: a double would round it to the tie.
  CHECK(cvt("s64", 0x1010000000000001ull) == 0x5D81);
  CHECK(cvt("u64", 0x1010000000000001ull) == 0x5D81);
  CHECK(cvt("u64", 0x1010000000000000ull) == 0x5D80);
  CHECK(cvt("s64", 0x8000000000000000ull) == 0xDF00);
  CHECK(cvt("u64", 0xFFFFFFFFFFFFFFFFull) == 0x5F80);
  CHECK(cvt("s64", 0xFEFEFFFFFFFFFFFFull) == 0xDB81);
  CHECK(cvt("s16", 0xFE7F) == 0xC3C0);
  CHECK(cvt("u16", 0xFE7F) == 0x477E);
}

TEST_CASE("half: setp on .f16 and .bf16, ordered and unordered", "[semantics][half]") {
  auto setp = [](const std::string& cmp, const char* type, uint64_t a, uint64_t b) {
    return eval("setp." + cmp + "." + type + " %q, %a, %b;", Types("", "b16", "b16"), {{a, b, 0, 0, 0}})[0].q;
  };
  for (const char* t : {"f16", "bf16"}) {
    const bool bf = std::string(t) == "bf16";
    const uint64_t one = bf ? 0x3F80 : 0x3C00, two = 0x4000, q = bf ? 0x7FC5 : 0x7E05;  // 2 is 0x4000 in both
    INFO(t);
    CHECK(setp("lt", t, one, two));
    CHECK(!setp("lt", t, two, one));
    CHECK(setp("eq", t, 0, 0x8000));  // +0 == -0
    CHECK(!setp("lt", t, q, one));
    CHECK(setp("ltu", t, q, one));
    CHECK(!setp("ne", t, one, q));
    CHECK(setp("neu", t, one, q));
    CHECK(setp("nan", t, one, q));
    CHECK(!setp("num", t, q, q));
    CHECK(setp("ge", t, one, one));
  }
  // f16 .ftz: a subnormal compares as zero.
  CHECK(setp("eq.ftz", "f16", 0x0001, 0));
  CHECK(!setp("eq", "f16", 0x0001, 0));
}
