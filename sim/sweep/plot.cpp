#include "sim/sweep/plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "sim/foundation/error.hpp"
#include "sim/sweep/sweep.hpp"

namespace warpsim::sweep {

namespace {

bool parse_number(const std::string& s, double& out) {
  if (s.empty()) return false;
  try {
    size_t used = 0;
    out = std::stod(s, &used);
    return used == s.size() && std::isfinite(out);
  } catch (const std::exception&) {
    return false;
  }
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

}  // namespace

std::vector<std::string> parameter_columns(const csv::Table& t) {
  std::vector<std::string> out;
  for (const auto& h : t.header)
    if (h != "status" && !find_metric(h)) out.push_back(h);
  return out;
}

std::vector<std::string> metric_columns(const csv::Table& t) {
  std::vector<std::string> out;
  for (const auto& h : t.header)
    if (find_metric(h)) out.push_back(h);
  return out;
}

std::string parameter_label(const std::string& column) {
  std::string key = column.substr(0, column.find('@'));
  auto ends = [&](const char* s) { return key.ends_with(s); };
  if (key.starts_with("var:")) return key.substr(4) + " (spec variable)";
  if (key.starts_with("dram.timing.")) return column + " (DRAM clock cycles)";
  if (ends("_bytes") || ends(".shared_memory")) return column + " (B)";
  if (ends("_mhz")) return column + " (MHz)";
  if (ends("_latency")) return column + " (SM cycles)";
  if (key == "dram.banks") return column + " (banks per channel)";
  if (key == "dram.channels") return column + " (memory channels)";
  if (key == "sm.count") return column + " (SMs)";
  return column;
}

std::string metric_label(const std::string& metric) {
  const Metric* m = find_metric(metric);
  std::string unit = m ? unit_label(m->unit) : "";
  return unit.empty() ? metric : fmt::format("{} ({})", metric, unit);
}

svg::Chart sweep_chart(const csv::Table& t, const PlotOptions& o, const std::string& source_name) {
  const std::vector<std::string> params = parameter_columns(t);
  if (params.empty())
    throw ConfigError(fmt::format("{}: no varied parameter column (is this a `warpsim sweep` CSV?)", source_name));
  std::string x = o.x.empty() ? params.front() : o.x;
  int xc = t.column(x);
  if (xc < 0 || std::find(params.begin(), params.end(), x) == params.end())
    throw ConfigError(fmt::format("--x {}: {} has no such varied parameter (parameters: {})", x, source_name,
                                  join(params, ", ")));
  const int sc = t.column("status");
  std::vector<size_t> rows;
  size_t failed = 0;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (sc >= 0 && t.rows[r][size_t(sc)] != "ok") {
      ++failed;
      continue;
    }
    rows.push_back(r);
  }

  std::vector<std::string> ys = o.y;
  if (ys.empty()) {
    for (const auto& m : metric_columns(t)) {
      int c = t.column(m);
      bool any = std::any_of(rows.begin(), rows.end(), [&](size_t r) { return !t.rows[r][size_t(c)].empty(); });
      if (any) ys.push_back(m);
    }
    if (ys.empty()) throw ConfigError(fmt::format("{}: no metric column has a value to plot", source_name));
  }
  for (const auto& y : ys) {
    if (t.column(y) < 0)
      throw ConfigError(fmt::format("--y {}: {} has no such column (metrics: {})", y, source_name,
                                    join(metric_columns(t), ", ")));
    if (!find_metric(y)) throw ConfigError(fmt::format("--y {}: a varied parameter, not a metric", y));
  }

  // X values: numbers, or categories in order of first appearance.
  bool numeric = true;
  std::vector<std::string> categories;
  for (size_t r : rows) {
    const std::string& v = t.rows[r][size_t(xc)];
    double d;
    if (!parse_number(v, d)) numeric = false;
    if (std::find(categories.begin(), categories.end(), v) == categories.end()) categories.push_back(v);
  }
  auto x_of = [&](size_t r) {
    const std::string& v = t.rows[r][size_t(xc)];
    if (numeric) {
      double d = 0;
      parse_number(v, d);
      return d;
    }
    return double(std::find(categories.begin(), categories.end(), v) - categories.begin());
  };
  std::vector<double> distinct;
  for (size_t r : rows) distinct.push_back(x_of(r));
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());

