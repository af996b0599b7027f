// Inputs too large for any device: buffers past device memory and configs past the
// simulator's bounds are errors that name the place, never bad_alloc or an endless run.
#include <catch2/catch.hpp>

#include "sim/spec/device_spec.hpp"
#include "spec_fixture.hpp"

using spec_test::SpecFolder;
using warpsim::Json;

namespace {

warpsim::DeviceSpec config(const std::string& name, const std::vector<std::string>& sets = {}) {
  return warpsim::load_device_spec(WARPSIM_SOURCE_DIR "/configs/" + name + ".json", sets);
}

std::string prepare_error(warpsim::Device& device, const warpsim::LaunchSpec& spec) {
  try {
    warpsim::prepare(device, spec, nullptr);
  } catch (const warpsim::LaunchError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string config_error(const std::string& name, const std::vector<std::string>& sets) {
  try {
    config(name, sets);
  } catch (const warpsim::ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("bounds: the configs give their device memory size", "[launch_spec][bounds]") {
  CHECK(config("c2070").memory_bytes == uint64_t(6) << 30);
  CHECK(config("fx5800").memory_bytes == uint64_t(4) << 30);
  CHECK(config("note16").memory_bytes == uint64_t(6) << 30);
  warpsim::Device device(config("fx5800"));
  CHECK(device.memory_capacity() == uint64_t(4) << 30);
}

TEST_CASE("bounds: a 10^12-element buffer is refused before any host memory is spent", "[launch_spec][bounds]") {
  SpecFolder f;
  Json doc = spec_test::minimal_spec();
  doc["buffers"]["B"]["count"] = 1000000000000;  // 4 TB of f32, initialised with iota
  auto spec = f.load(doc);
  warpsim::Device device(config("c2070"));
  CHECK(prepare_error(device, spec) ==
        f.path("spec.json") +
            ": buffers.B: 4000000000000 bytes (1000000000000 x f32) do not fit in device memory: capacity "
            "6442450944 bytes (Tesla C2070), 4012 bytes already allocated, 6442446932 bytes free");
  CHECK(device.bytes_allocated() == 0);  // A was freed again
}

TEST_CASE("bounds: the capacity counts what is already allocated", "[launch_spec][bounds]") {
  SpecFolder f;
  auto spec = f.load(spec_test::minimal_spec());  // A, B, C: 1003 f32 = 4012 bytes each
  warpsim::Device device(config("fx5800"));
  device.set_memory_capacity(10000);  // as the grader's limits.max_device_memory_bytes does
  CHECK(prepare_error(device, spec) ==
        f.path("spec.json") +
            ": buffers.C: 4012 bytes (1003 x f32) do not fit in device memory: capacity 10000 bytes (Quadro "
            "FX5800), 8024 bytes already allocated, 1976 bytes free");
}

TEST_CASE("bounds: a count past 2^48 bytes is a spec error", "[launch_spec][bounds]") {
  SpecFolder f;
  Json doc = spec_test::minimal_spec();
  doc["buffers"]["C"]["count"] = int64_t(1) << 62;
  CHECK(f.error(doc) == f.path("spec.json") +
                            ": buffers.C.count: 4611686018427387904 elements of 4 bytes exceed 281474976710656 bytes, "
                            "more than any device holds");
}

TEST_CASE("bounds: configs refuse values past the simulator's bounds", "[config][bounds]") {
  const std::string c2070 = WARPSIM_SOURCE_DIR "/configs/c2070.json";
  CHECK(config_error("c2070", {"sm.count=1000000"}) ==
        c2070 + ": sm.count: 1000000 is above the supported maximum of 1024 (each SM has its own simulated state)");
  CHECK(config_error("c2070", {"sm.shared_memory=4294967295"}) ==
        c2070 + ": sm.shared_memory: 4294967295 is above the supported maximum of 1048576 (1 MiB per SM, 4x the "
                "largest real GPUs'; each resident block's shared memory is simulated state)");
  CHECK(config_error("c2070", {"memory.size_bytes=1e15"}) ==
        c2070 + ": memory.size_bytes: at most 1099511627776 bytes (1 TiB) are supported");
  CHECK(config_error("c2070", {"l2.size_bytes=1e12"}).find(": l2.size_bytes: 1000000000000 is above the supported "
                                                           "maximum of 1073741824") != std::string::npos);
  CHECK(config("c2070", {"sm.count=1024"}).sm.count == 1024);
  CHECK(config_error("c2070", {"host_link.bandwidth_gbps=20000"}) ==
        c2070 + ": host_link.bandwidth_gbps: at most 10000 GB/s");
  CHECK(config_error("c2070", {"host_link.bandwidth_gbps=0"}).find("host_link.bandwidth_gbps") != std::string::npos);
  CHECK(config("c2070", {}).host_link_gbps == 8.0);
  CHECK(config("fx5800", {"host_link.bandwidth_gbps=16"}).host_link_gbps == 16.0);
}

TEST_CASE("bounds: a module path the OS refuses (too long) is 'no such file', not an internal error",
          "[launch_spec][bounds][regression]") {
  // Found by fuzz_launch_spec (30-minute run, 2026-11-25): std::filesystem threw
  // filesystem_error (ENAMETOOLONG) out of the spec reader.
  Json doc = Json::parse(R"({"ptx": "x", "kernel": "k", "grid": [1], "block": [32]})");
  doc["ptx"] = std::string(5000, 'a') + ".ptx";
  try {
    warpsim::parse_launch_spec(doc, WARPSIM_SOURCE_DIR "/kernels/spec.json");
    FAIL("no error");
  } catch (const warpsim::Error& e) {
    CHECK_THAT(e.what(), Catch::Contains("ptx") && Catch::Contains("no such file"));
  }
}
