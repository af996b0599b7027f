// Source attribution: every per-instruction counter of a launch summed per CUDA source
// line (from the PTX .loc records; an instruction without one counts on its PTX line).
// Answers "which line of my kernel is slow, and why".
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/foundation/config_reader.hpp"
#include "sim/foundation/launch_stats.hpp"
#include "sim/isa/ir.hpp"

namespace warpsim {

struct LineStats {
  std::string file;              // source file (or the PTX file for PTX lines)
  uint32_t line = 0;
  bool ptx_line = false;         // no .loc: the line is in the PTX
  std::string text;              // the source text of the line ("" when unreadable)
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  uint64_t global_requests = 0, global_transactions = 0;  // global and local memory
  uint64_t shared_requests = 0, shared_passes = 0;
  uint64_t branches = 0, divergent_branches = 0;
  uint64_t stall_cycles = 0;     // warp-cycles warps waited to issue this line's instructions
  double efficiency(uint32_t warp_size) const {
    return warp_instructions ? double(thread_instructions) / (double(warp_instructions) * warp_size) : 0;
  }
  double transactions_per_request() const {
    return global_requests ? double(global_transactions) / double(global_requests) : 0;
  }
  double conflict_degree() const { return shared_requests ? double(shared_passes) / double(shared_requests) : 0; }
};

// Lines in source order (by file, then line). Source files are found relative to the
// PTX file's folder (tools/regen_ptx.sh writes them so) or as absolute paths.
std::vector<LineStats> attribute_lines(const LaunchStats& s, const isa::Kernel& kernel);

// The lines that cost the most warp-cycles (stalls plus issues), most expensive first.
std::vector<LineStats> costliest_lines(std::vector<LineStats> lines, size_t n);

std::string format_line_report(const std::vector<LineStats>& lines, const LaunchStats& s);
Json lines_to_json(const std::vector<LineStats>& lines, uint32_t warp_size);

// Per conditional branch and dynamic instance: how many warps reached it, how many diverged.
std::string format_branch_report(const LaunchStats& s, const isa::Kernel& kernel);

}  // namespace warpsim
