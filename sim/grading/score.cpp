// Points, verdicts and per-part feedback from a submission report.
#include "sim/grading/score.hpp"

#include <fmt/format.h>

#include <cmath>

namespace warpsim::grading {
namespace {

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string run_label(const RunMeasurement& r) { return fmt::format("{} @ {}", r.spec, r.config); }

PartResult score_correctness(const Assignment& a, const SubmissionReport& r) {
  PartResult p;
  p.name = "correctness";
  p.max = a.correctness.points;
  p.required = a.correctness.against == Correctness::Against::Spec ? "the spec's check passes on every run"
                                                                   : "the outputs match the reference solution's";
  const RunMeasurement* wrong = nullptr;
  for (const auto& run : r.runs)
    if (!run.correct && !wrong) wrong = &run;
  p.met = wrong == nullptr && !r.runs.empty();
  p.points = p.met ? p.max : 0;
  if (p.met) {
    p.measured = "correct";
    p.feedback = r.runs.size() == 1 ? fmt::format("output correct: {}", r.runs[0].check_message)
                                    : fmt::format("output correct on all {} runs", r.runs.size());
  } else {
    p.measured = fmt::format("{} mismatches", wrong->mismatches);
    p.feedback = fmt::format("wrong output on {}: {}", run_label(*wrong), wrong->check_message);
  }
  return p;
}

PartResult score_criterion(size_t i, const Criterion& c, const SubmissionReport& r, const SubmissionReport* ref,
                           bool correct) {
  PartResult p;
  p.name = c.name;
  p.max = c.points;
  p.required = c.requirement();
  size_t applicable = 0;
  for (const auto& run : r.runs) applicable += run.criteria.at(i).applies;
  bool met = applicable > 0;
  std::string why;         // the first reason it failed
  std::vector<std::string> values;
  for (size_t ri = 0; ri < r.runs.size(); ++ri) {
    const RunMeasurement& run = r.runs[ri];
    const CriterionMeasure& m = run.criteria.at(i);
    if (!m.applies) continue;
    std::string where = applicable > 1 ? fmt::format(" [{}]", run_label(run)) : "";
    if (!m.measured) {
      values.push_back("not measured" + where);
      if (met) why = fmt::format("not measured{}: {}", where, m.note);
      met = false;
      continue;
    }
    std::string shown = format_value(m.value);
    bool ok = false;
    std::optional<double> ref_value;
    if (c.op == CompareOp::WithinFactorOfReference) {
      const CriterionMeasure* rm = ref && ri < ref->runs.size() ? &ref->runs[ri].criteria.at(i) : nullptr;
      if (!rm || !rm->measured) {
        values.push_back(shown + where);
        if (met) why = "the reference solution's value is not available";
        met = false;
        continue;
      }
      ref_value = rm->value;
      double bound = c.higher_is_better ? rm->value / c.value : rm->value * c.value;
      ok = compare(m.value, c.higher_is_better ? CompareOp::Ge : CompareOp::Le, bound);
      shown += fmt::format(" (reference {}, bound {})", format_value(rm->value), format_value(bound));
    } else {
      ok = compare(m.value, c.op, c.value);
    }
    values.push_back(shown + where);
    if (!p.value || (!ok && met)) {
      p.value = m.value;
      p.reference = ref_value;
    }
    if (!ok && met) {
      why = fmt::format("measured {}{}", shown, where);
      met = false;
    }
  }
  p.met = met;
  p.points = met && correct ? p.max : 0;
  p.measured = values.empty() ? "no run applies" : "";
  for (const auto& v : values) p.measured += (p.measured.empty() ? "" : "; ") + v;
  if (met) {
    p.feedback = fmt::format("met: measured {}; required {}", p.measured, p.required);
    if (!correct) p.feedback += "\nnot awarded: the output is wrong";
  } else if (applicable == 0) {
    p.feedback = fmt::format("not met: no run of the assignment applies; required {}", p.required);
  } else {
    p.feedback = fmt::format("NOT met: {}; required {}", why, p.required);
    if (applicable > 1) p.feedback += fmt::format("\nmeasured: {}", p.measured);
  }
  if (!c.description.empty()) p.feedback = c.description + ": " + p.feedback;
  return p;
}

}  // namespace

bool compare(double v, CompareOp op, double t) {
  const double eps = 1e-9 * std::max(1.0, std::fabs(t));
  switch (op) {
    case CompareOp::Eq: return std::fabs(v - t) <= eps;
    case CompareOp::Ne: return std::fabs(v - t) > eps;
    case CompareOp::Lt: return v < t - eps;
    case CompareOp::Le: return v <= t + eps;
    case CompareOp::Gt: return v > t + eps;
    case CompareOp::Ge: return v >= t - eps;
    case CompareOp::WithinFactorOfReference: return false;
  }
  return false;
}

std::string format_value(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
  if (std::fabs(v) >= 1000) return fmt::format("{:.1f}", v);
  return fmt::format("{:.4g}", v);
}

GradeResult score_submission(const Assignment& a, const SubmissionReport& r, const SubmissionReport* ref) {
  GradeResult g;
  g.name = r.name;
  g.path = r.path;
  g.notes = r.notes;
  g.max = a.max_score();
  g.report = r;
  if (r.failure) {
    const Failure& f = *r.failure;
    g.verdict = f.verdict;
    g.limit = f.limit;
    g.stage = f.stage;
    g.detail = f.message;
    std::string what = verdict_title(f.verdict);
    if (!f.limit.empty()) what += " (" + f.limit + ")";
    g.summary = fmt::format("{}: {}", what, first_line(f.message));
    for (const auto& name : a.part_names()) {
      PartResult p;
      p.name = name;
      p.max = name == "correctness" ? a.correctness.points : 0;
      for (const auto& c : a.criteria)
        if (c.name == name) p.max = c.points, p.required = c.requirement();
      p.feedback = fmt::format("not graded: {}", verdict_title(f.verdict));
      g.parts.push_back(p);
    }
    return g;
  }
  PartResult correctness = score_correctness(a, r);
  bool correct = correctness.met;
  g.parts.push_back(correctness);
  size_t failed = 0;
  for (size_t i = 0; i < a.criteria.size(); ++i) {
    g.parts.push_back(score_criterion(i, a.criteria[i], r, ref, correct));
    failed += !g.parts.back().met;
  }
  for (const auto& p : g.parts) g.score += p.points;
  if (!correct) {
    g.verdict = Verdict::WrongResult;
    g.detail = correctness.feedback;
    g.summary = fmt::format("wrong result: {}", first_line(correctness.feedback));
  } else if (failed) {
    g.verdict = Verdict::CriteriaFailed;
    std::string names;
    for (size_t i = 1; i < g.parts.size(); ++i)
      if (!g.parts[i].met) names += (names.empty() ? "" : ", ") + g.parts[i].name;
    g.summary = fmt::format("correct; {} of {} criteria not met: {}", failed, a.criteria.size(), names);
  } else {
    g.verdict = Verdict::Passed;
    g.summary = a.criteria.empty()       ? "correct"
                : a.criteria.size() == 1 ? "correct; the criterion is met"
                                         : fmt::format("correct; all {} criteria met", a.criteria.size());
  }
  return g;
}

}  // namespace warpsim::grading
