// Running a submission in a child process so that nothing it does can take the grader down.
//
// The grader forks and execs `program` (the warpsim binary itself) as
//   PROGRAM grade ASSIGNMENT SUBMISSION --one REPORT --name NAME
// in its own process group, with RLIMIT_AS (the assignment's max_address_space_bytes),
// RLIMIT_CPU (the wall-clock limit, rounded up) and no core dumps; stdin is /dev/null and
// stdout/stderr go to a log file. The child writes the stage it is in to REPORT.stage and
// its SubmissionReport as JSON to REPORT (through a rename, so a report is whole or absent).
// The parent waits up to the wall-clock limit, then kills the whole process group (nvcc
// included). Whatever happens becomes a report: a kill at the deadline is limit_exceeded
// (wall_seconds), SIGXCPU limit_exceeded (cpu_seconds), another signal `crashed`, an exit
// without a report `internal_error`, each naming the stage and the end of the log.
#pragma once
#include <string>
#include <vector>

#include "sim/grading/report.hpp"
#include "sim/grading/submissions.hpp"

namespace warpsim::grading {

struct IsolationOptions {
  std::vector<std::string> program;   // argv prefix of the child, e.g. {"/path/to/warpsim"}
  std::string assignment_path;
  double wall_seconds = 60;           // hard kill after this long
  uint64_t address_space_bytes = 0;   // RLIMIT_AS of the child (0: unlimited)
  std::vector<std::string> extra_args;  // appended to the child's command line
};

// The child's argument list after `program` (see above).
std::vector<std::string> child_arguments(const IsolationOptions& o, const Submission& s, const std::string& report);

// Grades `submission` in a child process; never throws for anything the child does.
SubmissionReport run_isolated(const IsolationOptions& options, const Submission& submission);

// The child's side: writes `stage` to REPORT.stage (replacing what was there).
void write_stage(const std::string& report_path, const std::string& stage);
// The child's side: writes the report to `report_path` atomically. Throws Error on failure.
void write_report(const std::string& report_path, const SubmissionReport& report);

}  // namespace warpsim::grading
