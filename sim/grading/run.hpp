// Running one submission in this process: compile (a .cu), load, run every spec on every
// config under the assignment's limits, check the outputs and measure the criteria.
// Never throws: every failure becomes the report's Failure with its verdict. The grader
// runs this in a child process per submission (grading_isolation.hpp); tests call it directly.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "sim/grading/assignment.hpp"
#include "sim/grading/report.hpp"
#include "sim/grading/submissions.hpp"

namespace warpsim::grading {

struct RunnerOptions {
  std::optional<std::string> nvcc;  // nullopt: find_nvcc(); "": act as if nvcc were missing
  // Where compiled PTX goes; "" for a private temporary folder removed afterwards. The child
  // process uses its parent's folder, which the parent removes even when it kills the child.
  std::string work_dir;
  // The folder holding warpsim's libcudart.so.13, for program assignments ("" = none:
  // a program submission is then an internal error).
  std::string cudart_dir;
  // Called at each stage ("compiling x.cu", "running spec.json on c2070") before it starts.
  std::function<void(const std::string&)> on_stage;
};

SubmissionReport run_submission(const Assignment& assignment, const Submission& submission,
                                const RunnerOptions& options = {});

}  // namespace warpsim::grading
