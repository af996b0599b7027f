// Isolation: a child process per submission. Uses the built warpsim binary (the grader's own
// child mode) and small shell programs standing in for a child that crashes, hangs or lies.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>

#include "grading_fixture.hpp"
#include "sim/foundation/sanitizers.hpp"
#include "sim/grading/isolation.hpp"

using namespace warpsim::grading;
using grading_test::sample_submission;
using grading_test::Scratch;
using warpsim::Json;

namespace {

IsolationOptions with_program(std::vector<std::string> program, double wall = 30) {
  IsolationOptions o;
  o.program = std::move(program);
  o.assignment_path = grading_test::sample_assignment();
  o.wall_seconds = wall;
  o.address_space_bytes = uint64_t(8) << 30;
  return o;
}

// A shell script as the child: $1..$7 are grade ASSIGNMENT SUBMISSION --one REPORT --name NAME.
IsolationOptions shell(const std::string& script, double wall = 30) {
  return with_program({"/bin/sh", "-c", script, "sh"}, wall);
}

Submission sample(const std::string& name) { return Submission{name, sample_submission(name + ".ptx"), {"a note"}, {}}; }

void require_binary() {
  if (!std::filesystem::exists(grading_test::warpsim_binary()))
    FAIL("build the warpsim target first: " << grading_test::warpsim_binary());
}

}  // namespace

TEST_CASE("isolation: the child's report equals the in-process one", "[grading][isolation]") {
  require_binary();
  Assignment a = load_assignment(grading_test::sample_assignment());
  for (const char* name : {"correct", "out_of_bounds", "infinite_loop"}) {
    SubmissionReport child = run_isolated(with_program({grading_test::warpsim_binary()}), sample(name));
    SubmissionReport here = run_submission(a, sample(name));
    INFO(name << ": " << (child.failure ? child.failure->message : "ok"));
    CHECK(child.name == name);
    CHECK(child.notes == std::vector<std::string>{"a note"});
    CHECK(child.failure.has_value() == here.failure.has_value());
    if (child.failure && here.failure) {
      CHECK(child.failure->verdict == here.failure->verdict);
      CHECK(child.failure->message == here.failure->message);
      CHECK(child.failure->stage == here.failure->stage);
    }
    REQUIRE(child.runs.size() == here.runs.size());
    for (size_t i = 0; i < child.runs.size(); ++i) CHECK(child.runs[i].metrics == here.runs[i].metrics);
  }
}

TEST_CASE("isolation: a simulation past the wall-clock limit is killed", "[grading][isolation]") {
  require_binary();
  Scratch s;
  Json doc = warpsim::load_json_file(grading_test::sample_assignment());
  doc["specs"] = {grading_test::sample_dir() + "/reduce_16k.json"};
  doc["solution"] = grading_test::sample_dir() + "/solution/reduce.cu";
  doc["limits"] = {{"max_warp_instructions", 1'000'000'000'000}, {"max_cycles", 1'000'000'000'000},
                   {"max_host_seconds", 1000}, {"max_wall_seconds", 1}};
  IsolationOptions o = with_program({grading_test::warpsim_binary()}, 1);
  o.assignment_path = s.write("assignment.json", doc.dump());
  auto start = std::chrono::steady_clock::now();
  SubmissionReport r = run_isolated(o, sample("infinite_loop"));
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(r.failure.has_value());
  CHECK(r.failure->verdict == Verdict::LimitExceeded);
  CHECK(r.failure->limit == "wall_seconds");
  CHECK_THAT(r.failure->stage, Catch::StartsWith("running /") && Catch::EndsWith("/reduce_16k.json on c2070"));
  CHECK_THAT(r.failure->message, Catch::Contains("wall-clock limit of 1 s"));
  CHECK(seconds < 10);
}

TEST_CASE("isolation: a child killed by a signal is 'crashed' with the stage", "[grading][isolation]") {
  SubmissionReport r = run_isolated(shell("echo 'running x' > \"$5.stage\"; echo dying; kill -SEGV $$"), sample("correct"));
  REQUIRE(r.failure.has_value());
  CHECK(r.failure->verdict == Verdict::Crashed);
  CHECK(r.failure->stage == "running x\n");
  CHECK_THAT(r.failure->message, Catch::Contains("signal 11") && Catch::Contains("dying"));
  CHECK(r.name == "correct");
  CHECK(r.notes == std::vector<std::string>{"a note"});
}

