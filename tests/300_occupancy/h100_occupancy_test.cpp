// Occupancy on the H100 (cc 9.0) against NVIDIA's own numbers, measured on the device by
// tools/calibration/h100_occupancy.cu (docs/measurements/h100_occupancy.csv):
//  - "calculator": the CUDA toolkit's cuda_occupancy.h fed the H100's device properties, for
//    any register count: blocks per SM and its per-resource limits;
//  - "driver": cudaOccupancyMaxActiveBlocksPerMultiprocessor for a real kernel (10 registers)
//    with dynamic shared memory.
// Every launch adds the 1 KB the driver reserves per block (reservedSharedMemPerBlock).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/foundation/error.hpp"
#include "sim/spec/device_spec.hpp"
#include "sim/sm/occupancy.hpp"

using namespace warpsim;

namespace {

struct Expected {
  const char* source;
  uint32_t threads, regs, smem;
  uint32_t blocks;
  uint32_t limit_warps, limit_registers, limit_shared;  // calculator rows only
  const char* limiter;                                   // warpsim's tie order: warps, blocks, registers, shared
};

// threads, registers/thread, dynamic shared bytes -> blocks/SM, limits, limiter.
const Expected kTable[] = {
    {"calculator", 32, 16, 0, 32, 64, 128, 228, "blocks"},
    {"calculator", 64, 32, 0, 32, 32, 32, 228, "warps"},
    {"calculator", 96, 32, 0, 21, 21, 21, 228, "warps"},
    {"calculator", 128, 32, 0, 16, 16, 16, 228, "warps"},
    {"calculator", 256, 32, 0, 8, 8, 8, 228, "warps"},
    {"calculator", 512, 32, 0, 4, 4, 4, 228, "warps"},
    {"calculator", 1024, 32, 0, 2, 2, 2, 228, "warps"},
    {"calculator", 256, 40, 0, 6, 8, 6, 228, "registers"},
    {"calculator", 256, 48, 0, 5, 8, 5, 228, "registers"},
    {"calculator", 256, 64, 0, 4, 8, 4, 228, "registers"},
    {"calculator", 256, 72, 0, 3, 8, 3, 228, "registers"},
    {"calculator", 256, 128, 0, 2, 8, 2, 228, "registers"},
    {"calculator", 256, 255, 0, 1, 8, 1, 228, "registers"},
    {"calculator", 128, 255, 0, 2, 16, 2, 228, "registers"},
    {"calculator", 1024, 64, 0, 1, 2, 1, 228, "registers"},
    {"calculator", 768, 40, 0, 2, 2, 2, 228, "warps"},
    {"calculator", 640, 48, 0, 2, 3, 2, 228, "registers"},
    {"calculator", 192, 96, 0, 3, 10, 3, 228, "registers"},
    {"calculator", 160, 80, 0, 4, 12, 4, 228, "registers"},
    {"calculator", 96, 168, 0, 4, 21, 4, 228, "registers"},
    {"calculator", 256, 32, 4096, 8, 8, 8, 45, "warps"},
    {"calculator", 256, 32, 16384, 8, 8, 8, 13, "warps"},
    {"calculator", 256, 32, 48128, 4, 8, 8, 4, "shared memory"},
    {"calculator", 128, 16, 8192, 16, 16, 32, 25, "warps"},
    {"calculator", 128, 24, 2048, 16, 16, 21, 76, "warps"},
    {"calculator", 64, 32, 1, 32, 32, 32, 202, "warps"},
    {"calculator", 512, 32, 32768, 4, 4, 4, 6, "warps"},
    {"calculator", 1024, 32, 100000, 2, 2, 2, 2, "warps"},
    {"calculator", 256, 32, 232448, 1, 8, 8, 1, "shared memory"},
    {"calculator", 32, 8, 7000, 28, 64, 256, 28, "shared memory"},
    {"calculator", 1024, 16, 0, 2, 2, 4, 228, "warps"},
    {"calculator", 288, 38, 2048, 5, 7, 5, 76, "registers"},
    {"calculator", 256, 38, 2048, 6, 8, 6, 76, "registers"},
    {"calculator", 512, 14, 2048, 4, 4, 8, 76, "warps"},
    {"calculator", 128, 14, 512, 16, 16, 32, 152, "warps"},
    {"calculator", 1000, 20, 0, 2, 2, 2, 228, "warps"},
    {"calculator", 33, 255, 0, 4, 32, 4, 228, "registers"},
    {"calculator", 1024, 72, 0, 0, 2, 0, 228, "registers"},
    {"driver", 128, 10, 0, 16, 0, 0, 0, ""},
    {"driver", 256, 10, 0, 8, 0, 0, 0, ""},
    {"driver", 1024, 10, 0, 2, 0, 0, 0, ""},
    {"driver", 128, 10, 4096, 16, 0, 0, 0, ""},
    {"driver", 256, 10, 16384, 8, 0, 0, 0, ""},
    {"driver", 256, 10, 48128, 4, 0, 0, 0, ""},
    {"driver", 128, 10, 100000, 2, 0, 0, 0, ""},
    {"driver", 64, 10, 232448, 1, 0, 0, 0, ""},
    {"driver", 96, 10, 7000, 21, 0, 0, 0, ""},
    {"driver", 128, 10, 1, 16, 0, 0, 0, ""},
};

SmSpec h100() { return load_device_spec(std::string(WARPSIM_SOURCE_DIR) + "/configs/h100.json").sm; }

}  // namespace

