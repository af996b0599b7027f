// `warpsim plot`: a sweep CSV becomes panels of metric-vs-parameter lines.
#include <catch2/catch.hpp>

#include "mini_xml.hpp"
#include "sim/foundation/error.hpp"
#include "sim/sweep/plot.hpp"

using namespace warpsim;

namespace {

const char* kTwoAxes =
    "dram.channels,dram.banks,dram.address_map.bits@dram.banks,achieved_dram_bandwidth_gbps,elapsed_cycles_sm,status\n"
    "2,1,b1,10,9000,ok\n"
    "2,2,b2,20,8000,ok\n"
    "2,4,b4,30,7000,ok\n"
    "2,8,b8,35,6500,ok\n"
    "6,1,b1,25,5000,ok\n"
    "6,2,b2,50,4000,ok\n"
    "6,4,b4,,3000,ok\n"
    "6,8,b8,,,\"c.json: dram.banks: bad, very bad\"\n";

std::unique_ptr<mini_xml::Element> render(const svg::Chart& c) { return mini_xml::parse(svg::render_svg(c)); }

std::vector<std::string> names(const mini_xml::Element& root, const std::string& cls) {
  std::vector<std::string> out;
  for (auto* e : root.all("", "class", cls)) out.push_back(e->name == "text" ? e->text : e->attr("data-name"));
  return out;
}

}  // namespace

TEST_CASE("columns are parameters, metrics or the status", "[plots][sweep]") {
  csv::Table t = csv::parse(kTwoAxes, "s.csv");
  CHECK(sweep::parameter_columns(t) ==
        std::vector<std::string>{"dram.channels", "dram.banks", "dram.address_map.bits@dram.banks"});
  CHECK(sweep::metric_columns(t) == std::vector<std::string>{"achieved_dram_bandwidth_gbps", "elapsed_cycles_sm"});
  CHECK(sweep::parameter_label("dram.banks") == "dram.banks (banks per channel)");
  CHECK(sweep::parameter_label("l1.size_bytes") == "l1.size_bytes (B)");
  CHECK(sweep::parameter_label("dram.timing.tRCD") == "dram.timing.tRCD (DRAM clock cycles)");
  CHECK(sweep::parameter_label("var:width") == "width (spec variable)");
  CHECK(sweep::metric_label("achieved_dram_bandwidth_gbps") == "achieved_dram_bandwidth_gbps (GB/s)");
  CHECK(sweep::metric_label("dram_utilization") == "dram_utilization (%)");
  CHECK(sweep::metric_label("ipc") == "ipc");
}

TEST_CASE("one line per other parameter, a linked column does not split lines, failed rows are left out",
          "[plots][sweep]") {
  csv::Table t = csv::parse(kTwoAxes, "s.csv");
  sweep::PlotOptions o;
  o.x = "dram.banks";
  o.y = {"achieved_dram_bandwidth_gbps"};
  svg::Chart c = sweep::sweep_chart(t, o, "runs/banks.csv");
  CHECK(c.title == "achieved_dram_bandwidth_gbps vs dram.banks");
  CHECK(c.subtitle == "banks.csv: 7 points, one line per dram.channels; 1 failed point left out");
  REQUIRE(c.panels.size() == 1);
  const auto& p = c.panels[0];
  CHECK(p.x.log);  // 1..8 spans a factor of 8
  CHECK(p.x.label == "dram.banks (banks per channel)");
  CHECK(p.y.label == "achieved_dram_bandwidth_gbps (GB/s)");
  REQUIRE(p.series.size() == 2);
  CHECK(p.series[0].name == "dram.channels=2");
  CHECK(p.series[0].x == std::vector<double>{1, 2, 4, 8});
  CHECK(p.series[0].y == std::vector<double>{10, 20, 30, 35});
  CHECK(p.series[1].name == "dram.channels=6");
  CHECK(p.series[1].x == std::vector<double>{1, 2});  // an empty cell is no point
  REQUIRE(p.x.ticks.size() == 4);
  CHECK(p.x.ticks[3].label == "8");
  auto root = render(c);
  CHECK(names(*root, "series") == std::vector<std::string>{"dram.channels=2", "dram.channels=6"});
  CHECK(names(*root, "legend-entry") == std::vector<std::string>{"dram.channels=2", "dram.channels=6"});
}