TEST_CASE("isolation: a hung child is killed at the deadline, with its own children", "[grading][isolation]") {
  auto start = std::chrono::steady_clock::now();
  SubmissionReport r = run_isolated(shell("sleep 60 & sleep 60", 0.3), sample("correct"));
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(r.failure.has_value());
  CHECK(r.failure->verdict == Verdict::LimitExceeded);
  CHECK(r.failure->limit == "wall_seconds");
  CHECK(seconds < 5);
}

TEST_CASE("isolation: exit without a report, or an unreadable one, is an internal error", "[grading][isolation]") {
  SubmissionReport none = run_isolated(shell("echo oops >&2; exit 3"), sample("correct"));
  REQUIRE(none.failure.has_value());
  CHECK(none.failure->verdict == Verdict::InternalError);
  CHECK_THAT(none.failure->message, Catch::Contains("exited with status 3 without a report") && Catch::Contains("oops"));

  SubmissionReport garbage = run_isolated(shell("echo '{\"name\": 1}' > \"$5\""), sample("correct"));
  REQUIRE(garbage.failure.has_value());
  CHECK(garbage.failure->verdict == Verdict::InternalError);
  CHECK_THAT(garbage.failure->message, Catch::Contains("unreadable grading report"));

  SubmissionReport missing = run_isolated(with_program({"/nonexistent/warpsim"}), sample("correct"));
  REQUIRE(missing.failure.has_value());
  CHECK(missing.failure->verdict == Verdict::InternalError);
  CHECK_THAT(missing.failure->message, Catch::Contains("status 127"));
}

TEST_CASE("isolation: the child runs under the address-space limit, without core dumps", "[grading][isolation]") {
  IsolationOptions o = shell("echo as=$(ulimit -v) core=$(ulimit -c); exit 1");
  o.address_space_bytes = uint64_t(3) << 30;
  SubmissionReport r = run_isolated(o, sample("correct"));
  REQUIRE(r.failure.has_value());
  if (warpsim::kAddressSanitizer)  // ASan's shadow memory needs an unlimited address space
    CHECK_THAT(r.failure->message, Catch::Contains("as=unlimited core=0"));
  else
    CHECK_THAT(r.failure->message, Catch::Contains("as=3145728 core=0"));  // KiB
}

TEST_CASE("isolation: the child's arguments", "[grading][isolation]") {
  IsolationOptions o = with_program({"warpsim"});
  o.assignment_path = "a.json";
  CHECK(child_arguments(o, Submission{"bob", "b.ptx", {}, {}}, "r.json") ==
        std::vector<std::string>{"grade", "a.json", "b.ptx", "--one", "r.json", "--name", "bob"});
}

TEST_CASE("reports round-trip through JSON", "[grading][isolation]") {
  SubmissionReport r;
  r.name = "n";
  r.path = "p.ptx";
  r.notes = {"x"};
  r.seconds = 0.125;
  r.failure = Failure{Verdict::LimitExceeded, "cycles", "stopped", "running"};
  RunMeasurement m;
  m.spec = "s.json";
  m.config = "c2070";
  m.correct = true;
  m.check_message = "passed";
  m.mismatches = 0;
  m.metrics = {{"ipc", 0.1 + 0.2}, {"inst_executed", 12345}};
  m.criteria = {CriterionMeasure{true, true, 1.0 / 3, ""}, CriterionMeasure{true, false, 0, "why"}};
  r.runs = {m};
  SubmissionReport back = report_from_json(Json::parse(report_to_json(r).dump()));
  CHECK(back.name == r.name);
  CHECK(back.notes == r.notes);
  CHECK(back.seconds == r.seconds);
  REQUIRE(back.failure.has_value());
  CHECK(back.failure->verdict == Verdict::LimitExceeded);
  CHECK(back.failure->limit == "cycles");
  REQUIRE(back.runs.size() == 1);
  CHECK(back.runs[0].metrics == m.metrics);
  CHECK(back.runs[0].criteria[0].value == 1.0 / 3);
  CHECK(back.runs[0].criteria[1].note == "why");
  for (int v = 0; v <= static_cast<int>(Verdict::BadSubmission); ++v)
    CHECK(parse_verdict(verdict_name(static_cast<Verdict>(v))) == static_cast<Verdict>(v));
}