TEST_CASE("300: H100 occupancy equals NVIDIA's calculator and driver", "[occupancy][h100]") {
  const SmSpec sm = h100();
  REQUIRE(sm.shared_reserved_per_block == 1024);
  size_t checked = 0;
  for (const Expected& e : kTable) {
    INFO(e.source << " " << e.threads << " threads, " << e.regs << " registers, " << e.smem << " B shared");
    const uint32_t shared = sm::block_shared_bytes(sm, 0, e.smem);
    if (e.blocks == 0) {
      CHECK_THROWS_AS(sm::compute_occupancy(sm, e.threads, e.regs, shared), LaunchError);
      ++checked;
      continue;
    }
    const OccupancyStats s = sm::compute_occupancy(sm, e.threads, e.regs, shared);
    CHECK(s.blocks_per_sm == e.blocks);
    if (std::string(e.source) == "calculator") {
      CHECK(s.limit_warps == e.limit_warps);
      CHECK(s.limit_blocks == 32);
      CHECK(s.limit_registers == e.limit_registers);
      CHECK(s.limit_shared == e.limit_shared);
      CHECK(s.limiter == e.limiter);
    }
    ++checked;
  }
  CHECK(checked == 48);
}

TEST_CASE("300: the H100 occupancy table is the device measurement", "[occupancy][h100]") {
  std::ifstream in(std::string(WARPSIM_SOURCE_DIR) + "/docs/measurements/h100_occupancy.csv");
  REQUIRE(in);
  size_t i = 0;
  for (std::string line; std::getline(in, line); ++i) {
    REQUIRE(i < std::size(kTable));
    const Expected& e = kTable[i];
    std::stringstream ss(line);
    std::vector<std::string> f;
    for (std::string c; std::getline(ss, c, ',');) f.push_back(c);
    REQUIRE(f.size() >= 5);
    CHECK(f[0] == e.source);
    CHECK(std::stoul(f[1]) == e.threads);
    CHECK(std::stoul(f[2]) == e.regs);
    CHECK(std::stoul(f[3]) == e.smem);
    CHECK(std::stoul(f[4]) == e.blocks);
    if (f[0] == "calculator") {
      CHECK(std::stoul(f[5]) == e.limit_warps);
      CHECK(std::stoul(f[7]) == e.limit_registers);
      CHECK(std::stoul(f[8]) == e.limit_shared);
    }
  }
  CHECK(i == std::size(kTable));
}
