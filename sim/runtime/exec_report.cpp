#include "sim/runtime/exec_report.hpp"

#include <cxxabi.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>

#include "sim/report/line_report.hpp"
#include "sim/report/stats_printers.hpp"

namespace warpsim::runtime {

namespace {

struct KernelTotals {
  std::string name;
  uint64_t calls = 0;
  double total_ns = 0, min_ns = 0, max_ns = 0;
  uint64_t inst = 0, gld_req = 0, gld_tx = 0, gst_req = 0, gst_tx = 0, bank_conflicts = 0;
  uint64_t branches = 0, divergent = 0;
  double occupancy_weighted = 0;  // achieved occupancy x time
  size_t costliest = 0;           // index of its longest launch
};

std::string time_text(double ns) {
  if (ns >= 1e6) return fmt::format("{:.3f} ms", ns / 1e6);
  if (ns >= 1e3) return fmt::format("{:.3f} us", ns / 1e3);
  return fmt::format("{:.0f} ns", ns);
}

std::vector<KernelTotals> totals_by_kernel(const std::vector<LaunchRecord>& launches) {
  std::vector<KernelTotals> out;
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < launches.size(); ++i) {
    const LaunchRecord& r = launches[i];
    auto [it, fresh] = index.emplace(r.kernel, out.size());
    if (fresh) out.push_back(KernelTotals{r.kernel});
    KernelTotals& t = out[it->second];
    const LaunchStats& s = r.stats;
    const double ns = simulated_ns(s);
    if (t.calls == 0 || ns < t.min_ns) t.min_ns = ns;
    if (t.calls == 0 || ns > t.max_ns) t.max_ns = ns, t.costliest = i;
    ++t.calls;
    t.total_ns += ns;
    t.inst += s.exec.inst_executed;
    t.gld_req += s.exec.gld_requests;
    t.gst_req += s.exec.gst_requests;
    t.gld_tx += s.mem.gld_transactions;
    t.gst_tx += s.mem.gst_transactions;
    t.bank_conflicts += s.mem.shared_load_bank_conflicts + s.mem.shared_store_bank_conflicts;
    t.branches += s.exec.branch;
    t.divergent += s.exec.divergent_branch;
    t.occupancy_weighted += s.timing.achieved_occupancy * ns;
  }
  std::stable_sort(out.begin(), out.end(), [](const KernelTotals& a, const KernelTotals& b) {
    return a.total_ns > b.total_ns;
  });
  return out;
}

std::string ratio(uint64_t a, uint64_t b) { return b ? fmt::format("{:.2f}", double(a) / double(b)) : "-"; }

}  // namespace

std::string demangle(const std::string& name) {
  int status = 0;
  char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || !d) return name;
  std::string s(d);
  std::free(d);
  return s;
}

namespace {

std::vector<KernelTotals> totals_by_copy_kind(const std::vector<CopyRecord>& copies) {
  std::vector<KernelTotals> out;
  std::map<std::string, size_t> index;
  for (const auto& c : copies) {
    const std::string name = c.kind == "memset" ? "[CUDA memset]" : "[CUDA memcpy " + c.kind + "]";
    auto [it, fresh] = index.emplace(name, out.size());
    if (fresh) out.push_back(KernelTotals{name});
    KernelTotals& t = out[it->second];
    if (t.calls == 0 || c.duration_ns < t.min_ns) t.min_ns = c.duration_ns;
    if (t.calls == 0 || c.duration_ns > t.max_ns) t.max_ns = c.duration_ns;
    ++t.calls;
    t.total_ns += c.duration_ns;
  }
  return out;
}

}  // namespace

