#include "sim/report/trace_report.hpp"

#include <fmt/format.h>

#include <bit>

#include "sim/report/stats_printers.hpp"
#include "sim/isa/types.hpp"

namespace warpsim {

namespace {

const char* kind_name(uint8_t k) {
  switch (k) {
    case 0: return "load";
    case 1: return "store";
    default: return "atomic";
  }
}

std::string lanes(uint32_t mask) {
  std::string s;
  for (int l = 0; l < 32;) {
    if (!((mask >> l) & 1)) {
      ++l;
      continue;
    }
    int e = l;
    while (e + 1 < 32 && ((mask >> (e + 1)) & 1)) ++e;
    s += (s.empty() ? "" : ",") + (e == l ? fmt::format("{}", l) : fmt::format("{}-{}", l, e));
    l = e + 1;
  }
  return s;
}

std::string sectors(uint8_t m) {
  if (!m) return "";
  std::string s;
  for (int i = 0; i < 8; ++i)
    if ((m >> i) & 1) s += (s.empty() ? "" : ",") + std::to_string(i);
  return " sectors " + s;
}

}  // namespace

std::string describe_addresses(const std::vector<uint64_t>& a) {
  if (a.empty()) return "no lanes";
  std::string out;
  size_t i = 0;
  while (i < a.size()) {
    size_t j = i + 1;
    int64_t step = j < a.size() ? int64_t(a[j] - a[i]) : 0;
    while (j < a.size() && int64_t(a[j] - a[j - 1]) == step) ++j;
    if (j - i >= 3) {
      out += fmt::format("{}{:#x}..{:#x} step {} ({} lanes)", out.empty() ? "" : "; ", a[i], a[j - 1], step, j - i);
      i = j;
    } else {
      out += fmt::format("{}{:#x}", out.empty() ? "" : "; ", a[i]);
      ++i;
    }
  }
  return out;
}

std::string format_traces(const LaunchStats& s, const isa::Kernel& k) {
  std::string out;
  for (const auto& t : s.traces) {
    out += fmt::format("Trace of block {} warp {}: {} memory instruction{}{}\n", t.block, t.warp, t.records.size(),
                       t.records.size() == 1 ? "" : "s",
                       t.dropped ? fmt::format(" (truncated: {} more not recorded; raise --trace-limit)", t.dropped)
                                 : "");
    for (const auto& r : t.records) {
      const isa::Space sp = static_cast<isa::Space>(r.space);
      std::string src = source_location(k, r.pc);
      out += fmt::format("  PTX line {}{} `{}`: {} {} of {} B by {} lane{} ({})\n", k.code[r.pc].ptx_line,
                         src.empty() ? "" : " (" + src + ")", k.text[r.pc], isa::space_name(sp), kind_name(r.kind),
                         r.bytes_per_lane, std::popcount(r.mask), std::popcount(r.mask) == 1 ? "" : "s", lanes(r.mask));
      out += fmt::format("    addresses: {}\n", describe_addresses(r.addrs));
      if (sp == isa::Space::Shared) {
        out += fmt::format("    shared memory: {} pass{} (worst request {}-way)\n", r.shared_passes,
                           r.shared_passes == 1 ? "" : "es", r.shared_degree);
      } else {
        out += fmt::format("    {} transaction{}:", r.transactions.size(), r.transactions.size() == 1 ? "" : "s");
        for (const auto& x : r.transactions)
          out += fmt::format(" [{} B at {:#x}{}]", x.size, x.addr, sectors(x.sectors));
        out += "\n";
      }
      if (r.timed) {
        out += fmt::format("    issued at cycle {} after waiting {} cycles", r.issue_cycle, r.waited_cycles);
        if (r.done_cycle) out += fmt::format("; data back after {} cycles", r.done_cycle - r.issue_cycle);
        out += "\n";
      }
    }
  }
  return out;
}

Json traces_to_json(const LaunchStats& s, const isa::Kernel& k) {
  Json arr = Json::array();
  for (const auto& t : s.traces) {
    Json recs = Json::array();
    for (const auto& r : t.records) {
      Json txns = Json::array();
      for (const auto& x : r.transactions)
        txns.push_back({{"addr", x.addr}, {"bytes", x.size}, {"lanes", x.lanes}, {"sectors", x.sectors}});
      Json j = {{"pc", r.pc},
                {"ptx_line", k.code[r.pc].ptx_line},
                {"instruction", k.text[r.pc]},
                {"space", isa::space_name(static_cast<isa::Space>(r.space))},
                {"kind", kind_name(r.kind)},
                {"bytes_per_lane", r.bytes_per_lane},
                {"active_mask", r.mask},
                {"addresses", r.addrs},
                {"transactions", txns},
                {"shared_passes", r.shared_passes},
                {"shared_degree", r.shared_degree}};
      std::string src = source_location(k, r.pc);
      if (!src.empty()) j["source"] = src;
      if (r.timed) {
        j["issue_cycle"] = r.issue_cycle;
        j["waited_cycles"] = r.waited_cycles;
        if (r.done_cycle) j["done_cycle"] = r.done_cycle;
      }
      recs.push_back(std::move(j));
    }
    arr.push_back({{"block", t.block}, {"warp", t.warp}, {"records", recs}, {"dropped", t.dropped}});
  }
  return arr;
}

}  // namespace warpsim
