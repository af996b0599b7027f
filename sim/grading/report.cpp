// Verdict names and the JSON form of submission reports (child process -> grader).
#include "sim/grading/report.hpp"

#include <fmt/format.h>

#include <array>

#include "sim/foundation/error.hpp"

namespace warpsim::grading {
namespace {

struct VerdictInfo {
  Verdict verdict;
  const char* name;
  const char* title;
};

constexpr std::array<VerdictInfo, 16> kVerdicts = {{
    {Verdict::Passed, "passed", "passed"},
    {Verdict::CriteriaFailed, "criteria_failed", "correct, but performance criteria failed"},
    {Verdict::WrongResult, "wrong_result", "wrong result"},
    {Verdict::CompileError, "compile_error", "compile error"},
    {Verdict::NvccNotFound, "nvcc_not_found", "nvcc not found"},
    {Verdict::PtxError, "ptx_error", "PTX rejected"},
    {Verdict::MissingKernel, "missing_kernel", "kernel missing"},
    {Verdict::BadSignature, "bad_signature", "wrong kernel signature"},
    {Verdict::LaunchError, "launch_error", "launch error"},
    {Verdict::MemoryFault, "memory_fault", "memory fault"},
    {Verdict::Deadlock, "deadlock", "barrier deadlock"},
    {Verdict::Trap, "trap", "trap"},
    {Verdict::LimitExceeded, "limit_exceeded", "limit exceeded"},
    {Verdict::Crashed, "crashed", "grader process crashed"},
    {Verdict::InternalError, "internal_error", "internal grader error"},
    {Verdict::BadSubmission, "bad_submission", "not a gradable submission"},
}};

const VerdictInfo& info(Verdict v) {
  for (const auto& i : kVerdicts)
    if (i.verdict == v) return i;
  return kVerdicts.back();
}

template <typename T>
T field(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) throw Error(fmt::format("grading report: missing \"{}\"", key));
  return it->get<T>();
}

}  // namespace

const char* verdict_name(Verdict v) { return info(v).name; }
const char* verdict_title(Verdict v) { return info(v).title; }

std::optional<Verdict> parse_verdict(const std::string& name) {
  for (const auto& i : kVerdicts)
    if (name == i.name) return i.verdict;
  return std::nullopt;
}

Json report_to_json(const SubmissionReport& r) {
  Json j;
  j["name"] = r.name;
  j["path"] = r.path;
  j["notes"] = r.notes;
  j["seconds"] = r.seconds;
  if (r.failure) {
    j["failure"] = {{"verdict", verdict_name(r.failure->verdict)},
                    {"limit", r.failure->limit},
                    {"message", r.failure->message},
                    {"stage", r.failure->stage}};
  } else {
    j["failure"] = nullptr;
  }
  Json runs = Json::array();
  for (const auto& run : r.runs) {
    Json criteria = Json::array();
    for (const auto& c : run.criteria)
      criteria.push_back({{"applies", c.applies}, {"measured", c.measured}, {"value", c.value}, {"note", c.note}});
    runs.push_back({{"spec", run.spec},
                    {"config", run.config},
                    {"correct", run.correct},
                    {"check_message", run.check_message},
                    {"mismatches", run.mismatches},
                    {"metrics", run.metrics},
                    {"criteria", criteria}});
  }
  j["runs"] = runs;
  return j;
}

SubmissionReport report_from_json(const Json& j) {
  try {
    SubmissionReport r;
    r.name = field<std::string>(j, "name");
    r.path = field<std::string>(j, "path");
    r.notes = field<std::vector<std::string>>(j, "notes");
    r.seconds = field<double>(j, "seconds");
    const Json& f = j.at("failure");
    if (!f.is_null()) {
      Failure failure;
      auto v = parse_verdict(field<std::string>(f, "verdict"));
      if (!v) throw Error("grading report: unknown verdict");
      failure.verdict = *v;
      failure.limit = field<std::string>(f, "limit");
      failure.message = field<std::string>(f, "message");
      failure.stage = field<std::string>(f, "stage");
      r.failure = failure;
    }
    for (const Json& run : j.at("runs")) {
      RunMeasurement m;
      m.spec = field<std::string>(run, "spec");
      m.config = field<std::string>(run, "config");
      m.correct = field<bool>(run, "correct");
      m.check_message = field<std::string>(run, "check_message");
      m.mismatches = field<uint64_t>(run, "mismatches");
      m.metrics = field<std::map<std::string, double>>(run, "metrics");
      for (const Json& c : run.at("criteria")) {
        CriterionMeasure cm;
        cm.applies = field<bool>(c, "applies");
        cm.measured = field<bool>(c, "measured");
        cm.value = field<double>(c, "value");
        cm.note = field<std::string>(c, "note");
        m.criteria.push_back(cm);
      }
      r.runs.push_back(std::move(m));
    }
    return r;
  } catch (const Json::exception& e) {
    throw Error(fmt::format("grading report: {}", e.what()));
  }
}

}  // namespace warpsim::grading
