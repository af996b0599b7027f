// The stats printers (sim/report/stats_printers, metrics): the JSON "metrics" object holds
// the nvprof-named metrics, each equal to the LaunchStats field (or the ratio of fields)
// it comes from, and the text tables print the same values.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "report_fixture.hpp"
#include "sim/report/metrics.hpp"
#include "sim/report/stats_printers.hpp"

using namespace warpsim;
using warpsim::test::launch_spec;

namespace {

// strideCopy with stride 2 on the C2070: 256 threads in 2 blocks of 128 (8 warps).
test::Launched run_copy(SimMode mode) {
  LaunchOptions o;
  o.mode = mode;
  return launch_spec("kernels/memory/stride_copy.json", "c2070", {{"n", 256}, {"block_size", 128}, {"stride", 2}}, o);
}

double pct(double a, double b) { return b > 0 ? 100.0 * a / b : 0.0; }
double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

// Every metric name and the LaunchStats field(s) it is taken from.
std::map<std::string, double> expected_metrics(const LaunchStats& s) {
  const ExecStats& e = s.exec;
  const MemStats& m = s.mem;
  const TimingStats& t = s.timing;
  const DramStats& d = s.dram;
  std::map<std::string, double> w = {
      {"inst_executed", e.inst_executed},
      {"thread_inst_executed", e.thread_inst_executed},
      {"not_predicated_off_thread_inst_executed", e.not_predicated_off_thread_inst_executed},
      {"warp_execution_efficiency", pct(e.thread_inst_executed, 32.0 * e.inst_executed)},
      {"warp_nonpred_execution_efficiency", pct(e.not_predicated_off_thread_inst_executed, 32.0 * e.inst_executed)},
      {"branch", e.branch},
      {"divergent_branch", e.divergent_branch},
      {"branch_efficiency", e.branch ? pct(e.branch - e.divergent_branch, e.branch) : 100.0},
      {"gld_requests", e.gld_requests},
      {"gst_requests", e.gst_requests},
      {"shared_load_requests", e.shared_load_requests},
      {"shared_store_requests", e.shared_store_requests},
      {"local_load_requests", e.local_load_requests},
      {"local_store_requests", e.local_store_requests},
      {"atomic_requests", e.atomic_requests},
      {"barrier_arrivals", e.barriers},
      {"blocks_per_sm", s.occupancy.blocks_per_sm},
      {"theoretical_occupancy", 100.0 * s.occupancy.theoretical_occupancy},
  };
  if (s.mem_valid) {
    w.insert({{"gld_transactions", m.gld_transactions},
              {"gst_transactions", m.gst_transactions},
              {"gld_transactions_per_request", ratio(m.gld_transactions, e.gld_requests)},
              {"gst_transactions_per_request", ratio(m.gst_transactions, e.gst_requests)},
              {"gld_efficiency", pct(m.gld_bytes_requested, m.gld_bytes_transferred)},
              {"gst_efficiency", pct(m.gst_bytes_requested, m.gst_bytes_transferred)},
              {"local_load_transactions", m.local_load_transactions},
              {"local_store_transactions", m.local_store_transactions},
              {"atomic_transactions", m.atomic_transactions},
              {"shared_load_transactions", m.shared_load_transactions},
              {"shared_store_transactions", m.shared_store_transactions},
              {"shared_load_transactions_per_request", ratio(m.shared_load_transactions, e.shared_load_requests)},
              {"shared_store_transactions_per_request", ratio(m.shared_store_transactions, e.shared_store_requests)},
              {"shared_bank_conflicts", m.shared_load_bank_conflicts + m.shared_store_bank_conflicts}});
    if (m.has_l1) {
      w["l1_hit_rate"] = pct(m.l1_hits, m.l1_hits + m.l1_misses);
      w["l1_sector_hit_rate"] = pct(m.l1_sector_hits, m.l1_sectors);
    }
    if (m.has_l2) {
      w["l2_hit_rate"] = pct(m.l2_hits, m.l2_hits + m.l2_misses);
      w["l2_read_hit_rate"] = pct(m.l2_read_sector_hits, m.l2_read_sectors);
      w["l2_read_transactions"] = m.l2_read_transactions;
      w["l2_write_transactions"] = m.l2_write_transactions;
    }
  }
  if (t.valid) {
    w.insert({{"achieved_occupancy", 100.0 * t.achieved_occupancy},
              {"elapsed_cycles_sm", t.elapsed_cycles_sm},
              {"duration_ns", t.duration_ns},
              {"ipc", t.ipc},
              {"issue_slot_utilization", t.issue_slot_utilization},
              {"sm_efficiency", t.sm_efficiency},
              {"stall_exec_dependency", t.stall_exec_dependency},
              {"stall_memory_dependency", t.stall_memory_dependency},
              {"stall_sync", t.stall_sync},
              {"stall_not_selected", t.stall_not_selected},
              {"stall_pipe_busy", t.stall_pipe_busy}});
  }
  if (d.valid) {
    w.insert({{"dram_read_transactions", d.read_transactions},
              {"dram_write_transactions", d.write_transactions},
              {"dram_read_bytes", d.read_bytes},
              {"dram_write_bytes", d.write_bytes},
              {"dram_utilization", 100.0 * d.utilization},
              {"dram_row_hits", d.row_hits},
              {"dram_row_misses", d.row_misses},
              {"dram_row_conflicts", d.row_conflicts},
              {"dram_bank_level_parallelism", d.bank_level_parallelism},
              {"average_memory_latency_cycles", d.average_memory_latency_cycles},
              {"achieved_dram_bandwidth_gbps", d.achieved_bandwidth_gbps},
              {"peak_dram_bandwidth_gbps", d.peak_bandwidth_gbps}});
  }
  return w;
}

const std::set<std::string> kCounts = {
    "inst_executed", "thread_inst_executed", "not_predicated_off_thread_inst_executed", "branch", "divergent_branch",
    "gld_requests", "gst_requests", "shared_load_requests", "shared_store_requests", "local_load_requests",
    "local_store_requests", "atomic_requests", "barrier_arrivals", "blocks_per_sm", "gld_transactions",
    "gst_transactions", "local_load_transactions", "local_store_transactions", "atomic_transactions",
    "shared_load_transactions", "shared_store_transactions", "shared_bank_conflicts", "l2_read_transactions",
    "l2_write_transactions", "elapsed_cycles_sm", "stall_exec_dependency", "stall_memory_dependency", "stall_sync",
    "stall_not_selected", "stall_pipe_busy", "dram_read_transactions", "dram_write_transactions", "dram_read_bytes",
    "dram_write_bytes", "dram_row_hits", "dram_row_misses", "dram_row_conflicts"};

void check_metrics_json(const LaunchStats& s) {
  const Json j = test::reparse(stats_to_json(s, nullptr));
  REQUIRE(j.contains("metrics"));
  const Json& got = j["metrics"];
  const auto want = expected_metrics(s);
  std::set<std::string> got_keys, want_keys;
  for (auto it = got.begin(); it != got.end(); ++it) got_keys.insert(it.key());
  for (const auto& [k, v] : want) want_keys.insert(k);
  CHECK(got_keys == want_keys);  // nothing missing, nothing unaccounted for
  for (const auto& [name, value] : want) {
    INFO(name);
    if (!got.contains(name)) continue;
    if (kCounts.count(name)) {
      REQUIRE(got[name].is_number_integer());  // counts are printed exactly, as integers
      CHECK(got[name].get<uint64_t>() == uint64_t(value));
    } else {
      CHECK(got[name].get<double>() == Approx(value).margin(1e-12));
    }
  }
}

}  // namespace

