// Every way a submission can fail becomes its verdict (never an exception), and scoped
// criteria measure the instructions they name. Functional mode, small sizes.
#include <catch2/catch.hpp>

#include "grading_fixture.hpp"
#include "sim/grading/compile.hpp"
#include "sim/grading/feedback.hpp"
#include "sim/grading/scope.hpp"
#include "sim/launch/launch_spec.hpp"

using namespace warpsim::grading;
using grading_test::read_text;
using grading_test::sample_dir;
using grading_test::sample_submission;
using grading_test::Scratch;
using grading_test::small_assignment;
using warpsim::Json;

namespace {

const char* kPtxHeader = ".version 9.0\n.target sm_75\n.address_size 64\n\n";

// `if (threadIdx.x % 2 == 0) __syncthreads();`: half of each warp waits at the barrier.
const char* kDeadlockBody = R"(.visible .entry _Z6reducePKiPi(
	.param .u64 _Z6reducePKiPi_param_0,
	.param .u64 _Z6reducePKiPi_param_1
)
{
	.reg .pred 	%p<5>;
	.reg .b32 	%r<5>;
	.reg .b64 	%rd<8>;
	ld.param.u64 	%rd1, [_Z6reducePKiPi_param_0];
	ld.param.u64 	%rd2, [_Z6reducePKiPi_param_1];
	mov.u32 	%r1, %tid.x;
	and.b32  	%r2, %r1, 1;
	setp.eq.b32 	%p1, %r2, 1;
	@%p1 bra 	$L__BB0_2;
	bar.sync 	0;
$L__BB0_2:
	setp.ne.s32 	%p4, %r1, 0;
	@%p4 bra 	$L__BB0_4;
	mov.u32 	%r3, %ctaid.x;
	cvta.to.global.u64 	%rd6, %rd2;
	mul.wide.u32 	%rd4, %r3, 4;
	add.s64 	%rd7, %rd6, %rd4;
	st.global.u32 	[%rd7], %r3;
$L__BB0_4:
	ret;
}
)";

// `asm("trap;")` in every thread.
const char* kTrapBody = R"(.visible .entry _Z6reducePKiPi(
	.param .u64 _Z6reducePKiPi_param_0,
	.param .u64 _Z6reducePKiPi_param_1
)
{
	trap;
	ret;
}
)";

GradeResult grade_file(const Assignment& a, const std::string& path, const RunnerOptions& o = {}) {
  return grading_test::grade_here(a, path, o);
}

}  // namespace

TEST_CASE("failures: unsupported PTX gets the loader's file:line message", "[grading][failures]") {
  Scratch s;
  Assignment a = grading_test::load(s, small_assignment());
  std::string ptx = read_text(sample_submission("correct.ptx"));
  // A breakpoint, which the simulator does not support.
  size_t at = ptx.find("\tbar.sync");
  REQUIRE(at != std::string::npos);
  ptx.insert(at, "\tbrkpt;\n");
  GradeResult g = grade_file(a, s.write("printf.ptx", ptx));
  INFO(g.detail);
  CHECK(g.verdict == Verdict::PtxError);
  CHECK(g.score == 0);
  CHECK_THAT(g.detail, Catch::Contains("printf.ptx:") && Catch::Contains("unsupported PTX: brkpt;"));
  CHECK_THAT(g.stage, Catch::StartsWith("loading printf.ptx"));
}

TEST_CASE("failures: a module without the kernel lists what it has", "[grading][failures]") {
  Scratch s;
  Assignment a = grading_test::load(s, small_assignment());
  std::string ptx = read_text(sample_submission("correct.ptx"));
  for (size_t at; (at = ptx.find("_Z6reducePKiPi")) != std::string::npos;) ptx.replace(at, 14, "_Z6ReducePKiPi");
  GradeResult g = grade_file(a, s.write("renamed.ptx", ptx));
  CHECK(g.verdict == Verdict::MissingKernel);
  CHECK_THAT(g.detail, Catch::Contains("no kernel named 'reduce'") && Catch::Contains("_Z6ReducePKiPi"));
}

