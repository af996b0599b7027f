// The one place that turns LaunchStats into named metrics. Names follow nvprof's metric
// names where one exists (inst_executed, gld_transactions_per_request, ...); the text and
// JSON printers both print this list, so they can never disagree.
#pragma once
#include <string>
#include <vector>

#include "sim/foundation/launch_stats.hpp"

namespace warpsim {

struct Metric {
  enum class Unit { Count, Percent, Ratio, Cycles, Nanoseconds, GBps, Bytes };
  std::string name;
  double value = 0;
  Unit unit = Unit::Count;
  std::string description;
  bool integral() const { return unit == Unit::Count || unit == Unit::Cycles || unit == Unit::Bytes; }
};

// Groups of metrics in report order; only the groups a run produced are present.
struct MetricGroup {
  std::string title;
  std::vector<Metric> metrics;
};

std::vector<MetricGroup> collect_metrics(const LaunchStats& s);

// Formats a metric value as the text report shows it ("1,234", "87.5 %", "1.25").
std::string format_metric_value(const Metric& m);

}  // namespace warpsim
