// tex, tld4, suld and sust as nvcc 13 writes them for texture and surface objects, decoded;
// and the forms warpsim refuses, by name and line.
#include <catch2/catch.hpp>

#include "isa_util.hpp"
#include "sim/isa/ptx_parser.hpp"

using namespace warpsim::isa;
using isatest::pc_of;

namespace {

std::string kernel_with(const std::string& body) {
  return ".version 7.0\n"
         ".target sm_75\n"
         ".address_size 64\n"
         ".visible .entry k(.param .u64 p)\n"
         "{\n"
         ".reg .b16 %rs<8>;\n"
         ".reg .b32 %r<8>;\n"
         ".reg .b64 %rd<4>;\n"
         ".reg .f32 %f<16>;\n" +  // line 9
         body + "\nret;\n}\n";
}

}  // namespace

TEST_CASE("texture and surface instructions decode with geometry, types and operands", "[isa][texture]") {
  const std::string text = kernel_with(
      "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];\n"
      "tex.2d.v4.u32.f32 {%r2, %r3, %r4, %r5}, [%rd1, {%f1, %f2}];\n"
      "tex.a2d.v4.f32.f32 {%f8, %f9, %f10, %f11}, [%rd1, {%r2, %f1, %f3, %f3}];\n"
      "tex.cube.v4.f32.f32 {%f8, %f9, %f10, %f11}, [%rd1, {%f3, %f4, %f5, %f5}];\n"
      "tex.level.2d.v4.f32.f32 {%f8, %f9, %f10, %f11}, [%rd1, {%f1, %f3}], %f14;\n"
      "tld4.g.2d.v4.f32.f32 {%f8, %f9, %f10, %f11}, [%rd1, {%f1, %f3}];\n"
      "suld.b.2d.b32.clamp {%r5}, [%rd1, {%r2, %r4}];\n"
      "suld.b.1d.v4.b8.zero {%rs1, %rs2, %rs3, %rs4}, [%rd1, {%r2}];\n"
      "sust.b.3d.v2.b16.trap [%rd1, {%r2, %r4, %r3, %r3}], {%rs1, %rs2};\n"
      "sust.b.a2d.b32.trap [%rd1, {%r2, %r4, %r3, %r3}], {%r6};");
  auto m = parse_ptx(text, "t.ptx");
  const Kernel& k = *m->kernels[0];
  const Instr& fetch = k.code[pc_of(k, "tex.1d")];
  CHECK(fetch.op == Op::Tex);
  CHECK(fetch.geom == TexGeom::D1);
  CHECK(fetch.type == DType::F32);
  CHECK(fetch.stype == DType::S32);
  CHECK(fetch.d[0].nvec == 4);
  CHECK(fetch.a.kind == Operand::Kind::Reg);
  CHECK(fetch.b.nvec == 1);
  CHECK(fetch.klass == InstrClass::LdGlobal);
  CHECK(k.code[pc_of(k, "tex.2d")].type == DType::U32);
  CHECK(k.code[pc_of(k, "tex.a2d")].geom == TexGeom::A2D);
  CHECK(k.code[pc_of(k, "tex.a2d")].b.nvec == 4);
  CHECK(k.code[pc_of(k, "tex.cube")].geom == TexGeom::Cube);
  CHECK(k.code[pc_of(k, "tex.level")].c.kind == Operand::Kind::Reg);  // the level is read
  const Instr& g = k.code[pc_of(k, "tld4")];
  CHECK(g.op == Op::Tld4);
  CHECK(g.tex_mode == 1);  // .g
  const Instr& ld = k.code[pc_of(k, "suld.b.2d")];
  CHECK(ld.op == Op::Suld);
  CHECK(ld.tex_mode == uint8_t(SurfClamp::Clamp));
  CHECK(ld.d[0].nvec == 1);
  CHECK(k.code[pc_of(k, "suld.b.1d")].vec == 4);
  CHECK(k.code[pc_of(k, "suld.b.1d")].type == DType::B8);
  const Instr& st = k.code[pc_of(k, "sust.b.3d")];
  CHECK(st.op == Op::Sust);
  CHECK(st.klass == InstrClass::StGlobal);
  CHECK(st.c.nvec == 2);
  CHECK(st.d[0].kind == Operand::Kind::None);
  CHECK(k.code[pc_of(k, "sust.b.a2d")].geom == TexGeom::A2D);
}

TEST_CASE("texture forms warpsim refuses name the construct and the line", "[isa][texture][reject]") {
  struct Case {
    const char* line;
    const char* message;
  };
  const Case cases[] = {
      {"tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [tex0, {%f0, %f1}];", "texture/surface references were removed"},
      {"tex.2dms.v4.s32.s32 {%r0, %r1, %r2, %r3}, [%rd1, {%r0, %r1, %r2, %r3}];", "multisample"},
      {"sust.p.2d.b32.trap [%rd1, {%r2, %r4}], {%r6};", "formatted surface access"},
      {"tld4.r.3d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f0, %f1, %f2, %f2}];", "tld4 on a geometry other than"},
      {"tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f0, %f1}], %f4;", "texel offsets or depth compare"},
      {"tex.2d.v4.f16.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f0, %f1}];", "tex returning .f16"},
  };
  for (const Case& c : cases) {
    INFO(c.line);
    const std::string err = isatest::ptx_error(kernel_with(c.line));
    CHECK_THAT(err, Catch::StartsWith("t.ptx:10:") && Catch::Contains("unsupported PTX") &&
                        Catch::Contains(c.message));
  }
  const Case malformed[] = {
      {"tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f0}];", "this geometry takes 2 coordinates"},
      {"tex.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f0}];", "tex needs a geometry"},
      {"tex.2d.v4.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f0, %f1}];", "needs a result type and a coordinate type"},
      {"tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1];", "takes [object, {coordinates}]"},
      {"suld.2d.b32.trap {%r1}, [%rd1, {%r2, %r3}];", "suld needs .b"},
      {"sust.b.2d.u32.trap [%rd1, {%r2, %r4}], {%r6};", "sust.b takes .b8, .b16, .b32 or .b64"},
      {"tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, %f0];", "expected '{' (texture/surface coordinates)"},
  };
  for (const Case& c : malformed) {
    INFO(c.line);
    const std::string err = isatest::ptx_error(kernel_with(c.line));
    CHECK_THAT(err, Catch::StartsWith("t.ptx:10:") && Catch::Contains("parse error") && Catch::Contains(c.message));
  }
}
