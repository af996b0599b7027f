// The Runtime class directly (no C entry points): what each runtime call means on the
// simulated device, with the codes CUDA returns.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "error_code.hpp"
#include "fatbin_builder.hpp"
#include "sim/runtime/exec_report.hpp"
#include "sim/runtime/runtime.hpp"

using namespace warpsim;
using namespace warpsim::runtime;
using rttest::code_of;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A program as nvcc's host code presents it: a fatbinary wrapper and host stubs.
struct FakeProgram {
  std::vector<uint8_t> image;
  cuda::FatbinWrapper wrapper{};
  char vecadd_stub = 0;  // its address stands for the host stub of the kernel

  explicit FakeProgram(const std::string& ptx, const std::string& compression = "zstd") {
    image = rttest::make_fatbin({{2, 75, "", std::string(64, 'E')}, {1, 75, compression, ptx}});
    wrapper.magic = cuda::kFatbinWrapperMagic;
    wrapper.version = 1;
    wrapper.data = reinterpret_cast<const unsigned long long*>(image.data());
  }
};

RuntimeOptions options(SimMode mode = SimMode::Functional) {
  RuntimeOptions o;
  o.mode = mode;
  o.program = "test";
  return o;
}

const std::string kVecAddPtx = read_file(WARPSIM_SOURCE_DIR "/kernels/vecadd/vecadd.ptx");

}  // namespace

TEST_CASE("runtime: register, copy in, launch, copy out") {
  for (SimMode mode : {SimMode::Functional, SimMode::Timing}) {
    Runtime rt(options(mode));
    FakeProgram prog(kVecAddPtx);
    void** h = rt.register_fatbin(&prog.wrapper);
    rt.register_function(h, &prog.vecadd_stub, "_Z12vecAddKernelPfS_S_i");
    const int n = 1000;
    std::vector<float> a(n), b(n), c(n, -1);
    for (int i = 0; i < n; ++i) a[i] = i, b[i] = 0.5f * i;
    void* da = rt.malloc(n * 4);
    void* db = rt.malloc(n * 4);
    void* dc = rt.malloc(n * 4);
    rt.memcpy(da, a.data(), n * 4, cuda::HostToDevice, "t");
    rt.memcpy(db, b.data(), n * 4, cuda::Default, "t");
    int nn = n;
    void* args[] = {&da, &db, &dc, &nn};
    rt.launch(&prog.vecadd_stub, {4, 1, 1}, {256, 1, 1}, args, 0, nullptr);
    rt.memcpy(c.data(), dc, n * 4, cuda::DeviceToHost, "t");
    for (int i = 0; i < n; ++i) REQUIRE(c[i] == 1.5f * i);
    REQUIRE(rt.launches().size() == 1);
    CHECK(rt.launches()[0].stats.exec.threads == 1024);
    CHECK(rt.launches()[0].stats.mem.gld_transactions > 0);
    if (mode == SimMode::Timing) {
      CHECK(rt.launches()[0].stats.timing.valid);
      // Three 4000-byte copies over the C2070's 8 GB/s PCIe 2.0 x16 link (500 ns each) and the kernel.
      CHECK(rt.now_ns() == 1500.0 + rt.launches()[0].stats.timing.duration_ns);
    } else {
      CHECK(rt.now_ns() == 0);
    }
    REQUIRE(rt.copies().size() == 3);
    CHECK(rt.copies()[0].kind == "HtoD");
    CHECK(rt.copies()[1].kind == "HtoD");  // cudaMemcpyDefault resolved from the pointers
    CHECK(rt.copies()[2].kind == "DtoH");
    CHECK(rt.copies()[2].bytes == 4000);
    CHECK(rt.copies()[2].duration_ns == (mode == SimMode::Timing ? 500.0 : 0.0));
  }
}