  bool log_x = false;
  if (numeric && !distinct.empty()) {
    bool positive = distinct.front() > 0;
    if (o.log_x.value_or(false) && !positive)
      throw ConfigError(fmt::format("--log-x: {} has the value {} (a log axis needs values > 0)", x,
                                    svg::format_number(distinct.front())));
    log_x = o.log_x.value_or(positive && distinct.size() >= 3 && distinct.back() / distinct.front() >= 8);
  } else if (o.log_x.value_or(false)) {
    throw ConfigError(fmt::format("--log-x: {} is not numeric", x));
  }

  // Other parameters that vary independently of x split the points into lines; a column
  // that x determines (a linked --vary, or a constant) does not.
  std::vector<int> group_cols;
  for (const auto& p : params) {
    if (p == x) continue;
    int c = t.column(p);
    std::map<std::string, std::set<std::string>> per_x;
    std::set<std::string> all;
    for (size_t r : rows) {
      per_x[t.rows[r][size_t(xc)]].insert(t.rows[r][size_t(c)]);
      all.insert(t.rows[r][size_t(c)]);
    }
    bool determined = std::all_of(per_x.begin(), per_x.end(), [](const auto& kv) { return kv.second.size() == 1; });
    if (all.size() > 1 && !determined) group_cols.push_back(c);
  }
  // A linked column ("KEY@AXIS") repeats what its axis says once that axis splits the lines.
  std::set<std::string> splitting;
  for (int c : group_cols) splitting.insert(t.header[size_t(c)]);
  std::erase_if(group_cols, [&](int c) {
    const std::string& h = t.header[size_t(c)];
    auto at = h.find('@');
    return at != std::string::npos && splitting.count(h.substr(at + 1)) > 0;
  });
  std::vector<std::string> group_names;
  std::map<std::string, std::vector<size_t>> group_rows;
  for (size_t r : rows) {
    std::vector<std::string> parts;
    for (int c : group_cols) parts.push_back(t.header[size_t(c)] + "=" + t.rows[r][size_t(c)]);
    std::string name = join(parts, ", ");
    if (!group_rows.count(name)) group_names.push_back(name);
    group_rows[name].push_back(r);
  }

  svg::Chart chart;
  chart.title = o.title.empty()
                    ? fmt::format("{} vs {}", ys.size() <= 2 ? join(ys, ", ") : fmt::format("{} metrics", ys.size()), x)
                    : o.title;
  std::string sub = fmt::format("{}: {} points", std::filesystem::path(source_name).filename().string(), rows.size());
  if (!group_cols.empty()) {
    std::vector<std::string> names;
    for (int c : group_cols) names.push_back(t.header[size_t(c)]);
    sub += fmt::format(", one line per {}", join(names, " x "));
  }
  if (failed) sub += fmt::format("; {} failed point{} left out", failed, failed == 1 ? "" : "s");
  chart.subtitle = sub;
  if (ys.size() > 1) chart.plot_height = 260;

  std::vector<svg::Tick> xticks;
  if (!numeric) {
    for (size_t k = 0; k < categories.size(); ++k) xticks.push_back({double(k), categories[k]});
  } else if (distinct.size() <= 16) {
    for (double v : distinct) xticks.push_back({v, svg::format_number(v)});
  }
  for (const auto& y : ys) {
    int yc = t.column(y);
    svg::Panel panel;
    if (ys.size() > 1) panel.title = y;
    panel.x.label = parameter_label(x);
    panel.x.log = log_x;
    panel.x.ticks = xticks;
    if (!numeric) {
      panel.x.min = -0.5;
      panel.x.max = double(categories.size()) - 0.5;
    }
    panel.y.label = metric_label(y);
    panel.y.log = o.log_y;
    for (const auto& g : group_names) {
      std::vector<std::pair<double, double>> pts;
      for (size_t r : group_rows[g]) {
        double v;
        if (!parse_number(t.rows[r][size_t(yc)], v)) continue;
        if (o.log_y && v <= 0)
          throw ConfigError(fmt::format("--log-y: {} has the value {} (a log axis needs values > 0)", y,
                                        t.rows[r][size_t(yc)]));
        pts.push_back({x_of(r), v});
      }
      std::stable_sort(pts.begin(), pts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      svg::Series s;
      s.name = g;
      s.line = numeric;  // categories: points only
      for (auto [px, py] : pts) {
        s.x.push_back(px);
        s.y.push_back(py);
        std::string xs = numeric ? svg::format_number(px) : categories[size_t(px)];
        s.point_titles.push_back(fmt::format("{}{}{} = {}: {} = {}", g, g.empty() ? "" : ", ", x, xs, y,
                                             svg::format_number(py)));
      }
      panel.series.push_back(std::move(s));
    }
    chart.panels.push_back(std::move(panel));
  }
  return chart;
}

}  // namespace warpsim::sweep
