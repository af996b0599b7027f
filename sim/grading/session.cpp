#include "sim/grading/session.hpp"

#include <fmt/format.h>

#include "sim/foundation/error.hpp"

namespace warpsim::grading {

void GradingSession::prepare_reference() {
  if (prepared_) return;
  prepared_ = true;
  const Assignment& a = assignment_;
  bool needed = a.needs_reference_measurements() || a.correctness.against == Correctness::Against::Solution;
  if (!needed || a.solution.empty()) return;
  Submission s{"reference solution", pick_module(a.solution, have_nvcc_), {}, {}};
  SubmissionReport r = runner_(s);
  if (r.failure)
    throw Error(fmt::format("{}: solution: the reference solution {} fails: {} ({})", a.path, s.path,
                            r.failure->message, verdict_name(r.failure->verdict)));
  for (const auto& run : r.runs)
    if (!run.correct)
      throw Error(fmt::format("{}: solution: the reference solution {} gives a wrong result on {} @ {}: {}", a.path,
                              s.path, run.spec, run.config, run.check_message));
  reference_ = std::move(r);
}

GradeResult GradingSession::grade(const Submission& submission) {
  prepare_reference();
  return score_submission(assignment_, runner_(submission), reference());
}

}  // namespace warpsim::grading
