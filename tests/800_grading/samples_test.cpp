// The shipped sample assignment (kernels/assignments/reduction): each of the five sample
// submissions gets exactly its verdict and score, graded from the checked-in PTX.
#include <catch2/catch.hpp>

#include <chrono>

#include "grading_fixture.hpp"
#include "sim/grading/feedback.hpp"

using namespace warpsim::grading;
using grading_test::sample_assignment;
using grading_test::sample_submission;

namespace {

// One session for the file: the reference solution (its PTX) is measured once.
GradingSession& session() {
  static Assignment a = load_assignment(sample_assignment());
  static GradingSession s(a, [](const Submission& sub) { return run_submission(a, sub); }, /*have_nvcc=*/false);
  return s;
}

const Assignment& assignment() {
  static Assignment a = load_assignment(sample_assignment());
  return a;
}

GradeResult grade_sample(const std::string& name) {
  return session().grade(Submission{name, sample_submission(name + ".ptx"), {}, {}});
}

const PartResult& part(const GradeResult& g, const std::string& name) {
  for (const auto& p : g.parts)
    if (p.name == name) return p;
  FAIL("no part " << name);
  throw;
}

}  // namespace

TEST_CASE("sample assignment: its parts, points and limits", "[grading][samples]") {
  const Assignment& a = assignment();
  CHECK(a.kernel == "reduce");
  CHECK(a.mode == warpsim::SimMode::Timing);
  CHECK(a.max_score() == 100);
  CHECK(a.part_names() == std::vector<std::string>{"correctness", "no divergence in the loop", "no bank conflicts",
                                                   "coalesced loads", "fast"});
  CHECK(a.needs_reference_measurements());
  CHECK(a.limits.max_warp_instructions == 2000000);
}

TEST_CASE("sample 'correct': passed with full marks", "[grading][samples]") {
  GradeResult g = grade_sample("correct");
  INFO(format_feedback(assignment(), g));
  CHECK(g.verdict == Verdict::Passed);
  CHECK(g.score == 100);
  CHECK(g.max == 100);
  for (const auto& p : g.parts) CHECK(p.points == p.max);
  CHECK(part(g, "no divergence in the loop").value == 0.0);
  CHECK(part(g, "coalesced loads").value == 1.0);
  // The reference solution was measured and the submission is within 1.25x of it.
  REQUIRE(session().reference() != nullptr);
  REQUIRE(part(g, "fast").reference.has_value());
  CHECK(*part(g, "fast").value <= 1.25 * *part(g, "fast").reference);
}

TEST_CASE("sample 'slow': correctness points, divergence and speed criteria failed with the measured values",
          "[grading][samples]") {
  GradeResult g = grade_sample("slow");
  std::string text = format_feedback(assignment(), g);
  INFO(text);
  CHECK(g.verdict == Verdict::CriteriaFailed);
  CHECK(g.score == 60);
  CHECK(part(g, "correctness").points == 40);
  CHECK(part(g, "no bank conflicts").points == 10);
  CHECK(part(g, "coalesced loads").points == 10);

  const PartResult& loop = part(g, "no divergence in the loop");
  CHECK(loop.points == 0);
  CHECK_FALSE(loop.met);
  // 128 blocks x 4 warps; every warp splits at the `tid % (2*s)` test in 5 or more of the 7
  // iterations: measured from the region's branches only.
  CHECK(loop.value == 2944.0);
  CHECK_THAT(loop.feedback, Catch::Contains("measured 2944") &&
                                Catch::Contains("divergent_branch in region 'reduce_loop' == 0"));

  const PartResult& fast = part(g, "fast");
  CHECK(fast.points == 0);
  REQUIRE(fast.value.has_value());
  REQUIRE(fast.reference.has_value());
  CHECK(*fast.value > 1.25 * *fast.reference);
  CHECK_THAT(fast.feedback, Catch::Contains("reference") && Catch::Contains("elapsed_cycles_sm <= 1.25 x reference"));
  CHECK_THAT(g.summary, Catch::Contains("no divergence in the loop, fast"));
}

TEST_CASE("sample 'wrong': wrong result with the first mismatches", "[grading][samples]") {
  GradeResult g = grade_sample("wrong");
  INFO(format_feedback(assignment(), g));
  CHECK(g.verdict == Verdict::WrongResult);
  CHECK(g.score == 0);
  const PartResult& c = part(g, "correctness");
  CHECK_FALSE(c.met);
  CHECK_THAT(c.feedback, Catch::Contains("Out: 128 of 128 elements differ") && Catch::Contains("Out[0]: got ") &&
                             Catch::Contains(", want "));
  // The criteria it meets are not awarded: a wrong kernel earns nothing.
  CHECK(part(g, "coalesced loads").met);
  CHECK(part(g, "coalesced loads").points == 0);
  CHECK_THAT(part(g, "coalesced loads").feedback, Catch::Contains("not awarded: the output is wrong"));
}

TEST_CASE("sample 'infinite_loop': limit exceeded (warp instructions) in bounded time", "[grading][samples]") {
  auto start = std::chrono::steady_clock::now();
  GradeResult g = grade_sample("infinite_loop");
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(format_feedback(assignment(), g));
  CHECK(g.verdict == Verdict::LimitExceeded);
  CHECK(g.limit == "warp_instructions");
  CHECK(g.score == 0);
  CHECK_THAT(g.detail, Catch::Contains("instruction limit of 2000000 warp instructions exceeded"));
  CHECK(g.stage == "running reduce_16k.json on c2070");
  CHECK(seconds < 15);
  for (const auto& p : g.parts) CHECK(p.points == 0);
}

TEST_CASE("sample 'out_of_bounds': memory fault naming the access", "[grading][samples]") {
  GradeResult g = grade_sample("out_of_bounds");
  INFO(format_feedback(assignment(), g));
  CHECK(g.verdict == Verdict::MemoryFault);
  CHECK(g.score == 0);
  CHECK_THAT(g.detail, Catch::Contains("out-of-bounds global load") && Catch::Contains("past the end of buffer 'In'") &&
                           Catch::Contains("block (127,0,0)") && Catch::Contains("thread (") &&
                           Catch::Contains("out_of_bounds.ptx:") && Catch::Contains("out_of_bounds.cu:9"));
  CHECK_THAT(g.summary, Catch::StartsWith("memory fault: out-of-bounds global load"));
}

TEST_CASE("sample feedback: text names verdict, score and each part", "[grading][samples]") {
  std::string text = format_feedback(assignment(), grade_sample("slow"));
  CHECK_THAT(text, Catch::Contains("Verdict:    criteria_failed") && Catch::Contains("Score:      60 / 100") &&
                       Catch::Contains("[40/40] correctness") && Catch::Contains("[ 0/20] no divergence in the loop") &&
                       Catch::Contains("NOT met: measured 2944"));
}

TEST_CASE("sample JSON: verdict, score and per-part values", "[grading][samples]") {
  warpsim::Json j = result_to_json(grade_sample("slow"));
  CHECK(j["verdict"] == "criteria_failed");
  CHECK(j["score"] == 60);
  CHECK(j["max"] == 100);
  REQUIRE(j["parts"].size() == 5);
  CHECK(j["parts"][1]["name"] == "no divergence in the loop");
  CHECK(j["parts"][1]["value"] == 2944);
  CHECK(j["parts"][1]["met"] == false);
  CHECK(j["runs"][0]["metrics"].contains("elapsed_cycles_sm"));
}
