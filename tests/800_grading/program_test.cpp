// Grading whole programs (kernels/assignments/vector_program): assignment parsing, the
// output comparison, and each sample submission built by nvcc and run under warpsim's
// CUDA runtime with its exact verdict. The nvcc cases are skipped, saying so, without nvcc.
#include <catch2/catch.hpp>

#include "grading_fixture.hpp"
#include "sim/grading/compile.hpp"
#include "sim/grading/program.hpp"
#include "sim/launch/launch_spec.hpp"

using namespace warpsim;
using namespace warpsim::grading;
using namespace grading_test;

namespace {

std::string program_dir() { return std::string(WARPSIM_SOURCE_DIR) + "/kernels/assignments/vector_program"; }

Assignment program_assignment() { return load_assignment(program_dir() + "/assignment.json"); }

RunnerOptions runner_options() {
  RunnerOptions o;
  o.cudart_dir = std::string(WARPSIM_BINARY_DIR) + "/lib";
  return o;
}

bool skip_without_nvcc() {
  if (!find_nvcc().empty()) return false;
  WARN("skipped: needs nvcc (not found in $NVCC, PATH or /usr/local/cuda/bin) to build the sample programs");
  return true;
}

std::string assignment_error(const Json& doc, Scratch& s) {
  s.write("expected.txt", "42\n");
  try {
    parse_assignment(doc, s.path("a.json"));
  } catch (const ConfigError& e) {
    std::string m = e.what();
    return m.substr(m.find(": ") + 2);
  }
  return "";
}

}  // namespace

TEST_CASE("program grading: the sample assignment reads as a program assignment", "[grading][program]") {
  Assignment a = program_assignment();
  REQUIRE(a.program);
  CHECK(a.kernel.empty());
  CHECK(a.specs.empty());
  CHECK(a.program->args == std::vector<std::string>{"4096"});
  CHECK(a.program->tolerance == 1e-6);
  CHECK(a.correctness.against == Correctness::Against::Expected);
  CHECK(a.runs() == 1);
  REQUIRE(a.criteria.size() == 2);
  CHECK(a.criteria[0].kernel == "scale");
  CHECK(a.criteria[0].aggregate == Aggregate::Max);
  CHECK(a.criteria[1].aggregate == Aggregate::Sum);
  CHECK(a.criteria[0].requirement() == "gld_transactions_per_request (max over the launches of scale) <= 1");
  CHECK(a.program_seconds() == 60);
  CHECK(a.wall_seconds() == 60 + 60);
}

TEST_CASE("program grading: assignment errors name the key", "[grading][program]") {
  Scratch s;
  Json base = {{"title", "t"},
               {"program", {{"expected_stdout", "expected.txt"}}},
               {"correctness", {{"points", 10}}}};
  CHECK(assignment_error(base, s) == "");
  Json both = base;
  both["kernel"] = "k";
  CHECK(assignment_error(both, s) == "kernel: an assignment grades either a kernel (\"kernel\" and \"specs\") or a "
                                     "whole program (\"program\"), not both");
  Json nothing = base;
  nothing["program"] = Json::object();
  CHECK(assignment_error(nothing, s) == "program: nothing to check: give expected_stdout or files, or grade with "
                                        "correctness.against \"solution\"");
  Json escape = base;
  escape["program"]["files"] = Json::array({{{"file", "../x.txt"}, {"expected", "expected.txt"}}});
  CHECK(assignment_error(escape, s) ==
        "program.files[0].file: a file name relative to the program's run folder, without \"..\"");
  Json where = base;
  where["criteria"] = Json::array({{{"name", "c"}, {"metric", "inst_executed"}, {"op", "<"}, {"value", 1},
                                    {"points", 1}, {"where", {{"region", "loop"}}}}});
  CHECK(assignment_error(where, s) == "criteria[0].where: not in a program assignment (criteria pick launches by "
                                      "\"kernel\")");
  Json agg = base;
  agg["criteria"] = Json::array({{{"name", "c"}, {"metric", "inst_executed"}, {"op", "<"}, {"value", 1},
                                  {"points", 1}, {"aggregate", "median"}}});
  CHECK(assignment_error(agg, s).starts_with("criteria[0].aggregate: "));
  Json kernel_mode = {{"title", "t"}, {"kernel", "k"}, {"specs", Json::array()}, {"correctness", {{"points", 1}}}};
  kernel_mode["criteria"] = Json::array({{{"name", "c"}, {"metric", "inst_executed"}, {"op", "<"}, {"value", 1},
                                          {"points", 1}, {"aggregate", "sum"}}});
  CHECK(assignment_error(kernel_mode, s).find("specs") != std::string::npos);  // specs are checked first
}

