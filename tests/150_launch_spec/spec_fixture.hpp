// Writes launch specs (and the files they name) into a fresh temporary folder.
#pragma once
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <string>

#include "sim/foundation/config_reader.hpp"
#include "sim/foundation/error.hpp"
#include "sim/launch/launch_spec.hpp"

namespace spec_test {

class SpecFolder {
 public:
  SpecFolder() {
    static int counter = 0;
    dir_ = std::filesystem::temp_directory_path() /
           ("warpsim-spec-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(dir_);
    write("k.ptx", "// placeholder module\n");
  }
  ~SpecFolder() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name), std::ios::binary) << text;
    return path(name);
  }

  template <class T>
  std::string write_raw(const std::string& name, const std::vector<T>& values) const {
    std::ofstream out(path(name), std::ios::binary);
    out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(T)));
    return path(name);
  }

  // Loads a spec document written into the folder as spec.json.
  warpsim::LaunchSpec load(const warpsim::Json& doc, const std::map<std::string, int64_t>& overrides = {}) const {
    write("spec.json", doc.dump(2));
    return warpsim::load_launch_spec(path("spec.json"), overrides);
  }

  // The message of the ConfigError that loading `doc` throws ("(no error)" if none).
  std::string error(const warpsim::Json& doc, const std::map<std::string, int64_t>& overrides = {}) const {
    try {
      load(doc, overrides);
    } catch (const warpsim::ConfigError& e) {
      return e.what();
    }
    return "(no error)";
  }

 private:
  std::filesystem::path dir_;
};

// A small valid spec: vecAddKernel-like, four arguments.
inline warpsim::Json minimal_spec() {
  return warpsim::Json::parse(R"json({
    "description": "test",
    "ptx": "k.ptx",
    "kernel": "vecAddKernel",
    "vars": {"n": 1003, "bs": 64},
    "grid": ["ceil_div(n, bs)"],
    "block": ["bs"],
    "buffers": {
      "A": {"type": "f32", "count": "n", "init": {"random": {"seed": 1, "min": -1, "max": 1}}},
      "B": {"type": "f32", "count": "n", "init": "iota"},
      "C": {"type": "f32", "count": "n"}
    },
    "args": ["A", "B", "C", "n"],
    "check": {"reference": "vecadd", "outputs": ["C"], "tolerance": 1e-6}
  })json");
}

}  // namespace spec_test
