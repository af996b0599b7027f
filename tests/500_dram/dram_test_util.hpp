// Helpers shared by the DRAM tests: presets, small hand-made specs, and a driver that
// enqueues requests at given cycles and collects completions.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/foundation/config_reader.hpp"
#include "sim/memory/dram_spec.hpp"
#include "sim/memory/dram_system.hpp"

namespace dramtest {

using warpsim::Json;
using warpsim::DramStats;
using warpsim::DramChannelStats;
using namespace warpsim::mem;

inline std::string preset_path(const std::string& name) {
  return std::string(WARPSIM_SOURCE_DIR) + "/configs/dram/" + name + ".json";
}

inline DramSpec preset(const std::string& name, const std::vector<std::string>& sets = {}) {
  return load_dram_spec(preset_path(name), sets);
}

inline Json preset_json(const std::string& name) {
  return warpsim::load_json_file(preset_path(name));
}

inline DramSpec parse(const Json& dram, const std::string& file = "test.json") {
  warpsim::ConfigReader r(dram, file, "dram");
  return parse_dram_spec(r);
}

// A small single-channel spec whose constraints are all distinct, so each one can be
// observed alone: BL = 2 cycles, tRC > tRAS + tRP, tFAW > 4 tRRD, two bank groups.
inline Json distinct_timing_json() {
  return Json::parse(R"({
    "channels": 1, "chips_per_channel": 2, "chip_width_bits": 32, "data_rate": "DDR",
    "command_clock_mhz": 1000, "burst_length": 4, "banks": 8, "bank_groups": 2,
    "columns": 64, "queue_size": 16,
    "address_map": {"channel_interleave_bytes": 256, "scheme": "row_bank_column"},
    "timing": {"tRCD": 9, "tRCDWR": 7, "tRP": 8, "tRAS": 20, "tRC": 31, "tCL": 11, "tWL": 5,
               "tCCD": 3, "tCCDL": 5, "tRRD": 4, "tWTR": 6, "tWR": 10, "tRTP": 4,
               "tFAW": 23, "tREFI": 1000, "tRFC": 50}
  })");
}

struct Arrival {
  uint64_t cycle;
  uint64_t addr;
  bool write = false;
  uint32_t bytes = 0;  // 0 = the atom holding addr
};

// Enqueue each request at its cycle (in order; waits when the queue is full), tick with
// idle skipping (or every cycle) and return completions indexed by request number.
inline std::vector<DramCompletion> run(DramSystem& sys, const std::vector<Arrival>& reqs,
                                       bool every_cycle = false) {
  std::vector<DramCompletion> out(reqs.size());
  size_t next = 0, done = 0;
  uint64_t now = reqs.empty() ? 0 : reqs[0].cycle;
  const uint32_t atom = sys.spec().atom_bytes();
  while (done < reqs.size()) {
    while (next < reqs.size() && reqs[next].cycle <= now &&
           sys.can_accept(reqs[next].addr, reqs[next].write)) {
      const Arrival& a = reqs[next];
      const uint32_t bytes = a.bytes ? a.bytes : atom - uint32_t(a.addr % atom);
      sys.enqueue(DramRequest{next, a.addr, bytes, a.write}, now);
      ++next;
    }
    sys.tick(now);
    for (const DramCompletion& c : sys.completions()) {
      out[c.id] = c;
      ++done;
    }
    sys.completions().clear();
    uint64_t nx = every_cycle ? now + 1 : sys.next_event_cycle();
    if (next < reqs.size()) {
      if (reqs[next].cycle > now) nx = std::min(nx, reqs[next].cycle);
      else if (sys.can_accept(reqs[next].addr, reqs[next].write)) nx = now + 1;
    }
    if (nx == UINT64_MAX) break;
    now = std::max(now + 1, nx);
  }
  return out;
}

}  // namespace dramtest
