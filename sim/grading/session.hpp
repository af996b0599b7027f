// Grading several submissions of one assignment: the reference solution is run once (when
// the assignment needs it) and every submission goes through the same runner, in-process
// (run_submission) or in a child process each (run_isolated).
#pragma once
#include <functional>
#include <optional>

#include "sim/grading/assignment.hpp"
#include "sim/grading/report.hpp"
#include "sim/grading/score.hpp"
#include "sim/grading/submissions.hpp"

namespace warpsim::grading {

// Runs one submission to a report; must not throw for anything a submission does.
using SubmissionRunner = std::function<SubmissionReport(const Submission&)>;

class GradingSession {
 public:
  // `have_nvcc` picks the solution's module (a .cu, or the .ptx beside it without nvcc).
  GradingSession(const Assignment& assignment, SubmissionRunner runner, bool have_nvcc)
      : assignment_(assignment), runner_(std::move(runner)), have_nvcc_(have_nvcc) {}

  // Runs the reference solution if the assignment needs it (a within_factor_of_reference
  // criterion, or outputs compared with the solution's) and not done yet. Throws Error
  // naming the solution when it fails or gets a wrong result: a grader error, not a grade.
  void prepare_reference();
  // The reference report (null until prepared, or when not needed).
  const SubmissionReport* reference() const { return reference_ ? &*reference_ : nullptr; }

  // Grades one submission (preparing the reference first).
  GradeResult grade(const Submission& submission);

 private:
  const Assignment& assignment_;
  SubmissionRunner runner_;
  std::optional<SubmissionReport> reference_;
  bool have_nvcc_;
  bool prepared_ = false;
};

}  // namespace warpsim::grading
