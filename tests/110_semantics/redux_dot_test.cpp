// redux.sync (a warp's lanes reduced, the result to each) and the byte dot products dp4a and
// dp2a. The dot products' expected bits are an H200's
// (tests/750_runtime/programs/warp_reduce_results.expected), so these run without nvcc.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "eval.hpp"

using semtest::Case;
using semtest::eval;
using semtest::Types;

namespace {

// Runs `code` on one full warp whose lane l holds a = values[l]; returns each lane's %d.
std::vector<uint64_t> on_warp(const std::string& code, const std::vector<uint32_t>& values) {
  std::vector<Case> cases;
  for (uint32_t v : values) cases.push_back({v, 0, 0, 0, 0});
  std::vector<uint64_t> d;
  for (const auto& o : eval(code, Types("b32", "b32"), cases)) d.push_back(o.d);
  return d;
}

uint64_t dot(const std::string& code, uint64_t a, uint64_t b, uint64_t c) {
  return eval(code, Types("b32", "b32", "b32", "b32"), {{a, b, c, 0, 0}})[0].d;
}

}  // namespace

TEST_CASE("redux.sync reduces the executing lanes and gives every one the result", "[semantics][warp]") {
  std::vector<uint32_t> v(32);
  for (int l = 0; l < 32; ++l) v[l] = uint32_t(l * 0x9E3779B9u);  // both signs, no order
  v[5] = 0xFFFFFFF0u;  // -16 signed, the largest unsigned
  v[9] = 3;
  uint32_t sum = 0, x = 0, a = ~0u, o = 0, umin = ~0u, umax = 0;
  int32_t smin = INT32_MAX, smax = INT32_MIN;
  for (uint32_t e : v) {
    sum += e, x ^= e, a &= e, o |= e;
    umin = std::min(umin, e), umax = std::max(umax, e);
    smin = std::min(smin, int32_t(e)), smax = std::max(smax, int32_t(e));
  }
  auto all = [](const std::vector<uint64_t>& d, uint32_t want) {
    for (int l = 0; l < 32; ++l) CHECK(d[l] == want);
  };
  all(on_warp("redux.sync.add.u32 %d, %a, 0xffffffff;", v), sum);
  all(on_warp("redux.sync.add.s32 %d, %a, 0xffffffff;", v), sum);
  all(on_warp("redux.sync.min.u32 %d, %a, 0xffffffff;", v), umin);
  all(on_warp("redux.sync.min.s32 %d, %a, 0xffffffff;", v), uint32_t(smin));
  all(on_warp("redux.sync.max.u32 %d, %a, 0xffffffff;", v), umax);
  all(on_warp("redux.sync.max.s32 %d, %a, 0xffffffff;", v), uint32_t(smax));
  all(on_warp("redux.sync.and.b32 %d, %a, 0xffffffff;", v), a);
  all(on_warp("redux.sync.or.b32 %d, %a, 0xffffffff;", v), o);
  all(on_warp("redux.sync.xor.b32 %d, %a, 0xffffffff;", v), x);
  // In a divergent branch only the lanes that execute it count (lanes 3, 5, 9: -16 + 3 + lane 3's).
  const auto d = on_warp(
      "{ .reg .pred p; .reg .b32 lane; mov.u32 lane, %laneid; mov.u32 %d, 7;\n"
      "setp.eq.u32 p, lane, 3; @!p setp.eq.u32 p, lane, 5; @!p setp.eq.u32 p, lane, 9;\n"
      "@p redux.sync.min.s32 %d, %a, 0x228; }",
      v);
  const int32_t want = std::min({int32_t(v[3]), int32_t(v[5]), int32_t(v[9])});
  for (int l = 0; l < 32; ++l) CHECK(d[l] == (l == 3 || l == 5 || l == 9 ? uint32_t(want) : 7u));
}

TEST_CASE("dp4a and dp2a as an H200 computes them", "[semantics][warp]") {
  // a = -1 in every byte against 0x80 in every byte: 4 x 128 unsigned x unsigned, and so on.
  CHECK(dot("dp4a.u32.u32 %d, %a, %b, %c;", 0xFFFFFFFF, 0x80808080, 0x8000FFFF) == 0x8002FDFF);
  CHECK(dot("dp4a.s32.s32 %d, %a, %b, %c;", 0xFFFFFFFF, 0x80808080, 0x8000FFFF) == 0x800101FF);
  CHECK(dot("dp4a.s32.u32 %d, %a, %b, %c;", 0xFFFFFFFF, 0x80808080, 0x8000FFFF) == 0x8000FDFF);
  CHECK(dot("dp4a.u32.s32 %d, %a, %b, %c;", 0xFFFFFFFF, 0x80808080, 0x8000FFFF) == 0x7FFF01FF);
  CHECK(dot("dp2a.lo.u32.u32 %d, %a, %b, %c;", 0xFFFFFFFF, 0x80808080, 0x8000FFFF) == 0x8100FEFF);
  CHECK(dot("dp2a.hi.s32.s32 %d, %a, %b, %c;", 0xFFFFFFFF, 0x80808080, 0x8000FFFF) == 0x800100FF);
  CHECK(dot("dp2a.lo.s32.u32 %d, %a, %b, %c;", 0xFEDCBA98, 0x01FF80C3, 0x00017FFF) == 0xFFCC0FC7);
  CHECK(dot("dp2a.hi.u32.s32 %d, %a, %b, %c;", 0xFEDCBA98, 0x01FF80C3, 0x00017FFF) == 0x0001C443);
  CHECK(dot("dp4a.s32.u32 %d, %a, %b, %c;", 0xFEDCBA98, 0x01FF80C3, 0x00017FFF) == 0x0000E9E9);
  CHECK(dot("dp4a.u32.s32 %d, %a, %b, %c;", 0x80808080, 0x01FF80C3, 0x01FF80C3) == 0x01FF2243);
}

TEST_CASE("redux and the dot products refuse the forms PTX does not have", "[semantics][warp]") {
  auto refusal = [](const std::string& line) {
    return ptxtest::ptx_error(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                              ".reg .b32 %r<4>;\n.reg .b16 %h<4>;\n.reg .f32 %f<4>;\n" +
                              line + "\nret;\n}\n");
  };
  CHECK_THAT(refusal("redux.add.u32 %r1, %r2, 0xffffffff;"), Catch::Contains("t.ptx:9") &&
                                                                  Catch::Contains("redux needs .sync"));
  CHECK_THAT(refusal("redux.sync.add.b32 %r1, %r2, 0xffffffff;"), Catch::Contains("take .u32 or .s32"));
  CHECK_THAT(refusal("redux.sync.and.u32 %r1, %r2, 0xffffffff;"), Catch::Contains("and/or/xor take .b32"));
  CHECK_THAT(refusal("redux.sync.cas.b32 %r1, %r2, 0xffffffff;"), Catch::Contains("needs .add, .min"));
  CHECK_THAT(refusal("redux.sync.min.f32 %f1, %f2, 0xffffffff;"), Catch::Contains("unsupported PTX") &&
                                                                      Catch::Contains("sm_100"));
  CHECK_THAT(refusal("dp4a.u32 %r1, %r2, %r3, %r1;"), Catch::Contains("takes two types"));
  CHECK_THAT(refusal("dp4a.u32.s16 %r1, %r2, %r3, %r1;"), Catch::Contains("types are .u32 or .s32"));
  CHECK_THAT(refusal("dp2a.u32.u32 %r1, %r2, %r3, %r1;"), Catch::Contains("dp2a needs .lo or .hi"));
}
