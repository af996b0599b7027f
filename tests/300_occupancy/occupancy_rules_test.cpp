// The calculator's formulas at each granularity boundary, unused resources, limiter ties,
// every LaunchError, and the JSON object `warpsim occupancy --json` prints.
#include <catch2/catch.hpp>
#include <string>

#include "sim/spec/device_spec.hpp"
#include "sim/foundation/error.hpp"
#include "sim/sm/occupancy.hpp"
#include "sim/sm/occupancy_report.hpp"

using namespace warpsim;

namespace {
SmSpec device(const char* name) { return load_device_spec(std::string(WARPSIM_SOURCE_DIR) + "/configs/" + name).sm; }

std::string launch_error(const SmSpec& sm, uint32_t t, uint32_t r, uint32_t s) {
  try {
    sm::compute_occupancy(sm, t, r, s);
  } catch (const LaunchError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("cc 2.x per-warp registers: 64-register unit, 2-warp granularity", "[occupancy][registers]") {
  const SmSpec sm = device("c2070.json");
  // Registers per warp = ceil(R x 32, 64); warps = floor(floor(32768 / that) / 2) x 2.
  struct Row { uint32_t regs, per_warp, warps_sm, limit_256, blocks_256; };
  const Row rows[] = {
      {20, 640, 50, 6, 6},  // 51.2 -> 51 -> 50 warps
      {21, 704, 46, 5, 5},  // 672 rounds up to 704: 46.5 -> 46
      {22, 704, 46, 5, 5},
      {23, 768, 42, 5, 5},  // 736 rounds up to 768: 42.7 -> 42
      {32, 1024, 32, 4, 4},
      {63, 2048, 16, 2, 2},
  };
  for (const auto& r : rows) {
    CAPTURE(r.regs);
    sm::OccupancyDetail d = sm::occupancy_detail(sm, 256, r.regs, 0);
    CHECK(d.registers_per_warp == r.per_warp);
    CHECK(d.register_warps_per_sm == r.warps_sm);
    CHECK(d.stats.limit_registers == r.limit_256);
    CHECK(d.stats.blocks_per_sm == r.blocks_256);
  }
  // The warp granularity: 51 warps' worth of registers hold 50 warps, so 25 two-warp blocks.
  CHECK(sm::compute_occupancy(sm, 64, 20, 0).limit_registers == 25);
  CHECK(sm::compute_occupancy(sm, 64, 21, 0).limit_registers == 23);
  CHECK(sm::compute_occupancy(sm, 96, 20, 0).limit_registers == 16);  // 50 / 3
}

TEST_CASE("cc 1.3 per-block registers: warps rounded to 2, registers to 512", "[occupancy][registers]") {
  const SmSpec sm = device("fx5800.json");
  struct Row { uint32_t threads, regs, per_block, limit; };
  const Row rows[] = {
      {32, 10, 1024, 16},   // 1 warp -> 2 warps: 640 -> 1,024 registers
      {160, 16, 3072, 5},   // 5 warps -> 6: 3,072
      {192, 16, 3072, 5},
      {192, 17, 3584, 4},   // 3,264 -> 3,584
      {128, 16, 2048, 8},
      {256, 10, 2560, 6},   // 2,560 is 5 units: Kirk's 6 blocks on a per-block device
      {512, 32, 16384, 1},
  };
  for (const auto& r : rows) {
    CAPTURE(r.threads, r.regs);
    sm::OccupancyDetail d = sm::occupancy_detail(sm, r.threads, r.regs, 0);
    CHECK(d.registers_per_block == r.per_block);
    CHECK(d.stats.limit_registers == r.limit);
  }
  OccupancyStats s = sm::compute_occupancy(sm, 160, 16, 0);
  CHECK(s.blocks_per_sm == 5);
  CHECK(s.limiter == "registers");
  CHECK(s.limit_warps == 6);
}

TEST_CASE("Shared memory allocation unit boundaries", "[occupancy][shared]") {
  const SmSpec c2070 = device("c2070.json");
  CHECK(sm::occupancy_detail(c2070, 32, 0, 128).shared_allocated_per_block == 128);
  CHECK(sm::compute_occupancy(c2070, 32, 0, 128).limit_shared == 384);
  CHECK(sm::compute_occupancy(c2070, 32, 0, 129).limit_shared == 192);
  CHECK(sm::compute_occupancy(c2070, 32, 0, 49152).limit_shared == 1);
  const SmSpec fx = device("fx5800.json");
  CHECK(sm::compute_occupancy(fx, 32, 0, 512).limit_shared == 32);
  CHECK(sm::compute_occupancy(fx, 32, 0, 513).limit_shared == 16);
  OccupancyStats s = sm::compute_occupancy(fx, 64, 0, 4097);  // 4,608 B: 3 blocks
  CHECK(s.limit_shared == 3);
  CHECK(s.blocks_per_sm == 3);
  CHECK(s.limiter == "shared memory");
}

TEST_CASE("Unused registers and shared memory do not limit", "[occupancy]") {
  const SmSpec sm = device("c2070.json");
  OccupancyStats s = sm::compute_occupancy(sm, 32, 0, 0);
  CHECK(s.limit_registers == 8);
  CHECK(s.limit_shared == 8);
  CHECK(s.limit_warps == 48);
  CHECK(s.blocks_per_sm == 8);
  CHECK(s.limiter == "blocks");
  CHECK(s.theoretical_occupancy == Approx(8.0 / 48.0).epsilon(1e-15));
}

TEST_CASE("Partial warps count as whole warps", "[occupancy]") {
  const SmSpec sm = device("c2070.json");
  OccupancyStats s = sm::compute_occupancy(sm, 48, 0, 0);  // 2 warps
  CHECK(s.warps_per_block == 2);
  CHECK(s.limit_warps == 24);
  CHECK(s.blocks_per_sm == 8);
  CHECK(s.active_warps_per_sm == 16);
  CHECK(sm::compute_occupancy(sm, 1000, 0, 0).warps_per_block == 32);
  CHECK(sm::compute_occupancy(sm, 1000, 0, 0).blocks_per_sm == 1);
}

TEST_CASE("Limiter ties: warps, blocks, registers, shared memory in that order", "[occupancy]") {
  const SmSpec sm = device("c2070.json");
  // 192 threads = 6 warps: 48 / 6 = 8 warps limit = 8 blocks.
  CHECK(sm::compute_occupancy(sm, 192, 0, 0).limiter == "warps");
  // Registers (20: 50 warps / 6 = 8) and shared memory (6,144 B: 8) tie with the warps.
  OccupancyStats s = sm::compute_occupancy(sm, 192, 20, 6144);
  CHECK(s.limit_warps == 8);
  CHECK(s.limit_registers == 8);
  CHECK(s.limit_shared == 8);
  CHECK(s.limiter == "warps");
  OccupancyStats r = sm::compute_occupancy(sm, 128, 32, 6144);  // registers 32/4 = 8, shared 8, blocks 8
  CHECK(r.limiter == "blocks");
  OccupancyStats q = sm::compute_occupancy(sm, 128, 40, 12288);  // 1,280 per warp: 25 -> 24 warps / 4 = 6
  CHECK(q.limit_registers == 6);
  CHECK(q.limit_shared == 4);
  CHECK(q.limiter == "shared memory");
}

TEST_CASE("Launches CUDA refuses", "[occupancy][errors]") {
  const SmSpec c2070 = device("c2070.json");
  const SmSpec fx = device("fx5800.json");
  CHECK_THAT(launch_error(c2070, 0, 10, 0), Catch::Contains("invalid configuration argument") &&
                                               Catch::Contains("threads per block"));
  CHECK_THAT(launch_error(c2070, 1025, 10, 0),
             Catch::Contains("threads per block: 1025 threads exceed the device's 1024"));
  CHECK(launch_error(c2070, 1024, 10, 0) == "(no error)");
  CHECK_THAT(launch_error(fx, 513, 10, 0), Catch::Contains("exceed the device's 512"));
  CHECK_THAT(launch_error(c2070, 256, 64, 0),
             Catch::Contains("too many resources requested for launch: registers: 64 registers per thread"));
  CHECK(launch_error(c2070, 256, 63, 0) == "(no error)");
  CHECK_THAT(launch_error(fx, 256, 125, 0), Catch::Contains("registers"));
  CHECK_THAT(launch_error(c2070, 256, 0, 49153),
             Catch::Contains("too many resources requested for launch: shared memory: 49153 bytes"));
  CHECK(launch_error(c2070, 256, 0, 49152) == "(no error)");
  // Not even one block fits.
  CHECK_THAT(launch_error(c2070, 1024, 63, 0),
             Catch::Contains("too many resources requested for launch: registers: a block needs 32 warps"));
  CHECK(launch_error(c2070, 1024, 32, 0) == "(no error)");
  CHECK_THAT(launch_error(fx, 512, 33, 0),
             Catch::Contains("too many resources requested for launch: registers") &&
                 Catch::Contains("16896 registers"));
  CHECK(launch_error(fx, 512, 32, 0) == "(no error)");
  SmSpec odd_unit = fx;  // an allocation unit that rounds a legal block past the SM
  odd_unit.shared_allocation_unit = 10000;
  CHECK(sm::compute_occupancy(odd_unit, 64, 0, 9000).blocks_per_sm == 1);
  CHECK_THAT(launch_error(odd_unit, 64, 0, 16384),
             Catch::Contains("too many resources requested for launch: shared memory") &&
                 Catch::Contains("allocated 20000"));
  SmSpec few_threads = c2070;  // resident threads below whole warps
  few_threads.max_threads = 1000;
  few_threads.max_threads_per_block = 1000;
  CHECK(sm::compute_occupancy(few_threads, 992, 0, 0).blocks_per_sm == 1);
  CHECK_THAT(launch_error(few_threads, 1000, 0, 0),
             Catch::Contains("too many resources requested for launch: warps"));
}

TEST_CASE("The JSON object of warpsim occupancy --json", "[occupancy][json]") {
  const SmSpec sm = load_device_spec(std::string(WARPSIM_SOURCE_DIR) + "/configs/c2070.json",
                                     {"sm.registers=16384"})
                        .sm;
  Json j = sm::occupancy_json(sm::compute_occupancy(sm, 256, 12, 2048));
  CHECK(j == Json::parse(R"({
    "threads_per_block": 256, "registers_per_thread": 12, "shared_bytes_per_block": 2048,
    "shared_memory_per_sm": 49152, "warps_per_block": 8, "blocks_per_sm": 5,
    "limit_warps": 6, "limit_blocks": 8, "limit_registers": 5, "limit_shared": 24,
    "limiter": "registers", "active_warps_per_sm": 40, "max_warps_per_sm": 48,
    "theoretical_occupancy": 0.8333333333333334, "registers_estimated": false})"));
  std::string text = sm::occupancy_text(sm::occupancy_detail(sm, 256, 12, 2048));
  CHECK_THAT(text, Catch::Contains("Blocks per SM:    5 (limited by registers)"));
  CHECK_THAT(text, Catch::Contains("Threads per SM:   1280"));
  CHECK_THAT(text, Catch::Contains("registers 384 per warp (42 warps per SM)"));
}
