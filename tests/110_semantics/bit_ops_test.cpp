// lop3 (three-input logic by a lookup table), sad (sum of absolute differences), vabsdiff4
// with per-byte results and pmevent. The expected bits are an H200's
// (tests/750_runtime/programs/bit_ops_results.expected), so these run without nvcc.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "eval.hpp"

using semtest::eval;
using semtest::Types;

namespace {

uint64_t run(const std::string& code, const Types& t, uint64_t a, uint64_t b = 0, uint64_t c = 0) {
  return eval(code, t, {{a, b, c, 0, 0}})[0].d;
}

std::string refusal(const std::string& line) {
  return ptxtest::ptx_error(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                            ".reg .b32 %r<4>;\n.reg .b16 %h<4>;\n.reg .pred %p;\n" +
                            line + "\nret;\n}\n");
}

}  // namespace

TEST_CASE("lop3 computes any three-input function from its table", "[semantics][int]") {
  const Types t("b32", "b32", "b32", "b32");
  // On the canonical operands (0xF0, 0xCC, 0xAA) the result is the table itself.
  for (int lut : {0x00, 0x01, 0x4D, 0x80, 0x96, 0xE8, 0xFE, 0xFF}) {
    INFO(lut);
    const std::string code = "lop3.b32 %d, %a, %b, %c, " + std::to_string(lut) + ";";
    CHECK(run(code, t, 0xF0F0F0F0, 0xCCCCCCCC, 0xAAAAAAAA) == uint32_t(lut) * 0x01010101u);
  }
  CHECK(run("lop3.b32 %d, %a, %b, %c, 0x4D;", t, 0x12345678, 0xFEDCBA98, 0x0F0F3C3C) == 0xFCD8AB83);
  CHECK(run("lop3.b32 %d, %a, %b, %c, 1;", t, 0x12345678, 0xFEDCBA98, 0x0F0F3C3C) == 0x00000103);
  CHECK_THAT(refusal("lop3.b32 %r1, %r2, %r3, %r1, 256;"), Catch::Contains("t.ptx:9") &&
                                                               Catch::Contains("0 to 255"));
  CHECK_THAT(refusal("lop3.b32 %r1, %r2, %r3, %r1, %r2;"), Catch::Contains("an immediate"));
  CHECK_THAT(refusal("lop3.or.b32 %r1|%p, %r2, %r3, %r1, 0x3, %p;"), Catch::Contains("unsupported PTX"));
}

TEST_CASE("sad, vabsdiff4 per byte and pmevent as an H200 computes them", "[semantics][int]") {
  CHECK(run("sad.s16 %d, %a, %b, %c;", Types("b16", "b16", "b16", "b16"), 0x0001, 0xFFFF, 0xFFFF) == 0x0001);
  CHECK(run("sad.u16 %d, %a, %b, %c;", Types("b16", "b16", "b16", "b16"), 0x0001, 0xFFFF, 0xFFFF) == 0xFFFD);
  const Types w("b32", "b32", "b32", "b32"), q("b64", "b64", "b64", "b64");
  CHECK(run("sad.u32 %d, %a, %b, %c;", w, 0x8000, 0x80000000, 0xFFFFFFFF) == 0x7FFF7FFF);
  CHECK(run("sad.s32 %d, %a, %b, %c;", w, 0x8000, 0x80000000, 0xFFFFFFFF) == 0x80007FFF);
  CHECK(run("sad.s64 %d, %a, %b, %c;", q, 1, 0x7FFFFFFFFFFFFFFF, 0x7FFFFFFFFFFFFFFF) == 0xFFFFFFFFFFFFFFFD);
  CHECK(run("sad.u64 %d, %a, %b, %c;", q, 0x8000000000000000, 0, 0xFFFF) == 0x800000000000FFFF);
  // Per byte: signed -128 against 127 is 255; c is not added.
  CHECK(run("vabsdiff4.s32.s32.s32 %d, %a, %b, %c;", w, 0x80808080, 0x7F80FF01, 0x11223344) == 0xFF007F81);
  CHECK(run("vabsdiff4.u32.u32.u32 %d, %a, %b, %c;", w, 0xFFFFFFFF, 0x7F80FF01, 0x11223344) == 0x807F00FE);
  CHECK(run("vabsdiff4.s32.s32.s32 %d, %a, %b, %c;", w, 0x80007FFF, 0, 0x11223344) == 0x80007F01);
  CHECK(run("pmevent 3; add.u32 %d, %a, 1;", Types("b32", "b32"), 41) == 42);
  CHECK(run("pmevent.mask 0x0F; add.u32 %d, %a, 1;", Types("b32", "b32"), 41) == 42);
  CHECK_THAT(refusal("sad.b32 %r1, %r2, %r3, %r1;"), Catch::Contains("sad takes .u16"));
  CHECK_THAT(refusal("vabsdiff4.u32.u32.u32.sat %r1, %r2, %r3, %r1;"), Catch::Contains("unsupported PTX"));
}

TEST_CASE("16-bit integer pairs and min/max.relu as an H200 computes them", "[semantics][int]") {
  const Types w("b32", "b32", "b32");
  CHECK(run("add.u16x2 %d, %a, %b;", w, 0xFFFFFFFF, 0x80007FFF) == 0x7FFF7FFE);  // each half wraps
  CHECK(run("add.s16x2 %d, %a, %b;", w, 0x7FFFFFFF, 0xFFFF0001) == 0x7FFE0000);
  CHECK(run("min.u16x2 %d, %a, %b;", w, 0x7FFF8000, 0xFEDCBA98) == 0x7FFF8000);
  CHECK(run("min.s16x2 %d, %a, %b;", w, 0x7FFF8000, 0xFEDCBA98) == 0xFEDC8000);
  CHECK(run("max.u16x2 %d, %a, %b;", w, 0x80000000, 0x7FFFFFFF) == 0x8000FFFF);
  CHECK(run("max.s16x2 %d, %a, %b;", w, 0x7FFF8000, 0xFEDCBA98) == 0x7FFFBA98);
  CHECK(run("min.relu.s16x2 %d, %a, %b;", w, 0xFFFF0001, 0x12345678) == 0x00000001);
  CHECK(run("max.s16x2.relu %d, %a, %b;", w, 0x00000000, 0x00010001) == 0x00010001);  // either order
  CHECK(run("max.relu.s32 %d, %a, %b;", w, 0x80007FFF, 0x00000000) == 0);
  CHECK(run("max.relu.s32 %d, %a, %b;", w, 0x80000000, 0x7FFFFFFF) == 0x7FFFFFFF);
  CHECK(run("min.s32.relu %d, %a, %b;", w, 0x00010001, 0xFFFFFFFF) == 0);
  CHECK_THAT(refusal("sub.u16x2 %r1, %r2, %r3;"), Catch::Contains("the pairs take add, min and max"));
  CHECK_THAT(refusal("max.relu.u32 %r1, %r2, %r3;"), Catch::Contains("takes .s32 or .s16x2"));
  CHECK_THAT(refusal("min.relu.u16x2 %r1, %r2, %r3;"), Catch::Contains("takes .s32 or .s16x2"));
  CHECK_THAT(refusal(".reg .u16x2 %x;"), Catch::Contains("unsupported PTX") && Catch::Contains("registers"));
}
