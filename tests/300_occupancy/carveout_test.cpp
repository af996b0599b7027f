// The L1/shared split a launch gets (sm/carveout.hpp) and the capacity the occupancy API
// assumes, against what the H100 did (docs/measurements/h100_carveout_ncu.csv, the driver's
// launch__shared_mem_config_size; h100_carveout_ncu_cases.csv, the occupancy API), and the
// C2070's two cache configurations (PG, cc 2.x). Plus the "carveout" section's checks.
#include <catch2/catch.hpp>

#include <string>

#include "sim/foundation/config_reader.hpp"
#include "sim/foundation/error.hpp"
#include "sim/sm/carveout.hpp"
#include "sim/sm/occupancy.hpp"
#include "sim/spec/device_spec.hpp"

using namespace warpsim;
using sm::SharedPreference;

namespace {

const DeviceSpec& h100() {
  static const DeviceSpec s = load_device_spec(WARPSIM_SOURCE_DIR "/configs/h100.json");
  return s;
}
const DeviceSpec& c2070() {
  static const DeviceSpec s = load_device_spec(WARPSIM_SOURCE_DIR "/configs/c2070.json");
  return s;
}

constexpr uint32_t KB = 1024;
// carveout.cu's chase kernel: 24 registers per thread (ncu: 84 blocks of 32 threads by registers).
constexpr uint32_t kChaseRegs = 24;

// The shared bytes of one block as the driver counts them: dynamic + the 1 KB it reserves.
uint32_t block_bytes(const DeviceSpec& d, uint32_t dynamic) { return sm::block_shared_bytes(d.sm, 0, dynamic); }

uint32_t launch_kb(const DeviceSpec& d, uint32_t threads, uint32_t dynamic, SharedPreference p = {}) {
  return sm::launch_shared_capacity(d.sm, d.carveout, threads, kChaseRegs, block_bytes(d, dynamic), p) / KB;
}
uint32_t api_blocks(const DeviceSpec& d, uint32_t threads, uint32_t dynamic, SharedPreference p = {}) {
  SmSpec s = d.sm;
  s.shared_memory = sm::occupancy_api_shared_capacity(d.sm, d.carveout, block_bytes(d, dynamic), p);
  return sm::compute_occupancy(s, threads, kChaseRegs, block_bytes(d, dynamic)).blocks_per_sm;
}

SharedPreference carveout(int percent) { return {0, 0, percent}; }
SharedPreference function_cache(int c) { return {c, 0, -1}; }
SharedPreference device_cache(int c) { return {0, c, -1}; }

std::string spec_error(Json doc) {
  try {
    parse_device_spec(doc, "test.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

Json config(const char* name) { return load_json_file(std::string(WARPSIM_SOURCE_DIR "/configs/") + name + ".json"); }

}  // namespace

TEST_CASE("300: H100 without a preference: the smallest carveout that keeps the occupancy", "[occupancy][carveout]") {
  // threads, dynamic KB -> the capacity the H100's driver launched with (ncu).
  CHECK(launch_kb(h100(), 32, 0) == 32);  // 32 blocks x 1 KB
  CHECK(launch_kb(h100(), 32, 1 * KB) == 64);
  CHECK(launch_kb(h100(), 32, 4 * KB) == 164);
  CHECK(launch_kb(h100(), 32, 16 * KB) == 228);
  CHECK(launch_kb(h100(), 32, 40 * KB) == 228);
  CHECK(launch_kb(h100(), 32, 200 * KB) == 228);
  CHECK(launch_kb(h100(), 256, 24 * KB) == 228);
  CHECK(launch_kb(h100(), 1024, 0) == 8);  // 2 blocks x 1 KB
  CHECK(launch_kb(h100(), 1024, 16 * KB) == 64);
  CHECK(launch_kb(h100(), 1024, 60 * KB) == 132);
  // Where the driver took a larger carveout than occupancy needs (50 of the 120 grid
  // launches, by one or two steps; docs/exact-rules.md): 32 and 132 KB on the H100.
  CHECK(launch_kb(h100(), 256, 0) == 8);
  CHECK(launch_kb(h100(), 256, 8 * KB) == 100);
}

TEST_CASE("300: H100 preferences: the carveout in percent, the cache configurations as 0/50/100 %",
          "[occupancy][carveout]") {
  CHECK(launch_kb(h100(), 32, 0, carveout(0)) == 32);  // the measured floor of an explicit preference
  CHECK(launch_kb(h100(), 32, 0, carveout(10)) == 32);
  CHECK(launch_kb(h100(), 32, 0, carveout(25)) == 64);
  CHECK(launch_kb(h100(), 32, 0, carveout(50)) == 132);
  CHECK(launch_kb(h100(), 32, 0, carveout(100)) == 228);
  CHECK(launch_kb(h100(), 32, 16 * KB, carveout(0)) == 32);  // honoured: one block of 17 KB per SM
  CHECK(launch_kb(h100(), 32, 16 * KB, carveout(50)) == 132);
  CHECK(launch_kb(h100(), 1024, 60 * KB, carveout(0)) == 64);  // raised to fit one block
  CHECK(launch_kb(h100(), 1024, 60 * KB, carveout(25)) == 64);
  CHECK(launch_kb(h100(), 32, 0, function_cache(1)) == 228);
  CHECK(launch_kb(h100(), 32, 0, function_cache(2)) == 32);
  CHECK(launch_kb(h100(), 32, 0, function_cache(3)) == 132);
  CHECK(launch_kb(h100(), 32, 0, device_cache(1)) == 228);
  CHECK(launch_kb(h100(), 32, 0, device_cache(2)) == 32);
  // The function's own configuration wins over the device's; the carveout over both.
  CHECK(launch_kb(h100(), 32, 0, {1, 2, -1}) == 228);
  CHECK(launch_kb(h100(), 32, 0, {1, 2, 25}) == 64);
  // The one measured case that differs: PreferL1 with 17 KB blocks launched with 64 KB.
  CHECK(launch_kb(h100(), 32, 16 * KB, function_cache(2)) == 32);
}

TEST_CASE("300: H100 occupancy API: the largest capacity, or the preference without the launch's floor",
          "[occupancy][carveout]") {
  // cudaOccupancyMaxActiveBlocksPerMultiprocessor on the H100 for the same cases.
  CHECK(api_blocks(h100(), 32, 0) == 32);
  CHECK(api_blocks(h100(), 32, 16 * KB) == 13);
  CHECK(api_blocks(h100(), 32, 40 * KB) == 5);
  CHECK(api_blocks(h100(), 32, 100 * KB) == 2);
  CHECK(api_blocks(h100(), 256, 8 * KB) == 8);
  CHECK(api_blocks(h100(), 32, 0, carveout(0)) == 8);  // 8 KB: where the launch gets 32
  CHECK(api_blocks(h100(), 32, 0, carveout(10)) == 32);
  CHECK(api_blocks(h100(), 32, 16 * KB, carveout(0)) == 1);
  CHECK(api_blocks(h100(), 32, 16 * KB, carveout(50)) == 7);
  CHECK(api_blocks(h100(), 1024, 60 * KB, carveout(0)) == 1);
  CHECK(api_blocks(h100(), 32, 0, function_cache(2)) == 8);
  CHECK(api_blocks(h100(), 32, 16 * KB, function_cache(2)) == 1);
  CHECK(api_blocks(h100(), 32, 0, device_cache(2)) == 8);
}

TEST_CASE("300: C2070 cache configurations: 48 KB shared by default, 16 KB with PreferL1", "[occupancy][carveout]") {
  auto kb = [](uint32_t dynamic, SharedPreference p) {
    return sm::launch_shared_capacity(c2070().sm, c2070().carveout, 256, 20, block_bytes(c2070(), dynamic), p) / KB;
  };
  CHECK(kb(0, {}) == 48);
  CHECK(kb(0, function_cache(1)) == 48);
  CHECK(kb(0, function_cache(2)) == 16);
  CHECK(kb(0, function_cache(3)) == 48);  // cc 2.x has no equal split
  CHECK(kb(0, device_cache(2)) == 16);
  CHECK(kb(0, {1, 2, -1}) == 48);  // the function's preference wins
  CHECK(kb(0, {0, 2, -1}) == 16);  // PreferNone defers to the device's
  CHECK(kb(16 * KB, function_cache(2)) == 16);
  CHECK(kb(16 * KB + 1, function_cache(2)) == 48);  // a block that needs more gets the other split
  CHECK(kb(0, carveout(0)) == 48);                  // the carveout attribute is Volta's
  // The occupancy API follows the same split: 20 KB blocks, 2 per SM of 48 KB; PreferL1 with
  // 8 KB blocks, 2 per SM of 16 KB.
  SmSpec s = c2070().sm;
  s.shared_memory = sm::occupancy_api_shared_capacity(c2070().sm, c2070().carveout, 8 * KB, function_cache(2));
  CHECK(sm::compute_occupancy(s, 128, 20, 8 * KB).blocks_per_sm == 2);
}

TEST_CASE("300: each split's spec: the L1 gets the rest of the storage with the split's ways", "[occupancy][carveout]") {
  const DeviceSpec l1_48 = with_shared_capacity(c2070(), 16 * KB);
  CHECK(l1_48.sm.shared_memory == 16 * KB);
  CHECK(l1_48.l1.size_bytes == 48 * KB);
  CHECK(l1_48.l1.ways == 6);
  CHECK(l1_48.l1.sets == 64);
  CHECK(l1_48.l1.line_bytes == 128);
  const struct {
    uint32_t shared_kb, l1_kb, ways, sets;
  } h100_splits[] = {{0, 256, 8, 256},   {8, 248, 31, 64},   {16, 240, 15, 128}, {32, 224, 7, 256}, {64, 192, 6, 256},
                     {100, 156, 39, 32}, {132, 124, 31, 32}, {164, 92, 23, 32},  {196, 60, 15, 32}, {228, 28, 7, 32}};
  for (const auto& e : h100_splits) {
    INFO(e.shared_kb << " KB shared");
    const DeviceSpec d = with_shared_capacity(h100(), e.shared_kb * KB);
    CHECK(d.sm.shared_memory == e.shared_kb * KB);
    CHECK(d.l1.size_bytes == e.l1_kb * KB);
    CHECK(d.l1.ways == e.ways);
    CHECK(d.l1.sets == e.sets);
  }
  // The l1 section is the 32 KB carveout's L1, which kernels without shared memory get.
  CHECK(h100().l1.size_bytes == 224 * KB);
  CHECK_THROWS_AS(with_shared_capacity(h100(), 48 * KB), Error);
}

TEST_CASE("300: the carveout section's errors name the key", "[occupancy][carveout][config]") {
  {
    Json d = config("c2070");
    d["carveout"]["splits"][0]["l1_ways"] = 5;
    CHECK(spec_error(d) == "test.json: carveout.splits[0].l1_ways: an L1 of 49152 bytes is not a multiple of "
                           "line_bytes * ways = 128 * 5");
  }
  {
    Json d = config("c2070");
    d["carveout"]["splits"][0]["l1_ways"] = 3;
    CHECK(spec_error(d) == "test.json: carveout.splits[0].l1_ways: an L1 of 49152 bytes with line_bytes 128 and ways "
                           "3 gives 128 sets; index fermi_hash needs 128-byte lines and 32 or 64 sets");
  }
  {
    Json d = config("h100");
    d["carveout"]["splits"][1]["l1_ways"] = 124;
    CHECK(spec_error(d) == "test.json: carveout.splits[1].l1_ways: 124 ways (1 to 64 are supported)");
  }
  {
    Json d = config("h100");
    d["carveout"]["splits"][5]["l1_ways"] = 13;
    CHECK(spec_error(d) == "test.json: carveout.splits[5].l1_ways: an L1 of 159744 bytes with line_bytes 128 and "
                           "ways 13 gives 96 sets; the set count must be a power of two");
  }
  {
    Json d = config("c2070");
    d["carveout"]["splits"][1]["shared_bytes"] = 65536;
    CHECK(spec_error(d) == "test.json: carveout.splits[1].shared_bytes: 65536 leaves no L1 of the 65536 unified_bytes");
  }
  {
    Json d = config("c2070");
    std::swap(d["carveout"]["splits"][0], d["carveout"]["splits"][1]);
    CHECK(spec_error(d) ==
          "test.json: carveout.splits[1].shared_bytes: splits must be listed by increasing shared_bytes");
  }
  {
    Json d = config("c2070");
    d["sm"]["shared_memory"] = 32768;
    d["sm"]["max_shared_per_block"] = 32768;
    CHECK(spec_error(d) == "test.json: carveout.splits: the largest split has 49152 bytes of shared memory; "
                           "sm.shared_memory is 32768");
  }
  {
    Json d = config("c2070");
    d["l1"]["size_bytes"] = 32768;
    CHECK(spec_error(d) == "test.json: carveout.splits: no split leaves the l1 section's L1 (32768 bytes, 4 ways): "
                           "list it, or set carveout.policy \"fixed\" to run every launch with the l1 section as it is");
    d["carveout"]["policy"] = "fixed";  // pins the l1 section's L1 and sm.shared_memory
    CHECK(spec_error(d) == "");
  }
  {
    Json d = config("c2070");
    d["carveout"]["prefer_l1"] = 32768;
    CHECK(spec_error(d) == "test.json: carveout.prefer_l1: 32768 is not the shared_bytes of one of the splits");
  }
  {
    Json d = config("h100");
    d["carveout"]["preference_floor_bytes"] = 300000;
    CHECK(spec_error(d) == "test.json: carveout.preference_floor_bytes: exceeds sm.shared_memory");
  }
  {
    Json d = config("fx5800");
    d["carveout"] = config("c2070")["carveout"];
    CHECK(spec_error(d) == "test.json: carveout: a carveout divides the L1's storage; the device needs an \"l1\" "
                           "section");
  }
}

TEST_CASE("300: a fixed policy keeps the config's split for every launch", "[occupancy][carveout]") {
  Json d = config("c2070");
  d["carveout"] = Json::object({{"policy", "fixed"}, {"unified_bytes", 65536}, {"splits", d["carveout"]["splits"]}});
  const DeviceSpec s = parse_device_spec(d, "test.json");
  CHECK(sm::launch_shared_capacity(s.sm, s.carveout, 256, 20, 0, function_cache(2)) == 48 * KB);
  CHECK(sm::occupancy_api_shared_capacity(s.sm, s.carveout, 0, function_cache(2)) == 48 * KB);
  CHECK(with_shared_capacity(s, 48 * KB).l1.size_bytes == 16 * KB);
}
