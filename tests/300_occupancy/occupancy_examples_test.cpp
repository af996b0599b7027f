// Occupancy worked examples: Kirk & Hwu 5.4, Al-Mouhamed & Khan (FX5800 and the C2070
// matmul table), and the block-slot example of Kirk & Hwu, on the shipped device configs.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/spec/device_spec.hpp"
#include "sim/sm/occupancy.hpp"

using namespace warpsim;

namespace {
SmSpec device(const char* name, const std::vector<std::string>& sets = {}) {
  return load_device_spec(std::string(WARPSIM_SOURCE_DIR) + "/configs/" + name, sets).sm;
}
}  // namespace

TEST_CASE("Kirk & Hwu 5.4: 16x16 blocks on a device with 16,384 registers and 1,536 threads", "[occupancy]") {
  const SmSpec sm = device("c2070.json", {"sm.registers=16384"});
  REQUIRE(sm.registers == 16384);
  REQUIRE(sm.max_threads == 1536);
  SECTION("10 registers per thread: 6 blocks, 1,536 threads") {
    OccupancyStats s = sm::compute_occupancy(sm, 256, 10, 0);
    CHECK(s.blocks_per_sm == 6);
    CHECK(s.blocks_per_sm * s.threads_per_block == 1536);
    CHECK(s.limit_registers == 6);
    CHECK(s.limit_warps == 6);
    CHECK(s.limiter == "warps");  // ties are reported in the order warps, blocks, registers, shared
    CHECK(s.active_warps_per_sm == 48);
    CHECK(s.theoretical_occupancy == 1.0);
  }
  SECTION("12 registers per thread: 5 blocks, 1,280 threads (the performance cliff)") {
    OccupancyStats s = sm::compute_occupancy(sm, 256, 12, 0);
    CHECK(s.blocks_per_sm == 5);
    CHECK(s.blocks_per_sm * s.threads_per_block == 1280);
    CHECK(s.limiter == "registers");
    CHECK(s.active_warps_per_sm == 40);
    CHECK(s.theoretical_occupancy == Approx(40.0 / 48.0).epsilon(1e-15));
  }
}

TEST_CASE("Kirk & Hwu 5.4: thread slots and block slots on the C2070", "[occupancy]") {
  const SmSpec sm = device("c2070.json");
  SECTION("128-thread blocks: 8 blocks (block slots), 1,024 threads") {
    OccupancyStats s = sm::compute_occupancy(sm, 128, 10, 0);
    CHECK(s.blocks_per_sm == 8);
    CHECK(s.limiter == "blocks");
    CHECK(s.limit_warps == 12);
    CHECK(s.blocks_per_sm * s.threads_per_block == 1024);
    CHECK(s.active_warps_per_sm == 32);
  }
  SECTION("512-thread blocks: 3 blocks") {
    OccupancyStats s = sm::compute_occupancy(sm, 512, 10, 0);
    CHECK(s.blocks_per_sm == 3);
    CHECK(s.limiter == "warps");
    CHECK(s.blocks_per_sm * s.threads_per_block == 1536);
  }
}

TEST_CASE("Al-Mouhamed & Khan: tiled matmul shared memory on the FX5800", "[occupancy]") {
  const SmSpec sm = device("fx5800.json");
  SECTION("16x16 tile: 2,048 B of tiles + 32 B reserved = 2,080 B, allocated 2,560 B") {
    const uint32_t shared = sm::block_shared_bytes(sm, 2048, 0);
    CHECK(shared == 2080);
    sm::OccupancyDetail d = sm::occupancy_detail(sm, 256, 0, shared);
    CHECK(d.shared_allocated_per_block == 2560);
    CHECK(d.stats.limit_shared == 6);
    CHECK(d.stats.limit_warps == 4);
    CHECK(d.stats.blocks_per_sm == 4);
    CHECK(d.stats.limiter == "warps");
  }
  SECTION("32x32 tile: 8,192 + 32 = 8,224 B, allocated 8,704 B: 1 block") {
    const uint32_t shared = sm::block_shared_bytes(sm, 8192, 0);
    CHECK(shared == 8224);
    sm::OccupancyDetail d = sm::occupancy_detail(sm, 256, 0, shared);
    CHECK(d.shared_allocated_per_block == 8704);
    CHECK(d.stats.limit_shared == 1);
    CHECK(d.stats.blocks_per_sm == 1);
    CHECK(d.stats.limiter == "shared memory");
    CHECK(d.stats.theoretical_occupancy == 0.25);
  }
  SECTION("the C2070 keeps no parameters in shared memory") {
    CHECK(sm::block_shared_bytes(device("c2070.json"), 2048, 512) == 2560);
  }
}

TEST_CASE("Al-Mouhamed & Khan Table 3: matmul active blocks on the C2070", "[occupancy]") {
  const SmSpec sm = device("c2070.json");
  // TPB, tile size (floats), shared bytes for the A and B tiles, active blocks.
  struct Row { uint32_t tpb, ts, shared, blocks; };
  const Row rows[] = {{512, 2048, 2 * 2048 * 4, 3}, {512, 1024, 2 * 1024 * 4, 3}, {256, 1024, 2 * 1024 * 4, 6},
                      {512, 512, 2 * 512 * 4, 3},   {256, 512, 2 * 512 * 4, 6},   {256, 256, 2 * 256 * 4, 6}};
  for (const auto& r : rows) {
    CAPTURE(r.tpb, r.ts);
    OccupancyStats s = sm::compute_occupancy(sm, r.tpb, 0, r.shared);
    CHECK(s.blocks_per_sm == r.blocks);
    CHECK(s.limiter == "warps");
  }
  CHECK(sm::compute_occupancy(sm, 512, 0, 16384).limit_shared == 3);
}
