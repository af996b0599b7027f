// Selecting a kernel's instructions by source lines, marked regions or PTX text, and
// summing per-instruction counters over them.
#include "sim/grading/scope.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "sim/foundation/error.hpp"

namespace warpsim::grading {
namespace {

namespace fs = std::filesystem;

// The .loc file index most instructions of the kernel map to (0: none).
uint16_t main_file_index(const isa::Kernel& k) {
  std::map<uint16_t, size_t> count;
  for (const auto& in : k.code)
    if (in.loc_file && in.loc_line) ++count[in.loc_file];
  uint16_t best = 0;
  size_t most = 0;
  for (const auto& [file, n] : count)
    if (n > most) best = file, most = n;
  return best;
}

bool read_text(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

bool contains_marker(const std::string& line, const std::string& marker) {
  // The marker must end the word: "grade:begin loop" does not match "grade:begin loop2".
  for (size_t at = line.find(marker); at != std::string::npos; at = line.find(marker, at + 1)) {
    size_t end = at + marker.size();
    if (end == line.size() || !(std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_' ||
                                line[end] == '.' || line[end] == '-'))
      return true;
  }
  return false;
}

}  // namespace

std::string main_source_file(const isa::Kernel& k) {
  uint16_t idx = main_file_index(k);
  if (!idx || !k.module) return "";
  auto it = k.module->files.find(idx);
  if (it == k.module->files.end()) return "";
  fs::path p(it->second);
  if (p.is_relative()) p = fs::path(k.module->path).parent_path() / p;
  return p.lexically_normal().string();
}

std::optional<std::pair<uint32_t, uint32_t>> find_region(const std::string& text, const std::string& name,
                                                         std::string& error) {
  const std::string begin = "grade:begin " + name, end = "grade:end " + name;
  std::istringstream in(text);
  std::string line;
  uint32_t n = 0, first = 0, last = 0;
  while (std::getline(in, line)) {
    ++n;
    if (contains_marker(line, begin)) {
      if (first) {
        error = fmt::format("'{}' appears twice (lines {} and {})", begin, first, n);
        return std::nullopt;
      }
      first = n;
    } else if (contains_marker(line, end)) {
      if (last) {
        error = fmt::format("'{}' appears twice (lines {} and {})", end, last, n);
        return std::nullopt;
      }
      last = n;
    }
  }
  if (!first || !last) {
    error = fmt::format("region '{}' is not marked: the source needs a line with '{}' and a later one with '{}'", name,
                        begin, end);
    return std::nullopt;
  }
  if (last < first) {
    error = fmt::format("region '{}': '{}' (line {}) comes before '{}' (line {})", name, end, last, begin, first);
    return std::nullopt;
  }
  return std::make_pair(first, last);
}

Selection select_instructions(const isa::Kernel& k, const Where& where) {
  Selection s;
  s.pcs.assign(k.code.size(), where.kind == Where::Kind::All);
  if (where.kind == Where::Kind::All) return s;
  if (where.kind == Where::Kind::PtxText) {
    std::regex re(where.ptx_pattern);
    // std::regex recurses per character, so a hostile submission's very long instruction
    // (a 100 KB name) is matched on its first 4096 characters rather than crash the grader.
    constexpr size_t kMaxText = 4096;
    for (size_t pc = 0; pc < k.code.size(); ++pc) {
      const std::string& t = k.text[pc];
      s.pcs[pc] = t.size() <= kMaxText ? std::regex_search(t, re) : std::regex_search(t.substr(0, kMaxText), re);
    }
    return s;
  }
  uint16_t file = main_file_index(k);
  s.source = main_source_file(k);
  if (!file) {
    s.error = "the PTX has no line information (compile with -lineinfo)";
    return s;
  }
  uint32_t first = where.first_line, last = where.last_line;
  if (where.kind == Where::Kind::Region) {
    std::string text;
    if (!read_text(s.source, text)) {
      s.error = fmt::format("region '{}': cannot read the source file {} that the PTX names", where.region, s.source);
      return s;
    }
    std::string error;
    auto lines = find_region(text, where.region, error);
    if (!lines) {
      s.error = fmt::format("{}: {}", fs::path(s.source).filename().string(), error);
      return s;
    }
    first = lines->first;
    last = lines->second;
  }
  for (size_t pc = 0; pc < k.code.size(); ++pc) {
    const isa::Instr& in = k.code[pc];
    s.pcs[pc] = in.loc_file == file && in.loc_line >= first && in.loc_line <= last;
  }
  return s;
}

double scoped_metric(const std::string& metric, const isa::Kernel& k, const LaunchStats& stats,
                     const std::vector<bool>& pcs) {
  using isa::InstrClass;
  struct Sums {
    double executed = 0, active = 0, branch = 0, divergent = 0;
    double requests = 0, transactions = 0;
  };
  // What each memory metric counts: instructions of one class.
  auto memory_class = [&](const std::string& m) -> InstrClass {
    if (m.rfind("gld_", 0) == 0) return InstrClass::LdGlobal;
    if (m.rfind("gst_", 0) == 0) return InstrClass::StGlobal;
    if (m.rfind("shared_load_", 0) == 0) return InstrClass::LdShared;
    if (m.rfind("shared_store_", 0) == 0) return InstrClass::StShared;
    return InstrClass::Other;
  };
  const InstrClass mem = memory_class(metric);
  Sums s;
  for (size_t pc = 0; pc < k.code.size() && pc < stats.per_pc.size(); ++pc) {
    if (!pcs[pc]) continue;
    const PcStats& p = stats.per_pc[pc];
    const isa::Instr& in = k.code[pc];
    s.executed += static_cast<double>(p.executed);
    s.active += static_cast<double>(p.active_threads);
    if (in.op == isa::Op::Bra) {
      s.branch += static_cast<double>(p.executed);
      s.divergent += static_cast<double>(p.divergent);
    }
    if (mem != InstrClass::Other && in.klass == mem) {
      s.requests += static_cast<double>(p.requests);
      s.transactions += static_cast<double>(p.transactions);
    }
  }
  auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
  if (metric == "inst_executed") return s.executed;
  if (metric == "thread_inst_executed") return s.active;
  if (metric == "warp_execution_efficiency") return 100.0 * ratio(s.active, s.executed * stats.exec.warp_size);
  if (metric == "branch") return s.branch;
  if (metric == "divergent_branch") return s.divergent;
  if (metric == "branch_efficiency") return s.branch > 0 ? 100.0 * (s.branch - s.divergent) / s.branch : 100.0;
  if (metric.ends_with("_per_request")) return ratio(s.transactions, s.requests);
  if (metric.ends_with("_requests")) return s.requests;
  if (metric.ends_with("_transactions")) return s.transactions;
  throw Error(fmt::format("metric '{}' cannot be restricted to instructions", metric));
}

}  // namespace warpsim::grading
