// warpsim: the command-line entry point. Subcommands are defined in cmd_*.cpp.
#include <fmt/core.h>

#include <CLI/CLI.hpp>

#include "sim/foundation/error.hpp"
#include "tools/warpsim/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"warpsim: a cycle-approximate GPU + DRAM simulator for textbook CUDA kernels"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "warpsim 0.1.0");
  // One line per subcommand (declared in commands.hpp, defined in its cmd_*.cpp).
  warpsim::cli::register_run_command(app);
  warpsim::cli::register_occupancy_command(app);
  warpsim::cli::register_dram_command(app);
  warpsim::cli::register_sweep_command(app);
  warpsim::cli::register_plot_command(app);
  warpsim::cli::register_roofline_command(app);
  warpsim::cli::register_grade_command(app);
  warpsim::cli::register_exec_command(app);
  warpsim::cli::register_inspect_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const warpsim::Error& e) {
    fmt::print(stderr, "warpsim: error: {}\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "warpsim: internal error: {}\n", e.what());
    return 2;
  }
  return 0;
}
