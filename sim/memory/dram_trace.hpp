// Drive the DRAM model alone from a request trace (warpsim dram TRACE ...).
//
// Trace format: one request per line, fields separated by spaces, tabs or commas:
//     ARRIVAL  OP  ADDRESS  [BYTES]
// ARRIVAL is a DRAM command cycle (non-decreasing down the file); OP is R, W, RD, WR,
// READ or WRITE (any case); ADDRESS is decimal or 0x-hex; without BYTES the request is
// the one access atom that holds ADDRESS. '#' starts a comment; blank lines are skipped.
// A malformed line is an error naming "file:line".
//
// Back-pressure: requests enter the model in trace order; when the head request's
// channel queue is full, it and everything after it wait (in order) until a slot frees.
// A request is enqueued, before that cycle's tick, in the first cycle >= its arrival at
// which its queue has room (a slot freed by a tick is usable from the next cycle).
// Total cycles = the cycle in which the last request's data completed.
#pragma once
#include <cstdint>
#include <istream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/foundation/launch_stats.hpp"
#include "sim/memory/dram_request.hpp"
#include "sim/memory/dram_spec.hpp"

namespace warpsim::mem {

struct TraceRequest {
  uint64_t arrival = 0;
  uint64_t addr = 0;
  uint32_t bytes = 0;   // 0 = the access atom holding addr
  bool write = false;
};

struct DramRunResult {
  DramStats stats;
  uint64_t cycles = 0;     // last completion cycle (stats.dram_cycles)
  uint64_t requests = 0;
};

// Parse one line. Returns false for blank and comment lines; throws warpsim::Error
// "name:lineno: ..." for a malformed one.
bool parse_trace_line(std::string_view line, std::string_view name, uint64_t lineno,
                      TraceRequest& out);

// When `completions` is given, every request's completion is appended to it (id = the
// request's index in the trace, counting only request lines).
DramRunResult run_dram_trace(const DramSpec& spec, std::istream& in, const std::string& name,
                             std::vector<DramCompletion>* completions = nullptr);
DramRunResult run_dram_requests(const DramSpec& spec, std::span<const TraceRequest> requests,
                                std::vector<DramCompletion>* completions = nullptr);

}  // namespace warpsim::mem
