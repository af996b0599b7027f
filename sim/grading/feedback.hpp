// Presenting grades: text feedback for a student, JSON for tools, the gradebook CSV and the
// batch summary table. Pure formatting of GradeResult; nothing here measures or scores.
#pragma once
#include <string>
#include <vector>

#include "sim/foundation/config_reader.hpp"
#include "sim/grading/assignment.hpp"
#include "sim/grading/score.hpp"

namespace warpsim::grading {

// Verdict, score, then one block per part: "[ 40/40] correctness  ..." with what was
// measured and what was required.
std::string format_feedback(const Assignment& a, const GradeResult& g);

// {"name", "path", "verdict", "summary", "detail", "limit", "stage", "notes", "score", "max",
//  "parts": [{"name", "points", "max", "met", "required", "measured", "value", "reference",
//  "feedback"}], "runs": [{"spec", "config", "correct", "check", "metrics"}]}
Json result_to_json(const GradeResult& g);
// {"assignment", "title", "max", "results": [...]}.
Json results_to_json(const Assignment& a, const std::vector<GradeResult>& results);

// "submission,score,max,verdict,<part>,<part>,...\n" then one row per result (RFC 4180 quoting).
std::string gradebook_csv(const Assignment& a, const std::vector<GradeResult>& results);

// A fixed-width table: submission, score, verdict, summary; and a verdict count line.
std::string format_summary_table(const Assignment& a, const std::vector<GradeResult>& results);

}  // namespace warpsim::grading
