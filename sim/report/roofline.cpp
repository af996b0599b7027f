#include "sim/report/roofline.hpp"

#include <fmt/format.h>

#include <cxxabi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "sim/foundation/error.hpp"

namespace warpsim {

namespace {

using isa::DType;
using isa::Op;

std::string grouped(uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// 3 significant digits below 100, whole numbers above: "0.0855", "7.16", "50.7", "1030".
std::string g3(double v) {
  if (std::isinf(v)) return "inf";
  if (std::fabs(v) >= 100) return fmt::format("{:.0f}", v);
  return fmt::format("{:.3g}", v);
}

// "vecAddKernel" for "_Z12vecAddKernelPfS_S_i": the demangled name without its parameters.
std::string plain_name(const std::string& name) {
  int status = 0;
  char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || !d) return name;
  std::string out = d;
  std::free(d);
  return out.substr(0, out.find('('));
}

double decade_floor(double v) { return std::pow(10, std::floor(std::log10(v) + 1e-9)); }
double decade_ceil(double v) { return std::pow(10, std::ceil(std::log10(v) - 1e-9)); }

}  // namespace

FlopCount count_flops(const isa::Kernel& kernel, const LaunchStats& stats) {
  FlopCount f;
  size_t n = std::min(kernel.code.size(), stats.per_pc.size());
  for (size_t pc = 0; pc < n; ++pc) {
    const isa::Instr& in = kernel.code[pc];
    uint64_t threads = stats.per_pc[pc].active_threads;
    if (!threads || (in.type != DType::F32 && in.type != DType::F64)) continue;
    bool dp = in.type == DType::F64;
    switch (in.op) {
      case Op::Add:
      case Op::Sub: (dp ? f.dp_add : f.sp_add) += threads; break;
      case Op::Mul: (dp ? f.dp_mul : f.sp_mul) += threads; break;
      case Op::Fma:
      case Op::Mad: (dp ? f.dp_fma : f.sp_fma) += threads; break;
      default: break;
    }
  }
  return f;
}

DevicePeaks device_peaks(const DeviceSpec& spec) {
  DevicePeaks p;
  double ghz = spec.clock_mhz / 1e3;
  p.sp_gflops = double(spec.sm.count) * spec.sm.cores * 2.0 * ghz;
  p.dp_gflops = double(spec.sm.count) * spec.sm.dp_units * 2.0 * ghz;
  p.dram_gbps = spec.has_dram ? spec.dram.peak_bandwidth_gbps() : 0.0;
  return p;
}

std::string Roofline::bound() const { return memory_bound ? "memory-bound" : "compute-bound"; }

std::string Roofline::classification() const {
  return fmt::format("{} (AI {} flop/B {} ridge {})", bound(), g3(intensity), memory_bound ? "<" : ">=", g3(ridge));
}

Roofline analyze_roofline(const LaunchStats& stats, const isa::Kernel& kernel, const DeviceSpec& spec) {
  Roofline r;
  r.kernel = plain_name(kernel.name);
  r.device = spec.name;
  r.flops = count_flops(kernel, stats);
  r.flop_total = double(r.flops.total());
  r.peaks = device_peaks(spec);
  if (r.peaks.dram_gbps <= 0)
    throw ConfigError(fmt::format("{}: the config has no DRAM model, so there is no bandwidth roof", spec.file));
  if (stats.dram.valid) {
    r.bytes = stats.dram.read_bytes + stats.dram.write_bytes;
    r.bytes_from_dram = true;
    r.bytes_source = "DRAM read + write bytes";
  } else {
    r.bytes = stats.mem.gld_bytes_transferred + stats.mem.gst_bytes_transferred;
    r.bytes_source = stats.timing_mode
                         ? "global load/store transaction bytes (this run has no DRAM statistics)"
                         : "global load/store transaction bytes (functional mode has no DRAM statistics; "
                           "caches may make DRAM traffic smaller)";
  }
  if (r.bytes > 0)
    r.intensity = r.flop_total / double(r.bytes);
  else
    r.intensity = r.flop_total > 0 ? std::numeric_limits<double>::infinity() : 0.0;
  r.double_precision = r.flops.dp() > r.flops.sp();
  r.peak_gflops = r.double_precision ? r.peaks.dp_gflops : r.peaks.sp_gflops;
  r.ridge = r.peak_gflops / r.peaks.dram_gbps;
  r.attainable_gflops = std::min(r.peak_gflops, r.intensity * r.peaks.dram_gbps);
  r.timed = stats.timing.valid && stats.timing.duration_ns > 0;
  if (r.timed) {
    r.seconds = stats.timing.duration_ns * 1e-9;
    r.achieved_gflops = r.flop_total / r.seconds / 1e9;
    r.achieved_gbps = double(r.bytes) / r.seconds / 1e9;
  }
  r.memory_bound = r.intensity < r.ridge;
  return r;
}

std::string format_roofline(const Roofline& r) {
  std::string o;
  o += fmt::format("roofline: {} on {}\n", r.kernel, r.device);
  o += fmt::format("  FLOPs: {} FP32 (add/sub {}, mul {}, fma/mad {} x 2) + {} FP64 (add/sub {}, mul {}, fma/mad {} x 2)\n",
                   grouped(r.flops.sp()), grouped(r.flops.sp_add), grouped(r.flops.sp_mul), grouped(r.flops.sp_fma),
                   grouped(r.flops.dp()), grouped(r.flops.dp_add), grouped(r.flops.dp_mul), grouped(r.flops.dp_fma));
  o += fmt::format("  bytes: {} ({})\n", grouped(r.bytes), r.bytes_source);
  o += fmt::format("  arithmetic intensity: {} flop/B\n", g3(r.intensity));
  o += fmt::format("  peaks: FP32 {:.1f} GFLOP/s, FP64 {:.1f} GFLOP/s, DRAM {:.1f} GB/s; ridge ({}) {} flop/B\n",
                   r.peaks.sp_gflops, r.peaks.dp_gflops, r.peaks.dram_gbps, r.double_precision ? "FP64" : "FP32",
                   g3(r.ridge));
  if (r.timed)
    o += fmt::format("  achieved: {} GFLOP/s and {} GB/s in {:.1f} us; attainable at this intensity {} GFLOP/s\n",
                     g3(r.achieved_gflops), g3(r.achieved_gbps), r.seconds * 1e6, g3(r.attainable_gflops));
  else
    o += fmt::format("  achieved: unknown (no timing; run without --functional); attainable {} GFLOP/s\n",
                     g3(r.attainable_gflops));
  o += fmt::format("  {}\n", r.classification());
  return o;
}

Json roofline_to_json(const Roofline& r) {
  auto finite = [](double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); };
  Json j;
  j["kernel"] = r.kernel;
  j["device"] = r.device;
  j["flops"] = {{"fp32", r.flops.sp()},       {"fp64", r.flops.dp()},       {"total", r.flops.total()},
                {"fp32_add_sub", r.flops.sp_add}, {"fp32_mul", r.flops.sp_mul}, {"fp32_fma_mad", r.flops.sp_fma},
                {"fp64_add_sub", r.flops.dp_add}, {"fp64_mul", r.flops.dp_mul}, {"fp64_fma_mad", r.flops.dp_fma}};
  j["bytes"] = r.bytes;
  j["bytes_from_dram"] = r.bytes_from_dram;
  j["bytes_source"] = r.bytes_source;
  j["arithmetic_intensity"] = finite(r.intensity);
  j["peak_fp32_gflops"] = r.peaks.sp_gflops;
  j["peak_fp64_gflops"] = r.peaks.dp_gflops;
  j["peak_dram_gbps"] = r.peaks.dram_gbps;
  j["precision"] = r.double_precision ? "fp64" : "fp32";
  j["peak_gflops"] = r.peak_gflops;
  j["ridge"] = r.ridge;
  j["attainable_gflops"] = finite(r.attainable_gflops);
  j["timed"] = r.timed;
  j["seconds"] = r.timed ? Json(r.seconds) : Json(nullptr);
  j["achieved_gflops"] = r.timed ? Json(r.achieved_gflops) : Json(nullptr);
  j["achieved_gbps"] = r.timed ? Json(r.achieved_gbps) : Json(nullptr);
  j["bound"] = r.bound();
  j["classification"] = r.classification();
  return j;
}

