// Parameter sweeps (`warpsim sweep`): the --vary axes, their cartesian product, running
// one point (its own Device), running all points on threads, and the CSV rows.
//
//   --vary dram.banks=4,8,16          a config key (as --set takes it), one dimension
//   --vary var:n=1024,4096            a launch-spec variable (integers), one dimension
//   --vary dram.address_map.bits@dram.banks=A,B,C
//                                     a linked key: no new dimension; its k-th value goes
//                                     with the k-th value of the axis named after '@'
//
// Points are ordered like nested loops in --vary order: the first axis varies slowest.
// Results depend only on the settings and the point, never on the number of threads.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/device.hpp"
#include "sim/report/metrics.hpp"

namespace warpsim::sweep {

struct Axis {
  enum class Kind { Config, Var };
  Kind kind = Kind::Config;
  std::string key;                  // config key path, or the variable name without "var:"
  std::string column;               // CSV column: the text before '=' ("var:n", "a.b@dram.banks")
  std::vector<std::string> values;  // as written (variables: checked to be integers)
  int link = -1;                    // index of the axis this one follows; -1: its own dimension
  std::string link_column;          // the text after '@' (the followed axis' column)
};

// Parses one --vary argument (links unresolved). Errors are ConfigError "--vary \"TEXT\": ...".
Axis parse_vary(const std::string& text);
// Parses every --vary, resolves links (to an earlier or later unlinked axis with as many
// values) and rejects duplicate columns/keys and an empty list.
std::vector<Axis> parse_axes(const std::vector<std::string>& texts);

struct Point {
  size_t index = 0;                 // 0-based position in the sweep
  std::vector<size_t> value_index;  // per axis: which of its values
};

// The cartesian product of the unlinked axes, first axis slowest; linked axes take the
// value index of the axis they follow.
std::vector<Point> cartesian(const std::vector<Axis>& axes);
// "dram.banks=4 var:n=1024" (linked axes included). Values longer than `max_value_chars`
// (0: no limit) are shortened to their head and tail around "...".
std::string describe(const std::vector<Axis>& axes, const Point& p, size_t max_value_chars = 0);

// What every point shares.
struct Settings {
  std::string config_path;           // resolved device config
  std::vector<std::string> sets;     // --set overrides, applied before the axes
  std::string spec_path;             // resolved launch spec
  std::map<std::string, int64_t> vars;  // --var overrides, the axes win
  uint32_t registers = 0;            // 0: the spec's
  std::vector<Axis> axes;
  std::vector<std::string> metrics;  // CSV metric columns (names from metric_catalog())
  LaunchOptions options;             // mode and limits of every launch
};

// Before running anything: every config axis names a key of the config (after --set),
// every variable axis a variable of the spec, every metric a known metric that the mode
// produces. Throws ConfigError otherwise.
void validate(const Settings& s);

struct PointResult {
  bool ok = false;
  std::string status;                          // "ok", "wrong result: ...", or the error
  std::vector<std::optional<double>> values;   // per metric; nullopt: not produced
  double host_seconds = 0;
};

// Loads the config with the point's overrides and the spec with its variables, runs it on a
// Device of its own and checks the result. Never throws for a failing point: the error
// (an invalid config value, a launch error, a fault, a wrong result) goes into `status`.
PointResult run_point(const Settings& s, const Point& p);

struct Progress {
  size_t done = 0, total = 0;
  const Point* point = nullptr;
  const PointResult* result = nullptr;
};

// Runs every point on up to `jobs` threads (each point its own Device). `on_done` is called
// once per point as it finishes; `on_ordered` once per point in point order, as soon as it
// and every point before it are done (for writing rows while the sweep runs). Both are
// called under one lock, never concurrently. Returns the results in point order.
std::vector<PointResult> run(const Settings& s, const std::vector<Point>& points, unsigned jobs,
                             const std::function<void(const Progress&)>& on_done = {},
                             const std::function<void(const Point&, const PointResult&)>& on_ordered = {});

// CSV: the axis columns, the metric columns, then "status".
std::vector<std::string> csv_header(const Settings& s);
std::vector<std::string> csv_row(const Settings& s, const Point& p, const PointResult& r);

// Every metric collect_metrics() can produce, in report order (values zero).
const std::vector<Metric>& metric_catalog();
const Metric* find_metric(const std::string& name);
// True for metrics only a timing run produces (the Timing and DRAM groups, achieved_occupancy).
bool timing_only(const std::string& metric);
// The default CSV metrics of a mode.
std::vector<std::string> default_metrics(SimMode mode);
// "a,b,c" (checked names), "all" (every metric the mode produces) or "" (the defaults).
std::vector<std::string> parse_metric_list(const std::string& text, SimMode mode);
// A metric value as a CSV cell: integral units exactly, others with 6 significant digits.
std::string format_value(const Metric& m, double v);
// The unit of a metric for axis labels ("GB/s", "%", "cycles"; "" for counts and ratios).
std::string unit_label(Metric::Unit u);

}  // namespace warpsim::sweep