TEST_CASE("failures: a kernel whose parameters do not take the spec's arguments", "[grading][failures]") {
  Scratch s;
  Json spec = warpsim::load_json_file(sample_dir() + "/reduce_16k.json");
  spec["ptx"] = sample_dir() + "/solution/reduce.ptx";
  spec["args"] = {"In", "Out", "n"};
  Json doc = small_assignment();
  doc["specs"] = {s.write("three_args.json", spec.dump())};
  Assignment a = grading_test::load(s, doc);
  GradeResult g = grade_file(a, sample_submission("correct.ptx"));
  CHECK(g.verdict == Verdict::BadSignature);
  CHECK_THAT(g.detail, Catch::Contains("kernel 'reduce' does not take the assignment's arguments") &&
                           Catch::Contains("takes 2 parameters, the spec passes 3"));
}

TEST_CASE("failures: barrier deadlock and trap", "[grading][failures]") {
  Scratch s;
  Assignment a = grading_test::load(s, small_assignment());
  GradeResult dead = grade_file(a, s.write("deadlock.ptx", std::string(kPtxHeader) + kDeadlockBody));
  CHECK(dead.verdict == Verdict::Deadlock);
  CHECK_THAT(dead.detail, Catch::Contains("barrier deadlock"));
  GradeResult trap = grade_file(a, s.write("trap.ptx", std::string(kPtxHeader) + kTrapBody));
  CHECK(trap.verdict == Verdict::Trap);
  CHECK_THAT(trap.detail, Catch::Contains("trap"));
}

TEST_CASE("failures: cycle and host-time limits in timing mode", "[grading][failures]") {
  Scratch s;
  Json doc = small_assignment();
  doc["mode"] = "timing";
  doc["limits"] = {{"max_cycles", 500}};
  Assignment a = grading_test::load(s, doc);
  GradeResult g = grade_file(a, sample_submission("correct.ptx"));
  CHECK(g.verdict == Verdict::LimitExceeded);
  CHECK(g.limit == "cycles");
  CHECK_THAT(g.detail, Catch::Contains("cycle limit of 500"));
}

TEST_CASE("failures: not a module, missing file, .cu without nvcc", "[grading][failures]") {
  Scratch s;
  Assignment a = grading_test::load(s, small_assignment());
  GradeResult txt = grade_file(a, s.write("notes.txt", "hello"));
  CHECK(txt.verdict == Verdict::BadSubmission);
  CHECK_THAT(txt.detail, Catch::Contains("expected a .cu or .ptx file"));
  GradeResult missing = grade_file(a, s.path("nothing.ptx"));
  CHECK(missing.verdict == Verdict::BadSubmission);
  CHECK_THAT(missing.detail, Catch::Contains("no such file"));

  RunnerOptions no_nvcc;
  no_nvcc.nvcc = "";
  GradeResult cu = grade_file(a, sample_submission("correct.cu"), no_nvcc);
  CHECK(cu.verdict == Verdict::NvccNotFound);
  CHECK_THAT(cu.detail, Catch::Contains("correct.cu is CUDA source and nvcc was not found"));
}

TEST_CASE("failures: a compile error shows nvcc's error lines (when nvcc is installed)", "[grading][failures][nvcc]") {
  if (warpsim::find_nvcc().empty()) {
    WARN("nvcc not found: compile-error verdict not tested");
    return;
  }
  Scratch s;
  Assignment a = grading_test::load(s, small_assignment());
  GradeResult g = grade_file(a, s.write("broken.cu", "__global__ void reduce(const int* In, int* Out) {\n  Out[0] = x;\n}\n"));
  CHECK(g.verdict == Verdict::CompileError);
  CHECK_THAT(g.detail, Catch::StartsWith("broken.cu(2): error") && Catch::Contains("\"x\" is undefined"));
}