TEST_CASE("runtime: copies and memsets take simulated time, recorded once per call") {
  Runtime rt(options(SimMode::Timing));
  const DeviceSpec& spec = rt.spec();
  REQUIRE(spec.host_link_gbps == 8.0);
  std::vector<char> host(1 << 20, 7);
  void* d = rt.malloc(1 << 20);
  void* e = rt.malloc(1 << 20);
  void* start = rt.create_event();
  void* stop = rt.create_event();
  rt.record_event(start, nullptr);
  rt.memcpy(d, host.data(), 1 << 20, cuda::HostToDevice, "t");
  rt.record_event(stop, nullptr);
  rt.synchronize();
  // 1 MiB over 8 GB/s (bytes per ns): 131,072 ns.
  CHECK(rt.elapsed_ms(start, stop) == Approx(1048576.0 / 8.0 / 1e6).epsilon(1e-6));
  const double before = rt.now_ns();
  rt.memcpy(e, d, 1 << 20, cuda::DeviceToDevice, "t");  // reads and writes DRAM at its peak
  CHECK(rt.now_ns() - before == Approx(2.0 * 1048576.0 / spec.dram.peak_bandwidth_gbps()).epsilon(1e-12));
  // A 2D copy and a 2D memset are one activity each, of width x height bytes.
  rt.memcpy_2d(host.data(), 512, d, 1024, 256, 16, cuda::DeviceToHost);
  rt.memset_2d(d, 1024, 0, 256, 16);
  REQUIRE(rt.copies().size() == 4);
  CHECK(rt.copies()[2].kind == "DtoH");
  CHECK(rt.copies()[2].bytes == 4096);
  CHECK(rt.copies()[2].duration_ns == 512.0);
  CHECK(rt.copies()[3].kind == "memset");
  CHECK(rt.copies()[3].bytes == 4096);
  CHECK(rt.copies()[3].start_ns == rt.copies()[2].start_ns + 512.0);
  // Zero bytes is no activity.
  rt.memcpy(d, host.data(), 0, cuda::HostToDevice, "t");
  CHECK(rt.copies().size() == 4);
}

TEST_CASE("runtime: events measure simulated kernel time") {
  Runtime rt(options(SimMode::Timing));
  FakeProgram prog(kVecAddPtx, "lz4");
  void** h = rt.register_fatbin(&prog.wrapper);
  rt.register_function(h, &prog.vecadd_stub, "_Z12vecAddKernelPfS_S_i");
  void* d = rt.malloc(4096 * 4);
  int n = 4096;
  void* args[] = {&d, &d, &d, &n};
  void* start = rt.create_event();
  void* stop = rt.create_event();
  void* stream = rt.create_stream();
  rt.record_event(start, stream);
  rt.launch(&prog.vecadd_stub, {16, 1, 1}, {256, 1, 1}, args, 0, stream);
  rt.launch(&prog.vecadd_stub, {16, 1, 1}, {256, 1, 1}, args, 0, stream);
  rt.record_event(stop, stream);
  const double ns = rt.launches()[0].stats.timing.duration_ns + rt.launches()[1].stats.timing.duration_ns;
  CHECK(rt.elapsed_ms(start, stop) == Approx(ns / 1e6));
  CHECK(rt.elapsed_ms(start, stop) > 0);
  void* never = rt.create_event();
  CHECK(code_of([&] { rt.elapsed_ms(start, never); }) == cuda::ErrorInvalidResourceHandle);
  rt.destroy_stream(stream);
  CHECK(code_of([&] { rt.check_stream(stream, "t"); }) == cuda::ErrorInvalidResourceHandle);
  CHECK(code_of([&] { rt.destroy_event(reinterpret_cast<void*>(0x99)); }) == cuda::ErrorInvalidResourceHandle);
}

