// Each `warpsim` subcommand lives in its own cmd_*.cpp and registers itself on the app.
// register_* adds the subcommand and its options; the callback runs when it is chosen.
#pragma once
#include <CLI/CLI.hpp>

namespace warpsim::cli {

// One declaration per subcommand, e.g. void register_run_command(CLI::App& app);
void register_run_command(CLI::App& app);        // cmd_run.cpp
void register_occupancy_command(CLI::App& app);  // cmd_occupancy.cpp
void register_dram_command(CLI::App& app);       // cmd_dram.cpp
void register_sweep_command(CLI::App& app);      // cmd_sweep.cpp
void register_plot_command(CLI::App& app);       // cmd_plot.cpp
void register_roofline_command(CLI::App& app);   // cmd_roofline.cpp
void register_grade_command(CLI::App& app);      // cmd_grade.cpp
void register_exec_command(CLI::App& app);       // cmd_exec.cpp
void register_inspect_command(CLI::App& app);    // cmd_inspect.cpp

}  // namespace warpsim::cli