TEST_CASE("compile log summary: error lines with short paths", "[grading][failures]") {
  std::string log =
      "/home/s/a/sub.cu(3): warning #177-D: variable \"q\" was declared but never referenced\n"
      "/home/s/a/sub.cu(7): error: identifier \"x\" is undefined\n\n"
      "/home/s/a/sub.cu(9): error: expected a \";\"\n"
      "2 errors detected in the compilation of \"/home/s/a/sub.cu\".\n";
  CHECK(summarize_nvcc_log(log) ==
        "sub.cu(7): error: identifier \"x\" is undefined\nsub.cu(9): error: expected a \";\"\n"
        "2 errors detected in the compilation of \"/home/s/a/sub.cu\".");
  CHECK(summarize_nvcc_log(log, 1) == "sub.cu(7): error: identifier \"x\" is undefined\n... and 2 more");
  CHECK(summarize_nvcc_log("nvcc fatal   : Unknown option\n") == "nvcc fatal   : Unknown option");
  // A diagnostic quoting a 200 KB source line: cut before the path regex (which recurses
  // per character and would overflow the stack), not a crash.
  const std::string long_line = "/tmp/x/sub.cu(3): error: " + std::string(200000, 'a') + "\n";
  const std::string shown = summarize_nvcc_log(long_line);
  CHECK(shown.rfind("sub.cu(3): error: aaa", 0) == 0);
  CHECK(shown.size() < 1100);
}

TEST_CASE("scoped criteria: source lines, regions and PTX text select branches", "[grading][scope]") {
  Scratch s;
  Json doc = small_assignment();
  auto criterion = [](const std::string& name, const Json& where) {
    return Json{{"name", name}, {"metric", "divergent_branch"}, {"op", "=="}, {"value", 0}, {"points", 1},
                {"where", where}};
  };
  doc["criteria"] = {criterion("lines", {{"source_lines", {12, 15}}}), criterion("region", {{"region", "reduce_loop"}}),
                     criterion("rem", {{"ptx_text", "^@%p2 bra"}}), criterion("final", {{"source_lines", {17, 17}}}),
                     criterion("elsewhere", {{"source_lines", {1, 5}}})};
  doc["criteria"].push_back(Json{{"name", "all"}, {"metric", "divergent_branch"}, {"op", "<="}, {"value", 10000},
                                 {"points", 1}});
  Assignment a = grading_test::load(s, doc);
  GradeResult g = grade_file(a, sample_submission("slow.ptx"));
  INFO(format_feedback(a, g));
  REQUIRE(g.parts.size() == 7);
  // slow.cu: the loop is lines 12-15, its `if` (line 13) diverges; line 17's `if (tid == 0)`
  // splits warp 0 of every block (128 times).
  CHECK(g.parts[1].value == 2944.0);
  CHECK(g.parts[2].value == 2944.0);
  CHECK(g.parts[3].value == 2944.0);
  CHECK(g.parts[4].value == 128.0);
  CHECK(g.parts[5].value == 0.0);
  CHECK(g.parts[6].value == 2944.0 + 128.0);
  CHECK(g.parts[5].met);
  CHECK_FALSE(g.parts[1].met);
}

TEST_CASE("scoped criteria: a region that cannot be found fails with the reason", "[grading][scope]") {
  Scratch s;
  Json doc = small_assignment();
  doc["criteria"] = {Json{{"name", "loop"}, {"metric", "divergent_branch"}, {"op", "=="}, {"value", 0}, {"points", 1},
                          {"where", {{"region", "reduce_loop"}}}}};
  Assignment a = grading_test::load(s, doc);
  // The PTX without its source beside it.
  GradeResult lonely = grade_file(a, s.copy_sample("submissions/correct.ptx", "alone/correct.ptx"));
  CHECK(lonely.verdict == Verdict::CriteriaFailed);
  CHECK_THAT(lonely.parts[1].feedback, Catch::Contains("cannot read the source file"));
  // The source without markers.
  std::string cu = read_text(sample_submission("correct.cu"));
  s.write("unmarked/correct.cu", cu.substr(0, cu.find("  // grade:begin")));
  s.copy_sample("submissions/correct.ptx", "unmarked/correct.ptx");
  GradeResult unmarked = grade_file(a, s.path("unmarked/correct.ptx"));
  CHECK_THAT(unmarked.parts[1].feedback, Catch::Contains("region 'reduce_loop' is not marked"));
}

