#include "sim/sweep/sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include "sim/foundation/config_reader.hpp"
#include "sim/spec/device_spec.hpp"
#include "sim/foundation/error.hpp"
#include "sim/launch/launch_spec.hpp"

namespace warpsim::sweep {

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool parse_integer(const std::string& text, int64_t& out) {
  try {
    size_t used = 0;
    out = std::stoll(text, &used, 0);
    return used == text.size();
  } catch (const std::exception&) {
    return false;
  }
}

bool valid_key_path(const std::string& key) {
  if (key.empty() || key.front() == '.' || key.back() == '.' || key.find("..") != std::string::npos) return false;
  return std::all_of(key.begin(), key.end(), [](char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '.'; });
}

// First line of a message, for one CSV cell and one progress line.
std::string first_line(const std::string& s) {
  auto nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl);
}

}  // namespace

Axis parse_vary(const std::string& text) {
  auto fail = [&](const std::string& msg) -> Axis {
    throw ConfigError(fmt::format("--vary \"{}\": {}", text, msg));
  };
  auto eq = text.find('=');
  if (eq == std::string::npos) return fail("expected KEY=V1,V2,... (e.g. dram.banks=4,8,16 or var:n=1024,4096)");
  Axis a;
  a.column = trim(text.substr(0, eq));
  if (a.column.empty()) return fail("missing the key before '='");
  std::string key = a.column;
  if (auto at = key.find('@'); at != std::string::npos) {
    a.link_column = key.substr(at + 1);
    key = key.substr(0, at);
    if (a.link_column.empty()) return fail("missing the followed axis after '@' (KEY@AXIS=...)");
  }
  if (key.starts_with("var:")) {
    a.kind = Axis::Kind::Var;
    a.key = key.substr(4);
    if (a.key.empty() || !(std::isalpha((unsigned char)a.key[0]) || a.key[0] == '_') ||
        !std::all_of(a.key.begin(), a.key.end(), [](char c) { return std::isalnum((unsigned char)c) || c == '_'; }))
      return fail(fmt::format("'{}' is not a spec variable name", a.key));
  } else {
    a.key = key;
    if (!valid_key_path(key))
      return fail(fmt::format("'{}' is not a config key path (letters, digits, '_' and '.', e.g. dram.timing.tRCD)",
                              key));
  }
  std::string list = text.substr(eq + 1);
  size_t start = 0;
  while (true) {
    size_t comma = list.find(',', start);
    std::string v = trim(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (v.empty()) return fail("empty value in the list (values are separated by single commas)");
    a.values.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::set<std::string> seen;
  for (const auto& v : a.values) {
    if (!seen.insert(v).second) return fail(fmt::format("value '{}' is listed twice", v));
    int64_t x;
    if (a.kind == Axis::Kind::Var && !parse_integer(v, x))
      return fail(fmt::format("'{}' is not an integer (spec variables are integers)", v));
  }
  return a;
}

std::vector<Axis> parse_axes(const std::vector<std::string>& texts) {
  if (texts.empty()) throw ConfigError("nothing to sweep: give at least one --vary KEY=V1,V2,...");
  std::vector<Axis> axes;
  for (const auto& t : texts) axes.push_back(parse_vary(t));
  std::set<std::string> targets;
  for (size_t i = 0; i < axes.size(); ++i) {
    std::string target = (axes[i].kind == Axis::Kind::Var ? "var:" : "") + axes[i].key;
    if (!targets.insert(target).second)
      throw ConfigError(fmt::format("--vary \"{}\": {} is varied twice", texts[i], target));
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    Axis& a = axes[i];
    if (a.link_column.empty()) continue;
    for (size_t j = 0; j < axes.size(); ++j)
      if (j != i && axes[j].link_column.empty() && axes[j].column == a.link_column) a.link = int(j);
    if (a.link < 0)
      throw ConfigError(fmt::format("--vary \"{}\": '@{}' names no other --vary axis (it must be an unlinked one)",
                                    texts[i], a.link_column));
    if (axes[a.link].values.size() != a.values.size())
      throw ConfigError(fmt::format("--vary \"{}\": {} values, but {} has {}", texts[i], a.values.size(),
                                    a.link_column, axes[a.link].values.size()));
  }
  return axes;
}

std::vector<Point> cartesian(const std::vector<Axis>& axes) {
  std::vector<size_t> dims;
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i].link < 0) dims.push_back(i);
  size_t total = 1;
  for (size_t d : dims) total *= axes[d].values.size();
  std::vector<Point> points;
  points.reserve(total);
  for (size_t n = 0; n < total; ++n) {
    Point p;
    p.index = n;
    p.value_index.assign(axes.size(), 0);
    size_t rest = n;
    for (size_t k = dims.size(); k-- > 0;) {  // last axis fastest
      size_t count = axes[dims[k]].values.size();
      p.value_index[dims[k]] = rest % count;
      rest /= count;
    }
    for (size_t i = 0; i < axes.size(); ++i)
      if (axes[i].link >= 0) p.value_index[i] = p.value_index[size_t(axes[i].link)];
    points.push_back(std::move(p));
  }
  return points;
}

