// What a program run under the runtime reports at exit: an nvprof-style summary per kernel
// (stderr) and every launch's statistics as JSON (the metrics `warpsim run` gives).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "sim/foundation/config_reader.hpp"
#include "sim/spec/device_spec.hpp"
#include "sim/runtime/launch_json_spill.hpp"
#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime {

// "==warpsim==" lines: per kernel, calls and simulated time (total, average, min, max) and
// the key counts; the whole run's simulated and host time, and how many launches faulted. `by_line` adds each kernel's
// per-source-line report for its costliest launch.
// Copies and memsets appear in the time table as nvprof names them ("[CUDA memcpy HtoD]").
std::string format_exec_summary(const std::vector<LaunchRecord>& launches, const std::vector<CopyRecord>& copies,
                                uint64_t faulted, const DeviceSpec& spec, const RuntimeOptions& options,
                                double host_seconds);
// {"program", "device", "config", "mode", "launches": [...], "copies": [...], "faults": [...]}
Json exec_json(const std::vector<LaunchRecord>& launches, const std::vector<CopyRecord>& copies,
               const std::vector<FaultRecord>& faults, const DeviceSpec& spec, const RuntimeOptions& options);
// The same document written to `out` as exec_json(...).dump(2) and a newline would write
// it, with the launches' part made as each launch ended (LaunchJsonSpill): a program's
// thousands of launches never sit in memory as one JSON tree (14,003 launches of cfd took
// 2.8 GB that way), nor as statistics kept for it.
void write_exec_json(std::ostream& out, const LaunchJsonSpill& launches, const std::vector<CopyRecord>& copies,
                     const std::vector<FaultRecord>& faults, const DeviceSpec& spec, const RuntimeOptions& options);
// The same from launch records held in memory.
void write_exec_json(std::ostream& out, const std::vector<LaunchRecord>& launches,
                     const std::vector<CopyRecord>& copies, const std::vector<FaultRecord>& faults,
                     const DeviceSpec& spec, const RuntimeOptions& options);
// One launch as an element of the document's "launches" array: its dump(2), every line
// indented by four.
std::string launch_json_element(const LaunchRecord& r);
// A mangled C++ name demangled ("_Z3addPfPKfi" -> "add(float*, float const*, int)").
std::string demangle(const std::string& name);

}  // namespace warpsim::runtime