TEST_CASE("region markers: inclusive lines, whole names, errors", "[grading][scope]") {
  std::string err;
  auto r = find_region("a\n// grade:begin loop\nb\n// grade:end loop\n// grade:begin loop2\n", "loop", err);
  REQUIRE(r.has_value());
  CHECK(r->first == 2);
  CHECK(r->second == 4);
  CHECK_FALSE(find_region("// grade:end x\n// grade:begin x\n", "x", err).has_value());
  CHECK_THAT(err, Catch::Contains("comes before"));
  CHECK_FALSE(find_region("// grade:begin x\n// grade:begin x\n// grade:end x\n", "x", err).has_value());
  CHECK_THAT(err, Catch::Contains("appears twice"));
}

TEST_CASE("correctness against the reference solution's outputs", "[grading][failures]") {
  Scratch s;
  Json doc = small_assignment();
  doc["solution"] = sample_dir() + "/solution/reduce.ptx";
  doc["correctness"] = {{"points", 10}, {"against", "solution"}};
  Assignment a = grading_test::load(s, doc);
  CHECK(grade_file(a, sample_submission("correct.ptx")).verdict == Verdict::Passed);
  GradeResult wrong = grade_file(a, sample_submission("wrong.ptx"));
  CHECK(wrong.verdict == Verdict::WrongResult);
  CHECK_THAT(wrong.parts[0].feedback, Catch::Contains("Out: 128 of 128 elements differ"));
}

TEST_CASE("several configs: every run counts, criteria filter runs", "[grading][failures]") {
  Scratch s;
  Json doc = small_assignment();
  doc["configs"] = {"c2070", Json{{"config", "fx5800"}, {"set", {"sm.count=2"}}}};
  doc["criteria"][0]["configs"] = {"c2070"};
  // On the FX5800 (cc 1.3) a warp's 128 bytes are two half-warp transactions.
  doc["criteria"].push_back(Json{{"name", "gt200 loads"}, {"metric", "gld_transactions_per_request"}, {"op", "=="},
                                 {"value", 2}, {"points", 5}, {"configs", {"fx5800[sm.count=2]"}}});
  Assignment a = grading_test::load(s, doc);
  GradeResult g = grade_file(a, sample_submission("correct.ptx"));
  INFO(format_feedback(a, g));
  REQUIRE(g.report.runs.size() == 2);
  CHECK(g.report.runs[1].config == "fx5800[sm.count=2]");
  CHECK(g.report.runs[0].criteria[0].applies);
  CHECK_FALSE(g.report.runs[1].criteria[0].applies);
  CHECK(g.verdict == Verdict::Passed);
  CHECK(g.score == 20);
}

TEST_CASE("comparison operators allow a relative 1e-9", "[grading][score]") {
  CHECK(compare(1.0000000000002, CompareOp::Le, 1));
  CHECK(compare(1.0000000000002, CompareOp::Eq, 1));
  CHECK_FALSE(compare(1.0000000000002, CompareOp::Lt, 1));
  CHECK(compare(0.5, CompareOp::Lt, 1));
  CHECK(compare(2, CompareOp::Ne, 1));
  CHECK(compare(2, CompareOp::Gt, 1));
  CHECK(compare(1, CompareOp::Ge, 1));
  CHECK_FALSE(compare(1.01, CompareOp::Le, 1));
  CHECK(format_value(2944) == "2944");
  CHECK(format_value(1.25) == "1.25");
  CHECK(format_value(3816.26) == "3816.3");
}