TEST_CASE("program grading: output comparison by tokens with a numeric tolerance", "[grading][program]") {
  CHECK(compare_output("n=4\nsum=12\n", "n=4\nsum=12\n", 0) == "");
  CHECK(compare_output("  n=4   sum=12", "n=4\nsum=12\n", 0) == "");  // whitespace is not compared
  CHECK(compare_output("1.0000001 2\n", "1 2\n", 1e-6) == "");
  CHECK(compare_output("1.01 2\n", "1 2\n", 1e-6) == "line 1: got '1.01', want '1'");
  CHECK(compare_output("x\n1001\n", "x\n1000\n", 1e-3) == "");      // relative to the expected value
  CHECK(compare_output("x\n1002\n", "x\n1000\n", 1e-3) == "line 2: got '1002', want '1000'");
  CHECK(compare_output("sum=12\n", "sum=13\n", 1) == "line 1: got 'sum=12', want 'sum=13'");  // not a number
  CHECK(compare_output("a\n", "a\nb\n", 0) == "the output ends after line 1; expected more: 'b' (line 2)");
  CHECK(compare_output("", "a\n", 0) == "the output ends before anything; expected more: 'a' (line 1)");
  CHECK(compare_output("a\nb c\n", "a\n", 0) == "line 2: unexpected 'b' after the expected output");
  CHECK(compare_output("nan\n", "nan\n", 0) == "");
  CHECK(compare_output("nan\n", "1\n", 1) == "line 1: got 'nan', want '1'");
}

TEST_CASE("program grading: kernels are matched by mangled or plain name", "[grading][program]") {
  CHECK(kernel_matches("scale", "_Z5scalePKfPffi", "scale(float const*, float*, float, int)"));
  CHECK(kernel_matches("_Z5scalePKfPffi", "_Z5scalePKfPffi", "scale(float const*, float*, float, int)"));
  CHECK(kernel_matches("ns::k<int>", "_ZN2ns1kIiEEvPi", "void ns::k<int>(int*)") == false);  // return type kept
  CHECK(kernel_matches("k<(int)2>", "x", "k<(int)2>(int*)"));
  CHECK_FALSE(kernel_matches("scal", "_Z5scalePKfPffi", "scale(float const*, float*, float, int)"));
}

TEST_CASE("program grading: a criterion's value over launches", "[grading][program]") {
  Json report = {{"launches", Json::array({
                     {{"kernel", "_Z1av"}, {"kernel_demangled", "a()"}, {"metrics", {{"inst_executed", 10}}}},
                     {{"kernel", "_Z1bv"}, {"kernel_demangled", "b()"}, {"metrics", {{"inst_executed", 5}}}},
                     {{"kernel", "_Z1av"}, {"kernel_demangled", "a()"}, {"metrics", {{"inst_executed", 30}}}},
                 })}};
  Criterion c;
  c.metric = "inst_executed";
  c.over_launches = true;
  std::string note;
  CHECK(program_metric(report, c, &note) == 30.0);  // max over all launches
  c.kernel = "a";
  c.aggregate = Aggregate::Min;
  CHECK(program_metric(report, c, &note) == 10.0);
  c.aggregate = Aggregate::Sum;
  CHECK(program_metric(report, c, &note) == 40.0);
  c.aggregate = Aggregate::Mean;
  CHECK(program_metric(report, c, &note) == 20.0);
  c.kernel = "zz";
  CHECK_FALSE(program_metric(report, c, &note));
  CHECK(note == "the program never launched kernel 'zz'");
  c.kernel = "";
  c.metric = "dram_read_bytes";
  CHECK_FALSE(program_metric(report, c, &note));
  CHECK(note == "'dram_read_bytes' was not measured on its launches");
}

