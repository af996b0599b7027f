// Text, JSON and CSV forms of grades.
#include "sim/grading/feedback.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace warpsim::grading {
namespace {

std::string indent(const std::string& text, const std::string& pad) {
  std::string out = pad;
  for (char c : text) {
    out += c;
    if (c == '\n') out += pad;
  }
  return out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string points(double p) { return format_value(p); }

}  // namespace

std::string format_feedback(const Assignment& a, const GradeResult& g) {
  std::string out;
  out += fmt::format("Assignment: {}\n", a.title);
  out += fmt::format("Submission: {} ({})\n", g.name, g.path);
  for (const auto& n : g.notes) out += fmt::format("Note:       {}\n", n);
  // A failure's message follows in full below, so its verdict line only names it.
  bool failed = g.report.failure.has_value();
  std::string limit = g.limit.empty() ? "" : " (" + g.limit + ")";
  out += fmt::format("Verdict:    {} - {}\n", verdict_name(g.verdict),
                     failed ? std::string(verdict_title(g.verdict)) + limit : g.summary);
  out += fmt::format("Score:      {} / {}\n", points(g.score), points(g.max));
  if (!g.stage.empty()) out += fmt::format("Stopped while {}\n", g.stage);
  if (failed && !g.detail.empty()) out += fmt::format("\n{}\n", indent(g.detail, "  "));
  out += "\n";
  size_t width = 0;
  for (const auto& p : g.parts) width = std::max(width, points(p.max).size());
  for (const auto& p : g.parts) {
    out += fmt::format("[{:>{}}/{}] {}\n", points(p.points), width, points(p.max), p.name);
    out += indent(p.feedback, "    ") + "\n";
  }
  return out;
}

Json result_to_json(const GradeResult& g) {
  Json j;
  j["name"] = g.name;
  j["path"] = g.path;
  j["verdict"] = verdict_name(g.verdict);
  j["summary"] = g.summary;
  j["detail"] = g.detail;
  j["limit"] = g.limit;
  j["stage"] = g.stage;
  j["notes"] = g.notes;
  j["score"] = g.score;
  j["max"] = g.max;
  Json parts = Json::array();
  for (const auto& p : g.parts) {
    Json jp = {{"name", p.name},         {"points", p.points},     {"max", p.max},
               {"met", p.met},           {"required", p.required}, {"measured", p.measured},
               {"feedback", p.feedback}};
    jp["value"] = p.value ? Json(*p.value) : Json(nullptr);
    jp["reference"] = p.reference ? Json(*p.reference) : Json(nullptr);
    parts.push_back(jp);
  }
  j["parts"] = parts;
  Json runs = Json::array();
  for (const auto& r : g.report.runs)
    runs.push_back({{"spec", r.spec}, {"config", r.config}, {"correct", r.correct}, {"check", r.check_message},
                    {"metrics", r.metrics}});
  j["runs"] = runs;
  j["seconds"] = g.report.seconds;
  return j;
}

Json results_to_json(const Assignment& a, const std::vector<GradeResult>& results) {
  Json list = Json::array();
  for (const auto& r : results) list.push_back(result_to_json(r));
  return {{"assignment", a.path}, {"title", a.title}, {"max", a.max_score()}, {"results", list}};
}

std::string gradebook_csv(const Assignment& a, const std::vector<GradeResult>& results) {
  std::string out = "submission,score,max,verdict";
  for (const auto& name : a.part_names()) out += fmt::format(",{}", csv_field(name));
  out += "\n";
  for (const auto& r : results) {
    out += fmt::format("{},{},{},{}", csv_field(r.name), points(r.score), points(r.max), verdict_name(r.verdict));
    for (const auto& p : r.parts) out += fmt::format(",{}", points(p.points));
    out += "\n";
  }
  return out;
}

std::string format_summary_table(const Assignment& a, const std::vector<GradeResult>& results) {
  size_t name_w = std::string("submission").size(), verdict_w = std::string("verdict").size();
  for (const auto& r : results) {
    name_w = std::max(name_w, r.name.size());
    verdict_w = std::max(verdict_w, std::string(verdict_name(r.verdict)).size());
  }
  std::string max = points(a.max_score());
  size_t score_w = std::max<size_t>(5, max.size() * 2 + 3);
  std::string out = fmt::format("{:<{}}  {:>{}}  {:<{}}  {}\n", "submission", name_w, "score", score_w, "verdict",
                                verdict_w, "summary");
  std::map<std::string, int> counts;
  for (const auto& r : results) {
    std::string summary = r.summary.size() > 100 ? r.summary.substr(0, 97) + "..." : r.summary;
    out += fmt::format("{:<{}}  {:>{}}  {:<{}}  {}\n", r.name, name_w, points(r.score) + " / " + points(r.max),
                       score_w, verdict_name(r.verdict), verdict_w, summary);
    ++counts[verdict_name(r.verdict)];
  }
  std::string tally;
  for (const auto& [v, n] : counts) tally += fmt::format("{}{} {}", tally.empty() ? "" : ", ", n, v);
  out += fmt::format("{} submission{} graded{}{}\n", results.size(), results.size() == 1 ? "" : "s",
                     tally.empty() ? "" : ": ", tally);
  return out;
}

}  // namespace warpsim::grading
