// The optional, data-driven timing keys added for the H100 config: each defaults to the
// behaviour the C2070 and FX5800 configs always had, and each changes timing as documented.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "sim/engine/device.hpp"
#include "sim/foundation/error.hpp"
#include "sim/launch/launch_spec.hpp"
#include "sim/spec/device_spec.hpp"

using namespace warpsim;

namespace {

std::string repo(const std::string& rel) { return std::string(WARPSIM_SOURCE_DIR) + "/" + rel; }

LaunchStats timed(const std::string& config, const std::vector<std::string>& sets, const std::string& spec,
                  const std::map<std::string, int64_t>& vars = {}) {
  Device dev(load_device_spec(repo("configs/" + config + ".json"), sets));
  PreparedLaunch p = prepare(dev, load_launch_spec(repo(spec), vars));
  LaunchOptions o;
  o.mode = SimMode::Timing;
  LaunchStats s = launch(dev, p, o);
  REQUIRE(check_outputs(dev, p).passed);
  return s;
}

}  // namespace

TEST_CASE("310: optional timing keys default to the old behaviour", "[timing][config]") {
  const DeviceSpec c = load_device_spec(repo("configs/c2070.json"));
  CHECK(c.launch_overhead_cycles == 0);
  CHECK(c.issue.lsu_transactions_per_cycle == 1);
  CHECK(c.partition.dram_queue_limit == 64);
  const DeviceSpec h = load_device_spec(repo("configs/h100.json"));
  CHECK(h.launch_overhead_cycles == 4182);
  CHECK(h.issue.lsu_transactions_per_cycle == 4);
  CHECK(h.partition.dram_queue_limit == 256);
  CHECK_THROWS_AS(load_device_spec(repo("configs/c2070.json"), {"issue.lsu_transactions_per_cycle=33"}), ConfigError);
  CHECK_THROWS_AS(load_device_spec(repo("configs/c2070.json"), {"partition.dram_queue_limit=0"}), ConfigError);
  CHECK_THROWS_AS(load_device_spec(repo("configs/h100.json"), {"launch_overhead_cycles=-1"}), ConfigError);
  CHECK_NOTHROW(load_device_spec(repo("configs/h100.json"), {"launch_overhead_cycles=0"}));
}

TEST_CASE("310: launch_overhead_cycles adds exactly its cycles to the kernel's time", "[timing][config]") {
  const std::string spec = "kernels/vecadd/vecadd_1003.json";
  const LaunchStats base = timed("h100", {"launch_overhead_cycles=0"}, spec);
  const LaunchStats more = timed("h100", {}, spec);
  CHECK(more.timing.elapsed_cycles_sm == base.timing.elapsed_cycles_sm + 4182);
  CHECK(more.timing.duration_ns == Approx(base.timing.duration_ns + 4182 * 1000.0 / 1980).epsilon(1e-12));
  CHECK(more.timing.issued == base.timing.issued);
}

TEST_CASE("310: more LSU transactions per cycle speed up an uncoalesced copy", "[timing][config]") {
  // stride 32: every lane's word is its own transaction, so the LSU hand-over dominates.
  const std::string spec = "kernels/memory/stride_copy.json";
  const std::map<std::string, int64_t> vars = {{"n", 8192}, {"stride", 32}};
  const LaunchStats one = timed("h100", {"issue.lsu_transactions_per_cycle=1"}, spec, vars);
  const LaunchStats four = timed("h100", {}, spec, vars);
  CHECK(four.exec.inst_executed == one.exec.inst_executed);
  CHECK(four.timing.elapsed_cycles_sm < one.timing.elapsed_cycles_sm);
}
