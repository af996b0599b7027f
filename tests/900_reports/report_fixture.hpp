// Runs a checked-in launch spec and keeps the device and the prepared launch alive, so the
// report functions that need the kernel (line report, traces) can be called on the result.
#pragma once
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "sim/foundation/config_reader.hpp"
#include "sim/spec/device_spec.hpp"
#include "sim/launch/launch_spec.hpp"

namespace warpsim::test {

inline std::string repo(const std::string& rel) { return std::string(WARPSIM_SOURCE_DIR) + "/" + rel; }

struct Launched {
  std::unique_ptr<Device> dev;            // declared first: destroyed after `prep`
  std::unique_ptr<PreparedLaunch> prep;
  LaunchStats stats;
  bool correct = false;
  const isa::Kernel& kernel() const { return *prep->kernel; }
  DevPtr buffer(const std::string& name) const { return prep->buffer(name).ptr; }
};

inline Launched launch_spec(const std::string& spec_rel, const std::string& config,
                            const std::map<std::string, int64_t>& vars, LaunchOptions opts = {}) {
  Launched r;
  r.dev = std::make_unique<Device>(load_device_spec(repo("configs/" + config + ".json")));
  r.prep = std::make_unique<PreparedLaunch>(prepare(*r.dev, load_launch_spec(repo(spec_rel), vars)));
  r.stats = launch(*r.dev, *r.prep, opts);
  r.correct = check_outputs(*r.dev, *r.prep).passed;
  return r;
}

// A fresh folder under the system temp dir, removed with the object.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> n{0};
    path_ = std::filesystem::temp_directory_path() /
            ("warpsim_900_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

inline Json read_json(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return Json::parse(ss.str());  // throws on malformed JSON
}

// A printed document read back the way a consumer of --json would.
inline Json reparse(const Json& j) { return Json::parse(j.dump()); }

}  // namespace warpsim::test
