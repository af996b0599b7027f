// Regression tests for loader bugs found while writing this suite; each case failed
// before the commit that added it.
#include <catch2/catch.hpp>

#include "isa_util.hpp"
#include "sim/isa/ptx_parser.hpp"

using isatest::ptx_error;

namespace {

std::string kernel_line(const std::string& line) {
  return isatest::module(".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
                         ".reg .f32 %f<4>;\n.reg .pred %p<2>;\n" +
                         line + "\nret;\n}\n");  // `line` is line 10
}

}  // namespace

TEST_CASE("instructions outside the subset are unsupported even when their operand syntax is not parsed",
          "[isa][reject][regression]") {
  // Before: "t.ptx:10:47: parse error: expected ']', got ','" and similar.
  CHECK(ptx_error(kernel_line("tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [tex0, {%f0, %f1}];")) ==
        "t.ptx:10: unsupported PTX: tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [tex0, {%f0, %f1}];  (instruction 'tex')");
  CHECK(ptx_error(kernel_line("call.uni (retval0), vprintf, (param0, param1);")) ==
        "t.ptx:10: unsupported PTX: call.uni (retval0), vprintf, (param0, param1);  (function calls)");
  CHECK(ptx_error(kernel_line("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r0, %r1, %r2, %r3}, [%rd1];")) ==
        "t.ptx:10: unsupported PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r0, %r1, %r2, %r3}, [%rd1];  "
        "(instruction 'ldmatrix')");
  CHECK(ptx_error(kernel_line("@%p1 suld.b.2d.v4.b32.trap {%r0, %r1, %r2, %r3}, [surf, {%r1, %r2}];")) ==
        "t.ptx:10: unsupported PTX: @%p1 suld.b.2d.v4.b32.trap {%r0, %r1, %r2, %r3}, [surf, {%r1, %r2}];  "
        "(instruction 'suld')");
  // A register where an instruction belongs is still a parse error.
  CHECK(ptx_error(kernel_line("%r1, %r2;")) == "t.ptx:10:1: parse error: expected an instruction, got '%r1'");
}