TEST_CASE("900: JSON metrics equal the LaunchStats fields (timing mode)", "[reports][stats]") {
  auto r = run_copy(SimMode::Timing);
  REQUIRE(r.correct);
  const LaunchStats& s = r.stats;
  REQUIRE(s.timing.valid);
  REQUIRE(s.dram.valid);
  check_metrics_json(s);
  const Json j = test::reparse(stats_to_json(s, &r.kernel()));
  const Json& m = j["metrics"];
  // Hand derivation. 8 warps x 16 instructions (3 ld.param, 2 cvta, 3 mov, mad, mul,
  // mul.wide, add, ld, add, st, ret), all 32 lanes active, no branch.
  CHECK(m["inst_executed"] == 128);
  CHECK(m["thread_inst_executed"] == 128 * 32);
  CHECK(m["warp_execution_efficiency"] == 100.0);
  CHECK(m["branch"] == 0);
  CHECK(m["branch_efficiency"] == 100.0);
  // One load and one store per warp. Lane l of a warp touches 4 bytes at 8*(g+l): 256
  // bytes, 128 of them asked for. cc2.0 loads (L1-cached): two 128-byte lines = 256 B
  // moved; stores: eight 32-byte segments = 256 B moved. Efficiency 128/256 = 50 %.
  CHECK(m["gld_requests"] == 8);
  CHECK(m["gst_requests"] == 8);
  CHECK(m["gld_transactions"] == 16);
  CHECK(m["gst_transactions"] == 64);
  CHECK(m["gld_transactions_per_request"] == 2.0);
  CHECK(m["gst_transactions_per_request"] == 8.0);
  CHECK(m["gld_efficiency"] == 50.0);
  CHECK(m["gst_efficiency"] == 50.0);
  CHECK(m["shared_bank_conflicts"] == 0);
  // Each of the 16 loaded lines is touched by one warp once: every L1 access misses and
  // DRAM delivers each 128-byte line once.
  CHECK(m["l1_hit_rate"] == 0.0);
  CHECK(m["dram_read_bytes"] == 16 * 128);
  // Occupancy: 4 warps per block; 48/4 = 12 blocks by warps, 8 by the block limit:
  // 8 blocks = 32 of 48 warps.
  CHECK(m["blocks_per_sm"] == 8);
  CHECK(m["theoretical_occupancy"].get<double>() == Approx(100.0 * 32 / 48));
  // The rest of the document.
  CHECK(j["mode"] == "timing");
  CHECK(j["kernel"] == s.kernel);
  CHECK(j["device"] == s.device);
  CHECK(j["grid"] == Json::array({2, 1, 1}));
  CHECK(j["block"] == Json::array({128, 1, 1}));
  CHECK(j["occupancy"]["blocks_per_sm"] == s.occupancy.blocks_per_sm);
  CHECK(j["occupancy"]["limiter"] == s.occupancy.limiter);
  CHECK(j["branches"].empty());
  REQUIRE(j["dram"]["channels"].size() == s.dram.channels.size());
  CHECK(j["dram"]["dram_cycles"] == s.dram.dram_cycles);
  uint64_t reads = 0;
  for (size_t c = 0; c < s.dram.channels.size(); ++c) {
    CHECK(j["dram"]["channels"][c]["reads"] == s.dram.channels[c].reads);
    CHECK(j["dram"]["channels"][c]["writes"] == s.dram.channels[c].writes);
    CHECK(j["dram"]["channels"][c]["row_hits"] == s.dram.channels[c].row_hits);
    reads += s.dram.channels[c].read_bytes;
  }
  CHECK(reads == s.dram.read_bytes);
}

