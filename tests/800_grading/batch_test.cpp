// Batch grading: finding submissions in a folder, the gradebook CSV and the summary table.
#include <catch2/catch.hpp>

#include "grading_fixture.hpp"
#include "sim/grading/feedback.hpp"
#include "sim/grading/submissions.hpp"

using namespace warpsim::grading;
using grading_test::sample_dir;
using grading_test::Scratch;

namespace {

std::vector<GradeResult> grade_sample_folder() {
  Assignment a = load_assignment(grading_test::sample_assignment());
  GradingSession session(a, [&a](const Submission& s) { return run_submission(a, s); }, false);
  std::vector<GradeResult> out;
  for (const auto& s : list_submissions(sample_dir() + "/submissions", /*have_nvcc=*/false)) out.push_back(session.grade(s));
  return out;
}

}  // namespace

TEST_CASE("batch: a folder's .cu/.ptx pairs are one submission each", "[grading][batch]") {
  auto without = list_submissions(sample_dir() + "/submissions", false);
  REQUIRE(without.size() == 5);
  CHECK(without[0].name == "correct");
  CHECK(without[1].name == "infinite_loop");
  CHECK(without[4].name == "wrong");
  CHECK_THAT(without[0].path, Catch::EndsWith("submissions/correct.ptx"));
  REQUIRE(without[0].notes.size() == 1);
  CHECK(without[0].notes[0] == "nvcc not found: graded correct.ptx instead of correct.cu");

  auto with = list_submissions(sample_dir() + "/submissions", true);
  CHECK_THAT(with[0].path, Catch::EndsWith("submissions/correct.cu"));
  CHECK(with[0].notes.empty());
}

TEST_CASE("batch: one folder per student, odd entries reported", "[grading][batch]") {
  Scratch s;
  s.copy_sample("submissions/correct.ptx", "class/alice/kernel.ptx");
  s.copy_sample("submissions/slow.ptx", "class/bob.ptx");
  s.write("class/carol/a.ptx", "x");
  s.write("class/carol/b.ptx", "y");
  s.write("class/README.txt", "ignored");
  s.write("class/dave/notes.txt", "nothing to grade");
  auto subs = list_submissions(s.path("class"), false);
  REQUIRE(subs.size() == 4);
  CHECK(subs[0].name == "alice");
  CHECK_THAT(subs[0].path, Catch::EndsWith("alice/kernel.ptx"));
  CHECK(subs[1].name == "bob");
  CHECK(subs[2].name == "carol");
  CHECK(subs[2].notes == std::vector<std::string>{"the folder holds 2 modules; expected one"});
  CHECK(subs[3].notes == std::vector<std::string>{"the folder holds no .cu or .ptx file"});

  Assignment a = grading_test::load(s, grading_test::small_assignment());
  GradeResult carol = score_submission(a, run_submission(a, subs[2]), nullptr);
  CHECK(carol.verdict == Verdict::BadSubmission);
  CHECK(carol.detail == "the folder holds 2 modules; expected one");

  CHECK_THROWS_AS(list_submissions(s.path("class/README.txt"), false), warpsim::Error);
}

TEST_CASE("batch: the sample folder's gradebook and summary", "[grading][batch]") {
  std::vector<GradeResult> results = grade_sample_folder();
  Assignment a = load_assignment(grading_test::sample_assignment());
  CHECK(gradebook_csv(a, results) ==
        "submission,score,max,verdict,correctness,no divergence in the loop,no bank conflicts,coalesced loads,fast\n"
        "correct,100,100,passed,40,20,10,10,20\n"
        "infinite_loop,0,100,limit_exceeded,0,0,0,0,0\n"
        "out_of_bounds,0,100,memory_fault,0,0,0,0,0\n"
        "slow,60,100,criteria_failed,40,0,10,10,0\n"
        "wrong,0,100,wrong_result,0,0,0,0,0\n");
  std::string table = format_summary_table(a, results);
  CHECK_THAT(table, Catch::StartsWith("submission         score  verdict          summary\n"));
  CHECK_THAT(table, Catch::Contains("correct        100 / 100  passed           correct; all 4 criteria met"));
  CHECK_THAT(table, Catch::Contains("5 submissions graded: 1 criteria_failed, 1 limit_exceeded, 1 memory_fault, "
                                    "1 passed, 1 wrong_result"));
  warpsim::Json j = results_to_json(a, results);
  CHECK(j["results"].size() == 5);
  CHECK(j["max"] == 100);
  CHECK(j["results"][1]["limit"] == "warp_instructions");
}

TEST_CASE("gradebook CSV quotes names with commas or quotes", "[grading][batch]") {
  Scratch s;
  Assignment a = grading_test::load(s, grading_test::small_assignment());
  GradeResult g;
  g.name = "smith, \"j\"";
  g.verdict = Verdict::Passed;
  g.score = 15;
  g.max = 15;
  g.parts.resize(2);
  g.parts[0].name = "correctness";
  g.parts[0].points = g.parts[0].max = 10;
  g.parts[1].name = "loads";
  g.parts[1].points = g.parts[1].max = 5;
  CHECK(gradebook_csv(a, {g}) == "submission,score,max,verdict,correctness,loads\n"
                                 "\"smith, \"\"j\"\"\",15,15,passed,10,5\n");
}
