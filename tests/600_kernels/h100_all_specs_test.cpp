// Every checked-in launch spec runs on the H100 config (configs/h100.json): functional mode
// checks the result against the spec's reference; timing mode runs those of up to 3 million
// warp instructions (the larger ones are timed by tools/calibration/compare_h100.py).
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "spec_runner.hpp"

TEST_CASE("600: every kernel spec runs on the H100 config", "[kernels][h100]") {
  namespace fs = std::filesystem;
  const warpsim::DeviceSpec h100 = kernel_test::device_config("h100");
  int functional = 0, timed = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(WARPSIM_SOURCE_DIR) / "kernels")) {
    const std::string p = entry.path().string();
    if (entry.path().extension() != ".json" || p.find("/kernels/assignments/") != std::string::npos) continue;
    INFO(p);
    const warpsim::LaunchSpec spec = warpsim::load_launch_spec(p);
    uint64_t instructions = 0;
    for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
      if (mode == warpsim::SimMode::Timing && instructions > 3000000) continue;
      warpsim::Device device(h100);
      auto prepared = warpsim::prepare(device, spec);
      warpsim::LaunchOptions options;
      options.mode = mode;
      const warpsim::LaunchStats stats = warpsim::launch(device, prepared, options);
      const warpsim::CheckResult check = warpsim::check_outputs(device, prepared);
      INFO(check.message);
      CHECK(check.passed);
      if (mode == warpsim::SimMode::Functional) {
        instructions = stats.exec.inst_executed;
        ++functional;
      } else {
        CHECK(stats.timing.valid);
        CHECK(stats.timing.elapsed_cycles_sm > h100.launch_overhead_cycles);
        ++timed;
      }
    }
  }
  CHECK(functional >= 70);
  CHECK(timed >= 50);
}
