// `warpsim grade`: grade coursework kernels against an assignment (docs/grading.md).
//   warpsim grade ASSIGNMENT SUBMISSION [--json OUT] [--gradebook CSV]       one .cu or .ptx
//   warpsim grade ASSIGNMENT FOLDER --gradebook grades.csv [--feedback-dir D] every submission in it
// Each submission runs in a child process (this binary, hidden `--one` mode) under the
// assignment's limits; `--in-process` runs them here instead (debugging only). Exit status
// 0 whenever grading completed, whatever the scores; 1 for grader errors (bad assignment,
// failing reference solution, unwritable output).
#include <fmt/core.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "sim/foundation/error.hpp"
#include "sim/grading/assignment.hpp"
#include "sim/grading/feedback.hpp"
#include "sim/grading/isolation.hpp"
#include "sim/grading/run.hpp"
#include "sim/grading/session.hpp"
#include "sim/launch/launch_spec.hpp"
#include "tools/warpsim/cli_paths.hpp"
#include "tools/warpsim/commands.hpp"

namespace warpsim::cli {

namespace {

namespace fs = std::filesystem;
using namespace warpsim::grading;

struct GradeOptions {
  std::string assignment;
  std::string target;          // a submission file or a folder of them
  std::string json_out;        // "-" for stdout
  std::string gradebook;
  std::string feedback_dir;
  bool in_process = false;
  std::string one_report;      // hidden: child mode, write the report here
  std::string one_name;        // hidden: the submission's display name
};

void write_file(const std::string& path, const std::string& text, const char* what) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  if (!out) throw Error(fmt::format("{}: cannot write the {}", path, what));
}

// The child side of isolation: grade one submission here and write its report.
int run_child(const GradeOptions& o) {
  Assignment a = load_assignment(resolve_input(o.assignment));
  RunnerOptions ro;
  ro.on_stage = [&](const std::string& stage) { write_stage(o.one_report, stage); };
  ro.work_dir = fs::path(o.one_report).parent_path().string();  // the parent removes it
  ro.cudart_dir = cudart_dir();
  Submission s{o.one_name.empty() ? fs::path(o.target).filename().string() : o.one_name, o.target, {}, {}};
  write_report(o.one_report, run_submission(a, s, ro));
  return 0;
}

SubmissionRunner make_runner(const GradeOptions& o, const Assignment& a) {
  if (o.in_process)
    return [&a](const Submission& s) {
      RunnerOptions ro;
      ro.cudart_dir = cudart_dir();
      return run_submission(a, s, ro);
    };
  IsolationOptions iso;
  iso.program = {fs::read_symlink("/proc/self/exe").string()};
  iso.assignment_path = fs::absolute(a.path).string();
  iso.wall_seconds = a.wall_seconds();
  iso.address_space_bytes = a.limits.max_address_space_bytes;
  return [iso](const Submission& s) { return run_isolated(iso, s); };
}

int run(const GradeOptions& o) {
  if (!o.one_report.empty()) return run_child(o);
  Assignment a = load_assignment(resolve_input(o.assignment));
  const bool have_nvcc = !find_nvcc().empty();
  const std::string target = resolve_input(o.target);
  const bool batch = fs::is_directory(target);
  std::vector<Submission> submissions;
  if (batch) {
    submissions = list_submissions(target, have_nvcc);
    if (submissions.empty()) throw Error(fmt::format("{}: no submissions (.cu or .ptx files, or folders of one)", target));
  } else {
    if (!fs::exists(target)) throw Error(fmt::format("{}: no such submission", o.target));
    submissions.push_back(submission_from_file(target));
  }

  GradingSession session(a, make_runner(o, a), have_nvcc);
  const bool json_to_stdout = o.json_out == "-";
  std::vector<GradeResult> results;
  for (const auto& s : submissions) {
    if (batch) fmt::print(stderr, "grading {} ...\n", s.name);
    results.push_back(session.grade(s));
    const GradeResult& g = results.back();
    if (!o.feedback_dir.empty()) {
      fs::create_directories(o.feedback_dir);
      std::string file = g.name;
      for (char& c : file)
        if (c == '/' || c == '\\') c = '_';
      write_file((fs::path(o.feedback_dir) / (file + ".txt")).string(), format_feedback(a, g), "feedback");
    }
    if (!batch && !json_to_stdout) fmt::print("{}", format_feedback(a, g));
  }
  if (batch && !json_to_stdout) fmt::print("{}", format_summary_table(a, results));
  if (!o.gradebook.empty()) write_file(o.gradebook, gradebook_csv(a, results), "gradebook");
  if (!o.json_out.empty()) {
    Json j = batch ? results_to_json(a, results) : result_to_json(results.front());
    if (json_to_stdout) fmt::print("{}\n", j.dump(2));
    else write_file(o.json_out, j.dump(2) + "\n", "JSON results");
  }
  return 0;
}

}  // namespace

void register_grade_command(CLI::App& app) {
  auto o = std::make_shared<GradeOptions>();
  CLI::App* cmd = app.add_subcommand("grade", "Grade coursework kernels against an assignment (score and feedback)");
  cmd->add_option("assignment", o->assignment, "assignment (JSON), e.g. kernels/assignments/reduction/assignment.json")
      ->required();
  cmd->add_option("submission", o->target, "a submission (.cu or .ptx) or a folder of submissions")->required();
  cmd->add_option("--json", o->json_out, "write the results as JSON to this file ('-': standard output)");
  cmd->add_option("--gradebook", o->gradebook, "write a gradebook CSV (one row per submission) to this file");
  cmd->add_option("--feedback-dir", o->feedback_dir, "write each submission's text feedback to DIR/NAME.txt");
  cmd->add_flag("--in-process", o->in_process, "grade in this process instead of a child per submission (debugging)");
  cmd->add_option("--one", o->one_report, "(internal) grade one submission and write its report here")->group("");
  cmd->add_option("--name", o->one_name, "(internal) the submission's display name")->group("");
  cmd->callback([o] {
    int rc = run(*o);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace warpsim::cli
