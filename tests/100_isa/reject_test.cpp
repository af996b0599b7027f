// Rejected inputs: constructs outside the subset say "file:line: unsupported PTX: <line>"
// and malformed text says "file:line:col: parse error: ..." at the offending token.
#include <catch2/catch.hpp>

#include "isa_util.hpp"
#include "sim/isa/ptx_parser.hpp"

using isatest::col_of;
using isatest::line_of;
using isatest::ptx_error;

namespace {

// A kernel whose body line 10 is `line`.
std::string kernel_with(const std::string& line) {
  return ".version 7.0\n"            // 1
         ".target sm_75\n"           // 2
         ".address_size 64\n"        // 3
         ".visible .entry k(.param .u64 p)\n"  // 4
         "{\n"                       // 5
         ".reg .b32 %r<4>;\n"        // 6
         ".reg .b64 %rd<4>;\n"       // 7
         ".reg .pred %p<2>;\n"       // 8
         ".reg .f32 %f<4>;\n"        // 9
         "\t" + line + "\n"          // 10
         "ret;\n"
         "}\n";
}

// A module whose line 4 is `line`, followed by a trivial kernel.
std::string module_with(const std::string& line) {
  return ".version 7.0\n.target sm_75\n.address_size 64\n" + line + "\n.entry k()\n{\nret;\n}\n";
}

void check_unsupported(const std::string& text, uint32_t line, const std::string& shown, const std::string& why) {
  std::string msg = ptx_error(text);
  INFO(msg);
  std::string head = "t.ptx:" + std::to_string(line) + ": unsupported PTX: " + shown;
  REQUIRE(msg.rfind(head, 0) == 0);
  std::string rest = msg.substr(head.size());
  if (why.empty()) {
    CHECK((rest.empty() || rest.rfind("  (", 0) == 0));
  } else {
    CHECK(rest.rfind("  (", 0) == 0);
    CHECK(rest.find(why) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("unsupported instructions and modifiers name the line and its text", "[isa][reject]") {
  struct Case {
    const char* line;
    const char* why;
  };
  const Case cases[] = {
      {"mul.lo.cc.u32 %r1, %r2, %r3;", "carry"},
      {"mul24.lo.cc.u32 %r1, %r2, %r3;", "carry"},
      {"vadd4.u32.u32.u32 %r1, %r2, %r3, %r1;", "vadd4"},
      {"prmt.b32.f4e %r1, %r2, %r3, %r1;", "prmt"},
      {"szext.clamp.s32 %r1, %r2, %r3;", "szext"},
      {"redux.sync.min.f32 %f1, %f2, 0xffffffff;", "redux.sync on .f32 (sm_100)"},
      {"nanosleep.u64 100;", "nanosleep other than nanosleep.u32"},
      {"griddepcontrol.arrive;", "modifier .arrive on griddepcontrol"},
      {"bmsk.b32 %r1, %r2, %r3;", "bmsk other than"},
      {"brkpt;", "brkpt"},
      {"setp.eq.tf32 %p1, %r1, %r2;", "setp on .tf32"},
      {"testp.finite.f32 %p1, %f1;", ""},
      {"sqrt.approx.f16 %r1, %r2;", "sqrt on .f16"},
      {"cvt.rm.f16.f32 %r1, %f1;", "cvt on .f16.f32"},
      {"cvt.rs.relu.satfinite.bf16x2.f32 %r1, %f1, %f2, %r2;", "modifier .rs on cvt"},
      {"cvt.rm.bf16x2.f32 %r1, %f1, %f2;", "cvt on .bf16x2.f32"},
      {"cvt.rn.satfinite.e2m1x2.f32 %r1, %f1, %f2;", "modifier .e2m1x2 on cvt"},
      {"cvt.rn.relu.tf32.f32 %r1, %f1;", "sm_100"},
      {"st.param.b32 [p], %r1;", "param"},
      {"cvta.param.u64 %rd1, %rd2;", "param"},
      {"bar.arrive 0;", ""},
      {"bar.sync 1;", "named barriers"},
      {"bar.sync 0, 64;", "thread count"},
      {"bar.red.popc.u32 %r1, 1, %p1;", "named barriers"},
      {"bar.red.popc.u32 %r1, 0, %p1, 64;", "thread count"},
      {"setp.eq.pred %p1, %p0, %p1;", "predicates"},
      {"add.u32 %r1, %clock, 1;", "%clock"},
      {"fence.proxy.async;", ""},
      {"mul.lo.u8 %r1, %r2, %r3;", "mul on .u8"},
      {"popc.b16 %r1, %r2;", "popc on .b16"},
      {"abs.u32 %r1, %r2;", "abs on .u32"},
      {"cvt.u32.f32 %r1, %f1;", "cvt"},
      {"cvt.rn.u32.s32 %r1, %r2;", "cvt"},
      {"ld.global.u32 %r1, [p];", "parameter"},
      {"tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [tex0, {%f0, %f1}];", "tex"},
      {"call.uni %rd1, (%r1);", "indirect call without a .callprototype"},
      {"call.ftz f, (%r1);", "modifier .ftz on call"},
      {"wmma.load.a.sync.aligned.row.m8n8k32.s4 {%r0}, [%rd1], %r2;", "wmma shape .m8n8k32 (sub-byte elements)"},
      {"atom.global.add.u16 %r1, [%rd1], %r2;", "atom"},
      {"atom.global.and.f32 %f1, [%rd1], %f2;", "atom"},
      {"red.global.inc.s32 [%rd1], %r2;", "red"},
  };
  for (const Case& c : cases) {
    INFO(c.line);
    check_unsupported(kernel_with(c.line), 10, c.line, c.why);
  }
}

TEST_CASE("unsupported declarations inside a kernel", "[isa][reject]") {
  check_unsupported(kernel_with(".reg .e4m3x2 %h<2>;"), 10, ".reg .e4m3x2 %h<2>;", ".e4m3x2 registers");
  check_unsupported(kernel_with(".reg .v4 .f32 %v;"), 10, ".reg .v4 .f32 %v;", "vector");
  check_unsupported(kernel_with(".shared .v4 .f32 sv[4];"), 10, ".shared .v4 .f32 sv[4];", "vector");
  check_unsupported(kernel_with(".shared .align 4 .b8 init[4] = {1, 2, 3, 4};"), 10,
                    ".shared .align 4 .b8 init[4] = {1, 2, 3, 4};", "initialised");
  check_unsupported(kernel_with(".param .f16 param0;"), 10, ".param .f16 param0;", "half");
  check_unsupported(kernel_with(".global .u32 g;"), 10, ".global .u32 g;", "global");
  check_unsupported(kernel_with(".const .u32 c;"), 10, ".const .u32 c;", "const");
  check_unsupported(kernel_with(".shared .pred sp;"), 10, ".shared .pred sp;", "variable type");
  check_unsupported(kernel_with(".surfref s;"), 10, ".surfref s;", "");
}

TEST_CASE("unsupported module-level constructs", "[isa][reject]") {
  check_unsupported(".version 7.0\n.target sm_75\n.address_size 32\n.entry k()\n{\nret;\n}\n", 3, ".address_size 32",
                    "64-bit");
  check_unsupported(module_with(".extern .global .align 4 .u32 gvar;"), 4, ".extern .global .align 4 .u32 gvar;",
                    "separate compilation");
  check_unsupported(module_with(".global .v4 .f32 gv[2];"), 4, ".global .v4 .f32 gv[2];", "vector");
  check_unsupported(module_with(".global .align 8 .u32 pt[2] = {generic(nowhere)};"), 4,
                    ".global .align 8 .u32 pt[2] = {generic(nowhere)};", "narrower");
  check_unsupported(module_with(".global .align 8 .u64 pt[2] = {generic(nowhere)};"), 4,
                    ".global .align 8 .u64 pt[2] = {generic(nowhere)};", "not an earlier");
  check_unsupported(module_with(".func (.param .b32 r) helper(.reg .b32 x)\n{\nret;\n}"), 4,
                    ".func (.param .b32 r) helper(.reg .b32 x)", "register parameters");
  check_unsupported(module_with(".func helper() .attribute(.unified)\n{\nret;\n}"), 4,
                    ".func helper() .attribute(.unified)", "function attribute .attribute");
  check_unsupported(module_with(".global .texref tex;"), 4, ".global .texref tex;", "");
  check_unsupported(module_with(".shared .align 4 .b8 init[4] = {1, 2, 3, 4};"), 4,
                    ".shared .align 4 .b8 init[4] = {1, 2, 3, 4};", "initialised");
  // Kernel header attributes.
  check_unsupported(".version 7.0\n.target sm_75\n.address_size 64\n.entry k(.param .f16 h)\n{\nret;\n}\n", 4,
                    ".entry k(.param .f16 h)", "half");
  check_unsupported(".version 7.0\n.target sm_75\n.address_size 64\n.entry k(.param .pred q)\n{\nret;\n}\n", 4,
                    ".entry k(.param .pred q)", "parameter type");
  check_unsupported(".version 7.0\n.target sm_75\n.address_size 64\n.entry k()\n.blocksareclusters\n{\nret;\n}\n", 5,
                    ".blocksareclusters", "kernel directive");
}

TEST_CASE("the unsupported line is the instruction's own line in a multi-line statement", "[isa][reject]") {
  // The opcode's line is reported, with that line's text.
  std::string text = kernel_with("mov.u32 %r1, 1;") ;
  text.replace(text.find("ret;"), 4, "mul.lo.cc.u32\n %r1,\n %r2, %r3;\nret;");
  check_unsupported(text, 11, "mul.lo.cc.u32", "carry");
}

TEST_CASE("malformed input: file:line:col: parse error at the offending token", "[isa][reject]") {
  struct Case {
    std::string body;    // kernel body line 10
    std::string at;      // text at the reported position (first occurrence from line 10 on)
    std::string message;
  };
  const Case cases[] = {
      {"add.s32 %r1, %r2, %r3\nadd.s32 %r1, %r1, 1;", "add.s32 %r1, %r1, 1", "expected ';', got 'add.s32'"},
      {"add.s32 %r1, %r9, 1;", "%r9", "undeclared register '%r9'"},
      {"bra NOWHERE;", "NOWHERE", "undefined label 'NOWHERE'"},
      {"L1: mov.u32 %r1, 1;\nL1: mov.u32 %r1, 2;", "L1: mov.u32 %r1, 2", "duplicate label 'L1'"},
      {".reg .b32 %r1;", "%r1;", "duplicate register '%r1'"},
      {"add.s32 %r1, %r2;", "add.s32", "add takes 3 operands, 2 given"},
      {"add.s32 %r1, %r2, #3;", "#3", "unexpected character '#'"},
      {"mov.f32 %f1, 0f3F80;", "0f3F80", "malformed 0f literal: expected 8 hex digits"},
      {"mov.f64 %rd1, 0d3FF00000;", "0d3FF0", "malformed 0d literal: expected 16 hex digits"},
      {"mov.u32 %r1, 12abc;", "12abc", "malformed number '12a'"},
      {".pragma \"nounroll;", "\"nounroll", "unterminated string"},
      {"add.s32 %r1, %p1, 1;", "%p1, 1", "predicate '%p1' used as a data operand"},
      {"@%r1 bra L;\nL: ret;", "%r1 bra", "'%r1' is not a predicate register"},
      {"bra %r1;", "%r1;", "branch target must be a label"},
      {"ld.global.u32 %r1, [%rd1;", ";", "expected ']', got ';'"},
      {"ld.global.u32 %r1, [%rd1+];", "];", "expected an offset, got ']'"},
      {"mov.u32 %tid.x, 1;", "%tid.x", "special register '%tid.x' is read-only"},
      {"ld.global.u32 %r1, %rd1;", "%rd1;", "expected an address [..]"},
      {"mov.u64 %rd1, 99999999999999999999;", "99999", "integer literal out of range"},
      {"ld.global.v4.u32 {%r1, %r2, %r3}, [%rd1];", "{", "vector operands have 1, 2, 4 or 8 elements"},
      {"ld.global.v4.u32 {%r1, %r2}, [%rd1];", "{", "expected a vector of 4 registers"},
      {"setp.s32 %p1, %r1, %r2;", "setp.s32", "setp needs a comparison operator"},
      {"ld.shared.u32 %r1, [nosuch];", "[nosuch", "undeclared symbol 'nosuch'"},
      {"mul.s32 %r1, %r2, %r3;", "mul.s32", "integer mul needs .lo, .hi or .wide"},
      {".shared .b8 unsized[];", "unsized", "unsized array must be .extern"},
      {".shared .align 3 .b8 x[4];", ".align", "alignment must be a power of two"},
      {"mov.u32 %r1 %r2;", "%r2;", "expected ';', got '%r2'"},
      {"ld.global.u32 %r1, [%rd1], 4;", "ld.global", "ld takes 2 operands, 3 given"},
      {"add.s32.u32 %r1, %r2, %r3;", "add.s32.u32", "add needs exactly one type"},
      {"setp.eq.s32 %p1, %r1, %r2, %p0;", "setp.eq.s32", "a third setp source needs .and, .or or .xor"},
      {"shfl.sync.b32 %r1, %r2, 1, 31, -1;", "shfl.sync.b32", "shfl needs .up, .down, .bfly or .idx"},
      {"selp.b32 %r1, %r2, %r3, %r1;", "%r1;", "'%r1' is not a predicate register"},
  };
  for (const Case& c : cases) {
    std::string text = kernel_with(c.body);
    size_t from = text.find(c.body);
    size_t at = text.find(c.at, from);
    REQUIRE(at != std::string::npos);
    uint32_t line = 1;
    for (size_t i = 0; i < at; ++i) line += text[i] == '\n';
    uint32_t col = static_cast<uint32_t>(at - text.rfind('\n', at));
    std::string expected = "t.ptx:" + std::to_string(line) + ":" + std::to_string(col) + ": parse error: " + c.message;
    INFO(c.body);
    CHECK(ptx_error(text) == expected);
  }
}

namespace {
// "t.ptx:L:C: parse error: msg" with L:C the position of the n-th (1-based) `needle`.
std::string error_at(const std::string& text, const std::string& needle, int nth, const std::string& msg) {
  size_t at = std::string::npos;
  for (int i = 0; i < nth; ++i) {
    at = text.find(needle, at == std::string::npos ? 0 : at + 1);
    REQUIRE(at != std::string::npos);
  }
  uint32_t line = 1;
  for (size_t i = 0; i < at; ++i) line += text[i] == '\n';
  size_t nl = text.rfind('\n', at);
  uint32_t col = static_cast<uint32_t>(nl == std::string::npos ? at + 1 : at - nl);
  return "t.ptx:" + std::to_string(line) + ":" + std::to_string(col) + ": parse error: " + msg;
}
}  // namespace

TEST_CASE("malformed module structure", "[isa][reject]") {
  CHECK(ptx_error(".target sm_75\n.address_size 64\n.entry k()\n{\nret;\n}\n") ==
        "t.ptx:1:1: parse error: missing .version directive");
  CHECK(ptx_error(".version 7.0\n.address_size 64\n.entry k()\n{\nret;\n}\n") ==
        "t.ptx:1:1: parse error: missing .target directive");
  CHECK(ptx_error(isatest::module(".entry k()\n{\nret;\n")) ==
        "t.ptx:7:1: parse error: kernel 'k' is missing its closing '}'");
  std::string t;
  t = isatest::module(".entry k()\n{\n}\n.entry k2()\n{\nret;\n}\n");
  CHECK(ptx_error(t) == error_at(t, "k()", 1, "kernel 'k' has no instructions"));
  t = isatest::module(".entry k()\n{\nret;\n}\n.entry k()\n{\nret;\n}\n");
  CHECK(ptx_error(t) == error_at(t, "k()", 2, "duplicate kernel 'k'"));
  t = isatest::module("add.s32 %r1, %r2, %r3;\n");
  CHECK(ptx_error(t) == error_at(t, "add.s32", 1, "expected a directive, got 'add.s32'"));
  t = isatest::module(".entry k(.param .u32 a, .param .u32 a)\n{\nret;\n}\n");
  CHECK(ptx_error(t) == error_at(t, "a)", 1, "duplicate parameter 'a'"));
  t = isatest::module(".entry k(.u32 a)\n{\nret;\n}\n");
  CHECK(ptx_error(t) == error_at(t, ".u32", 1, "expected .param, got '.u32'"));
  t = isatest::module(".entry k()\n{\n.shared .b8 s[4];\n.shared .b8 s[4];\nret;\n}\n");
  CHECK(ptx_error(t) == error_at(t, ".shared", 2, "duplicate declaration of 's'"));
  t = isatest::module(".entry k()\n{\n.shared .b8 s[4];\nld.global.u32 %r, [s];\nret;\n}\n");
  CHECK(ptx_error(t) == error_at(t, "%r,", 1, "undeclared register '%r'"));
  t = isatest::module(".entry k()\n{\n.reg .b32 %r;\n.shared .b8 s[4];\nld.global.u32 %r, [s];\nret;\n}\n");
  CHECK(ptx_error(t) == error_at(t, "[s]", 1, "'s' is a .shared variable, used with a global access"));
  t = isatest::module(".entry k()\n{\n.reg .b32 %r;\nld.param.u32 %r, [k];\nret;\n}\n");
  // A kernel's name is its address (dynamic parallelism), nothing to load from.
  CHECK(ptx_error(t) == error_at(t, "[k]", 1, "'k' is a kernel; only its address can be taken (mov.u64)"));
  t = isatest::module(".entry k()\n{\n.reg .b32 %r<2>;\n.local .b32 loc[2];\nld.shared.u32 %r1, [loc];\nret;\n}\n");
  CHECK(ptx_error(t) == error_at(t, "[loc]", 1, "'loc' is a .local variable, used with a shared access"));
}

TEST_CASE("lexer errors are parse errors at the right line and column", "[isa][reject]") {
  // A comment left open on line 5 is reported where it starts, not where the file ends.
  CHECK(ptx_error(isatest::module(".entry k()\n/* never\nclosed\n\n")) ==
        "t.ptx:5:1: parse error: unterminated /* comment");
  CHECK(ptx_error(isatest::module(".entry k()\n{\n  ret; /* a\n b */ ret; /* c\n")) ==
        "t.ptx:7:12: parse error: unterminated /* comment");
  CHECK(ptx_error(isatest::module("\x01")) == "t.ptx:4:1: parse error: unexpected character '\\x01'");
  CHECK(ptx_error(isatest::module(".entry k()\n{\n  ret; ~\n}\n")) == "t.ptx:6:8: parse error: unexpected character '~'");
}

TEST_CASE("an empty or comment-only file is rejected cleanly", "[isa][reject]") {
  CHECK(ptx_error("") == "t.ptx:1:1: parse error: missing .version directive");
  CHECK(ptx_error("// nothing\n") == "t.ptx:2:1: parse error: missing .version directive");
}
