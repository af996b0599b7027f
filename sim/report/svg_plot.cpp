#include "sim/report/svg_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "sim/foundation/error.hpp"

namespace warpsim::svg {

namespace {

constexpr double kTickFont = 11, kLabelFont = 13, kLegendFont = 12;
constexpr double kCharWidth = 0.6;  // average sans-serif glyph width / font size

double text_width(const std::string& s, double font) {
  size_t glyphs = 0;
  for (unsigned char c : s) glyphs += (c & 0xC0) != 0x80;  // count UTF-8 code points
  return double(glyphs) * font * kCharWidth;
}

std::string num(double v) { return fmt::format("{:.2f}", v); }

// A data-to-pixel map for one axis.
struct Scale {
  double lo = 0, hi = 1;  // data range
  bool log = false;
  double p0 = 0, p1 = 1;  // pixels of lo and hi
  double t(double v) const { return log ? std::log10(v) : v; }
  double px(double v) const {
    double a = t(lo), b = t(hi);
    return b == a ? (p0 + p1) / 2 : p0 + (t(v) - a) / (b - a) * (p1 - p0);
  }
  bool contains(double v) const {
    double eps = (t(hi) - t(lo)) * 1e-9;
    return std::isfinite(v) && (!log || v > 0) && t(v) >= t(lo) - eps && t(v) <= t(hi) + eps;
  }
};

struct AxisRange {
  double lo = 0, hi = 1;
  std::vector<Tick> ticks;
};

AxisRange resolve_axis(const AxisSpec& spec, std::vector<double> data, bool from_zero) {
  data.erase(std::remove_if(data.begin(), data.end(), [&](double v) { return !std::isfinite(v); }), data.end());
  for (double v : data)
    if (spec.log && v <= 0)
      throw ConfigError(fmt::format("plot: axis '{}' is logarithmic but has the value {}", spec.label, v));
  AxisRange r;
  double lo = data.empty() ? (spec.log ? 1 : 0) : *std::min_element(data.begin(), data.end());
  double hi = data.empty() ? (spec.log ? 10 : 1) : *std::max_element(data.begin(), data.end());
  if (spec.min) lo = *spec.min;
  if (spec.max) hi = *spec.max;
  if (!spec.log && from_zero && !spec.min && lo > 0) lo = 0;
  if (hi <= lo) {
    if (spec.log) {
      lo /= 2;
      hi *= 2;
    } else {
      double d = lo == 0 ? 1 : std::fabs(lo) * 0.1;
      if (!(from_zero && lo == 0 && !spec.min)) lo -= d;
      hi += d;
    }
  }
  if (!spec.ticks.empty()) {
    r.ticks = spec.ticks;
    if (!spec.min && !spec.max) {  // breathing room around data placed on the ticks
      if (spec.log) {
        double f = std::pow(hi / lo, 0.04);
        lo /= f;
        hi *= f;
      } else {
        double pad = (hi - lo) * 0.04;
        if (!(from_zero && lo == 0)) lo -= pad;
        hi += pad;
      }
    }
  } else if (spec.log) {
    if (!spec.min) lo = std::pow(10, std::floor(std::log10(lo) + 1e-9));
    if (!spec.max) hi = std::pow(10, std::ceil(std::log10(hi) - 1e-9));
    if (hi <= lo) hi = lo * 10;
    r.ticks = log_ticks(lo, hi);
  } else {
    r.ticks = nice_ticks(lo, hi);
    if (!r.ticks.empty()) {
      if (!spec.min) lo = std::min(lo, r.ticks.front().value);
      if (!spec.max) hi = std::max(hi, r.ticks.back().value);
    }
  }
  r.lo = lo;
  r.hi = hi;
  return r;
}

std::string dash(bool dashed) { return dashed ? " stroke-dasharray=\"7 4\"" : ""; }

}  // namespace

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if ((unsigned char)c < 0x20 && c != '\n' && c != '\t') break;  // not allowed in XML 1.0
        out += c;
    }
  }
  return out;
}

std::string palette(size_t k) {
  static const char* colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                 "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
  return colors[k % (sizeof colors / sizeof *colors)];
}