std::string format_exec_summary(const std::vector<LaunchRecord>& launches, const std::vector<CopyRecord>& copies,
                                uint64_t faulted, const DeviceSpec& spec, const RuntimeOptions& o,
                                double host_seconds) {
  const bool timing = o.mode == SimMode::Timing;
  std::string out;
  double total_ns = 0;
  for (const auto& r : launches) total_ns += simulated_ns(r.stats);
  const auto totals = totals_by_kernel(launches);
  // The time table: kernels and copies together, longest first (nvprof's GPU activities).
  std::vector<KernelTotals> activities = totals;
  for (auto& c : totals_by_copy_kind(copies)) activities.push_back(c);
  std::stable_sort(activities.begin(), activities.end(),
                   [](const KernelTotals& a, const KernelTotals& b) { return a.total_ns > b.total_ns; });
  double activity_ns = 0;
  for (const auto& a : activities) activity_ns += a.total_ns;
  out += fmt::format("==warpsim== {} on {} (cc {}), {} mode: {} launch{} of {} kernel{}", o.program, spec.name,
                     spec.compute_capability, timing ? "timing" : "functional", launches.size(),
                     launches.size() == 1 ? "" : "es", totals.size(), totals.size() == 1 ? "" : "s");
  out += timing ? fmt::format(", {} simulated GPU time ({} in kernels)", time_text(activity_ns), time_text(total_ns))
                : std::string();
  uint64_t estimated = 0;
  for (const auto& r : launches) estimated += r.stats.timing.from_launch.estimated;
  if (estimated)
    out += fmt::format(" ({} not timed: their time is an earlier launch's, --sample-launches)", estimated);
  if (o.cache_control == CacheControl::Flush) out += ", caches flushed before each launch (--cache-control all)";
  if (faulted) out += fmt::format(", {} launch{} stopped by a fault", faulted, faulted == 1 ? "" : "es");
  out += fmt::format(", {:.2f} s host time\n", host_seconds);
  if (launches.empty() && copies.empty()) return out;
  if (timing) {
    out += fmt::format("==warpsim== {:>8} {:>12} {:>6} {:>12} {:>12} {:>12}  {}\n", "Time(%)", "Time", "Calls", "Avg",
                       "Min", "Max", "Name");
    for (const auto& t : activities)
      out += fmt::format("==warpsim== {:>7.2f}% {:>12} {:>6} {:>12} {:>12} {:>12}  {}\n",
                         activity_ns > 0 ? 100.0 * t.total_ns / activity_ns : 0.0, time_text(t.total_ns), t.calls,
                         time_text(t.total_ns / double(t.calls)), time_text(t.min_ns), time_text(t.max_ns),
                         demangle(t.name));
  }
  if (launches.empty()) return out;
  out += fmt::format("==warpsim== {:>6} {:>14} {:>9} {:>9} {:>14} {:>11} {:>9}  {}\n", "Calls", "inst_executed",
                     "gld_t/req", "gst_t/req", "bank_conflicts", "divergent", "occupancy", "Kernel");
  for (const auto& t : totals)
    out += fmt::format("==warpsim== {:>6} {:>14} {:>9} {:>9} {:>14} {:>11} {:>9}  {}\n", t.calls, t.inst,
                       ratio(t.gld_tx, t.gld_req), ratio(t.gst_tx, t.gst_req), t.bank_conflicts,
                       fmt::format("{}/{}", t.divergent, t.branches),
                       timing && t.total_ns > 0 ? fmt::format("{:.1f}%", 100 * t.occupancy_weighted / t.total_ns) : "-",
                       demangle(t.name));
  if (o.by_line) {
    for (const auto& t : totals) {
      const LaunchRecord& r = launches[t.costliest];
      if (!r.source) continue;
      out += fmt::format("\n==warpsim== {} (launch {} of {}), by source line:\n", demangle(t.name), t.costliest + 1,
                         launches.size());
      out += format_line_report(attribute_lines(r.stats, *r.source), r.stats);
    }
  }
  return out;
}

namespace {

Json launch_json(const LaunchRecord& r) {
  Json l = stats_to_json(r.stats, r.source);
  l["start_ns"] = r.start_ns;
  l["kernel_demangled"] = demangle(r.kernel);
  if (r.source) l["lines"] = lines_to_json(attribute_lines(r.stats, *r.source), r.stats.exec.warp_size);
  return l;
}

// Everything but the launches.
Json exec_json_frame(const std::vector<CopyRecord>& copies, const std::vector<FaultRecord>& faults,
                     const DeviceSpec& spec, const RuntimeOptions& o) {
  Json j;
  j["program"] = o.program;
  j["device"] = spec.name;
  j["config"] = spec.file;
  j["mode"] = o.mode == SimMode::Timing ? "timing" : "functional";
  j["cache_control"] = cache_control_name(o.cache_control);
  Json c = Json::array();
  for (const auto& r : copies)
    c.push_back({{"kind", r.kind}, {"bytes", r.bytes}, {"start_ns", r.start_ns}, {"duration_ns", r.duration_ns}});
  j["copies"] = std::move(c);
  Json f = Json::array();
  for (const auto& r : faults) f.push_back({{"kernel", r.kernel}, {"kind", r.kind}, {"message", r.message}});
  j["faults"] = std::move(f);
  return j;
}

}  // namespace

Json exec_json(const std::vector<LaunchRecord>& launches, const std::vector<CopyRecord>& copies,
               const std::vector<FaultRecord>& faults, const DeviceSpec& spec, const RuntimeOptions& o) {
  Json j = exec_json_frame(copies, faults, spec, o);
  Json list = Json::array();
  for (const auto& r : launches) list.push_back(launch_json(r));
  j["launches"] = std::move(list);
  return j;
}

std::string launch_json_element(const LaunchRecord& r) {
  const std::string one = launch_json(r).dump(2);
  std::string out = "    ";
  out.reserve(one.size() + one.size() / 8);
  for (char ch : one) {
    out += ch;
    if (ch == '\n') out += "    ";
  }
  return out;
}

void write_exec_json(std::ostream& out, const LaunchJsonSpill& launches, const std::vector<CopyRecord>& copies,
                     const std::vector<FaultRecord>& faults, const DeviceSpec& spec, const RuntimeOptions& o) {
  // The frame is dumped with a placeholder where the launches go; they were dumped one at a
  // time (launch_json_element), indented as dump(2) indents an array's elements two levels down.
  const std::string placeholder = "\x01launches\x01";
  Json j = exec_json_frame(copies, faults, spec, o);
  j["launches"] = placeholder;
  const std::string frame = j.dump(2);
  // The top-level key and its value: no string value can hold it (a newline in a string is
  // escaped), so nothing the program or a config names can be taken for it.
  const std::string key = "\n  \"launches\": ";
  const std::string quoted = Json(placeholder).dump();
  const size_t at = frame.find(key + quoted) + key.size();
  out << frame.substr(0, at);
  launches.write_array(out);
  out << frame.substr(at + quoted.size()) << "\n";
}

void write_exec_json(std::ostream& out, const std::vector<LaunchRecord>& launches,
                     const std::vector<CopyRecord>& copies, const std::vector<FaultRecord>& faults,
                     const DeviceSpec& spec, const RuntimeOptions& o) {
  LaunchJsonSpill spill;
  for (const auto& r : launches) spill.add(r);
  write_exec_json(out, spill, copies, faults, spec, o);
}

}  // namespace warpsim::runtime
