// What running one submission produced, before scoring: how far it got (a failure with
// its verdict, or every run completed) and, per run, the correctness check and the
// measured values of the criteria. A child process writes this as JSON and the grader
// reads it back, so the two functions below must round-trip exactly.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/foundation/config_reader.hpp"

namespace warpsim::grading {

// The verdict of a graded submission. The first three come from scoring a submission whose
// runs all completed; the others from a failure that stopped it.
enum class Verdict {
  Passed,          // correct, every criterion met
  CriteriaFailed,  // correct, some criterion not met
  WrongResult,     // ran, output differs from the reference
  CompileError,    // nvcc rejected the .cu
  NvccNotFound,    // a .cu and no nvcc
  PtxError,        // the loader rejected the PTX (unsupported or malformed)
  MissingKernel,   // no kernel of the assignment's name
  BadSignature,    // the kernel's parameters do not take the spec's arguments
  LaunchError,     // a launch CUDA would refuse (too many resources, ...)
  MemoryFault,     // out-of-bounds or misaligned access
  Deadlock,        // barrier deadlock
  Trap,            // trap instruction
  LimitExceeded,   // a resource limit (which one: Failure::limit)
  Crashed,         // the grading process died (a signal); should never happen
  InternalError,   // a grader error while grading this submission
  BadSubmission,   // not a .cu/.ptx file, or unreadable
};

// "passed", "criteria_failed", "wrong_result", "compile_error", ...
const char* verdict_name(Verdict v);
std::optional<Verdict> parse_verdict(const std::string& name);
// One line for people: "memory fault", "limit exceeded", ...
const char* verdict_title(Verdict v);

struct Failure {
  Verdict verdict = Verdict::InternalError;
  std::string limit;     // LimitExceeded: "warp_instructions", "cycles", "host_seconds",
                         // "device_memory", "address_space", "wall_seconds", "cpu_seconds"
  std::string message;   // the full message (engine's, loader's, nvcc's summary)
  std::string stage;     // where: "compiling x.cu", "running spec.json on c2070", ...
};

// One criterion on one run.
struct CriterionMeasure {
  bool applies = false;   // the criterion's specs/configs include this run
  bool measured = false;  // a value was measured (else `note` says why)
  double value = 0;
  std::string note;       // e.g. "region 'loop' is not marked"
};

struct RunMeasurement {
  std::string spec, config;        // labels
  bool correct = false;
  std::string check_message;       // compare_outputs' message
  uint64_t mismatches = 0;
  std::map<std::string, double> metrics;  // every metric of the run
  std::vector<CriterionMeasure> criteria; // one per assignment criterion
};

struct SubmissionReport {
  std::string name;                // display name (file stem or folder name)
  std::string path;                // the module graded
  std::vector<std::string> notes;  // e.g. "graded x.ptx: nvcc not found"
  std::optional<Failure> failure;  // none: every run completed
  std::vector<RunMeasurement> runs;
  double seconds = 0;              // host time spent grading it
};

Json report_to_json(const SubmissionReport& r);
// Throws Error when the document is not a report.
SubmissionReport report_from_json(const Json& j);

}  // namespace warpsim::grading
