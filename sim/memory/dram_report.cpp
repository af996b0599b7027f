#include "sim/memory/dram_report.hpp"

#include <fmt/format.h>

namespace warpsim::mem {

namespace {

double pct(uint64_t part, uint64_t whole) { return whole ? 100.0 * double(part) / double(whole) : 0; }

}  // namespace

Json dram_metrics_json(const DramStats& s) {
  return Json{
      {"dram_read_transactions", s.read_transactions},
      {"dram_write_transactions", s.write_transactions},
      {"dram_read_bytes", s.read_bytes},
      {"dram_write_bytes", s.write_bytes},
      {"dram_utilization", s.utilization},
      {"dram_row_hits", s.row_hits},
      {"dram_row_misses", s.row_misses},
      {"dram_row_conflicts", s.row_conflicts},
      {"dram_bank_level_parallelism", s.bank_level_parallelism},
      {"achieved_dram_bandwidth_gbps", s.achieved_bandwidth_gbps},
      {"peak_dram_bandwidth_gbps", s.peak_bandwidth_gbps},
      {"dram_requests", s.requests},
      {"dram_activates", s.activates},
      {"dram_precharges", s.precharges},
      {"dram_refreshes", s.refreshes},
      {"dram_average_read_latency_cycles", s.average_read_latency_dram_cycles},
      {"dram_cycles", s.dram_cycles},
  };
}

Json dram_section_json(const DramStats& s) {
  Json channels = Json::array();
  for (size_t i = 0; i < s.channels.size(); ++i) {
    const DramChannelStats& c = s.channels[i];
    Json banks = Json::array();
    for (size_t b = 0; b < c.bank_reads.size(); ++b)
      banks.push_back(Json{{"bank", b},
                           {"reads", c.bank_reads[b]},
                           {"writes", c.bank_writes[b]},
                           {"row_hits", c.bank_row_hits[b]},
                           {"row_misses", c.bank_row_misses[b]},
                           {"row_conflicts", c.bank_row_conflicts[b]},
                           {"activates", c.bank_activates[b]}});
    channels.push_back(Json{{"channel", i},
                            {"reads", c.reads},
                            {"writes", c.writes},
                            {"read_transactions", c.read_transactions},
                            {"write_transactions", c.write_transactions},
                            {"read_bytes", c.read_bytes},
                            {"write_bytes", c.write_bytes},
                            {"row_hits", c.row_hits},
                            {"row_misses", c.row_misses},
                            {"row_conflicts", c.row_conflicts},
                            {"activates", c.activates},
                            {"precharges", c.precharges},
                            {"refreshes", c.refreshes},
                            {"busy_cycles", c.busy_cycles},
                            {"utilization", c.utilization},
                            {"bank_level_parallelism", c.bank_level_parallelism},
                            {"read_latency_cycles", c.read_latency_cycles},
                            {"banks", banks}});
  }
  return Json{{"channels", channels}};
}

std::string dram_summary_text(const DramStats& s) {
  std::string o;
  uint64_t reads = 0;
  for (const auto& c : s.channels) reads += c.reads;
  const uint64_t rows = s.row_hits + s.row_misses + s.row_conflicts;
  o += fmt::format("DRAM cycles        {}\n", s.dram_cycles);
  o += fmt::format("requests           {} ({} reads, {} writes)\n", s.requests, reads,
                   s.requests - reads);
  o += fmt::format("transactions       {} read, {} write (32-byte units)\n", s.read_transactions,
                   s.write_transactions);
  o += fmt::format("bytes              {} read, {} write\n", s.read_bytes, s.write_bytes);
  o += fmt::format("bandwidth          {:.2f} GB/s of {:.2f} GB/s peak ({:.1f}%)\n",
                   s.achieved_bandwidth_gbps, s.peak_bandwidth_gbps,
                   s.peak_bandwidth_gbps ? 100 * s.achieved_bandwidth_gbps / s.peak_bandwidth_gbps : 0);
  o += fmt::format("utilization        {:.3f} (data-bus busy fraction, mean over channels)\n",
                   s.utilization);
  o += fmt::format("row hits           {} ({:.1f}%)\n", s.row_hits, pct(s.row_hits, rows));
  o += fmt::format("row misses         {} ({:.1f}%)\n", s.row_misses, pct(s.row_misses, rows));
  o += fmt::format("row conflicts      {} ({:.1f}%)\n", s.row_conflicts, pct(s.row_conflicts, rows));
  o += fmt::format("bank parallelism   {:.2f} (banks with work, while any has)\n",
                   s.bank_level_parallelism);
  o += fmt::format("read latency       {:.1f} cycles (queue entry to last data)\n",
                   s.average_read_latency_dram_cycles);
  o += fmt::format("commands           {} ACT, {} PRE, {} REF\n", s.activates, s.precharges,
                   s.refreshes);
  o += fmt::format("\n{:>4} {:>10} {:>10} {:>10} {:>10} {:>10} {:>7} {:>6}\n", "ch", "reads",
                   "writes", "hits", "misses", "conflicts", "util", "BLP");
  for (size_t i = 0; i < s.channels.size(); ++i) {
    const DramChannelStats& c = s.channels[i];
    o += fmt::format("{:>4} {:>10} {:>10} {:>10} {:>10} {:>10} {:>7.3f} {:>6.2f}\n", i, c.reads,
                     c.writes, c.row_hits, c.row_misses, c.row_conflicts, c.utilization,
                     c.bank_level_parallelism);
  }
  return o;
}

}  // namespace warpsim::mem
