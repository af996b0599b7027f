// Metrics restricted to part of a kernel ("divergent_branch == 0 in the reduction loop"):
// the instructions a `Where` selects, and the per-instruction counters summed over them.
//
// Source lines are the `.loc` lines of the kernel's main source file: the file most of the
// kernel's instructions map to (inlined code from headers is not in it). A region is the
// inclusive range of lines from the one containing `grade:begin NAME` to the one containing
// `grade:end NAME` in that file (usually in comments), so a handout can mark a loop and the
// markers move with the student's code.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sim/grading/assignment.hpp"
#include "sim/foundation/launch_stats.hpp"
#include "sim/isa/ir.hpp"

namespace warpsim::grading {

// The instructions of `kernel` that `where` selects (one flag per instruction), or an error
// saying why they cannot be found (no line information, no source file, no markers).
struct Selection {
  std::vector<bool> pcs;
  std::string error;     // non-empty: nothing selected, and why
  std::string source;    // the main source file ("" when the kernel has no .loc)
};
Selection select_instructions(const isa::Kernel& kernel, const Where& where);

// The path of the kernel's main source file (resolved against the module's folder when
// relative), "" when the kernel has no line information.
std::string main_source_file(const isa::Kernel& kernel);

// Finds the lines of region `name` in `source_text`: {first, last}, or nullopt with `error` set.
std::optional<std::pair<uint32_t, uint32_t>> find_region(const std::string& source_text, const std::string& name,
                                                         std::string& error);

// A metric of scoped_metric_names() summed over the selected instructions.
double scoped_metric(const std::string& metric, const isa::Kernel& kernel, const LaunchStats& stats,
                     const std::vector<bool>& pcs);

}  // namespace warpsim::grading