TEST_CASE("program grading: the sample submissions get their verdicts", "[grading][program][nvcc]") {
  if (skip_without_nvcc()) return;
  Assignment a = program_assignment();
  GradingSession session(a, [&a](const Submission& s) { return run_submission(a, s, runner_options()); },
                         /*have_nvcc=*/true);
  auto grade = [&](const std::string& name) {
    return session.grade(Submission{name, program_dir() + "/submissions/" + name + ".cu", {}, {}});
  };

  GradeResult correct = grade("correct");
  INFO(correct.summary);
  CHECK(correct.verdict == Verdict::Passed);
  CHECK(correct.score == 100);

  GradeResult strided = grade("strided");
  INFO(strided.summary);
  CHECK(strided.verdict == Verdict::CriteriaFailed);
  CHECK(strided.score == 60);  // correct output; uncoalesced and slower
  REQUIRE(strided.parts.size() == 3);
  CHECK(strided.parts[1].value == 32.0);  // 32 lines per warp request on cc 2.0

  GradeResult wrong = grade("wrong");
  CHECK(wrong.verdict == Verdict::WrongResult);
  CHECK(wrong.score == 0);
  CHECK((wrong.summary + wrong.detail).find("standard output: line 2: got 'sum=25159680', want 'sum=16773120'") !=
        std::string::npos);

  GradeResult oob = grade("out_of_bounds");
  CHECK(oob.verdict == Verdict::MemoryFault);
  CHECK(oob.detail.find("out-of-bounds global load") != std::string::npos);

  GradeResult crash = grade("crash");
  CHECK(crash.verdict == Verdict::Crashed);
  CHECK(crash.detail.find("the program died of signal 11") != std::string::npos);
}

TEST_CASE("program grading: a program that never ends is stopped at its time limit", "[grading][program][nvcc]") {
  if (skip_without_nvcc()) return;
  Scratch s;
  Json doc = load_json_file(program_dir() + "/assignment.json");
  doc["program"]["expected_stdout"] = program_dir() + "/expected_stdout.txt";
  doc["solution"] = program_dir() + "/solution/scale.cu";
  doc["limits"]["max_program_seconds"] = 3;
  Assignment a = parse_assignment(doc, s.path("assignment.json"));
  SubmissionReport r = run_submission(a, Submission{"hang", program_dir() + "/submissions/hang.cu", {}, {}},
                                      runner_options());
  REQUIRE(r.failure);
  CHECK(r.failure->verdict == Verdict::LimitExceeded);
  CHECK(r.failure->limit == "wall_seconds");
  CHECK(r.failure->message == "the program ran past 3 s of wall time (limits.max_program_seconds)");
}

TEST_CASE("program grading: an include outside the allowed headers is refused before nvcc", "[grading][program]") {
  Scratch s;
  Assignment a = program_assignment();
  std::string cu = s.write("p.cu", "#include \"/etc/passwd\"\nint main() { return 0; }\n");
  RunnerOptions o = runner_options();
  o.nvcc = s.write("bin/nvcc", "");  // never run
  SubmissionReport r = run_submission(a, Submission{"p", cu, {}, {}}, o);
  REQUIRE(r.failure);
  CHECK(r.failure->verdict == Verdict::CompileError);
  CHECK(r.failure->message == "p.cu:1: #include \"/etc/passwd\" is not allowed: only relative header names are allowed");
}