TEST_CASE("900: JSON metrics equal the LaunchStats fields (functional mode)", "[reports][stats]") {
  auto r = run_copy(SimMode::Functional);
  REQUIRE(r.correct);
  const LaunchStats& s = r.stats;
  CHECK_FALSE(s.timing.valid);
  check_metrics_json(s);
  const Json j = test::reparse(stats_to_json(s, nullptr));
  CHECK(j["mode"] == "functional");
  CHECK_FALSE(j.contains("dram"));
  CHECK_FALSE(j["metrics"].contains("elapsed_cycles_sm"));
  CHECK_FALSE(j["metrics"].contains("achieved_occupancy"));
  // Counts do not depend on the mode.
  CHECK(j["metrics"]["gld_transactions"] == 16);
  CHECK(j["metrics"]["gst_transactions"] == 64);
}

TEST_CASE("900: divergent branches appear in the JSON with their source line", "[reports][stats]") {
  auto r = launch_spec("kernels/divergence/divergence_odd_even_branch.json", "c2070", {{"n", 64}, {"block_size", 32}});
  const Json j = test::reparse(stats_to_json(r.stats, &r.kernel()));
  // Two warps, 3 branches each (the conditional one, 2 bra.uni), the conditional one
  // divergent in both: branch_efficiency = (6 - 2) / 6.
  CHECK(j["metrics"]["branch"] == 6);
  CHECK(j["metrics"]["divergent_branch"] == 2);
  CHECK(j["metrics"]["branch_efficiency"].get<double>() == Approx(100.0 * 4 / 6));
  REQUIRE(j["branches"].size() == 1);
  CHECK(j["branches"][0]["source"] == "divergence.cu:37");
  CHECK(j["branches"][0]["ptx_line"] == 174);
  CHECK(j["branches"][0]["reached"] == Json::array({2}));
  CHECK(j["branches"][0]["diverged"] == Json::array({2}));
}

