// The chart of a sweep's CSV (`warpsim plot`): one panel per chosen metric against one
// varied parameter, one line per combination of the other varied parameters.
//
// Columns are told apart by name: "status" is the point's status, a name that
// sweep::metric_catalog() knows is a metric, anything else a varied parameter. Rows whose
// status is not "ok" are left out (the subtitle counts them).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sim/report/csv.hpp"
#include "sim/report/svg_plot.hpp"

namespace warpsim::sweep {

struct PlotOptions {
  std::string x;                 // a parameter column; "" = the first one
  std::vector<std::string> y;    // metric columns; empty = every metric column with a value
  std::optional<bool> log_x;     // unset: log when the values are > 0 and span a factor >= 8
  bool log_y = false;
  std::string title;             // "" = derived from the source name
};

// The parameter columns of a sweep table, in column order.
std::vector<std::string> parameter_columns(const csv::Table& t);
// The metric columns of a sweep table, in column order.
std::vector<std::string> metric_columns(const csv::Table& t);
// An axis label for a parameter column, with a unit where the key implies one
// ("l1.size_bytes (B)", "dram.timing.tRCD (DRAM clock cycles)").
std::string parameter_label(const std::string& column);
// An axis label for a metric ("achieved_dram_bandwidth_gbps (GB/s)").
std::string metric_label(const std::string& metric);

// Builds the chart. Throws ConfigError naming the column for an unknown --x/--y, a --y that
// is not a metric, a log axis over values <= 0, or a table with no parameter column.
svg::Chart sweep_chart(const csv::Table& t, const PlotOptions& o, const std::string& source_name);

}  // namespace warpsim::sweep
