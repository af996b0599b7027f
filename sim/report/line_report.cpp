#include "sim/report/line_report.hpp"
#include "sim/foundation/file_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "sim/report/metrics.hpp"

namespace warpsim {

namespace {

using isa::InstrClass;

bool is_global(InstrClass c) {
  return c == InstrClass::LdGlobal || c == InstrClass::StGlobal || c == InstrClass::LdLocal ||
         c == InstrClass::StLocal || c == InstrClass::AtomGlobal;
}
bool is_shared(InstrClass c) {
  return c == InstrClass::LdShared || c == InstrClass::StShared || c == InstrClass::AtomShared;
}

// Reads the lines of a file once; missing files give no text.
class SourceCache {
 public:
  const std::string& line(const std::string& path, uint32_t n) {
    auto it = files_.find(path);
    if (it == files_.end()) {
      std::vector<std::string> lines;
      std::ifstream in(path);
      for (std::string l; std::getline(in, l);) lines.push_back(l);
      it = files_.emplace(path, std::move(lines)).first;
    }
    static const std::string none;
    return n >= 1 && n <= it->second.size() ? it->second[n - 1] : none;
  }

 private:
  std::map<std::string, std::vector<std::string>> files_;
};

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r");
  size_t b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::string count(uint64_t v) { return format_metric_value({"", double(v), Metric::Unit::Count, ""}); }

}  // namespace

std::vector<LineStats> attribute_lines(const LaunchStats& s, const isa::Kernel& k) {
  namespace fs = std::filesystem;
  const std::string ptx_path = k.module ? k.module->path : "";
  const fs::path ptx_dir = fs::path(ptx_path).parent_path();
  std::map<std::pair<std::string, uint32_t>, LineStats> by_line;
  SourceCache sources;
  std::map<std::string, std::string> resolved;  // .file name -> readable path
  auto resolve = [&](const std::string& f) -> const std::string& {
    auto it = resolved.find(f);
    if (it != resolved.end()) return it->second;
    fs::path p(f);
    std::string use = f;
    if (p.is_relative() && !ptx_dir.empty() && exists_noexcept(ptx_dir / p)) use = (ptx_dir / p).string();
    return resolved.emplace(f, use).first->second;
  };
  for (size_t pc = 0; pc < k.code.size() && pc < s.per_pc.size(); ++pc) {
    const isa::Instr& in = k.code[pc];
    const PcStats& ps = s.per_pc[pc];
    if (!ps.executed && !ps.stall_cycles) continue;
    std::string file;
    uint32_t line;
    bool ptx = false;
    if (in.loc_file && in.loc_line && k.module && k.module->files.count(in.loc_file)) {
      file = resolve(k.module->files.at(in.loc_file));
      line = in.loc_line;
    } else {
      file = ptx_path;
      line = in.ptx_line;
      ptx = true;
    }
    LineStats& l = by_line[{file, line}];
    l.file = file;
    l.line = line;
    l.ptx_line = ptx;
    l.warp_instructions += ps.executed;
    l.thread_instructions += ps.active_threads;
    l.stall_cycles += ps.stall_cycles;
    if (is_global(in.klass)) {
      l.global_requests += ps.requests;
      l.global_transactions += ps.transactions;
    } else if (is_shared(in.klass)) {
      l.shared_requests += ps.requests;
      l.shared_passes += ps.transactions;
    } else if (in.op == isa::Op::Bra) {
      l.branches += ps.executed;
      l.divergent_branches += ps.divergent;
    }
  }
  std::vector<LineStats> out;
  for (auto& [key, l] : by_line) {
    if (!l.ptx_line) {
      l.text = trim(sources.line(l.file, l.line));
    } else {
      // PTX lines: show the instruction text of the first instruction on that line.
      for (size_t pc = 0; pc < k.code.size(); ++pc)
        if (k.code[pc].ptx_line == l.line) {
          l.text = k.text[pc];
          break;
        }
    }
    out.push_back(std::move(l));
  }
  return out;
}

std::vector<LineStats> costliest_lines(std::vector<LineStats> lines, size_t n) {
  std::stable_sort(lines.begin(), lines.end(), [](const LineStats& a, const LineStats& b) {
    return a.stall_cycles + a.warp_instructions > b.stall_cycles + b.warp_instructions;
  });
  if (lines.size() > n) lines.resize(n);
  return lines;
}

std::string format_line_report(const std::vector<LineStats>& lines, const LaunchStats& s) {
  namespace fs = std::filesystem;
  std::string out = "Per source line (stall cycles are warp-cycles spent waiting to issue the line)\n";
  out += fmt::format("  {:<22} {:>12} {:>6} {:>9} {:>9} {:>6} {:>14}  {}\n", "line", "warp insts", "eff%",
                     "txn/req", "conflict", "div", "stall cycles", "source");
  for (const auto& l : lines) {
    std::string where = fmt::format("{}{}:{}", l.ptx_line ? "ptx " : "", fs::path(l.file).filename().string(), l.line);
    out += fmt::format("  {:<22} {:>12} {:>6.1f} {:>9} {:>9} {:>6} {:>14}  {}\n", where, count(l.warp_instructions),
                       100.0 * l.efficiency(s.exec.warp_size),
                       l.global_requests ? fmt::format("{:.2f}", l.transactions_per_request()) : "-",
                       l.shared_requests ? fmt::format("{:.2f}", l.conflict_degree()) : "-",
                       l.branches ? count(l.divergent_branches) : "-", count(l.stall_cycles), l.text);
  }
  return out;
}

Json lines_to_json(const std::vector<LineStats>& lines, uint32_t warp_size) {
  Json arr = Json::array();
  for (const auto& l : lines) {
    arr.push_back({{"file", l.file},
                   {"line", l.line},
                   {"ptx_line", l.ptx_line},
                   {"text", l.text},
                   {"inst_executed", l.warp_instructions},
                   {"thread_inst_executed", l.thread_instructions},
                   {"warp_execution_efficiency", 100.0 * l.efficiency(warp_size)},
                   {"global_requests", l.global_requests},
                   {"global_transactions", l.global_transactions},
                   {"transactions_per_request", l.transactions_per_request()},
                   {"shared_requests", l.shared_requests},
                   {"shared_transactions", l.shared_passes},
                   {"shared_conflict_degree", l.conflict_degree()},
                   {"branch", l.branches},
                   {"divergent_branch", l.divergent_branches},
                   {"stall_cycles", l.stall_cycles}});
  }
  return arr;
}

std::string format_branch_report(const LaunchStats& s, const isa::Kernel& k) {
  namespace fs = std::filesystem;
  std::string out = "Divergence by branch and dynamic instance (k-th execution by a warp: warps reached / diverged)\n";
  bool any = false;
  for (const auto& b : s.branches) {
    if (b.reached.empty()) continue;
    any = true;
    const isa::Instr& in = k.code[b.pc];
    std::string where = fmt::format("PTX line {}", in.ptx_line);
    if (in.loc_file && k.module && k.module->files.count(in.loc_file))
      where = fmt::format("{}:{} (PTX line {})", fs::path(k.module->files.at(in.loc_file)).filename().string(),
                          in.loc_line, in.ptx_line);
    uint64_t reached = 0, diverged = 0;
    for (size_t i = 0; i < b.reached.size(); ++i) {
      reached += b.reached[i];
      diverged += b.diverged[i];
    }
    out += fmt::format("  {}  `{}`: {} executions, {} divergent\n", where, k.text[b.pc], count(reached), count(diverged));
    std::string row;
    const size_t shown = std::min<size_t>(b.reached.size(), 64);
    for (size_t i = 0; i < shown; ++i) {
      row += fmt::format(" k={}: {}/{}", i + 1, b.reached[i], b.diverged[i]);
      if (row.size() > 90) {
        out += "   " + row + "\n";
        row.clear();
      }
    }
    if (!row.empty()) out += "   " + row + "\n";
    if (shown < b.reached.size()) out += fmt::format("    ... {} more instances (see --json)\n", b.reached.size() - shown);
  }
  if (!any) out += "  (no conditional branch executed)\n";
  return out;
}

}  // namespace warpsim
