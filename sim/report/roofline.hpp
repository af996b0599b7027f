// The roofline model of one launch (`warpsim roofline`): the config's peak arithmetic rate
// and DRAM bandwidth, the kernel's floating-point work and DRAM traffic, and which roof
// limits it.
//
//   FLOPs (from LaunchStats::per_pc[pc].active_threads and Kernel::code[pc]): add, sub and
//     mul count 1 per active thread, fma and mad 2; .f32 and .f64 separately. Nothing else
//     counts (div, sqrt, rcp, transcendentals, min/max, abs/neg, conversions, f16), as
//     nvprof's flop_count_sp/dp. Active threads include lanes a guard predicate turns off.
//   bytes: DRAM read + write bytes (timing mode with a DRAM model); otherwise the bytes the
//     global load/store transactions moved (functional mode: an upper bound on DRAM traffic
//     where caches catch reuse).
//   intensity = FLOPs / bytes. Peaks: FP32 = SMs x sm.cores x 2 (an FMA/MAD per lane per
//     cycle) x clock; FP64 = SMs x sm.dp_units x 2 x clock; DRAM = dram.peak_bandwidth_gbps().
//     ridge = peak / DRAM bandwidth. The kernel is classified against the FP64 roof when it
//     does more FP64 than FP32 FLOPs, else the FP32 roof: memory-bound when its intensity is
//     below the ridge, compute-bound otherwise.
#pragma once
#include <cstdint>
#include <string>

#include "sim/foundation/config_reader.hpp"
#include "sim/spec/device_spec.hpp"
#include "sim/foundation/launch_stats.hpp"
#include "sim/report/svg_plot.hpp"
#include "sim/isa/ir.hpp"

namespace warpsim {

struct FlopCount {
  uint64_t sp_add = 0, sp_mul = 0, sp_fma = 0;  // thread-level instructions (add includes sub)
  uint64_t dp_add = 0, dp_mul = 0, dp_fma = 0;
  uint64_t sp() const { return sp_add + sp_mul + 2 * sp_fma; }
  uint64_t dp() const { return dp_add + dp_mul + 2 * dp_fma; }
  uint64_t total() const { return sp() + dp(); }
};

// Floating-point operations of a launch (see the file comment).
FlopCount count_flops(const isa::Kernel& kernel, const LaunchStats& stats);

struct DevicePeaks {
  double sp_gflops = 0;   // FP32 FMA lanes x 2 x clock x SMs
  double dp_gflops = 0;   // FP64 units x 2 x clock x SMs
  double dram_gbps = 0;   // 0 when the config has no DRAM model
};

DevicePeaks device_peaks(const DeviceSpec& spec);

struct Roofline {
  std::string kernel, device;
  FlopCount flops;
  double flop_total = 0;          // sp + dp
  uint64_t bytes = 0;
  bool bytes_from_dram = false;   // false: global transaction bytes (no DRAM stats)
  std::string bytes_source;       // "DRAM read + write bytes" / "global load/store transaction bytes (...)"
  double intensity = 0;           // flop/B; +inf when bytes is 0 and flops are not
  DevicePeaks peaks;
  bool double_precision = false;  // classified against the FP64 roof
  double peak_gflops = 0;         // the roof used
  double ridge = 0;               // flop/B where the roofs meet: peak_gflops / dram_gbps
  double attainable_gflops = 0;   // min(peak_gflops, intensity x dram_gbps)
  bool timed = false;             // a timing run: the achieved rates below are known
  double seconds = 0;
  double achieved_gflops = 0;     // flop_total / seconds / 1e9
  double achieved_gbps = 0;       // bytes / seconds / 1e9
  bool memory_bound = false;      // intensity < ridge

  // "memory-bound" or "compute-bound".
  std::string bound() const;
  // "memory-bound (AI 0.0833 flop/B < ridge 7.16)" / "compute-bound (AI 12.5 flop/B >= ridge 7.16)".
  std::string classification() const;
};

// The roofline numbers of one launch of `kernel` on `spec`.
Roofline analyze_roofline(const LaunchStats& stats, const isa::Kernel& kernel, const DeviceSpec& spec);

// Lines of text with every number and how it was obtained.
std::string format_roofline(const Roofline& r);
Json roofline_to_json(const Roofline& r);
// A log-log roofline chart: the FP32 and FP64 roofs, the ridge, the kernel's point labelled
// with its intensity, its rate and its bound.
svg::Chart roofline_chart(const Roofline& r);

}  // namespace warpsim