TEST_CASE("runtime: CUDA's codes for refused calls") {
  Runtime rt(options());
  FakeProgram prog(kVecAddPtx);
  void** h = rt.register_fatbin(&prog.wrapper);
  rt.register_function(h, &prog.vecadd_stub, "_Z12vecAddKernelPfS_S_i");
  void* d = rt.malloc(64);
  int n = 16;
  void* args[] = {&d, &d, &d, &n};
  // Launch configuration.
  CHECK(code_of([&] { rt.launch(&prog.vecadd_stub, {1, 1, 1}, {2048, 1, 1}, args, 0, nullptr); }) ==
        cuda::ErrorInvalidConfiguration);
  CHECK(code_of([&] { rt.launch(&prog.vecadd_stub, {0, 1, 1}, {32, 1, 1}, args, 0, nullptr); }) ==
        cuda::ErrorInvalidConfiguration);
  // More dynamic shared memory than the kernel's limit (48 KB without the opt-in): what the
  // H100 answers (docs/measurements/h100_shared_limits.txt).
  CHECK(code_of([&] { rt.launch(&prog.vecadd_stub, {1, 1, 1}, {32, 1, 1}, args, 1 << 20, nullptr); }) ==
        cuda::ErrorInvalidValue);
  CHECK(code_of([&] { rt.launch(&prog.vecadd_stub, {1, 1, 1}, {32, 1, 1}, args, 48 * 1024 + 1, nullptr); }) ==
        cuda::ErrorInvalidValue);
  char not_a_kernel = 0;
  CHECK(code_of([&] { rt.launch(&not_a_kernel, {1, 1, 1}, {32, 1, 1}, args, 0, nullptr); }) ==
        cuda::ErrorInvalidDeviceFunction);
  CHECK(code_of([&] { rt.launch(&prog.vecadd_stub, {1, 1, 1}, {32, 1, 1}, args, 0, &not_a_kernel); }) ==
        cuda::ErrorInvalidResourceHandle);
  // Memory.
  CHECK(code_of([&] { rt.malloc(uint64_t(7) << 30); }) == cuda::ErrorMemoryAllocation);
  CHECK(code_of([&] { rt.free(static_cast<char*>(d) + 4); }) == cuda::ErrorInvalidValue);
  std::vector<char> host(128);
  CHECK(code_of([&] { rt.memcpy(d, host.data(), 128, cuda::HostToDevice, "t"); }) == cuda::ErrorInvalidValue);
  CHECK(code_of([&] { rt.memcpy(host.data(), host.data() + 64, 8, cuda::HostToDevice, "t"); }) ==
        cuda::ErrorInvalidValue);
  CHECK(code_of([&] { rt.memcpy(d, host.data(), 8, static_cast<cuda::MemcpyKind>(7), "t"); }) ==
        cuda::ErrorInvalidMemcpyDirection);
  CHECK(code_of([&] { rt.memset(host.data(), 0, 8); }) == cuda::ErrorInvalidValue);
  CHECK(code_of([&] { rt.free_host(host.data()); }) == cuda::ErrorInvalidValue);
  CHECK(code_of([&] { rt.device_attribute(9999); }) == cuda::ErrorInvalidValue);  // not a cudaDeviceAttr: as an H100
  CHECK(code_of([&] { rt.device_attribute(92); }) == cuda::ErrorNotSupported);  // a reserved number: not modelled
  CHECK(rt.sticky_error() == cuda::Success);
}

TEST_CASE("runtime: copies of any kind reach managed memory, within its bounds") {
  Runtime rt(options());
  auto* m = static_cast<uint8_t*>(rt.malloc_managed(64));
  std::vector<uint8_t> host(128, 3), back(64, 0);
  // Managed memory is either side of any kind, as on an H200 (managed_vars.expected).
  rt.memcpy(m, host.data(), 64, cuda::HostToDevice, "t");
  CHECK(m[63] == 3);
  m[10] = 9;
  rt.memcpy(back.data(), m, 64, cuda::DeviceToHost, "t");
  CHECK(back[10] == 9);
  void* d = rt.malloc(64);
  rt.memcpy(d, m, 64, cuda::DeviceToDevice, "t");
  rt.memcpy(back.data(), d, 64, cuda::DeviceToHost, "t");
  CHECK(back[10] == 9);
  // Past its end, whatever the kind (Default included): refused before a byte moves.
  for (auto kind : {cuda::HostToDevice, cuda::DeviceToHost, cuda::Default}) {
    INFO(int(kind));
    const bool into = kind != cuda::DeviceToHost;
    CHECK(code_of([&] {
            rt.memcpy(into ? static_cast<void*>(m + 8) : host.data(), into ? static_cast<void*>(host.data()) : m + 8,
                      64, kind, "t");
          }) == cuda::ErrorInvalidValue);
  }
  CHECK(m[8] == 3);
  CHECK(host[0] == 3);
  rt.free(m);
}

TEST_CASE("runtime: a kernel fault is sticky until reset, with warpsim's message") {
  Runtime rt(options());
  FakeProgram prog(kVecAddPtx);
  void** h = rt.register_fatbin(&prog.wrapper);
  rt.register_function(h, &prog.vecadd_stub, "_Z12vecAddKernelPfS_S_i");
  void* d = rt.malloc(64 * 4);
  int n = 100;  // past the 64-element buffer
  void* args[] = {&d, &d, &d, &n};
  rt.launch(&prog.vecadd_stub, {1, 1, 1}, {128, 1, 1}, args, 0, nullptr);
  // Asynchronous as on hardware: visible from the next call that waits for the device.
  CHECK(rt.sticky_error() == cuda::Success);
  CHECK(rt.pending_fault() == cuda::ErrorIllegalAddress);
  // A kernel launched after the fault does not run: no second fault, the first one's error.
  int good = 64;
  void* good_args[] = {&d, &d, &d, &good};
  rt.launch(&prog.vecadd_stub, {1, 1, 1}, {64, 1, 1}, good_args, 0, nullptr);
  CHECK(rt.faulted_launches() == 1);
  CHECK(rt.dropped_launches() == 1);
  CHECK(rt.launches().empty());
  CHECK(code_of([&] { rt.synchronize(); }) == cuda::ErrorIllegalAddress);
  CHECK(rt.sticky_error() == cuda::ErrorIllegalAddress);
  CHECK(rt.faulted_launches() == 1);
  CHECK_THAT(rt.sticky_message(), Catch::Contains("_Z12vecAddKernelPfS_S_i") && Catch::Contains("thread"));
  CHECK(rt.launches().empty());
  rt.reset();
  CHECK(rt.sticky_error() == cuda::Success);
  void* again = rt.malloc(16);
  CHECK(again != nullptr);
}

