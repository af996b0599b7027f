// A small, self-contained SVG chart writer: one or more panels stacked vertically, each
// with linear or log axes, tick labels, axis labels, line/marker series, text notes and a
// legend. The output uses only the generic "sans-serif" font and no scripts, styles from
// elsewhere or external references, so any browser or SVG viewer shows it as is.
//
// Elements carry classes for tests and styling: "title", "subtitle", "panel",
// "panel-title", "x-label", "y-label", "tick-label", "series" (data-name="..."),
// "legend", "legend-entry", "note".
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace warpsim::svg {

struct Tick {
  double value = 0;
  std::string label;
};

struct AxisSpec {
  std::string label;             // with its unit, e.g. "DRAM bandwidth (GB/s)"
  bool log = false;              // log10 scale (every value must be > 0)
  std::optional<double> min, max;  // data range shown; automatic when unset
  std::vector<Tick> ticks;       // automatic when empty
};

struct Series {
  std::string name;              // legend text ("" or in_legend false: not in the legend)
  std::vector<double> x, y;
  bool line = true;              // join the points
  bool markers = true;           // a dot at each point
  bool dashed = false;
  double line_width = 2;
  std::string color;             // "" = the next palette colour
  bool in_legend = true;
  std::vector<std::string> point_labels;  // optional text beside each point
  std::vector<std::string> point_titles;  // optional hover text (<title>) of each point
};

// Text at a data position (not clipped), drawn over a thin white halo so it stays readable
// across lines and grid.
struct Note {
  double x = 0, y = 0;
  std::string text;
  std::string anchor = "start";  // start, middle, end
  double dx = 0, dy = 0;         // pixel offset
  std::string color = "#333333";
  double font_size = 12;
  bool bold = false;
};

struct Panel {
  std::string title;
  AxisSpec x, y;
  std::vector<Series> series;
  std::vector<Note> notes;
};

struct Chart {
  std::string title;
  std::string subtitle;
  std::vector<Panel> panels;
  double plot_width = 560;       // pixels of each panel's plotting area
  double plot_height = 320;
};

// The SVG document. Throws ConfigError for a log axis with a value <= 0 or a series whose
// x and y lengths differ.
std::string render_svg(const Chart& chart);
// Writes render_svg(chart) to `path` (Error when it cannot).
void write_svg(const Chart& chart, const std::string& path);

// "Nice" ticks (1, 2, 2.5, 5 x 10^k steps) covering [lo, hi], about `target` of them.
std::vector<Tick> nice_ticks(double lo, double hi, int target = 6);
// Ticks of a log axis over [lo, hi]: powers of ten, plus 2 and 5 multiples over short ranges.
std::vector<Tick> log_ticks(double lo, double hi);
// A compact tick/label number: "0", "0.25", "1030.4", "25k", "1.5M".
std::string format_number(double v);
// & < > " ' escaped for XML text and attributes.
std::string xml_escape(const std::string& s);
// The default palette colour of series k.
std::string palette(size_t k);

}  // namespace warpsim::svg