std::string describe(const std::vector<Axis>& axes, const Point& p, size_t max_value_chars) {
  std::string out;
  for (size_t i = 0; i < axes.size(); ++i) {
    std::string v = axes[i].values[p.value_index[i]];
    if (max_value_chars >= 8 && v.size() > max_value_chars) {
      size_t head = (max_value_chars - 3) / 3, tail = max_value_chars - 3 - head;
      v = v.substr(0, head) + "..." + v.substr(v.size() - tail);
    }
    out += fmt::format("{}{}={}", i ? " " : "", axes[i].column, v);
  }
  return out;
}

void validate(const Settings& s) {
  Json doc = load_json_file(s.config_path);
  for (const auto& o : s.sets) apply_override(doc, o, s.config_path);
  std::map<std::string, int64_t> known_vars;
  bool has_var_axis = std::any_of(s.axes.begin(), s.axes.end(), [](const Axis& a) { return a.kind == Axis::Kind::Var; });
  if (has_var_axis) known_vars = load_launch_spec(s.spec_path, s.vars).vars;
  for (const auto& a : s.axes) {
    if (a.kind == Axis::Kind::Var) {
      if (!known_vars.count(a.key)) {
        std::string names;
        for (const auto& [k, v] : known_vars) names += (names.empty() ? "" : ", ") + k;
        throw ConfigError(fmt::format("--vary {}: {} defines no variable '{}' ({})", a.column, s.spec_path, a.key,
                                      names.empty() ? "it defines none" : "variables: " + names));
      }
      continue;
    }
    const Json* node = &doc;
    size_t start = 0;
    while (true) {
      size_t dot = a.key.find('.', start);
      std::string part = a.key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      std::string walked = a.key.substr(0, dot);
      if (!node->is_object() || !node->contains(part))
        throw ConfigError(fmt::format("--vary {}: {} has no key {}", a.column, s.config_path, walked));
      node = &(*node)[part];
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    if (node->is_object() || node->is_array())
      throw ConfigError(fmt::format("--vary {}: {} is an {} in {}; vary one of its values", a.column, a.key,
                                    node->is_object() ? "object" : "array", s.config_path));
  }
  if (s.metrics.empty()) throw ConfigError("--metrics: no metrics chosen");
  for (const auto& m : s.metrics) {
    if (!find_metric(m)) parse_metric_list(m, s.options.mode);  // throws the list of names
    if (s.options.mode == SimMode::Functional && timing_only(m))
      throw ConfigError(fmt::format("--metrics: {} needs timing mode (drop --functional)", m));
  }
}

PointResult run_point(const Settings& s, const Point& p) {
  PointResult r;
  r.values.assign(s.metrics.size(), std::nullopt);
  auto t0 = std::chrono::steady_clock::now();
  try {
    std::vector<std::string> sets = s.sets;
    std::map<std::string, int64_t> vars = s.vars;
    for (size_t i = 0; i < s.axes.size(); ++i) {
      const Axis& a = s.axes[i];
      const std::string& v = a.values[p.value_index[i]];
      if (a.kind == Axis::Kind::Config) {
        sets.push_back(a.key + "=" + v);
      } else {
        int64_t x = 0;
        parse_integer(v, x);
        vars[a.key] = x;
      }
    }
    DeviceSpec dev_spec = load_device_spec(s.config_path, sets);
    LaunchSpec spec = load_launch_spec(s.spec_path, vars);
    if (s.registers) spec.registers = s.registers;
    Device device(dev_spec);
    PreparedLaunch prepared = prepare(device, spec);
    LaunchStats stats = launch(device, prepared, s.options);
    CheckResult check = check_outputs(device, prepared);
    std::map<std::string, double> got;
    for (const auto& g : collect_metrics(stats))
      for (const auto& m : g.metrics) got[m.name] = m.value;
    for (size_t k = 0; k < s.metrics.size(); ++k)
      if (auto it = got.find(s.metrics[k]); it != got.end()) r.values[k] = it->second;
    r.ok = check.passed;
    r.status = check.passed ? "ok" : "wrong result: " + first_line(check.message);
  } catch (const Error& e) {
    r.status = first_line(e.what());
  } catch (const std::exception& e) {
    r.status = "internal error: " + first_line(e.what());
  }
  r.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

std::vector<PointResult> run(const Settings& s, const std::vector<Point>& points, unsigned jobs,
                             const std::function<void(const Progress&)>& on_done,
                             const std::function<void(const Point&, const PointResult&)>& on_ordered) {
  std::vector<PointResult> results(points.size());
  std::vector<bool> finished(points.size(), false);
  std::atomic<size_t> next{0};
  std::mutex lock;
  size_t done = 0, emitted = 0;
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < points.size();) {
      PointResult r = run_point(s, points[i]);
      std::lock_guard<std::mutex> g(lock);
      results[i] = std::move(r);
      finished[i] = true;
      ++done;
      if (on_done) on_done(Progress{done, points.size(), &points[i], &results[i]});
      while (emitted < points.size() && finished[emitted]) {
        if (on_ordered) on_ordered(points[emitted], results[emitted]);
        ++emitted;
      }
    }
  };
  unsigned n = std::max(1u, std::min<unsigned>(jobs, unsigned(std::max<size_t>(points.size(), 1))));
  if (n == 1) {
    worker();
  } else {
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < n; ++t) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
  }
  return results;
}