svg::Chart roofline_chart(const Roofline& r) {
  const double bw = r.peaks.dram_gbps;
  const double ridge_sp = r.peaks.sp_gflops / bw, ridge_dp = r.peaks.dp_gflops / bw;
  const bool has_ai = std::isfinite(r.intensity) && r.intensity > 0;
  double lo = std::min(ridge_sp, ridge_dp > 0 ? ridge_dp : ridge_sp), hi = std::max(ridge_sp, ridge_dp);
  if (has_ai) {
    lo = std::min(lo, r.intensity);
    hi = std::max(hi, r.intensity);
  }
  const double x_lo = decade_floor(lo) / 10, x_hi = decade_ceil(hi) * 10;
  // Where the point sits: achieved rate when timed, else on the roof; off-scale intensities
  // (no flops, no bytes) at the edges.
  const double px = has_ai ? r.intensity : (r.flop_total > 0 ? x_hi : x_lo);
  double py = r.timed ? r.achieved_gflops : std::min(r.peak_gflops, px * bw);
  double y_lo = decade_floor(std::min(x_lo * bw, py > 0 ? py / 2 : x_lo * bw));
  if (py <= 0) py = y_lo;
  const double y_hi = decade_ceil(r.peaks.sp_gflops * 2);

  svg::Chart c;
  c.title = fmt::format("Roofline: {} on {}", r.kernel, r.device);
  c.subtitle = fmt::format("{}; FLOPs: add/sub/mul 1, fma/mad 2 per thread; bytes: {}", r.classification(),
                           r.bytes_from_dram ? "DRAM read + write" : "global transactions (no DRAM statistics)");
  c.plot_height = 400;
  svg::Panel p;
  p.x.label = "arithmetic intensity (flop/B)";
  p.y.label = "performance (GFLOP/s)";
  p.x.log = p.y.log = true;
  p.x.min = x_lo;
  p.x.max = x_hi;
  p.y.min = y_lo;
  p.y.max = y_hi;

  auto roof = [&](const std::string& name, double peak, bool dashed, const std::string& color) {
    svg::Series s;
    s.name = name;
    s.markers = false;
    s.dashed = dashed;
    s.color = color;
    double ridge = peak / bw;
    s.x = {x_lo, ridge, x_hi};
    s.y = {x_lo * bw, peak, peak};
    s.line_width = 2.5;
    return s;
  };
  if (r.peaks.dp_gflops > 0)
    p.series.push_back(roof(fmt::format("FP64 roof: {} GFLOP/s", svg::format_number(r.peaks.dp_gflops)),
                            r.peaks.dp_gflops, true, "#8c8c8c"));
  p.series.push_back(roof(fmt::format("FP32 roof: {} GFLOP/s", svg::format_number(r.peaks.sp_gflops)),
                          r.peaks.sp_gflops, false, "#1f77b4"));
  svg::Series ridge_line;
  ridge_line.name = "ridge";
  ridge_line.in_legend = false;
  ridge_line.markers = false;
  ridge_line.dashed = true;
  ridge_line.line_width = 1;
  ridge_line.color = "#999999";
  ridge_line.x = {r.ridge, r.ridge};
  ridge_line.y = {y_lo, r.peak_gflops};
  p.series.push_back(ridge_line);
  if (r.timed && py < r.attainable_gflops) {
    svg::Series gap;
    gap.name = "attainable";
    gap.in_legend = false;
    gap.markers = false;
    gap.dashed = true;
    gap.line_width = 1;
    gap.color = "#d62728";
    gap.x = {px, px};
    gap.y = {py, std::min(r.attainable_gflops, y_hi)};
    p.series.push_back(gap);
  }
  svg::Series point;
  point.name = r.kernel + (r.timed ? " (achieved)" : " (attainable; no timing)");
  point.line = false;
  point.color = "#d62728";
  point.x = {px};
  point.y = {py};
  point.point_titles = {fmt::format("{}: AI {} flop/B, {} GFLOP/s", r.kernel, g3(r.intensity),
                                    g3(r.timed ? r.achieved_gflops : r.attainable_gflops))};
  p.series.push_back(point);

  // Labels: the roofs, the ridge, the two regions and the kernel.
  double dram_x = x_lo * 10;  // text ends left of and above this point of the slanted roof
  p.notes.push_back({dram_x, dram_x * bw, fmt::format("DRAM {} GB/s", svg::format_number(bw)), "end", -4, -8,
                     "#1f77b4", 12, false});
  p.notes.push_back({r.ridge, y_lo, fmt::format("ridge {} flop/B", g3(r.ridge)), "start", 5, -6, "#666666", 11, false});
  p.notes.push_back({x_lo, y_hi, "memory-bound", "start", 8, 18, "#555555", 13, true});
  p.notes.push_back({x_hi, y_hi, "compute-bound", "end", -8, 18, "#555555", 13, true});
  std::string detail = fmt::format("AI {} flop/B, {} GFLOP/s{}: {}", g3(r.intensity),
                                   g3(r.timed ? r.achieved_gflops : r.attainable_gflops),
                                   r.timed ? "" : " attainable (no timing)", r.bound());
  bool right_half = std::log10(px / x_lo) > std::log10(x_hi / x_lo) / 2;
  std::string anchor = right_half ? "end" : "start";
  double dx = right_half ? -10.0 : 10.0;
  p.notes.push_back({px, py, r.kernel, anchor, dx, 18, "#d62728", 13, true});
  p.notes.push_back({px, py, detail, anchor, dx, 34, "#d62728", 12, false});
  c.panels.push_back(std::move(p));
  return c;
}

}  // namespace warpsim
