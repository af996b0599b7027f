// `warpsim plot SWEEP.csv`: an SVG chart of a `warpsim sweep` CSV: one varied parameter
// against the chosen metrics, one line per combination of the other varied parameters.
//   warpsim plot SWEEP.csv [--x PARAM] [--y METRIC[,METRIC...]] [--log-x|--linear-x] [--log-y]
//                [--title T] [-o OUT.svg]
#include <fmt/core.h>

#include <filesystem>
#include <memory>

#include "sim/report/csv.hpp"
#include "sim/foundation/error.hpp"
#include "sim/sweep/plot.hpp"
#include "tools/warpsim/cli_paths.hpp"
#include "tools/warpsim/commands.hpp"

namespace warpsim::cli {

namespace {

struct PlotOptions {
  std::string csv;
  std::string x;
  std::vector<std::string> y;
  bool log_x = false, linear_x = false, log_y = false;
  std::string title;
  std::string out;
};

int run_plot(const PlotOptions& o) {
  if (o.log_x && o.linear_x) throw ConfigError("--log-x and --linear-x: choose one");
  std::string path = resolve_input(o.csv);
  csv::Table table = csv::read_file(path);
  sweep::PlotOptions po;
  po.x = o.x;
  po.y = o.y;
  if (o.log_x) po.log_x = true;
  if (o.linear_x) po.log_x = false;
  po.log_y = o.log_y;
  po.title = o.title;
  svg::Chart chart = sweep::sweep_chart(table, po, path);
  std::string out = o.out;
  if (out.empty()) out = std::filesystem::path(o.csv).replace_extension(".svg").string();
  svg::write_svg(chart, out);
  fmt::print(stderr, "plot: wrote {} ({})\n", out, chart.title);
  return 0;
}

}  // namespace

void register_plot_command(CLI::App& app) {
  auto o = std::make_shared<PlotOptions>();
  CLI::App* cmd = app.add_subcommand("plot", "Draw a `warpsim sweep` CSV as an SVG chart");
  cmd->add_option("csv", o->csv, "the CSV that `warpsim sweep --csv` wrote")->required();
  cmd->add_option("--x", o->x, "the varied parameter on the x axis (default: the first CSV column)");
  cmd->add_option("--y", o->y, "metric columns, one panel each (comma-separated; default: every metric column)")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_flag("--log-x", o->log_x, "logarithmic x axis (default: log when the values span a factor >= 8)");
  cmd->add_flag("--linear-x", o->linear_x, "linear x axis");
  cmd->add_flag("--log-y", o->log_y, "logarithmic y axis");
  cmd->add_option("--title", o->title, "chart title");
  cmd->add_option("-o,--output", o->out, "SVG file to write (default: the CSV's name with .svg)");
  cmd->callback([o] {
    int rc = run_plot(*o);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace warpsim::cli