std::vector<std::string> csv_header(const Settings& s) {
  std::vector<std::string> h;
  for (const auto& a : s.axes) h.push_back(a.column);
  for (const auto& m : s.metrics) h.push_back(m);
  h.push_back("status");
  return h;
}

std::vector<std::string> csv_row(const Settings& s, const Point& p, const PointResult& r) {
  std::vector<std::string> row;
  for (size_t i = 0; i < s.axes.size(); ++i) row.push_back(s.axes[i].values[p.value_index[i]]);
  for (size_t k = 0; k < s.metrics.size(); ++k) {
    const Metric* m = find_metric(s.metrics[k]);
    row.push_back(k < r.values.size() && r.values[k] && m ? format_value(*m, *r.values[k]) : "");
  }
  row.push_back(r.status);
  return row;
}

const std::vector<Metric>& metric_catalog() {
  static const std::vector<Metric> all = [] {
    LaunchStats s;
    s.mem_valid = s.mem.has_l1 = s.mem.has_l2 = true;
    s.timing.valid = s.dram.valid = true;
    std::vector<Metric> out;
    for (auto& g : collect_metrics(s))
      for (auto& m : g.metrics) out.push_back(m);
    return out;
  }();
  return all;
}

const Metric* find_metric(const std::string& name) {
  for (const auto& m : metric_catalog())
    if (m.name == name) return &m;
  return nullptr;
}

bool timing_only(const std::string& metric) {
  static const std::set<std::string> names = [] {
    LaunchStats full, functional;
    full.mem_valid = full.mem.has_l1 = full.mem.has_l2 = true;
    full.timing.valid = full.dram.valid = true;
    functional.mem_valid = functional.mem.has_l1 = functional.mem.has_l2 = true;
    std::set<std::string> f, out;
    for (auto& g : collect_metrics(functional))
      for (auto& m : g.metrics) f.insert(m.name);
    for (auto& g : collect_metrics(full))
      for (auto& m : g.metrics)
        if (!f.count(m.name)) out.insert(m.name);
    return out;
  }();
  return names.count(metric) > 0;
}

std::vector<std::string> default_metrics(SimMode mode) {
  if (mode == SimMode::Functional)
    return {"inst_executed", "gld_transactions", "gst_transactions", "gld_transactions_per_request",
            "gld_efficiency", "shared_bank_conflicts", "l2_hit_rate"};
  return {"elapsed_cycles_sm",  "ipc",          "achieved_dram_bandwidth_gbps", "dram_utilization",
          "dram_row_hits",      "dram_row_misses", "dram_row_conflicts",        "gld_transactions_per_request"};
}

std::vector<std::string> parse_metric_list(const std::string& text, SimMode mode) {
  std::string t = trim(text);
  if (t.empty()) return default_metrics(mode);
  std::vector<std::string> out;
  if (t == "all") {
    for (const auto& m : metric_catalog())
      if (mode == SimMode::Timing || !timing_only(m.name)) out.push_back(m.name);
    return out;
  }
  size_t start = 0;
  while (true) {
    size_t comma = t.find(',', start);
    std::string name = trim(t.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!find_metric(name)) {
      std::string names;
      for (const auto& m : metric_catalog()) names += (names.empty() ? "" : ", ") + m.name;
      throw ConfigError(fmt::format("--metrics: unknown metric '{}'; known metrics: {}", name, names));
    }
    if (mode == SimMode::Functional && timing_only(name))
      throw ConfigError(fmt::format("--metrics: {} needs timing mode (drop --functional)", name));
    if (std::find(out.begin(), out.end(), name) != out.end())
      throw ConfigError(fmt::format("--metrics: {} is listed twice", name));
    out.push_back(name);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string format_value(const Metric& m, double v) {
  if (m.integral()) return fmt::format("{:.0f}", v);
  return fmt::format("{:.6g}", v);
}

std::string unit_label(Metric::Unit u) {
  switch (u) {
    case Metric::Unit::Percent: return "%";
    case Metric::Unit::Cycles: return "cycles";
    case Metric::Unit::Nanoseconds: return "ns";
    case Metric::Unit::GBps: return "GB/s";
    case Metric::Unit::Bytes: return "B";
    case Metric::Unit::Count:
    case Metric::Unit::Ratio: return "";
  }
  return "";
}

}  // namespace warpsim::sweep
