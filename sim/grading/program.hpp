// Whole-program submissions (docs/grading.md, "Grading whole programs"): running a program
// built with `nvcc -cudart shared` under warpsim's CUDA runtime, as `warpsim exec` does,
// with the assignment's config, mode and limits; comparing what it printed and wrote; and
// reading each launch's metrics from the runtime's JSON report.
//
// The program's host code runs natively, as the student's user: it is bounded (wall
// clock, address space, file size, output read) but not sandboxed.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/device.hpp"
#include "sim/foundation/config_reader.hpp"
#include "sim/grading/assignment.hpp"

namespace warpsim::grading {

struct ProgramRun {
  std::string program;         // the built program
  std::string run_dir;         // its working folder: created, and emptied first
  std::string cudart_dir;      // the folder holding warpsim's libcudart.so.13
  std::string config_path;     // device config file
  std::vector<std::string> sets;  // config overrides (WARPSIM_SET)
  SimMode mode = SimMode::Timing;
  Limits limits;               // per launch
  const ProgramSpec* spec = nullptr;
  double wall_seconds = 60;    // the program is killed past this
  uint64_t max_file_bytes = uint64_t(64) << 20;    // RLIMIT_FSIZE of the program
  uint64_t max_address_space_bytes = 0;            // RLIMIT_AS of the program (0: none)
  uint64_t max_output_bytes = uint64_t(1) << 20;   // stdout read back for comparison
};

struct ProgramOutcome {
  int exit_status = -1;       // the exit code; -1 when a signal ended it
  int signal = 0;             // the signal that ended it (0: it exited)
  bool timed_out = false;     // killed at wall_seconds
  std::string stdout_text;    // at most max_output_bytes
  bool stdout_truncated = false;
  std::string stderr_tail;    // its last lines (the runtime's messages among them)
  std::optional<Json> report; // the runtime's JSON (launches, copies, faults), when written
};

// Runs the program; throws Error only when it cannot be started at all.
ProgramOutcome run_program(const ProgramRun& run);

// Whitespace-separated tokens compared in order; two numbers match when |got - want| <=
// tolerance x max(1, |want|). "" when they match, else where they first differ:
// "line 3: got '1.5', want '1.25'" or "output ends at line 2; expected more: '42'".
std::string compare_output(const std::string& got, const std::string& want, double tolerance);

// Whether a launch of kernel `mangled` (demangled `demangled`) is `name`: the mangled name,
// or the demangled one up to its parameter list ("reduce", "ns::reduce<int>").
bool kernel_matches(const std::string& name, const std::string& mangled, const std::string& demangled);

// A criterion's value over the report's launches of its kernel; nullopt with `note` saying
// why when there is none (no launch of the kernel, the metric not measured).
std::optional<double> program_metric(const Json& report, const Criterion& c, std::string* note);

}  // namespace warpsim::grading