std::string format_number(double v) {
  if (v == 0 || !std::isfinite(v)) return v == 0 ? "0" : fmt::format("{}", v);
  double a = std::fabs(v);
  if (a >= 1e4) {
    static const char* suffix[] = {"k", "M", "G", "T", "P"};
    int k = 0;
    double s = v / 1e3;
    while (std::fabs(s) >= 1e3 && k < 4) {
      s /= 1e3;
      ++k;
    }
    return fmt::format("{:.4g}{}", s, suffix[k]);
  }
  if (a < 1e-3) return fmt::format("{:.3g}", v);
  return fmt::format("{:.6g}", v);
}

std::vector<Tick> nice_ticks(double lo, double hi, int target) {
  std::vector<Tick> out;
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return out;
  double raw = (hi - lo) / std::max(1, target - 1);
  double mag = std::pow(10, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * mag >= raw * 0.999) {
      step = m * mag;
      break;
    }
  double first = std::floor(lo / step + 1e-9) * step;
  for (int i = 0; i < 100; ++i) {
    double v = first + i * step;
    if (std::fabs(v) < step * 1e-9) v = 0;
    out.push_back({v, format_number(v)});
    if (v >= hi - step * 1e-9) break;
  }
  return out;
}

std::vector<Tick> log_ticks(double lo, double hi) {
  std::vector<Tick> out;
  if (!(lo > 0) || !(hi > lo)) return out;
  int e0 = int(std::floor(std::log10(lo) + 1e-9)), e1 = int(std::ceil(std::log10(hi) - 1e-9));
  bool minor = e1 - e0 <= 2;
  for (int e = e0; e <= e1; ++e) {
    for (double m : {1.0, 2.0, 5.0}) {
      if (m != 1.0 && !minor) continue;
      double v = m * std::pow(10, e);
      if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9)) continue;
      out.push_back({v, format_number(v)});
    }
  }
  return out;
}