TEST_CASE("runtime: module problems surface at first use, with the PTX location") {
  Runtime rt(options());
  FakeProgram bad(".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n  frobnicate.u32 %r1;\n}\n");
  void** h = rt.register_fatbin(&bad.wrapper);
  rt.register_function(h, &bad.vecadd_stub, "k");
  try {
    rt.launch(&bad.vecadd_stub, {1, 1, 1}, {1, 1, 1}, nullptr, 0, nullptr);
    FAIL("no error");
  } catch (const ApiError& e) {
    CHECK(e.code() == cuda::ErrorInvalidPtx);
    CHECK_THAT(e.what(), Catch::Contains("test.ptx:6") && Catch::Contains("the PTX embedded in test"));
  }
  cuda::FatbinWrapper junk{0x1234, 1, nullptr, nullptr};
  void** hj = rt.register_fatbin(&junk);
  char stub = 0;
  rt.register_function(hj, &stub, "k");
  CHECK(code_of([&] { rt.kernel_for(&stub, "t"); }) == cuda::ErrorInvalidPtx);
}

TEST_CASE("runtime: device properties come from the config") {
  Runtime rt(options());
  cuda::DeviceProp p;
  rt.device_properties(&p);
  CHECK(std::string(p.name) == "Tesla C2070 (warpsim)");
  CHECK(p.major == 2);
  CHECK(p.minor == 0);
  CHECK(p.multiProcessorCount == 14);
  CHECK(p.warpSize == 32);
  CHECK(p.maxThreadsPerBlock == 1024);
  CHECK(p.maxThreadsPerMultiProcessor == 1536);
  CHECK(p.regsPerBlock == 32768);
  CHECK(p.sharedMemPerBlock == 49152);
  CHECK(p.l2CacheSize == 786432);
  CHECK(p.memoryBusWidth == 384);
  CHECK(p.totalGlobalMem == uint64_t(6) << 30);
  CHECK(rt.device_attribute(cuda::AttrClockRate) == 1150000);
  CHECK(rt.device_attribute(cuda::AttrMultiProcessorCount) == 14);
  // cudaDevAttrSingleToDoublePrecisionPerfRatio: FP32 lanes per FP64 unit (PG throughput
  // table: 32 and 16 per SM on cc 2.0, 8 and 1 on cc 1.3; the H100's 2 is driver_test's).
  CHECK(rt.device_attribute(87) == 2);
  RuntimeOptions fx = options();
  fx.config = "fx5800";
  Runtime gt(fx);
  gt.device_properties(&p);
  CHECK(p.major == 1);
  CHECK(p.minor == 3);
  CHECK(p.multiProcessorCount == 30);
  CHECK(gt.device_attribute(87) == 8);
}

