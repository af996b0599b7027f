// Grading assignments (docs/grading.md): a JSON file naming the kernel students write, the
// launch specs and device configs it runs on, how its output is checked, the performance
// criteria, points and resource limits. Parsing is strict: every problem is a ConfigError
// "ASSIGNMENT: key.path: message" (unknown keys included).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/device.hpp"
#include "sim/spec/device_spec.hpp"
#include "sim/launch/launch_spec.hpp"

namespace warpsim::grading {

// One launch spec of the assignment; the submission's module replaces the spec's.
struct AssignmentSpec {
  std::string label;   // as written in the assignment (file name), for feedback and filters
  LaunchSpec spec;     // kernel already set to the assignment's kernel
};

// One device config, with its overrides applied.
struct AssignmentConfig {
  std::string label;   // the name or path as written, e.g. "c2070"
  DeviceSpec device;
  std::string path;               // the config file
  std::vector<std::string> sets;  // its overrides
};

// Resource limits of every run of a submission (0 = none only where noted).
struct GradingLimits {
  uint64_t max_cycles = 100'000'000;             // simulated cycles per launch (timing mode)
  uint64_t max_warp_instructions = 100'000'000;  // warp instructions per launch
  uint64_t max_device_memory_bytes = uint64_t(512) << 20;  // device memory capacity
  double max_host_seconds = 60;                  // simulator host time per launch
  double max_wall_seconds = 0;                   // whole child process (compile included);
                                                 // 0: derived, see wall_seconds()
  uint64_t max_address_space_bytes = uint64_t(8) << 30;  // child process RLIMIT_AS (0: none)
  double max_program_seconds = 0;                // program mode: one run of the program (wall
                                                 // clock); 0: 2 x max_host_seconds
};

enum class CompareOp { Eq, Ne, Lt, Le, Gt, Ge, WithinFactorOfReference };

// "op" spelling: "==", "<=", ..., "within_factor_of_reference".
const char* op_name(CompareOp op);

// Restricts a metric to some instructions of the submission's kernel.
struct Where {
  enum class Kind { All, SourceLines, Region, PtxText };
  Kind kind = Kind::All;
  uint32_t first_line = 0, last_line = 0;  // SourceLines: inclusive .loc lines of the main source
  std::string region;                      // Region: name between grade:begin/grade:end markers
  std::string ptx_pattern;                 // PtxText: ECMAScript regex searched in the PTX text
  // "source lines 12-18", "region 'reduce_loop'", "PTX text matching /bra/" ("" for All).
  std::string describe() const;
};

// How a program-mode criterion combines the launches it covers.
enum class Aggregate { Max, Min, Sum, Mean };
const char* aggregate_name(Aggregate a);

struct Criterion {
  std::string name;                 // unique; the gradebook column
  std::string description;
  std::string metric;               // nvprof-style name (metrics.hpp)
  CompareOp op = CompareOp::Le;
  double value = 0;                 // threshold, or the factor for WithinFactorOfReference
  bool higher_is_better = false;    // WithinFactorOfReference: "better": "higher"
  double points = 0;
  Where where;
  std::vector<std::string> specs;   // labels of the runs it applies to (empty: all)
  std::vector<std::string> configs;
  // Program mode: the launches measured (kernel name, mangled or plain; "" = every launch)
  // and how their values combine.
  bool over_launches = false;       // program mode
  std::string kernel;
  Aggregate aggregate = Aggregate::Max;

  bool applies_to(const std::string& spec_label, const std::string& config_label) const;
  // "gld_transactions_per_request <= 1", "elapsed_cycles_sm <= 1.25 x reference".
  std::string requirement() const;
};

struct Correctness {
  // Spec: each launch spec's check. Solution: the reference solution's outputs (kernel mode)
  // or standard output and files (program mode). Expected: the program's expected output.
  enum class Against { Spec, Solution, Expected };
  Against against = Against::Spec;
  double points = 0;
  std::vector<std::string> outputs;  // Solution: buffers compared (default: the spec's check outputs)
  double tolerance = 0;              // Solution: as in launch specs
};

// A file a program writes in its run folder, compared with an expected file.
struct ExpectedFile {
  std::string file;      // relative to the program's run folder
  std::string expected;  // resolved path ("" with correctness against the solution)
};

// Program mode: students submit a whole program (a .cu with main()), built with
// `nvcc -cudart shared` and run under warpsim's CUDA runtime.
struct ProgramSpec {
  std::vector<std::string> args;    // argv[1..]
  std::string stdin_file;           // resolved path; "" = /dev/null
  std::string expected_stdout;      // resolved path; "" = stdout is not checked
  std::vector<ExpectedFile> files;  // output files checked
  double tolerance = 0;             // numbers match when |got - want| <= tolerance x max(1, |want|)
};

struct Assignment {
  std::string path;                  // the assignment file
  std::string title, description;
  std::string kernel;                // kernel mode: the kernel students write
  std::vector<AssignmentSpec> specs; // kernel mode
  std::optional<ProgramSpec> program;  // program mode (then kernel and specs are empty)
  std::vector<AssignmentConfig> configs;
  SimMode mode = SimMode::Timing;
  std::string solution;              // reference solution module as given (.cu or .ptx), "" when none
  // Header files a .cu submission may #include "by_name" (resolved paths; copied beside the
  // submission in its scratch folder). Other includes are limited to the CUDA toolkit's and
  // the standard library's (grading_includes.hpp).
  std::vector<std::string> headers;
  Correctness correctness;
  std::vector<Criterion> criteria;
  GradingLimits limits;

  double max_score() const;
  // Runs per submission: specs x configs, spec-major (program mode: one per config).
  size_t runs() const { return (program ? 1 : specs.size()) * configs.size(); }
  // The child process's wall-clock limit: max_wall_seconds, or else 30 s for compiling plus
  // 2 x max_host_seconds per run (each run also needs a reference run when checked against
  // the solution).
  double wall_seconds() const;
  // Program mode: how long one run of the program may take.
  double program_seconds() const;
  // True when the reference solution must be measured (a within_factor_of_reference criterion).
  bool needs_reference_measurements() const;
  // The part names in order: "correctness", then each criterion's name.
  std::vector<std::string> part_names() const;
};

// Parses and validates an assignment; relative paths are relative to the assignment file,
// config names such as "c2070" are configs/NAME.json of the source tree.
Assignment load_assignment(const std::string& path);
Assignment parse_assignment(const Json& doc, const std::string& path);

// Every metric name a criterion may use in `mode`, and those that take a "where".
std::vector<std::string> metric_names(SimMode mode);
const std::vector<std::string>& scoped_metric_names();

}  // namespace warpsim::grading
