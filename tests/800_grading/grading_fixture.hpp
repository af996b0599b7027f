// Shared helpers of the grading tests: the sample assignment's paths, a scratch folder that
// holds assignments and submissions written by a test, and a small functional assignment.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/foundation/config_reader.hpp"
#include "sim/foundation/error.hpp"
#include "sim/grading/assignment.hpp"
#include "sim/grading/run.hpp"
#include "sim/grading/score.hpp"
#include "sim/grading/session.hpp"

namespace grading_test {

namespace fs = std::filesystem;
using warpsim::Json;

inline std::string sample_dir() { return std::string(WARPSIM_SOURCE_DIR) + "/kernels/assignments/reduction"; }
inline std::string sample_assignment() { return sample_dir() + "/assignment.json"; }
inline std::string sample_submission(const std::string& file) { return sample_dir() + "/submissions/" + file; }
inline std::string warpsim_binary() { return std::string(WARPSIM_BINARY_DIR) + "/tools/warpsim"; }

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fresh folder under the temporary directory, removed afterwards.
class Scratch {
 public:
  Scratch() {
    static int counter = 0;
    dir_ = fs::temp_directory_path() /
           ("warpsim-grading-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(dir_);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    fs::create_directories((dir_ / name).parent_path());
    std::ofstream(path(name), std::ios::binary) << text;
    return path(name);
  }
  // The sample's file `from` (relative to the sample folder) copied to `to` here.
  std::string copy_sample(const std::string& from, const std::string& to) const {
    return write(to, read_text(sample_dir() + "/" + from));
  }

 private:
  fs::path dir_;
};

// A functional assignment on the sample spec: correctness against the spec, one criterion.
inline Json small_assignment() {
  return Json{{"title", "test"},
              {"kernel", "reduce"},
              {"specs", Json::array({sample_dir() + "/reduce_16k.json"})},
              {"mode", "functional"},
              {"correctness", {{"points", 10}}},
              {"criteria", Json::array({Json{{"name", "loads"},
                                             {"metric", "gld_transactions_per_request"},
                                             {"op", "<="},
                                             {"value", 1},
                                             {"points", 5}}})},
              {"limits", {{"max_warp_instructions", 200000}}}};
}

inline warpsim::grading::Assignment load(const Scratch& s, const Json& doc) {
  return warpsim::grading::load_assignment(s.write("assignment.json", doc.dump(2)));
}

// The ConfigError message of loading `doc` as an assignment ("(no error)" if it loads).
inline std::string load_error(const Json& doc) {
  Scratch s;
  try {
    load(s, doc);
  } catch (const warpsim::ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

// Runs and scores one submission in this process (no reference solution).
inline warpsim::grading::GradeResult grade_here(const warpsim::grading::Assignment& a, const std::string& path,
                                                const warpsim::grading::RunnerOptions& options = {}) {
  auto report = warpsim::grading::run_submission(a, {fs::path(path).stem().string(), path, {}, {}}, options);
  return warpsim::grading::score_submission(a, report, nullptr);
}

}  // namespace grading_test