TEST_CASE("runtime: a process the program started reports as itself, into its own JSON file") {
  RuntimeOptions o;
  o.program = "app";
  o.json_out = "/tmp/out/report.json";
  for_other_process(o, 4321, "child");  // WARPSIM_EXEC_PID not set: nothing to tell apart
  CHECK(o.program == "app");
  CHECK(o.json_out == "/tmp/out/report.json");
  std::map<std::string, std::string> env = {{"WARPSIM_EXEC_PID", "1234"}};
  auto get = [&](const char* n) -> const char* {
    auto it = env.find(n);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  o.exec_pid = RuntimeOptions::from_environment(get).exec_pid;
  CHECK(o.exec_pid == 1234);
  for_other_process(o, 1234, "app");  // the program warpsim exec started
  CHECK(o.program == "app");
  CHECK(o.json_out == "/tmp/out/report.json");
  for_other_process(o, 4321, "child");
  CHECK(o.program == "child (process 4321, started by the program)");
  CHECK(o.json_out == "/tmp/out/report.4321.json");
  env["WARPSIM_EXEC_PID"] = "x";
  CHECK_THROWS_WITH(RuntimeOptions::from_environment(get), Catch::StartsWith("WARPSIM_EXEC_PID=\"x\""));
}

TEST_CASE("runtime: the environment sets the options") {
  std::map<std::string, std::string> env = {{"WARPSIM_CONFIG", "fx5800"},
                                            {"WARPSIM_SET", "sm.count=4;dram.banks=4"},
                                            {"WARPSIM_MODE", "functional"},
                                            {"WARPSIM_MAX_CYCLES", "1000"}};
  auto get = [&](const char* n) -> const char* {
    auto it = env.find(n);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  RuntimeOptions o = RuntimeOptions::from_environment(get);
  CHECK(o.config == "fx5800");
  CHECK(o.sets == std::vector<std::string>{"sm.count=4", "dram.banks=4"});
  CHECK(o.mode == SimMode::Functional);
  CHECK(o.limits.max_cycles == 1000);
  Runtime rt(o);
  CHECK(rt.spec().sm.count == 4);
  env["WARPSIM_MODE"] = "fast";
  CHECK_THROWS_WITH(RuntimeOptions::from_environment(get), "WARPSIM_MODE=\"fast\": expected timing or functional");
  env["WARPSIM_MODE"] = "timing";
  env["WARPSIM_MAX_CYCLES"] = "12x";
  CHECK_THROWS_WITH(RuntimeOptions::from_environment(get), Catch::Contains("WARPSIM_MAX_CYCLES=\"12x\""));
  env["WARPSIM_MAX_CYCLES"] = "0";
  CHECK(RuntimeOptions::from_environment(get).sample_waves == 0);
  env["WARPSIM_SAMPLE"] = "4";
  CHECK(RuntimeOptions::from_environment(get).sample_waves == 4);
  env["WARPSIM_SAMPLE"] = "100000";
  CHECK_THROWS_WITH(RuntimeOptions::from_environment(get), "WARPSIM_SAMPLE=\"100000\": expected 0 (off) to 1000 waves");
  env["WARPSIM_SAMPLE"] = "0";
  CHECK(RuntimeOptions::from_environment(get).epoch_cycles == 1);  // every cycle by default
  env["WARPSIM_EPOCH"] = "8";
  CHECK(RuntimeOptions::from_environment(get).epoch_cycles == 8);
  for (const char* bad : {"0", "65"}) {
    env["WARPSIM_EPOCH"] = bad;
    CHECK_THROWS_WITH(RuntimeOptions::from_environment(get),
                      "WARPSIM_EPOCH=\"" + std::string(bad) + "\": expected 1 (every cycle) to 64 cycles");
  }
  env["WARPSIM_EPOCH"] = "1";
  CHECK(RuntimeOptions::from_environment(get).cache_control == CacheControl::Keep);  // as on hardware
  env["WARPSIM_CACHE_CONTROL"] = "all";
  CHECK(RuntimeOptions::from_environment(get).cache_control == CacheControl::Flush);
  env["WARPSIM_CACHE_CONTROL"] = "none";
  CHECK(RuntimeOptions::from_environment(get).cache_control == CacheControl::Keep);
  env["WARPSIM_CACHE_CONTROL"] = "some";
  CHECK_THROWS_WITH(RuntimeOptions::from_environment(get), Catch::StartsWith("WARPSIM_CACHE_CONTROL=\"some\": expected none"));
  env["WARPSIM_CACHE_CONTROL"] = "none";
  CHECK(RuntimeOptions::from_environment(get).caches);  // by default
  env["WARPSIM_CACHES"] = "0";  // only for functional runs
  CHECK_THROWS_WITH(RuntimeOptions::from_environment(get),
                    Catch::StartsWith("WARPSIM_CACHES=0 leaves the cache model out of functional runs"));
  env["WARPSIM_MODE"] = "functional";
  CHECK_FALSE(RuntimeOptions::from_environment(get).caches);
  env["WARPSIM_CACHES"] = "no";
  CHECK_THROWS_WITH(RuntimeOptions::from_environment(get), "WARPSIM_CACHES=\"no\": expected 0 or 1");
  env["WARPSIM_CACHES"] = "1";
  env["WARPSIM_MODE"] = "timing";
  CHECK(RuntimeOptions::from_environment(get).threads == kAutoThreads);  // by default
  env["WARPSIM_THREADS"] = "2";
  CHECK(RuntimeOptions::from_environment(get).threads == 2);
  env["WARPSIM_THREADS"] = "auto";
  CHECK(RuntimeOptions::from_environment(get).threads == kAutoThreads);
  for (const char* bad : {"0", "257", "-1", "+2", "2x", "many"}) {
    env["WARPSIM_THREADS"] = bad;
    CHECK_THROWS_WITH(RuntimeOptions::from_environment(get),
                      "WARPSIM_THREADS=\"" + std::string(bad) +
                          "\": expected auto (every core the process may use, at most 8) or 1 to 256 "
                          "host threads");
  }
}

TEST_CASE("runtime: a launch record keeps its counts and only the detail the exit report still reads") {
  // Grids of 1, 4 and 2 blocks: the second launch is the costliest in timing mode, the first
  // (all take no time) in functional mode, as format_exec_summary picks them.
  for (SimMode mode : {SimMode::Functional, SimMode::Timing}) {
    for (bool by_line : {false, true}) {
      INFO((mode == SimMode::Timing ? "timing" : "functional") << (by_line ? " by line" : ""));
      RuntimeOptions o = options(mode);
      o.by_line = by_line;
      Runtime rt(o);
      FakeProgram prog(kVecAddPtx);
      void** h = rt.register_fatbin(&prog.wrapper);
      rt.register_function(h, &prog.vecadd_stub, "_Z12vecAddKernelPfS_S_i");
      const int n = 4 * 256;
      void* da = rt.malloc(n * 4);
      void* db = rt.malloc(n * 4);
      void* dc = rt.malloc(n * 4);
      int nn = n;
      void* args[] = {&da, &db, &dc, &nn};
      for (unsigned blocks : {1u, 4u, 2u}) rt.launch(&prog.vecadd_stub, {blocks, 1, 1}, {256, 1, 1}, args, 0, nullptr);
      REQUIRE(rt.launches().size() == 3);
      const size_t costliest = mode == SimMode::Timing ? 1 : 0;
      for (size_t i = 0; i < 3; ++i) {
        const LaunchStats& s = rt.launches()[i].stats;
        CHECK(s.exec.threads == std::vector<uint64_t>{256, 1024, 512}[i]);
        CHECK(s.mem.gld_transactions > 0);
        CHECK(s.timing.valid == (mode == SimMode::Timing));
        CHECK(s.dram.channels.empty());
        CHECK(s.exec.round_robin_sm_instructions.empty());
        CHECK(s.per_pc.empty() == !(by_line && i == costliest));
      }
      const std::string summary = format_exec_summary(rt.launches(), rt.copies(), 0, rt.spec(), rt.options(), 0);
      if (by_line) {
        CHECK_THAT(summary, Catch::Contains(fmt::format("(launch {} of 3), by source line", costliest + 1)));
      }
    }
  }
}

TEST_CASE("runtime: the JSON report holds each launch's full statistics, made as the launch ends") {
  RuntimeOptions o = options(SimMode::Timing);
  o.json_out = "unused.json";  // the Runtime keeps the launches' JSON; the process writes the file
  Runtime rt(o);
  FakeProgram prog(kVecAddPtx);
  void** h = rt.register_fatbin(&prog.wrapper);
  rt.register_function(h, &prog.vecadd_stub, "_Z12vecAddKernelPfS_S_i");
  const int n = 512;
  void* da = rt.malloc(n * 4);
  void* db = rt.malloc(n * 4);
  void* dc = rt.malloc(n * 4);
  int nn = n;
  void* args[] = {&da, &db, &dc, &nn};
  for (int i = 0; i < 2; ++i) rt.launch(&prog.vecadd_stub, {2, 1, 1}, {256, 1, 1}, args, 0, nullptr);
  REQUIRE(rt.json_launches().size() == 2);
  std::ostringstream out;
  write_exec_json(out, rt.json_launches(), rt.copies(), rt.faults(), rt.spec(), rt.options());
  const Json j = Json::parse(out.str());
  REQUIRE(j["launches"].size() == 2);
  for (const auto& l : j["launches"]) {
    // Per-channel DRAM statistics (with their banks) and per-line statistics, which the
    // launch records no longer keep.
    CHECK(l["dram"]["channels"].size() == rt.spec().dram.channels);
    CHECK(l["dram"]["channels"][0]["bank_reads"].size() == rt.spec().dram.banks);
    CHECK(!l["lines"].empty());
  }
  CHECK(rt.launches()[1].stats.dram.channels.empty());
}
