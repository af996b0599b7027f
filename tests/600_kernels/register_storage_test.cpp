// Register storage compaction changes nothing a user can see: every checked-in kernel
// leaves the same bytes in every buffer and reports the same statistics with shared
// storage slots as with one slot per virtual register (functional mode), and the same
// cycles and stall breakdown in timing mode.
#include <filesystem>

#include "sim/report/stats_printers.hpp"
#include "spec_runner.hpp"

namespace {

struct Outcome {
  std::map<std::string, std::vector<uint8_t>> buffers;
  warpsim::Json stats;
};

Outcome run(const std::string& path, const std::string& config, warpsim::SimMode mode, bool compact) {
  warpsim::Device device(kernel_test::device_config(config));
  auto spec = warpsim::load_launch_spec(path);
  auto prepared = warpsim::prepare(device, spec);
  warpsim::LaunchOptions options;
  options.mode = mode;
  options.compact_registers = compact;
  options.limits.max_host_seconds = 120;  // a wrong allocation may loop forever: fail instead
  warpsim::LaunchStats stats = warpsim::launch(device, prepared, options);
  stats.host_seconds = 0;
  Outcome out;
  out.stats = warpsim::stats_to_json(stats, nullptr);
  for (const auto& b : spec.buffers) {
    const auto& buf = prepared.buffer(b.name);
    std::vector<uint8_t> bytes(buf.initial.bytes.size());
    device.copy_from_device(bytes.data(), buf.ptr, bytes.size());
    out.buffers[b.name] = std::move(bytes);
  }
  return out;
}

void require_same(const std::string& path, const std::string& config, warpsim::SimMode mode) {
  INFO(path << " on " << config << (mode == warpsim::SimMode::Timing ? " (timing)" : " (functional)"));
  const Outcome a = run(path, config, mode, true);
  const Outcome b = run(path, config, mode, false);
  CHECK(a.stats.dump() == b.stats.dump());
  REQUIRE(a.buffers.size() == b.buffers.size());
  for (const auto& [name, bytes] : a.buffers) {
    INFO("buffer " << name);
    CHECK(bytes == b.buffers.at(name));
  }
}

}  // namespace

TEST_CASE("every checked-in kernel computes and counts the same with compacted register storage",
          "[kernels][storage]") {
  namespace fs = std::filesystem;
  int count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(WARPSIM_SOURCE_DIR) / "kernels")) {
    const std::string p = entry.path().string();
    if (entry.path().extension() != ".json" || p.find("/kernels/assignments/") != std::string::npos) continue;
    // The 512x512 matmuls and 2048x2048 transposes have smaller siblings with the same PTX.
    if (p.find("_512.json") != std::string::npos && p.find("/matmul/") != std::string::npos) continue;
    if (p.find("_2048.json") != std::string::npos) continue;
    require_same(p, "c2070", warpsim::SimMode::Functional);
    ++count;
  }
  CHECK(count >= 40);
}

TEST_CASE("compacted register storage leaves timing unchanged", "[kernels][storage]") {
  for (const char* spec : {"divergence/divergence_warps.json", "reduction/harris_reduce5_128.json",
                           "matmul/matmul_tiled_bounds_100.json", "transpose/copy_shared_mem_256x128.json"})
    for (const char* config : {"c2070", "fx5800"})
      require_same(kernel_test::kernel_spec_path(spec), config, warpsim::SimMode::Timing);
}
