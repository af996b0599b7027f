// Helpers of the sweep tests: repo paths, a functional-mode sweep of a small spec and its
// CSV text, and temporary files removed at scope exit.
#pragma once
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "sim/report/csv.hpp"
#include "sim/sweep/sweep.hpp"

namespace sweep_test {

inline std::string source_path(const std::string& relative) { return std::string(WARPSIM_SOURCE_DIR) + "/" + relative; }

inline warpsim::sweep::Settings functional_settings(const std::vector<std::string>& vary,
                                                    const std::string& spec = "kernels/vecadd/vecadd_1003.json") {
  warpsim::sweep::Settings s;
  s.config_path = source_path("configs/c2070.json");
  s.spec_path = source_path(spec);
  s.axes = warpsim::sweep::parse_axes(vary);
  s.options.mode = warpsim::SimMode::Functional;
  s.metrics = warpsim::sweep::default_metrics(s.options.mode);
  return s;
}

// The whole CSV of a sweep, as `warpsim sweep` writes it.
inline std::string sweep_csv(const warpsim::sweep::Settings& s, unsigned jobs) {
  auto points = warpsim::sweep::cartesian(s.axes);
  std::string out = warpsim::csv::format_row(warpsim::sweep::csv_header(s));
  warpsim::sweep::run(s, points, jobs, {}, [&](const warpsim::sweep::Point& p, const warpsim::sweep::PointResult& r) {
    out += warpsim::csv::format_row(warpsim::sweep::csv_row(s, p, r));
  });
  return out;
}

// A file under the temp directory, removed when this goes out of scope.
struct TempFile {
  std::filesystem::path path;
  explicit TempFile(const std::string& name, const std::string& text = "")
      : path(std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "-" + name)) {
    if (!text.empty()) std::ofstream(path) << text;
  }
  ~TempFile() { std::filesystem::remove(path); }
  std::string str() const { return path.string(); }
};

}  // namespace sweep_test
