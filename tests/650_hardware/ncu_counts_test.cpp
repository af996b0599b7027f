// warpsim's counts against Nsight Compute on a real GPU. docs/measurements/h100_ncu_counts.csv
// holds what `tools/ncu/validate_ncu.sh` measured on an H100 (sm_90) for every case of
// tools/ncu/cases.txt: global load/store instructions and sectors, shared load/store
// instructions, wavefronts and bank conflicts. Each case runs here in functional mode with the
// counting rules of that GPU (sector32 coalescing, 32 four-byte banks) and must give the
// measured number exactly. See docs/calibration.md ("Counts against Nsight Compute").
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim/engine/device.hpp"
#include "sim/spec/device_spec.hpp"
#include "sim/launch/launch_spec.hpp"
#include "sim/report/metrics.hpp"

using namespace warpsim;

namespace {

std::string repo(const std::string& rel) { return std::string(WARPSIM_SOURCE_DIR) + "/" + rel; }

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

struct Case {
  std::string name, spec;
  std::map<std::string, int64_t> vars;
};

std::vector<Case> read_cases() {
  std::ifstream in(repo("tools/ncu/cases.txt"));
  REQUIRE(in);
  std::vector<Case> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, '|');) cols.push_back(trim(c));
    REQUIRE(cols.size() >= 3);
    Case c{cols[0], cols[2], {}};
    std::stringstream vs(cols.size() > 3 ? cols[3] : "");
    for (std::string v; vs >> v;) {
      auto eq = v.find('=');
      c.vars[v.substr(0, eq)] = std::stoll(v.substr(eq + 1));
    }
    out.push_back(c);
  }
  return out;
}

// (case, ncu metric) -> value
std::map<std::pair<std::string, std::string>, double> read_measurements() {
  std::ifstream in(repo("docs/measurements/h100_ncu_counts.csv"));
  REQUIRE(in);
  std::map<std::pair<std::string, std::string>, double> out;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    auto a = line.find(','), b = line.rfind(',');
    out[{line.substr(0, a), line.substr(a + 1, b - a - 1)}] = std::stod(line.substr(b + 1));
  }
  return out;
}

// (warpsim metric, the ncu metrics it equals, summed) from tools/ncu/metrics.txt.
std::vector<std::pair<std::string, std::vector<std::string>>> read_metric_pairs() {
  std::ifstream in(repo("tools/ncu/metrics.txt"));
  REQUIRE(in);
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto bar = line.find('|');
    REQUIRE(bar != std::string::npos);
    std::vector<std::string> theirs;
    std::stringstream ts(line.substr(bar + 1));
    for (std::string t; ts >> t;) theirs.push_back(t);
    out.push_back({trim(line.substr(0, bar)), theirs});
  }
  return out;
}

// Runs a launch spec (a path in the repository) on `dev_spec` in functional mode, checks its
// result and returns every metric `warpsim run` reports, by name.
std::map<std::string, double> functional_metrics(const DeviceSpec& dev_spec, const std::string& spec,
                                                 const std::map<std::string, int64_t>& vars) {
  Device dev(dev_spec);
  PreparedLaunch p = prepare(dev, load_launch_spec(repo(spec), vars));
  LaunchOptions o;
  o.mode = SimMode::Functional;
  const LaunchStats stats = launch(dev, p, o);
  REQUIRE(check_outputs(dev, p).passed);
  std::map<std::string, double> out;
  for (const auto& g : collect_metrics(stats))
    for (const auto& m : g.metrics) out[m.name] = m.value;
  return out;
}

// Runs every case on `dev_spec` in functional mode and compares each metric pair.
void compare_with_ncu(const DeviceSpec& dev_spec) {
  const auto hw = read_measurements();
  const auto cases = read_cases();
  const auto pairs = read_metric_pairs();
  REQUIRE(pairs.size() >= 9);
  REQUIRE(cases.size() >= 20);
  size_t compared = 0;
  for (const Case& c : cases) {
    std::map<std::string, double> ours = functional_metrics(dev_spec, c.spec, c.vars);
    for (const auto& [metric, theirs] : pairs) {
      double measured = 0;
      for (const auto& t : theirs) {
        auto it = hw.find({c.name, t});
        REQUIRE(it != hw.end());
        measured += it->second;
      }
      INFO(c.name << ": " << metric);
      REQUIRE(ours.count(metric));
      CHECK(ours[metric] == measured);
      ++compared;
    }
  }
  CHECK(compared == cases.size() * pairs.size());
}

}  // namespace

TEST_CASE("650: textbook kernels' memory counts equal Nsight Compute's on an H100", "[hardware][ncu]") {
  compare_with_ncu(
      load_device_spec(repo("configs/c2070.json"), {R"(coalescer={"rules":"sector32","subwarp_size":32})"}));
}

TEST_CASE("650: the H100 config's counts equal Nsight Compute's on the H100", "[hardware][ncu][h100]") {
  compare_with_ncu(load_device_spec(repo("configs/h100.json")));
}

// Every launch of the H100 validation table (docs/measurements/h100_kernel_times.csv: ncu on
// an H100, each launch spec at its full size, run_h100.sh): the global load and store
// requests and sectors the H100 config counts (functional mode: counts do not depend on
// timing) equal ncu's, per_thread_sum's included since its loop's remainder is unrolled as
// ptxas unrolls it (sim/isa/loop_unrolling.hpp).
TEST_CASE("650: the H100 config's global requests and sectors equal ncu's on every validation launch",
          "[hardware][ncu][h100]") {
  std::ifstream in(repo("docs/measurements/h100_kernel_times.csv"));
  REQUIRE(in);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  for (std::stringstream hs(line); std::getline(hs, line, ',');) header.push_back(line);
  auto column = [&](const std::string& name) {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    FAIL("h100_kernel_times.csv has no column " << name);
    return size_t(0);
  };
  const std::pair<const char*, size_t> pairs[] = {{"gld_requests", column("gld_requests")},
                                                  {"gst_requests", column("gst_requests")},
                                                  {"gld_transactions", column("gld_sectors")},
                                                  {"gst_transactions", column("gst_sectors")}};
  const DeviceSpec spec = load_device_spec(repo("configs/h100.json"));
  size_t launches = 0;
  while (std::getline(in, line)) {
    // The spec, quoted where its variables hold commas ("path:n=2048,steps=2048").
    std::string spec_field, rest;
    if (line[0] == '"') {
      const size_t q = line.find('"', 1);
      spec_field = line.substr(1, q - 1);
      rest = line.substr(q + 1);
    } else {
      spec_field = line.substr(0, line.find(','));
      rest = line.substr(spec_field.size());
    }
    std::vector<std::string> cols{spec_field};
    for (std::stringstream rs(rest.substr(1)); std::getline(rs, line, ',');) cols.push_back(line);
    const size_t colon = spec_field.find(':');
    std::map<std::string, int64_t> vars;
    if (colon != std::string::npos)
      for (std::stringstream vs(spec_field.substr(colon + 1)); std::getline(vs, line, ',');)
        vars[line.substr(0, line.find('='))] = std::stoll(line.substr(line.find('=') + 1));
    INFO(spec_field);
    std::map<std::string, double> ours = functional_metrics(spec, spec_field.substr(0, colon), vars);
    for (const auto& [metric, col] : pairs) {
      INFO(metric);
      REQUIRE(col < cols.size());
      CHECK(ours[metric] == std::stod(cols[col]));
    }
    ++launches;
  }
  CHECK(launches == 72);
}