TEST_CASE("defaults: the first parameter on x, one panel per metric column with values", "[plots][sweep]") {
  csv::Table t = csv::parse(kTwoAxes, "s.csv");
  svg::Chart c = sweep::sweep_chart(t, {}, "s.csv");
  REQUIRE(c.panels.size() == 2);
  CHECK(c.title == "achieved_dram_bandwidth_gbps, elapsed_cycles_sm vs dram.channels");
  CHECK(c.panels[0].title == "achieved_dram_bandwidth_gbps");
  CHECK(c.panels[1].title == "elapsed_cycles_sm");
  CHECK(c.panels[1].x.label == "dram.channels (memory channels)");
  CHECK_FALSE(c.panels[1].x.log);  // 2 and 6: two values
  // Lines per bank count (the bits column follows the banks, so it adds no split).
  CHECK(c.panels[1].series.size() == 4);
  CHECK(c.panels[1].series[0].name == "dram.banks=1");
  auto root = render(c);
  CHECK(root->all("g", "class", "panel").size() == 2);
  CHECK(names(*root, "panel-title") == std::vector<std::string>{"achieved_dram_bandwidth_gbps", "elapsed_cycles_sm"});
}

TEST_CASE("many metrics: the title counts them", "[plots][sweep]") {
  csv::Table t = csv::parse("var:n,ipc,inst_executed,dram_utilization,status\n1,1,2,3,ok\n2,1,2,3,ok\n", "s.csv");
  CHECK(sweep::sweep_chart(t, {}, "s.csv").title == "3 metrics vs var:n");
}

TEST_CASE("a non-numeric parameter is a category axis", "[plots][sweep]") {
  csv::Table t = csv::parse("sm.scheduler_policy,ipc,status\nlrr,0.5,ok\ngto,0.75,ok\ntwo_level,0.6,ok\n", "s.csv");
  svg::Chart c = sweep::sweep_chart(t, {}, "s.csv");
  const auto& p = c.panels[0];
  CHECK_FALSE(p.x.log);
  REQUIRE(p.x.ticks.size() == 3);
  CHECK(p.x.ticks[2].label == "two_level");
  CHECK(p.series[0].x == std::vector<double>{0, 1, 2});
  CHECK_FALSE(p.series[0].line);
  auto root = render(c);
  std::vector<std::string> ticks = names(*root, "tick-label");
  CHECK(std::find(ticks.begin(), ticks.end(), "gto") != ticks.end());
}

TEST_CASE("plot errors name the column", "[plots][sweep]") {
  csv::Table t = csv::parse(kTwoAxes, "s.csv");
  sweep::PlotOptions o;
  o.x = "dram.bankz";
  CHECK_THROWS_WITH(sweep::sweep_chart(t, o, "s.csv"),
                    "--x dram.bankz: s.csv has no such varied parameter (parameters: dram.channels, dram.banks, "
                    "dram.address_map.bits@dram.banks)");
  o.x = "dram.banks";
  o.y = {"ipc"};
  CHECK_THROWS_WITH(sweep::sweep_chart(t, o, "s.csv"), Catch::StartsWith("--y ipc: s.csv has no such column"));
  o.y = {"dram.channels"};
  CHECK_THROWS_WITH(sweep::sweep_chart(t, o, "s.csv"), Catch::Contains("not a metric"));
  csv::Table zero = csv::parse("var:n,ipc,status\n0,1,ok\n4,2,ok\n", "z.csv");
  sweep::PlotOptions lx;
  lx.log_x = true;
  CHECK_THROWS_WITH(sweep::sweep_chart(zero, lx, "z.csv"), "--log-x: var:n has the value 0 (a log axis needs values > 0)");
  csv::Table only_metrics = csv::parse("ipc,status\n1,ok\n", "m.csv");
  CHECK_THROWS_WITH(sweep::sweep_chart(only_metrics, {}, "m.csv"), Catch::Contains("no varied parameter column"));
}
