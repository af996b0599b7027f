// wmma.load, wmma.store and wmma.mma as nvcc 13 writes them, decoded; the forms warpsim
// refuses, by name and line; and the fragment layout against the H100's, element by element.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

#include "isa_util.hpp"
#include "sim/isa/ptx_parser.hpp"
#include "sim/isa/wmma_layout.hpp"

using namespace warpsim::isa;
using isatest::pc_of;

namespace {

std::string kernel_with(const std::string& body) {
  return ".version 8.0\n"
         ".target sm_90\n"
         ".address_size 64\n"
         ".visible .entry k(.param .u64 p)\n"
         "{\n"
         ".reg .b32 %r<40>;\n"
         ".reg .b64 %rd<4>;\n"
         ".reg .f32 %f<40>;\n"
         ".reg .f64 %fd<8>;\n" +  // line 9
         body + "\nret;\n}\n";
}

const char* kA8 = "{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}";
const char* kB8 = "{%r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18}";
const char* kC8 = "{%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}";
const char* kD8 = "{%f11, %f12, %f13, %f14, %f15, %f16, %f17, %f18}";

}  // namespace

TEST_CASE("wmma instructions decode with shape and fragment and layout and types and registers", "[isa][wmma]") {
  const std::string text = kernel_with(
      std::string("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 ") + kA8 + ", [%rd1], %r20;\n" +
      "wmma.load.b.sync.aligned.col.m16n16k16.shared.f16 " + kB8 + ", [%r21];\n" +
      "wmma.load.c.sync.aligned.row.m16n16k16.f32 " + kC8 + ", [%rd1+64], 24;\n" +
      "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 " + kD8 + ", " + kA8 + ", " + kB8 + ", " + kC8 + ";\n" +
      "wmma.store.d.sync.aligned.col.m16n16k16.global.f32 [%rd2], " + kD8 + ", %r20;\n" +
      "wmma.load.a.sync.aligned.row.m16n16k8.tf32 {%r1, %r2, %r3, %r4}, [%rd1], %r20;\n" +
      "wmma.mma.sync.aligned.row.row.m8n8k4.f64.f64.f64.f64.rn {%fd1, %fd2}, {%fd3}, {%fd4}, {%fd5, %fd6};\n" +
      "wmma.mma.sync.aligned.row.col.m32n8k16.s32.s8.s8.s32.satfinite {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, "
      "{%r11, %r12, %r13, %r14}, {%r15}, {%r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28};");
  auto m = parse_ptx(text, "t.ptx");
  const Kernel& k = *m->kernels[0];
  const Instr& la = k.code[pc_of(k, "wmma.load.a.sync.aligned.row.m16n16k16")];
  CHECK(la.op == Op::WmmaLoad);
  CHECK(la.mma.shape == MmaShape::M16N16K16);
  CHECK(la.mma.frag == MmaFrag::A);
  CHECK_FALSE(la.mma.col);
  CHECK(la.space == Space::Global);
  CHECK(la.type == DType::F16);
  CHECK(la.d[0].nvec == 8);
  CHECK(la.b.kind == Operand::Kind::Reg);
  CHECK(la.klass == InstrClass::LdGlobal);
  const Instr& lb = k.code[pc_of(k, "wmma.load.b")];
  CHECK(lb.mma.col);
  CHECK(lb.space == Space::Shared);
  CHECK(lb.b.kind == Operand::Kind::None);  // the default stride
  CHECK(lb.klass == InstrClass::LdShared);
  const Instr& lc = k.code[pc_of(k, "wmma.load.c")];
  CHECK(lc.space == Space::Generic);
  CHECK(lc.a.offset == 64);
  CHECK(lc.b.kind == Operand::Kind::Const);
  const Instr& mma = k.code[pc_of(k, "wmma.mma.sync.aligned.row.col.m16n16k16")];
  CHECK(mma.op == Op::WmmaMma);
  CHECK(mma.klass == InstrClass::Tensor);
  CHECK(mma.mma.atype == DType::F16);
  CHECK(mma.type == DType::F32);
  CHECK(mma.stype == DType::F32);
  CHECK_FALSE(mma.mma.a_col);
  CHECK(mma.mma.b_col);
  CHECK(mma.d[0].nvec == 8);
  CHECK(mma.c.nvec == 8);
  const Instr& st = k.code[pc_of(k, "wmma.store")];
  CHECK(st.op == Op::WmmaStore);
  CHECK(st.mma.frag == MmaFrag::C);
  CHECK(st.b.nvec == 8);
  CHECK(st.c.kind == Operand::Kind::Reg);
  CHECK(st.d[0].kind == Operand::Kind::None);
  CHECK(k.code[pc_of(k, "wmma.load.a.sync.aligned.row.m16n16k8")].type == DType::TF32);
  const Instr& f64 = k.code[pc_of(k, "wmma.mma.sync.aligned.row.row.m8n8k4")];
  CHECK(f64.mma.atype == DType::F64);
  CHECK(f64.a.nvec == 1);
  CHECK(f64.d[0].nvec == 2);
  const Instr& i8 = k.code[pc_of(k, "wmma.mma.sync.aligned.row.col.m32n8k16.s32")];
  CHECK(i8.mma.atype == DType::S8);
  CHECK(i8.mma.satfinite);
  CHECK(i8.a.nvec == 4);
  CHECK(i8.b.nvec == 1);
}

