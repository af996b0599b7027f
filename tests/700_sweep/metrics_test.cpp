// Metric selection for the CSV: the catalogue, the defaults, 'all', and the errors.
#include "sweep_fixture.hpp"

using namespace warpsim;
using sweep::parse_metric_list;

TEST_CASE("the catalogue holds every metric the run report can show", "[sweep][metrics]") {
  const auto& all = sweep::metric_catalog();
  CHECK(all.size() > 40);
  for (const char* name : {"inst_executed", "gld_transactions_per_request", "l1_hit_rate", "l2_hit_rate",
                           "elapsed_cycles_sm", "ipc", "achieved_dram_bandwidth_gbps", "dram_utilization",
                           "dram_row_hits", "dram_row_misses", "dram_row_conflicts", "achieved_occupancy"})
    CHECK(sweep::find_metric(name) != nullptr);
  CHECK(sweep::find_metric("banks") == nullptr);
  CHECK(sweep::timing_only("ipc"));
  CHECK(sweep::timing_only("dram_row_hits"));
  CHECK(sweep::timing_only("achieved_occupancy"));
  CHECK_FALSE(sweep::timing_only("gld_transactions"));
  CHECK_FALSE(sweep::timing_only("theoretical_occupancy"));
}

TEST_CASE("default metrics per mode", "[sweep][metrics]") {
  auto timing = parse_metric_list("", SimMode::Timing);
  CHECK(timing == std::vector<std::string>{"elapsed_cycles_sm", "ipc", "achieved_dram_bandwidth_gbps",
                                           "dram_utilization", "dram_row_hits", "dram_row_misses",
                                           "dram_row_conflicts", "gld_transactions_per_request"});
  for (const auto& m : parse_metric_list("", SimMode::Functional)) CHECK_FALSE(sweep::timing_only(m));
  auto all_functional = parse_metric_list("all", SimMode::Functional);
  auto all_timing = parse_metric_list("all", SimMode::Timing);
  CHECK(all_timing.size() == sweep::metric_catalog().size());
  CHECK(all_functional.size() < all_timing.size());
}

TEST_CASE("a chosen list keeps its order, unknown, duplicate and timing-only names are errors", "[sweep][metrics]") {
  CHECK(parse_metric_list("ipc, elapsed_cycles_sm", SimMode::Timing) ==
        std::vector<std::string>{"ipc", "elapsed_cycles_sm"});
  CHECK_THROWS_WITH(parse_metric_list("ipc,bandwidth", SimMode::Timing),
                    Catch::StartsWith("--metrics: unknown metric 'bandwidth'; known metrics: inst_executed, "));
  CHECK_THROWS_WITH(parse_metric_list("ipc,ipc", SimMode::Timing), "--metrics: ipc is listed twice");
  CHECK_THROWS_WITH(parse_metric_list("ipc", SimMode::Functional), "--metrics: ipc needs timing mode (drop --functional)");
  CHECK_THROWS_WITH(parse_metric_list("ipc,", SimMode::Timing), Catch::StartsWith("--metrics: unknown metric ''"));
}

TEST_CASE("CSV cells: counts exactly, other values with 6 significant digits", "[sweep][metrics]") {
  Metric count{"x", 123456789, Metric::Unit::Count, ""};
  Metric ratio{"y", 2.0 / 3.0, Metric::Unit::Ratio, ""};
  Metric pct{"z", 97.94921875, Metric::Unit::Percent, ""};
  CHECK(sweep::format_value(count, count.value) == "123456789");
  CHECK(sweep::format_value(ratio, ratio.value) == "0.666667");
  CHECK(sweep::format_value(pct, pct.value) == "97.9492");
  CHECK(sweep::unit_label(Metric::Unit::GBps) == "GB/s");
  CHECK(sweep::unit_label(Metric::Unit::Count) == "");
}
