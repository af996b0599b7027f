// bench_dram: speed and simulated bandwidth of the DRAM model on its own.
//
//   bench_dram [REQUESTS]        (default 5,000,000)
//
// For each preset (configs/dram/fx5800.json, c2070.json) it builds in memory
//  - a random trace: uniform atom-aligned addresses over 1 GiB, 2/3 reads, two requests
//    arriving per DRAM cycle (more than the channels can serve, so queues stay full), and
//  - a sequential row-hit stream: consecutive atoms from address 0, 16 arriving per cycle,
// runs each through run_dram_requests (the driver `warpsim dram` uses) on one thread and
// prints requests per second of that thread's CPU time (and wall time, which includes
// waiting for a core on a shared machine), simulated bandwidth and row-buffer figures.
// Only the simulation is timed, not the trace generation. Figures go to docs/dram.md.
#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <cstdlib>
#include <string>
#include <vector>

#include "sim/memory/dram_spec.hpp"
#include "sim/memory/dram_trace.hpp"

using namespace warpsim;
using namespace warpsim::mem;

namespace {

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::vector<TraceRequest> random_trace(uint64_t n, uint32_t atom) {
  std::vector<TraceRequest> v(n);
  uint64_t seed = 1;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t addr = splitmix(seed) % (uint64_t(1) << 30) & ~uint64_t(atom - 1);
    const bool write = splitmix(seed) % 3 == 0;
    v[i] = TraceRequest{i / 2, addr, atom, write};
  }
  return v;
}

std::vector<TraceRequest> stream_trace(uint64_t n, uint32_t atom) {
  std::vector<TraceRequest> v(n);
  for (uint64_t i = 0; i < n; ++i) v[i] = TraceRequest{i / 16, i * atom, atom, false};
  return v;
}

// CPU time of this thread: the figure for "one core" when the machine is shared.
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

void run(const std::string& preset, const std::string& kind, const DramSpec& spec,
         const std::vector<TraceRequest>& trace) {
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = thread_cpu_seconds();
  const DramRunResult r = run_dram_requests(spec, trace);
  const double cpu = thread_cpu_seconds() - c0;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const DramStats& s = r.stats;
  const uint64_t rows = s.row_hits + s.row_misses + s.row_conflicts;
  uint64_t reads = 0;
  for (const auto& c : s.channels) reads += c.reads;
  fmt::print("{:<7} {:<7} {:>9} req {:>5.1f}% rd | cpu {:>6.3f} s {:>5.2f} Mreq/s (wall {:>6.3f} s) | "
             "{:>9} cyc {:>6.2f} GB/s of {:>5.1f} ({:>5.1f}%) util {:.3f} hit {:>5.1f}% "
             "BLP {:>5.2f} rd-lat {:>5.1f}\n",
             preset, kind, r.requests, 100.0 * double(reads) / double(r.requests), cpu,
             double(r.requests) / cpu / 1e6, wall, r.cycles, s.achieved_bandwidth_gbps,
             s.peak_bandwidth_gbps, 100 * s.achieved_bandwidth_gbps / s.peak_bandwidth_gbps,
             s.utilization, rows ? 100.0 * double(s.row_hits) / double(rows) : 0,
             s.bank_level_parallelism, s.average_read_latency_dram_cycles);
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 5'000'000;
  fmt::print("bench_dram: {} requests per run, one core, Release build\n", n);
  for (const char* name : {"fx5800", "c2070"}) {
    const std::string path = std::string(WARPSIM_SOURCE_DIR) + "/configs/dram/" + name + ".json";
    const DramSpec spec = load_dram_spec(path);
    run(name, "random", spec, random_trace(n, spec.atom_bytes()));
    run(name, "stream", spec, stream_trace(n, spec.atom_bytes()));
  }
  return 0;
}