TEST_CASE("wmma forms warpsim refuses name the construct and the line", "[isa][wmma][reject]") {
  struct Case {
    std::string line;
    const char* message;
  };
  const Case unsupported[] = {
      {"wmma.load.a.sync.aligned.row.m8n8k32.s4 {%r1}, [%rd1], 32;", "wmma shape .m8n8k32 (sub-byte elements)"},
      {"wmma.load.a.sync.aligned.row.m8n8k128.b1 {%r1}, [%rd1], 128;", "sub-byte"},
  };
  for (const Case& c : unsupported) {
    INFO(c.line);
    const std::string err = isatest::ptx_error(kernel_with(c.line));
    CHECK_THAT(err, Catch::StartsWith("t.ptx:10:") && Catch::Contains("unsupported PTX") && Catch::Contains(c.message));
  }
  const Case malformed[] = {
      {std::string("wmma.load.a.row.m16n16k16.f16 ") + kA8 + ", [%rd1];", "wmma needs .sync.aligned"},
      {std::string("wmma.load.a.sync.aligned.row.f16 ") + kA8 + ", [%rd1];", "wmma needs a shape"},
      {"wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1, %r2, %r3, %r4}, [%rd1];", "expected a vector of 8 registers"},
      {std::string("wmma.load.a.sync.aligned.row.m16n16k16.f32 ") + kC8 + ", [%rd1];",
       "wmma has no .a fragment of .f32 for .m16n16k16"},
      {std::string("wmma.load.d.sync.aligned.row.m16n16k16.f32 ") + kC8 + ", [%rd1];", "wmma.load loads .a, .b or .c"},
      {std::string("wmma.store.d.sync.aligned.m16n16k16.f32 [%rd1], ") + kC8 + ";", "take one layout"},
      {std::string("wmma.mma.sync.aligned.row.m16n16k16.f32.f32 ") + kD8 + ", " + kA8 + ", " + kB8 + ", " + kC8 + ";",
       "wmma.mma takes two layouts"},
      {std::string("wmma.mma.sync.aligned.row.col.m16n16k16.f32.s8.s8.f32 ") + kD8 + ", {%r1, %r2}, {%r3, %r4}, " +
           kC8 + ";",
       "wmma.mma has no form .f32.s8.s8.f32"},
      {"wmma.mma.sync.aligned.row.row.m8n8k4.f64.f64.f64.f64 {%fd1, %fd2}, {%fd3}, {%fd4}, {%fd5, %fd6};",
       "wmma.mma on .f64 needs .rn"},
      {std::string("wmma.mma.sync.aligned.row.col.m16n16k8.f32.f32 ") + kD8 + ", " + kA8 + ", " + kB8 + ", " + kC8 +
           ";",
       "wmma.mma has no .m16n16k8 form with .f16 inputs"},
  };
  for (const Case& c : malformed) {
    INFO(c.line);
    const std::string err = isatest::ptx_error(kernel_with(c.line));
    CHECK_THAT(err, Catch::StartsWith("t.ptx:10:") && Catch::Contains("parse error") && Catch::Contains(c.message));
  }
}

TEST_CASE("wmma fragments hold the matrix elements an H100 puts there for every element of every kind",
          "[isa][wmma]") {
  // docs/measurements/h100_wmma_layout.txt: tests/750_runtime/programs/wmma_layout.cu run
  // with `full` on an H100 (tools/calibration/wmma_probe.sh): per fragment kind, each lane's
  // elements as row,col.
  std::ifstream in(WARPSIM_SOURCE_DIR "/docs/measurements/h100_wmma_layout.txt");
  REQUIRE(in);
  const std::regex kind(R"(^(a|b|c) (m\w+) (\w+) (row|col)\s+elements\s+(\d+).*)");
  const std::regex lane(R"(^\s+lane\s+(\d+):(.*))");
  MmaShape shape = MmaShape::None;
  MmaFrag frag = MmaFrag::A;
  DType elem = DType::None;
  uint32_t elements = 0, kinds = 0, checked = 0;
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, kind)) {
      shape = parse_mma_shape(m[2].str());
      frag = m[1] == "a" ? MmaFrag::A : m[1] == "b" ? MmaFrag::B : MmaFrag::C;
      elem = parse_dtype(m[3].str());
      elements = static_cast<uint32_t>(std::stoul(m[5].str()));
      INFO(line);
      const auto g = fragment_geometry(shape, frag, elem);
      REQUIRE(g);
      CHECK(g->elements == elements);
      ++kinds;
    } else if (std::regex_match(line, m, lane)) {
      const uint32_t l = static_cast<uint32_t>(std::stoul(m[1].str()));
      std::istringstream pairs(m[2].str());
      std::string p;
      uint32_t e = 0;
      while (pairs >> p) {
        const auto comma = p.find(',');
        const MatrixCoord at = fragment_element(shape, frag, elem, l, e);
        INFO(mma_shape_name(shape) << " frag " << int(frag) << " " << dtype_name(elem) << " lane " << l << " element "
                                   << e);
        CHECK(at.row == std::stoul(p.substr(0, comma)));
        CHECK(at.col == std::stoul(p.substr(comma + 1)));
        ++e;
        ++checked;
      }
      CHECK(e == elements);
    }
  }
  CHECK(kinds == 54);
  CHECK(checked == 15872);
}