TEST_CASE("900: the text metric tables print the same values", "[reports][stats]") {
  auto r = run_copy(SimMode::Timing);
  const LaunchStats& s = r.stats;
  const std::string text = format_metric_tables(s);
  std::map<std::string, std::string> row;  // metric name -> the rest of its line
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("  ", 0) != 0) continue;
    std::istringstream cols(line);
    std::string name;
    cols >> name;
    row[name] = line;
  }
  size_t metrics = 0;
  for (const auto& g : collect_metrics(s)) {
    CHECK_THAT(text, Catch::Contains(g.title + "\n"));
    for (const auto& m : g.metrics) {
      ++metrics;
      INFO(m.name);
      REQUIRE(row.count(m.name));
      CHECK_THAT(row[m.name], Catch::Contains(fmt::format(" {}  {}", format_metric_value(m), m.description)));
    }
  }
  CHECK(row.size() == metrics);
  // The hand-derived values as printed.
  CHECK_THAT(row["inst_executed"], Catch::Contains(" 128  "));
  CHECK_THAT(row["gld_transactions"], Catch::Contains(" 16  "));
  CHECK_THAT(row["gst_transactions_per_request"], Catch::Contains(" 8  "));
  CHECK_THAT(row["gld_efficiency"], Catch::Contains(" 50.0 %  "));
  CHECK_THAT(row["theoretical_occupancy"], Catch::Contains(" 66.7 %  "));
}

TEST_CASE("900: metric values are formatted by unit", "[reports][stats]") {
  using U = Metric::Unit;
  CHECK(format_metric_value({"", 1234567, U::Count, ""}) == "1,234,567");
  CHECK(format_metric_value({"", 999, U::Cycles, ""}) == "999");
  CHECK(format_metric_value({"", 1000, U::Bytes, ""}) == "1,000");
  CHECK(format_metric_value({"", 87.5, U::Percent, ""}) == "87.5 %");
  CHECK(format_metric_value({"", 1.25, U::Ratio, ""}) == "1.25");
  CHECK(format_metric_value({"", 1234.4, U::Nanoseconds, ""}) == "1234 ns");
  CHECK(format_metric_value({"", 144, U::GBps, ""}) == "144.00 GB/s");
}