std::string render_svg(const Chart& chart) {
  // Axis ranges first: the left margin depends on the widest y tick label.
  std::vector<AxisRange> xr, yr;
  for (const auto& p : chart.panels) {
    std::vector<double> xs, ys;
    for (const auto& s : p.series) {
      if (s.x.size() != s.y.size())
        throw ConfigError(fmt::format("plot: series '{}' has {} x and {} y values", s.name, s.x.size(), s.y.size()));
      xs.insert(xs.end(), s.x.begin(), s.x.end());
      ys.insert(ys.end(), s.y.begin(), s.y.end());
    }
    xr.push_back(resolve_axis(p.x, xs, false));
    yr.push_back(resolve_axis(p.y, ys, true));
  }
  double widest_tick = 0, legend_w = 0;
  for (size_t i = 0; i < chart.panels.size(); ++i) {
    for (const auto& t : yr[i].ticks) widest_tick = std::max(widest_tick, text_width(t.label, kTickFont));
    for (const auto& s : chart.panels[i].series)
      if (s.in_legend && !s.name.empty()) legend_w = std::max(legend_w, text_width(s.name, kLegendFont) + 44);
  }
  const double left = 30 + widest_tick + 12, right = legend_w > 0 ? legend_w + 28 : 28;
  const double width = left + chart.plot_width + right;
  double top = 16 + (chart.title.empty() ? 0 : 26) + (chart.subtitle.empty() ? 0 : 20);
  double height = top;
  for (const auto& p : chart.panels) height += (p.title.empty() ? 8 : 30) + chart.plot_height + 58;
  height = std::max(height, top + 40);
  double title_w = std::max(text_width(chart.title, 18), text_width(chart.subtitle, 12)) + 32;
  const double total_w = std::max(width, title_w);

  std::string o;
  o += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\">\n",
      num(total_w), num(height));
  o += fmt::format("<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", num(total_w), num(height));
  double y = 16;
  if (!chart.title.empty()) {
    y += 18;
    o += fmt::format("<text class=\"title\" x=\"{}\" y=\"{}\" font-size=\"18\" font-weight=\"bold\" "
                     "text-anchor=\"middle\" fill=\"#111111\">{}</text>\n",
                     num(total_w / 2), num(y), xml_escape(chart.title));
    y += 8;
  }
  if (!chart.subtitle.empty()) {
    y += 14;
    o += fmt::format("<text class=\"subtitle\" x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" "
                     "fill=\"#555555\">{}</text>\n",
                     num(total_w / 2), num(y), xml_escape(chart.subtitle));
    y += 6;
  }
  y = top;
  for (size_t pi = 0; pi < chart.panels.size(); ++pi) {
    const Panel& p = chart.panels[pi];
    o += fmt::format("<g class=\"panel\" id=\"panel-{}\">\n", pi);
    if (!p.title.empty()) {
      y += 22;
      o += fmt::format("<text class=\"panel-title\" x=\"{}\" y=\"{}\" font-size=\"14\" font-weight=\"bold\" "
                       "text-anchor=\"middle\" fill=\"#222222\">{}</text>\n",
                       num(left + chart.plot_width / 2), num(y), xml_escape(p.title));
      y += 8;
    } else {
      y += 8;
    }
    const double x0 = left, x1 = left + chart.plot_width, y0 = y + chart.plot_height, y1 = y;
    Scale sx{xr[pi].lo, xr[pi].hi, p.x.log, x0, x1};
    Scale sy{yr[pi].lo, yr[pi].hi, p.y.log, y0, y1};
    o += fmt::format("<clipPath id=\"clip-{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath>\n", pi,
                     num(x0), num(y1), num(x1 - x0), num(y0 - y1));
    o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fbfbfb\" stroke=\"none\"/>\n",
                     num(x0), num(y1), num(x1 - x0), num(y0 - y1));
    // Grid lines and tick labels; a label that would overlap the previous one is left out.
    double last_label_end = -1e9;
    for (const auto& t : xr[pi].ticks) {
      if (!sx.contains(t.value)) continue;
      double px = sx.px(t.value);
      o += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#e2e2e2\" stroke-width=\"1\"/>\n",
                       num(px), num(y1), num(y0));
      o += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#444444\" stroke-width=\"1\"/>\n",
                       num(px), num(y0), num(y0 + 5));
      double w = text_width(t.label, kTickFont);
      if (px - w / 2 < last_label_end + 4) continue;
      last_label_end = px + w / 2;
      o += fmt::format("<text class=\"tick-label\" x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" "
                       "fill=\"#333333\">{}</text>\n",
                       num(px), num(y0 + 18), kTickFont, xml_escape(t.label));
    }
    double last_label_top = 1e9;
    for (const auto& t : yr[pi].ticks) {
      if (!sy.contains(t.value)) continue;
      double py = sy.px(t.value);
      o += fmt::format("<line x1=\"{1}\" y1=\"{0}\" x2=\"{2}\" y2=\"{0}\" stroke=\"#e2e2e2\" stroke-width=\"1\"/>\n",
                       num(py), num(x0), num(x1));
      o += fmt::format("<line x1=\"{1}\" y1=\"{0}\" x2=\"{2}\" y2=\"{0}\" stroke=\"#444444\" stroke-width=\"1\"/>\n",
                       num(py), num(x0 - 5), num(x0));
      if (py + kTickFont / 2 > last_label_top - 2) continue;
      last_label_top = py - kTickFont / 2;
      o += fmt::format("<text class=\"tick-label\" x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"end\" "
                       "fill=\"#333333\">{}</text>\n",
                       num(x0 - 8), num(py + 4), kTickFont, xml_escape(t.label));
    }
    o += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#444444\" "
                     "stroke-width=\"1\"/>\n",
                     num(x0), num(y1), num(x1 - x0), num(y0 - y1));
    o += fmt::format("<text class=\"x-label\" x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" "
                     "fill=\"#111111\">{}</text>\n",
                     num((x0 + x1) / 2), num(y0 + 40), kLabelFont, xml_escape(p.x.label));
    double ylx = 18, yly = (y0 + y1) / 2;
    o += fmt::format("<text class=\"y-label\" x=\"{0}\" y=\"{1}\" font-size=\"{2}\" text-anchor=\"middle\" "
                     "transform=\"rotate(-90 {0} {1})\" fill=\"#111111\">{3}</text>\n",
                     num(ylx), num(yly), kLabelFont, xml_escape(p.y.label));
    // Series.
    size_t color_k = 0;
    std::vector<std::pair<const Series*, std::string>> legend;
    for (const auto& s : p.series) {
      std::string color = s.color.empty() ? palette(color_k++) : s.color;
      if (s.in_legend && !s.name.empty()) legend.push_back({&s, color});
      o += fmt::format("<g class=\"series\" data-name=\"{}\">\n", xml_escape(s.name));
      if (s.line) {
        std::string pts;
        auto flush = [&] {
          if (pts.find(' ') != std::string::npos)
            o += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{} "
                             "clip-path=\"url(#clip-{})\"/>\n",
                             pts, color, num(s.line_width), dash(s.dashed), pi);
          pts.clear();
        };
        for (size_t k = 0; k < s.x.size(); ++k) {
          bool ok = std::isfinite(s.x[k]) && std::isfinite(s.y[k]) && (!p.x.log || s.x[k] > 0) &&
                    (!p.y.log || s.y[k] > 0);
          if (!ok) {
            flush();
            continue;
          }
          if (!pts.empty()) pts += ' ';
          pts += num(sx.px(s.x[k]));
          pts += ',';
          pts += num(sy.px(s.y[k]));
        }
        flush();
      }
      for (size_t k = 0; k < s.x.size(); ++k) {
        if (!sx.contains(s.x[k]) || !sy.contains(s.y[k])) continue;
        double px = sx.px(s.x[k]), py = sy.px(s.y[k]);
        if (s.markers) {
          std::string title = k < s.point_titles.size() ? s.point_titles[k]
                                                         : fmt::format("{}: ({}, {})", s.name, format_number(s.x[k]),
                                                                       format_number(s.y[k]));
          o += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\" stroke=\"#ffffff\" stroke-width=\"1\">"
                           "<title>{}</title></circle>\n",
                           num(px), num(py), color, xml_escape(title));
        }
        if (k < s.point_labels.size() && !s.point_labels[k].empty())
          o += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"{}\">{}</text>\n", num(px + 8),
                           num(py - 8), color, xml_escape(s.point_labels[k]));
      }
      o += "</g>\n";
    }
    for (const auto& n : p.notes) {
      if (!std::isfinite(n.x) || !std::isfinite(n.y) || (p.x.log && n.x <= 0) || (p.y.log && n.y <= 0)) continue;
      o += fmt::format("<text class=\"note\" x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{}\" fill=\"{}\"{} "
                       "stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\">"
                       "{}</text>\n",
                       num(sx.px(n.x) + n.dx), num(sy.px(n.y) + n.dy), num(n.font_size), n.anchor, n.color,
                       n.bold ? " font-weight=\"bold\"" : "", xml_escape(n.text));
    }
    if (p.series.empty() || std::all_of(p.series.begin(), p.series.end(), [](const Series& s) { return s.x.empty(); }))
      o += fmt::format("<text class=\"note\" x=\"{}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\" "
                       "fill=\"#888888\">no data</text>\n",
                       num((x0 + x1) / 2), num((y0 + y1) / 2));
    if (!legend.empty()) {
      double lx = x1 + 16, ly = y1 + 6;
      double lh = 8 + 20.0 * legend.size();
      o += fmt::format("<g class=\"legend\">\n<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#ffffff\" "
                       "stroke=\"#cccccc\"/>\n",
                       num(lx), num(ly), num(legend_w), num(lh));
      for (size_t k = 0; k < legend.size(); ++k) {
        const Series& s = *legend[k].first;
        double cy = ly + 14 + 20.0 * k;
        o += fmt::format("<g class=\"legend-entry\" data-name=\"{}\">", xml_escape(s.name));
        if (s.line)
          o += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}/>",
                           num(lx + 8), num(cy), num(lx + 32), num(cy), legend[k].second, num(s.line_width),
                           dash(s.dashed));
        if (s.markers)
          o += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"/>", num(lx + 20), num(cy),
                           legend[k].second);
        o += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"#222222\">{}</text></g>\n", num(lx + 38),
                         num(cy + 4), kLegendFont, xml_escape(s.name));
      }
      o += "</g>\n";
    }
    o += "</g>\n";
    y = y0 + 58;
  }
  o += "</svg>\n";
  return o;
}

void write_svg(const Chart& chart, const std::string& path) {
  std::string text = render_svg(chart);
  std::ofstream f(path, std::ios::binary);
  if (!f) throw Error(fmt::format("{}: cannot write the SVG file", path));
  f << text;
  if (!f) throw Error(fmt::format("{}: write failed", path));
}

}  // namespace warpsim::svg
