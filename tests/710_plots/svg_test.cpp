// The SVG writer: well-formed XML with the title, axis labels, ticks, series and legend;
// tick arithmetic; number formatting; escaping.
#include <catch2/catch.hpp>

#include "mini_xml.hpp"
#include "sim/report/svg_plot.hpp"

using namespace warpsim;

namespace {

svg::Chart two_series_chart() {
  svg::Chart c;
  c.title = "Bandwidth < peak & more";
  c.subtitle = "a \"quoted\" subtitle";
  svg::Panel p;
  p.x.label = "dram.banks (banks per channel)";
  p.x.log = true;
  p.x.ticks = {{1, "1"}, {2, "2"}, {4, "4"}, {8, "8"}};
  p.y.label = "achieved_dram_bandwidth_gbps (GB/s)";
  svg::Series a;
  a.name = "dram.channels=2";
  a.x = {1, 2, 4, 8};
  a.y = {10, 20, 35, 40};
  svg::Series b;
  b.name = "dram.channels=6";
  b.x = {1, 2, 4, 8};
  b.y = {30, 60, 100, 120};
  p.series = {a, b};
  c.panels.push_back(p);
  return c;
}

}  // namespace

TEST_CASE("the mini XML checker rejects what is not well-formed", "[plots][xml]") {
  CHECK_NOTHROW(mini_xml::parse("<?xml version=\"1.0\"?>\n<a x=\"1\"><b/>t &amp; u<!-- c --></a>\n"));
  CHECK_THROWS(mini_xml::parse("<a><b></a></b>"));
  CHECK_THROWS(mini_xml::parse("<a x=1/>"));
  CHECK_THROWS(mini_xml::parse("<a>x & y</a>"));
  CHECK_THROWS(mini_xml::parse("<a>&nbsp;</a>"));
  CHECK_THROWS(mini_xml::parse("<a x=\"1\" x=\"2\"/>"));
  CHECK_THROWS(mini_xml::parse("<a/><b/>"));
  CHECK_THROWS(mini_xml::parse("<a>"));
  auto root = mini_xml::parse("<a><b k=\"v\">x &lt; y</b><b/></a>");
  CHECK(root->all("b").size() == 2);
  CHECK(root->all("b", "k", "v").front()->text == "x < y");
}

TEST_CASE("a chart is well-formed SVG with its labels, ticks, series and legend", "[plots][svg]") {
  std::string text = svg::render_svg(two_series_chart());
  std::unique_ptr<mini_xml::Element> root;
  REQUIRE_NOTHROW(root = mini_xml::parse(text));
  CHECK(root->name == "svg");
  CHECK(root->attr("xmlns") == "http://www.w3.org/2000/svg");
  CHECK(root->attr("font-family") == "sans-serif");
  CHECK(!root->attr("width").empty());
  CHECK(!root->attr("viewBox").empty());
  CHECK(root->all("text", "class", "title").front()->text == "Bandwidth < peak & more");
  CHECK(root->all("text", "class", "subtitle").front()->text == "a \"quoted\" subtitle");
  CHECK(root->all("text", "class", "x-label").front()->text == "dram.banks (banks per channel)");
  CHECK(root->all("text", "class", "y-label").front()->text == "achieved_dram_bandwidth_gbps (GB/s)");
  std::vector<std::string> ticks;
  for (auto* t : root->all("text", "class", "tick-label")) ticks.push_back(t->text);
  for (const char* want : {"1", "2", "4", "8", "0", "25", "50", "75", "100", "125"})
    CHECK(std::find(ticks.begin(), ticks.end(), want) != ticks.end());
  auto series = root->all("g", "class", "series");
  REQUIRE(series.size() == 2);
  CHECK(series[0]->attr("data-name") == "dram.channels=2");
  CHECK(series[0]->all("polyline").size() == 1);
  CHECK(series[0]->all("circle").size() == 4);
  auto legend = root->all("g", "class", "legend-entry");
  REQUIRE(legend.size() == 2);
  CHECK(legend[1]->all_text() == "dram.channels=6");
  // No external references: no href, no style sheets, no scripts.
  CHECK(text.find("href") == std::string::npos);
  CHECK(root->all("script").empty());
  CHECK(root->all("style").empty());
}

TEST_CASE("a series without a name stays out of the legend, an empty panel says so", "[plots][svg]") {
  svg::Chart c;
  svg::Panel p;
  svg::Series s;
  s.x = {1, 2};
  s.y = {3, 4};
  p.series = {s};
  c.panels = {p, svg::Panel{}};
  auto root = mini_xml::parse(svg::render_svg(c));
  CHECK(root->all("g", "class", "legend").empty());
  CHECK(root->all("g", "class", "panel").size() == 2);
  CHECK(root->all("text", "class", "note").front()->text == "no data");
}

TEST_CASE("bad input: a log axis over zero, a series with unequal lengths", "[plots][svg]") {
  svg::Chart c = two_series_chart();
  c.panels[0].series[0].x[0] = 0;
  CHECK_THROWS_WITH(svg::render_svg(c), "plot: axis 'dram.banks (banks per channel)' is logarithmic but has the value 0");
  c = two_series_chart();
  c.panels[0].series[1].y.pop_back();
  CHECK_THROWS_WITH(svg::render_svg(c), "plot: series 'dram.channels=6' has 4 x and 3 y values");
}

TEST_CASE("nice ticks and log ticks", "[plots][ticks]") {
  auto labels = [](const std::vector<svg::Tick>& t) {
    std::vector<std::string> out;
    for (const auto& x : t) out.push_back(x.label);
    return out;
  };
  CHECK(labels(svg::nice_ticks(0, 120)) == std::vector<std::string>{"0", "25", "50", "75", "100", "125"});
  CHECK(labels(svg::nice_ticks(0, 1)) == std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8", "1"});
  CHECK(labels(svg::nice_ticks(0, 0.7)) == std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8"});
  CHECK(labels(svg::nice_ticks(0, 10)) == std::vector<std::string>{"0", "2", "4", "6", "8", "10"});
  CHECK(labels(svg::nice_ticks(95000, 160000)) ==
        std::vector<std::string>{"80k", "100k", "120k", "140k", "160k"});
  CHECK(svg::nice_ticks(1, 1).empty());
  CHECK(labels(svg::log_ticks(0.01, 1000)) == std::vector<std::string>{"0.01", "0.1", "1", "10", "100", "1000"});
  CHECK(labels(svg::log_ticks(1, 100)) == std::vector<std::string>{"1", "2", "5", "10", "20", "50", "100"});
}

TEST_CASE("numbers, colours and escaping", "[plots][format]") {
  CHECK(svg::format_number(0) == "0");
  CHECK(svg::format_number(0.25) == "0.25");
  CHECK(svg::format_number(1030.4) == "1030.4");
  CHECK(svg::format_number(9999) == "9999");
  CHECK(svg::format_number(25000) == "25k");
  CHECK(svg::format_number(1500000) == "1.5M");
  CHECK(svg::format_number(-2e9) == "-2G");
  CHECK(svg::format_number(0.0001) == "0.0001");
  CHECK(svg::xml_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;");
  CHECK(svg::palette(0) != svg::palette(1));
  CHECK(svg::palette(10) == svg::palette(0));
}
