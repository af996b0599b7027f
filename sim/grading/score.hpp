// Scoring a submission report against the assignment: points per part (correctness, then
// each criterion), the verdict, and the feedback of each part.
//
// Rules (docs/grading.md): a failure (compile error, fault, limit, ...) scores 0 in every
// part. Otherwise correctness needs the right output on every run; a criterion needs its
// comparison to hold on every run it applies to, and earns its points only when the output
// is also correct (a fast wrong kernel earns nothing). Comparisons allow a relative error
// of 1e-9 so that a ratio such as 1.0000000000002 meets "<= 1".
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sim/grading/assignment.hpp"
#include "sim/grading/report.hpp"

namespace warpsim::grading {

struct PartResult {
  std::string name;               // "correctness" or the criterion's name
  double points = 0, max = 0;
  bool met = false;               // the requirement held (criteria: even when not awarded)
  std::string required;           // "divergent_branch in region 'reduce_loop' == 0"
  std::string measured;           // "448", or per run "448 [a.json @ c2070]; 0 [b.json @ c2070]"
  std::optional<double> value;    // the deciding run's value (the first failing one, else the first)
  std::optional<double> reference;  // the reference's value there (within_factor_of_reference)
  std::string feedback;           // for the student; may span lines
};

struct GradeResult {
  std::string name, path;
  Verdict verdict = Verdict::InternalError;
  std::string summary;            // one line: "memory fault: out-of-bounds ..." / "100 of 100 points"
  std::string detail;             // the full failure message or first mismatches ("" when none)
  std::string limit;              // LimitExceeded: which limit
  std::string stage;              // failures: where it stopped
  std::vector<std::string> notes;
  double score = 0, max = 0;
  std::vector<PartResult> parts;  // in Assignment::part_names() order
  SubmissionReport report;        // the measurements behind it
};

// `reference` is the reference solution's report; required when the assignment has a
// within_factor_of_reference criterion (without it those criteria fail with a note).
GradeResult score_submission(const Assignment& assignment, const SubmissionReport& report,
                             const SubmissionReport* reference);

// Whether `value op threshold` holds, with the 1e-9 relative tolerance.
bool compare(double value, CompareOp op, double threshold);

// A metric value for feedback: integers plainly ("1234"), others with 4 significant digits.
std::string format_value(double v);

}  // namespace warpsim::grading
