// Whole CUDA programs written here, built by nvcc with -cudart shared and run unchanged
// under `warpsim exec`: their own output, CUDA's error codes, and warpsim's report.
#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>
#include <vector>

#include "sim/foundation/sanitizers.hpp"
#include "program_runner.hpp"

using rttest::exec;

TEST_CASE("programs: vector add runs to its own PASS, in both modes") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("vector_add");
  for (const auto& r : rttest::check_prints(app, {"", "--functional"}, "n=1000 wrong=0 PASS\n", "1000")) {
    CHECK_THAT(r.err, Catch::Contains("==warpsim== vector_add on Tesla C2070 (cc 2.0)"));
    CHECK_THAT(r.err, Catch::Contains("vector_add(float const*, float const*, float*, int)"));
  }
  auto fx = exec("--config fx5800 --no-summary", app, "5000");
  CHECK(fx.status == 0);
  CHECK(fx.out == "n=5000 wrong=0 PASS\n");
  CHECK(fx.err.empty());
  // --set takes one value each: the `--` and the program's arguments stay the program's.
  auto set = exec("--functional --set sm.count=4 --set sm.warp_size=32", app, "3000");
  INFO(set.err);
  CHECK(set.status == 0);
  CHECK(set.out == "n=3000 wrong=0 PASS\n");
}

TEST_CASE("programs: the JSON report holds every launch with run's metrics") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("host_loop");
  const std::string json = std::string(WARPSIM_BINARY_DIR) + "/runtime_programs/host_loop.json";
  auto r = exec("--functional --json " + json, app);
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == "sum 299995 expected 299995 in 3 launches: PASS\njacobi u[62]=0.823803 wrong=0: PASS\n");
  auto j = nlohmann::json::parse(rttest::slurp(json));
  REQUIRE(j["launches"].size() == 23);
  CHECK(j["mode"] == "functional");
  CHECK(j["launches"][0]["kernel"] == "_Z12partial_sumsPKdPdi");
  CHECK(j["launches"][0]["grid"][0] == 782);
  CHECK(j["launches"][3]["kernel_demangled"] == "jacobi(float const*, float*, int)");
  CHECK(j["launches"][0]["metrics"].contains("gld_transactions"));
}

TEST_CASE("programs: --no-caches runs the program with every count but the caches' as with them") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("host_loop");
  const std::string dir = std::string(WARPSIM_BINARY_DIR) + "/runtime_programs/";
  auto with = exec("--functional --config h100 --json " + dir + "host_loop_caches.json", app);
  auto without = exec("--functional --no-caches --config h100 --json " + dir + "host_loop_no_caches.json", app);
  INFO(without.err);
  REQUIRE(with.status == 0);
  REQUIRE(without.status == 0);
  CHECK(without.out == with.out);
  const auto a = nlohmann::json::parse(rttest::slurp(dir + "host_loop_caches.json"))["launches"];
  const auto b = nlohmann::json::parse(rttest::slurp(dir + "host_loop_no_caches.json"))["launches"];
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    INFO("launch " << i);
    auto ma = a[i]["metrics"], mb = b[i]["metrics"];
    CHECK(ma.contains("l2_hit_rate"));
    CHECK_FALSE(mb.contains("l1_hit_rate"));
    CHECK_FALSE(mb.contains("l2_hit_rate"));
    for (auto it = ma.begin(); it != ma.end(); ++it) {
      if (it.key().find("l1_") == 0 || it.key().find("l2_") == 0 || it.key().find("host") != std::string::npos)
        continue;
      INFO(it.key());
      CHECK(mb[it.key()] == it.value());
    }
  }
  // Timing mode models the caches: the option is refused there.
  auto timed = exec("--no-caches", app);
  CHECK(timed.status != 0);
  CHECK_THAT(timed.err, Catch::Contains("--no-caches requires --functional"));
}

TEST_CASE("programs: --threads 2 and auto give the report of one thread, in both modes") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("host_loop");
  const std::string dir = std::string(WARPSIM_BINARY_DIR) + "/runtime_programs/";
  // Host time aside, every launch's record is the same.
  auto without_host_time = [](nlohmann::json j) {
    for (auto& l : j["launches"])
      for (auto it = l.begin(); it != l.end();)
        it = it.key().find("host") != std::string::npos ? l.erase(it) : std::next(it);
    for (auto& l : j["launches"]) l["metrics"].erase("host_seconds");
    return j["launches"];
  };
  for (std::string mode : {"--functional", ""}) {
    INFO("mode " << mode);
    auto one = exec(mode + " --threads 1 --json " + dir + "host_loop_t1.json", app);
    auto two = exec(mode + " --threads 2 --json " + dir + "host_loop_t2.json", app);
    INFO(two.err);
    REQUIRE(one.status == 0);
    REQUIRE(two.status == 0);
    CHECK(two.out == one.out);
    const auto a = without_host_time(nlohmann::json::parse(rttest::slurp(dir + "host_loop_t1.json")));
    const auto b = without_host_time(nlohmann::json::parse(rttest::slurp(dir + "host_loop_t2.json")));
    REQUIRE(a.size() == 23);
    CHECK(a == b);
    CHECK(a[0]["metrics"].contains("l2_hit_rate"));  // the caches were counted
    auto deflt = exec(mode + " --json " + dir + "host_loop_auto.json", app);  // --threads auto
    REQUIRE(deflt.status == 0);
    CHECK(deflt.out == one.out);
    CHECK(without_host_time(nlohmann::json::parse(rttest::slurp(dir + "host_loop_auto.json"))) == a);
  }
  auto bad = exec("--threads 0", app);
  CHECK(bad.status != 0);
  CHECK(bad.err.find("--threads=\"0\": expected auto") != std::string::npos);
}

TEST_CASE("programs: with --epoch, one report for any thread count, near every-cycle timing") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("host_loop");
  const std::string dir = std::string(WARPSIM_BINARY_DIR) + "/runtime_programs/";
  auto launches = [&](const std::string& file) {
    auto j = nlohmann::json::parse(rttest::slurp(dir + file));
    for (auto& l : j["launches"]) {
      for (auto it = l.begin(); it != l.end();)
        it = it.key().find("host") != std::string::npos ? l.erase(it) : std::next(it);
      l["metrics"].erase("host_seconds");
    }
    return j["launches"];
  };
  auto every = exec("--threads 1 --json " + dir + "host_loop_every.json", app);
  auto one = exec("--epoch 8 --threads 1 --json " + dir + "host_loop_e1.json", app);
  auto two = exec("--epoch 8 --threads 2 --json " + dir + "host_loop_e2.json", app);
  INFO(two.err);
  REQUIRE(every.status == 0);
  REQUIRE(one.status == 0);
  REQUIRE(two.status == 0);
  CHECK(one.out == every.out);  // the program's results
  CHECK(two.out == one.out);
  const auto a = launches("host_loop_e1.json"), b = launches("host_loop_e2.json"), ref = launches("host_loop_every.json");
  REQUIRE(a.size() == 23);
  CHECK(a == b);
  REQUIRE(ref.size() == a.size());
  bool some_differ = false;
  for (size_t i = 0; i < a.size(); ++i) {
    INFO("launch " << i);
    CHECK(a[i]["metrics"]["inst_executed"] == ref[i]["metrics"]["inst_executed"]);
    const double e = a[i]["metrics"]["elapsed_cycles_sm"].get<double>();
    const double r = ref[i]["metrics"]["elapsed_cycles_sm"].get<double>();
    CHECK(std::abs(e - r) <= 0.05 * r + 8 * 4);  // a few epochs per launch at most
    some_differ |= e != r;
  }
  CHECK(some_differ);  // the option took effect
  auto zero = exec("--epoch 0", app);
  CHECK(zero.status != 0);
  CHECK_THAT(zero.err, Catch::Contains("--epoch"));
  auto functional = exec("--functional --epoch 4", app);
  CHECK(functional.status != 0);
  CHECK_THAT(functional.err, Catch::Contains("--functional excludes --epoch"));
}

TEST_CASE("programs: --sample-launches times each kernel shape's first launches, the rest take their time") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("host_loop");
  const std::string dir = std::string(WARPSIM_BINARY_DIR) + "/runtime_programs/";
  auto full = exec("--json " + dir + "host_loop_full.json", app);
  auto part = exec("--sample-launches 2 --json " + dir + "host_loop_sampled.json", app);
  INFO(part.err);
  REQUIRE(full.status == 0);
  REQUIRE(part.status == 0);
  CHECK(part.out == full.out);  // every launch still ran, functionally or timed
  CHECK_THAT(part.err, Catch::Contains("23 launches of 2 kernels"));
  CHECK_THAT(part.err, Catch::Contains("(18 not timed: their time is an earlier launch's, --sample-launches)"));
  auto f = nlohmann::json::parse(rttest::slurp(dir + "host_loop_full.json"))["launches"];
  auto p = nlohmann::json::parse(rttest::slurp(dir + "host_loop_sampled.json"))["launches"];
  REQUIRE(f.size() == 23);
  REQUIRE(p.size() == 23);
  // Launches 0-2 are partial_sums with three different grids, 3-22 jacobi with one shape:
  // 0-4 are timed, as in the full run; 5-22 take launch 4's time.
  for (size_t i = 0; i < 23; ++i) {
    INFO("launch " << i);
    for (const char* m : {"inst_executed", "thread_inst_executed", "gld_requests", "gst_requests", "gld_transactions",
                          "gst_transactions", "shared_load_transactions", "branch", "divergent_branch"})
      CHECK(p[i]["metrics"][m] == f[i]["metrics"][m]);
    if (i < 5) {
      CHECK_FALSE(p[i].contains("estimated_from_launch"));
      CHECK(p[i]["metrics"] == f[i]["metrics"]);
    } else {
      REQUIRE(p[i].contains("estimated_from_launch"));
      CHECK(p[i]["estimated_from_launch"]["launch"] == 4);
      CHECK(p[i]["estimated_from_launch"]["time_scale"] == 1.0);
      CHECK(p[i]["metrics"]["elapsed_cycles_sm"] == p[4]["metrics"]["elapsed_cycles_sm"]);
    }
  }
  auto both = exec("--functional --sample-launches 2", app);
  CHECK(both.status != 0);
  CHECK_THAT(both.err, Catch::Contains("--functional excludes --sample-launches"));
}

TEST_CASE("programs: launches find the caches as the last left them, unless --cache-control all") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("host_loop");
  const std::string dir = std::string(WARPSIM_BINARY_DIR) + "/runtime_programs/";
  auto kept = exec("--json " + dir + "host_loop_kept.json", app);
  auto flushed = exec("--cache-control all --json " + dir + "host_loop_flushed.json", app);
  INFO(kept.err << flushed.err);
  REQUIRE(kept.status == 0);
  REQUIRE(flushed.status == 0);
  CHECK(kept.out == flushed.out);
  CHECK_THAT(flushed.err, Catch::Contains(", caches flushed before each launch (--cache-control all)"));
  CHECK_THAT(kept.err, !Catch::Contains("flushed"));
  auto kj = nlohmann::json::parse(rttest::slurp(dir + "host_loop_kept.json"));
  auto fj = nlohmann::json::parse(rttest::slurp(dir + "host_loop_flushed.json"));
  CHECK(kj["cache_control"] == "none");
  CHECK(fj["cache_control"] == "all");
  auto k = kj["launches"], f = fj["launches"];
  REQUIRE(k.size() == 23);
  REQUIRE(f.size() == 23);
  // The program's first launch starts cold either way.
  CHECK(k[0]["metrics"] == f[0]["metrics"]);
  for (size_t i = 0; i < 23; ++i) {
    INFO("launch " << i);
    for (const char* m : {"inst_executed", "gld_transactions", "gst_transactions", "l1_hit_rate"})
      CHECK(k[i]["metrics"][m] == f[i]["metrics"][m]);  // the L1s start empty at every launch
    if (i >= 4) {
      // Launches 3-22 are jacobi on two 256-byte arrays: flushed, each reads them from
      // DRAM; kept, from the second on each finds both in the L2.
      CHECK(f[i]["metrics"]["elapsed_cycles_sm"] == f[3]["metrics"]["elapsed_cycles_sm"]);
      CHECK(f[i]["metrics"]["dram_read_bytes"] > 0);
      CHECK(k[i]["metrics"]["dram_read_bytes"] == 0);
      CHECK(k[i]["metrics"]["l2_hit_rate"] == 100.0);
      CHECK(k[i]["metrics"]["elapsed_cycles_sm"] < f[i]["metrics"]["elapsed_cycles_sm"]);
    }
  }
  auto wrong = exec("--cache-control some", app);
  CHECK(wrong.status != 0);
  CHECK_THAT(wrong.err, Catch::Contains("--cache-control"));
}

TEST_CASE("programs: every runtime call returns what CUDA returns") {
  REQUIRE_NVCC();
  if (warpsim::kAddressSanitizer) {
    // cudaMallocManaged maps device addresses (0x10'0000'0000 up) into the program, inside
    // the range ASan keeps for its shadow memory: not testable in a sanitizer build.
    WARN("skipped in an AddressSanitizer build: managed memory's fixed mapping collides with ASan's shadow");
    return;
  }
  const std::string app = rttest::build_program("runtime_calls");
  auto r = exec("--no-summary", app);
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == rttest::slurp(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/runtime_calls.expected"));
  CHECK_THAT(r.err, Catch::Contains("cudaMallocMipmappedArray is not supported by warpsim's CUDA runtime"));
  CHECK_THAT(r.err, Catch::Contains("cudaMalloc: 1099511627776 bytes requested; the simulated Tesla C2070 has "
                                    "6442450944 bytes of device memory"));
}

TEST_CASE("programs: 3D pitched memory, bank-size, occupancy, name and PCI calls answer as an H200 does") {
  REQUIRE_NVCC();
  // memory_3d_and_queries.expected is an H200's output: cudaMalloc3D's pitch, cudaMemset3D(Async)
  // boxes read back with cudaMemcpy3D, the bank size that stays four bytes,
  // cudaOccupancyAvailableDynamicSMemPerBlock over block counts and sizes, cudaFuncGetName's
  // mangled names, a PCI bus id that finds its device, and each call's errors.
  const std::string app = rttest::build_program("memory_3d_and_queries");
  const std::string want =
      rttest::slurp(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/memory_3d_and_queries.expected");
  rttest::check_prints(app, {"--functional --no-summary --config h100", "--no-summary --config h100"}, want);
  auto r = exec("--functional --no-summary --config h100", app);
  CHECK_THAT(r.err, Catch::Contains("cudaMemset3D: 2 rows in slices of 1 (pitchedDevPtr.ysize)"));
  CHECK_THAT(r.err, Catch::Contains("cudaOccupancyAvailableDynamicSMemPerBlock: 3 blocks of 1024 threads do not fit "
                                    "on one SM (2 do)"));
  CHECK_THAT(r.err, Catch::Contains("cudaDeviceGetByPCIBusId: \"not a bus id\" is not a PCI bus id"));
  CHECK_THAT(r.err, Catch::Contains("cudaFuncGetName: ") && Catch::Contains("is not a registered __global__ function"));
}

TEST_CASE("programs: CUDA 13's pools by location answer as an H200 does for the device's pinned pools") {
  REQUIRE_NVCC();
  // mem_pool_locations.expected is an H200's output: cudaMemGetDefaultMemPool,
  // cudaMemGetMemPool and cudaMemSetMemPool on device 0's pinned pools, an allocation from a
  // created current pool, and the errors of other devices, types and null arguments.
  const std::string app = rttest::build_program("mem_pool_locations");
  const std::string want = rttest::slurp(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/mem_pool_locations.expected");
  rttest::check_prints(app, {"--functional --no-summary", "--no-summary --config h100"}, want);
  // The host location's pools and managed pools, which the H200 has
  // (docs/measurements/h200_mem_pool_locations_2026-11-30.txt), are not modelled: said, and
  // cudaErrorNotSupported.
  auto r = exec("--functional --no-summary", app, "host");
  CHECK(r.status == 0);
  CHECK(r.out ==
        "cudaMemGetDefaultMemPool(&h, &host, cudaMemAllocationTypePinned) cudaErrorNotSupported\n"
        "cudaMemGetMemPool(&h, &host, cudaMemAllocationTypePinned)      cudaErrorNotSupported\n"
        "cudaMemGetDefaultMemPool(&h, &dev, cudaMemAllocationTypeManaged) cudaErrorNotSupported\n");
  CHECK_THAT(r.err, Catch::Contains("cudaMemGetDefaultMemPool: warpsim models the device's pinned memory pools only "
                                    "(location type 2, allocation type 1)"));
}

TEST_CASE("programs: an out-of-bounds write is cudaErrorIllegalAddress, sticky until reset") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("out_of_bounds");
  auto r = exec("--no-summary", app);
  CHECK(r.status == 0);
  CHECK(r.out ==
        "launch: cudaSuccess\n"
        "synchronize: cudaErrorIllegalAddress\n"
        "then malloc: cudaErrorIllegalAddress\n"
        "reset: cudaSuccess\n"
        "after reset: cudaSuccess\n");
  CHECK_THAT(r.err, Catch::Contains("kernel fault") && Catch::Contains("_Z14write_past_endPii") &&
                        Catch::Contains("out_of_bounds.cu:7"));
}

TEST_CASE("programs: a static-cudart build is refused with the fix") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("vector_add", "-cudart static");
  auto r = exec("", app);
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("is linked with the static CUDA runtime (nvcc's default)") &&
                        Catch::Contains("rebuild it with nvcc -cudart shared"));
}

TEST_CASE("programs: warpsim inspect lists a program's kernels") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("runtime_calls");
  auto r = rttest::shell(rttest::warpsim_bin() + " inspect " + app);
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("compute_75 PTX (zstd)") && Catch::Contains("block_sum(int const*, int*)") &&
                        Catch::Contains("static shared: 0 B + dynamic"));
}

TEST_CASE("programs: exec's own errors") {
  auto r = rttest::shell(rttest::warpsim_bin() + " exec -- ./no-such-program");
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("./no-such-program: no such program"));
  auto cfg = rttest::shell(rttest::warpsim_bin() + " exec --config nope -- /bin/true");
  CHECK(cfg.status == 1);
  CHECK_THAT(cfg.err, Catch::Contains("nope"));
  auto set = rttest::shell(rttest::warpsim_bin() + " exec --set sm.count=0 -- /bin/true");
  CHECK(set.status == 1);
  CHECK_THAT(set.err, Catch::Contains("sm.count"));
  auto none = rttest::shell(rttest::warpsim_bin() + " exec");
  CHECK(none.status != 0);
}

TEST_CASE("programs: __constant__ and __device__ variables through the symbol calls") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("symbols");
  auto r = exec("--no-summary", app);
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out ==
        "to symbol: cudaSuccess\n"
        "size: cudaSuccess 16\n"
        "address: cudaSuccess set\n"
        "from symbol: cudaSuccess\n"
        "counter 300, wrong 0\n"
        "table 10 20 30 40\n"
        "past the end: cudaErrorInvalidValue\n"
        "not a symbol: cudaErrorInvalidSymbol\n");
  CHECK_THAT(r.err, Catch::Contains("exceed the 16-byte variable 'coeffs'"));
}

TEST_CASE("programs: device functions, printf in order, and assert as cudaErrorAssert") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("device_calls");
  // depth_sum(t % 6) + scaled(2, t) = (t%6)(t%6+1)/2 + 2 (t & 3)
  const std::string want =
      "block 0 thread 0: sum 0, 0.00, ok\n"
      "block 0 thread 3: sum 12, 1.50, ok\n"
      "block 0 thread 6: sum 4, 3.00, ok\n"
      "block 1 thread 0: sum 0, 0.00, ok\n"
      "block 1 thread 3: sum 12, 1.50, ok\n"
      "block 1 thread 6: sum 4, 3.00, ok\n"
      "work: cudaSuccess\n"
      "0 3 7 12 10 17 4 7 \n"
      "check: cudaErrorAssert\n";
  for (const auto& r : rttest::check_prints(app, {"--functional --no-summary", "--no-summary"}, want)) {
    CHECK_THAT(r.err, Catch::Contains("device assert failed: ") &&
                          Catch::Contains("device_calls.cu:21: void check(const int *, int): Assertion `in[i] >= 0` "
                                          "failed in kernel '_Z5checkPKii', block (0,0,0), thread (5,0,0)"));
  }
}

namespace {
std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}
}  // namespace

TEST_CASE("programs: textures and surfaces print what an H100 prints") {
  REQUIRE_NVCC();
  // textures.expected is the program's output on a real H100 (tools/runtime/texture_ground_truth.sh).
  // Every line must match exactly, except the linearly filtered 8-bit normalised texels: the
  // H100 keeps a few more fraction bits there than warpsim models (within 1e-5).
  const std::string app = rttest::build_program("textures");
  const auto want = lines_of(rttest::slurp(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/textures.expected"));
  for (const char* mode : {"--functional --no-summary --config h100", "--no-summary --config h100",
                           "--functional --no-summary"}) {
    auto r = exec(mode, app);
    INFO(mode << "\n" << r.err);
    CHECK(r.status == 0);
    const auto got = lines_of(r.out);
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      INFO("line " << i + 1);
      if (want[i].rfind("uchar4_normalized_linear", 0) == 0) {
        std::stringstream a(want[i]), b(got[i]);
        std::string ta, tb;
        a >> ta;
        b >> tb;
        CHECK(ta == tb);
        for (int c = 0; c < 4; ++c) {
          double x = 0, y = 0;
          a >> x;
          b >> y;
          CHECK(std::abs(x - y) <= 1e-5);
        }
      } else {
        CHECK(got[i] == want[i]);
      }
    }
  }
}

TEST_CASE("programs: filtered float texels round like the H100's filter, to the last bit") {
  REQUIRE_NVCC();
  // 512 linear fetches of texels whose weighted sums are not representable: the exact sum
  // rounded half away from zero (texture_probe.expected: the H100's output, printed with %a).
  rttest::check_prints_expected("texture_probe");
}

TEST_CASE("programs: a wrapped, normalised, filtered rotation fetches with the H100's coordinates and weights") {
  REQUIRE_NVCC();
  // rotate_probe.expected is the H100's output (tools/runtime/texture_ground_truth.sh): hashes
  // of 262,144 coordinates (which need ptxas's mul/add contraction to come out the same), of
  // the corner weights the filter used (only the product of the upper weights is rounded),
  // and the sum of the values. The values' own hash is not compared: in 0.3 % of the fetches
  // the H100's filter rounds its sum one ulp away from the exact sum rounded once, which is
  // what warpsim computes.
  const std::string app = rttest::build_program("rotate_probe");
  const auto want = lines_of(rttest::slurp(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/rotate_probe.expected"));
  REQUIRE(want.size() == 4);
  auto without_values = [](std::string l) {
    const size_t at = l.find(", values ");
    return at == std::string::npos ? l : l.substr(0, at) + l.substr(l.find(',', at + 1));
  };
  for (const char* mode : {"--functional --no-summary", "--no-summary --config h100"}) {
    std::vector<std::string> got;
    for (const char* angle : {"0.5", "-0.3"}) {
      auto r = exec(mode, app, angle);
      INFO(mode << " " << angle << "\n" << r.err);
      CHECK(r.status == 0);
      for (auto& l : lines_of(r.out)) got.push_back(l);
    }
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) CHECK(without_values(got[i]) == without_values(want[i]));
  }
}

TEST_CASE("programs: mul/add pairs are fused into fma exactly where the H100 fuses them") {
  REQUIRE_NVCC();
  // contraction.expected is the H100's output: per inline-PTX pattern, how many of 4096
  // results equal the unfused value, the fma of the first product, of the second, or neither.
  rttest::check_prints_expected("contraction");
}

TEST_CASE("programs: a shfl from a lane that does not take part reads 0, as on the GPU") {
  REQUIRE_NVCC();
  // shfl_inactive.expected is an H200's output. cuda-samples' reduction (kernel 7) depends on
  // it: its last warp shuffles down by 16 with 8 lanes active.
  rttest::check_prints_expected("shfl_inactive");
}

TEST_CASE("programs: NaN results have the H200's bits (f32: the canonical NaN) and print as it prints them") {
  REQUIRE_NVCC();
  // nan_results.expected is an H200's output: 255 f32 and 87 f64 instructions written as
  // inline PTX, with NaN, infinite and zero sources. A host gives x86's NaNs instead (the
  // negative default NaN, payloads kept), which printf shows as "-nan".
  rttest::check_prints_expected("nan_results");
  // nan_results_half.expected: f16/f16x2 arithmetic, conversions between the 16-bit formats
  // and f32/f64, and f64 fma with several NaN sources, on an H200.
  rttest::check_prints_expected("nan_results_half", "-cudart shared -arch=sm_90",
                                {"--functional --no-summary --config h100", "--no-summary --config h100",
                                 "--functional --no-summary --config h100 --threads 2"});
}

TEST_CASE("programs: bf16 arithmetic and half/bf16 comparisons compute what an H200 computes") {
  REQUIRE_NVCC();
  // bf16_results.expected is an H200's output: add, sub, mul, fma, min, max, neg, abs on
  // .bf16 (ties, a product at a tie with a tiny addend, overflow, subnormals, signed zeros,
  // NaN sources), setp on .f16 and .bf16 with all 14 comparisons, cvt between .bf16 and
  // .f64, and cvt.rn.bf16 from 16-, 32- and 64-bit integers (sm_90).
  rttest::check_prints_expected("bf16_results", "-cudart shared -arch=sm_90",
                                {"--functional --no-summary --config h100", "--no-summary --config h100",
                                 "--functional --no-summary --config h100 --threads 2"});
  // pairs_and_set_results.expected: an H200's output for add, sub, mul, fma, min, max, neg,
  // abs on .bf16x2, cvt.rn.{bf16x2,f16x2}.f32, set from every kind of source, min/max.NaN
  // and cvt.rna.tf32.f32 of NaNs.
  rttest::check_prints_expected("pairs_and_set_results", "-cudart shared -arch=sm_90",
                                {"--functional --no-summary --config h100", "--no-summary --config h100"});
  // half_intrinsics.expected: an H200's output of a program using cuda_bf16.hpp's and
  // cuda_fp16.hpp's intrinsics (__hadd ... __hlt on bf16, __hdiv and __hlt on half).
  rttest::check_prints_expected("half_intrinsics", "-cudart shared -arch=sm_90",
                                {"--functional --no-summary --config h100", "--no-summary --config h100"});
}

TEST_CASE("programs: fp8 conversions, .relu, .satfinite, .rz and xorsign compute what an H200 computes") {
  REQUIRE_NVCC();
  // relu_fp8_results.expected is an H200's output (964 cases): cvt to and from .e4m3x2 and
  // .e5m2x2 (all 256 values of each to f16x2), cvt from f32 to the halves with .rz, .relu
  // and .satfinite, cvt to tf32 with .rn, .rz and .rna.satfinite, fma.rn.relu on the four
  // half types and min/max.xorsign.abs (sm_90).
  rttest::check_prints_expected("relu_fp8_results", "-cudart shared -arch=sm_90",
                                {"--functional --no-summary --config h100", "--no-summary --config h100"});
}

TEST_CASE("programs: redux.sync, cooperative groups' reduce, dp4a and dp2a compute what an H200 computes") {
  REQUIRE_NVCC();
  // warp_reduce_results.expected is an H200's output: redux.sync with every operator over
  // full warps and divergent lanes, cg::reduce and __reduce_*_sync (which compile to
  // redux.sync on sm_80 and later), and dp4a/dp2a with every signedness (sm_90).
  rttest::check_prints_expected("warp_reduce_results", "-cudart shared -arch=sm_90",
                                {"--functional --no-summary --config h100", "--no-summary --config h100",
                                 "--functional --no-summary --config h100 --threads 2"});
}

TEST_CASE("programs: lop3, sad, per-byte vabsdiff4 and pmevent compute what an H200 computes") {
  REQUIRE_NVCC();
  // bit_ops_results.expected is an H200's output (752 cases): lop3 with all 256 tables,
  // sad on every type, __sad, __usad, vabsdiff4 per byte with every signedness,
  // __vabsdiffu4 and __vabsdiffs4, and a __prof_trigger on the way (sm_90).
  rttest::check_prints_expected("bit_ops_results", "-cudart shared -arch=sm_90",
                                {"--functional --no-summary --config h100", "--no-summary --config h100"});
}

TEST_CASE("programs: the 16-bit integer pairs and the SIMD/DPX intrinsics compute what an H200 computes") {
  REQUIRE_NVCC();
  // simd16_results.expected is an H200's output: add, min, max on .u16x2/.s16x2, min/max.relu
  // on .s16x2 and .s32, and __vadd2, __vsub2, __vmaxs2, __vminu2, __vabsdiffs2 and DPX
  // functions, which compile to them on sm_90.
  rttest::check_prints_expected("simd16_results", "-cudart shared -arch=sm_90",
                                {"--functional --no-summary --config h100", "--no-summary --config h100"});
}

TEST_CASE("programs: atomic adds on halves compute what an H200 computes") {
  REQUIRE_NVCC();
  // half_atomics_results.expected is an H200's output: atomicAdd on __half, __half2,
  // __nv_bfloat16 and __nv_bfloat162 (atom.add.noftz) and red.add.noftz.f16x2, in global
  // memory and (scalar __half) shared memory: ties, overflow, NaNs, signed zeros, subnormals.
  rttest::check_prints_expected("half_atomics_results", "-cudart shared -arch=sm_90",
                                {"--functional --no-summary --config h100", "--no-summary --config h100"});
}

TEST_CASE("programs: the PTX of ~250 CUDA math functions and intrinsics for sm_90 loads") {
  REQUIRE_NVCC();
  const std::string dir = std::string(WARPSIM_BINARY_DIR) + "/runtime_programs";
  const std::string ptx = dir + "/intrinsics_sink_sm90.ptx";
  auto b = rttest::shell(rttest::kNvcc + " -ptx -arch=sm_90 -o " + ptx + " " + WARPSIM_SOURCE_DIR +
                         "/tests/750_runtime/programs/intrinsics_sink.cu");
  INFO(b.err);
  REQUIRE(b.status == 0);
  auto r = rttest::shell(rttest::warpsim_bin() + " inspect " + ptx);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("does not load") == std::string::npos);
  CHECK(r.out.find("1 kernel") != std::string::npos);
}

TEST_CASE("programs: CUDA graphs, built by hand and by stream capture, print what an H200 prints") {
  REQUIRE_NVCC();
  // graphs.expected is the program's output on an H200: every call's result, the values the
  // graphs computed, the host nodes' sums, the updates and their errors.
  rttest::check_prints_expected("graphs");
}

TEST_CASE("programs: CUDA graphs inspected and edited after they are built print what an H200 prints") {
  REQUIRE_NVCC();
  // graph_editing.expected is an H200's output: node types, roots, edges and dependencies;
  // edges added (twice, to itself, from another graph) and removed; a node destroyed; each
  // kind's parameters read back and set in the graph and in an executable graph; nodes
  // disabled; a clone's nodes; instantiation with parameters, with a cycle, and its flags.
  auto runs = rttest::check_prints_expected("graph_editing");
  REQUIRE(!runs.empty());
  CHECK_THAT(runs[0].err, Catch::Contains("cudaGraphAddDependencies: edge 0") &&
                              Catch::Contains("is already in the graph"));
  CHECK_THAT(runs[0].err, Catch::Contains("cudaGraphNodeSetEnabled: ") &&
                              Catch::Contains("is a host node; only kernel, memcpy and memset nodes can be disabled"));
  CHECK_THAT(runs[0].err, Catch::Contains("cudaGraphInstantiate: the graph's dependencies form a cycle"));
}

TEST_CASE("programs: child graph nodes and event record and wait nodes print what an H200 prints") {
  REQUIRE_NVCC();
  // graph_child_event.expected is an H200's output: a child graph embedded as a copy, read
  // back and run in its parent (host node included), its instantiation given another child
  // of the same shape (and refused one of another), events recorded by nodes and timed,
  // their events read and set in the graph and in an executable graph, and a clone's child.
  const std::string app = rttest::build_program("graph_child_event");
  const std::string want = rttest::slurp(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/graph_child_event.expected");
  rttest::check_prints(app, {"--no-summary --config h100"}, want);
  // In functional mode no simulated time passes: the recorded events are 0 ms apart.
  std::string untimed = want;
  for (const std::string& s : {std::string("elapsed > 0: 1"), std::string("third after start: 1")})
    for (size_t at = untimed.find(s); at != std::string::npos; at = untimed.find(s, at + 1))
      untimed[at + s.size() - 1] = '0';
  auto runs = rttest::check_prints(app, {"--functional --no-summary"}, untimed);
  CHECK_THAT(runs[0].err, Catch::Contains("cudaGraphExecChildGraphNodeSetParams: graph ") &&
                              Catch::Contains("differs from the node's child graph in its nodes or dependencies"));
  CHECK_THAT(runs[0].err, Catch::Contains("cudaGraphEventRecordNodeGetEvent: ") &&
                              Catch::Contains("is an event wait node, not an event record node"));
}

TEST_CASE("programs: graph copies to and from __device__ and __constant__ variables print what an H200 prints") {
  REQUIRE_NVCC();
  // graph_symbol_copies.expected is an H200's output: memcpy nodes to and from variables made,
  // read back (a copy to the variable's address), run, set in the graph and in an executable
  // graph, and refused past a variable's end, the wrong way or for a non-variable.
  auto runs = rttest::check_prints_expected("graph_symbol_copies");
  REQUIRE(!runs.empty());
  CHECK_THAT(runs[0].err, Catch::Contains("cudaGraphAddMemcpyNodeToSymbol: 256 bytes at offset 4 exceed the 256-byte "
                                          "variable 'table'"));
  CHECK_THAT(runs[0].err, Catch::Contains("cudaGraphAddMemcpyNodeFromSymbol: kind must copy from the device"));
}

TEST_CASE("programs: cudaGraphAddNode of every node type and cudaGraph(Exec)NodeSetParams print what an H200 prints") {
  REQUIRE_NVCC();
  // graph_add_node.expected is an H200's output: memset, kernel, memcpy, host, event record
  // and wait, child graph (cloned and moved), memory allocation and free and empty nodes made
  // with cudaGraphAddNode and run; parameters set in the graph and in an executable graph.
  auto runs = rttest::check_prints_expected("graph_add_node");
  REQUIRE(!runs.empty());
  CHECK_THAT(runs[0].err, Catch::Contains("cudaGraphNodeSetParams: memory allocation nodes (type 10) are not "
                                          "supported here by warpsim"));
}

TEST_CASE("programs: a graph launched into a capturing stream invalidates the capture, as on an H200") {
  REQUIRE_NVCC();
  // capture_graph_launch.expected is an H200's output: cudaGraphLaunch in a capture is
  // cudaErrorStreamCaptureUnsupported, the next launch fails with
  // cudaErrorStreamCaptureInvalidated and so does cudaStreamEndCapture, with no graph.
  auto runs = rttest::check_prints_expected("capture_graph_launch");
  REQUIRE(!runs.empty());
  CHECK_THAT(runs[0].err, Catch::Contains("cudaGraphLaunch: a graph launch cannot be captured"));
  CHECK_THAT(runs[0].err, Catch::Contains("cudaStreamEndCapture: the stream's capture was invalidated by an earlier "
                                          "operation it could not capture"));
}

TEST_CASE("programs: zero-copy pinned host memory is read and written by kernels in place, as on the GPU") {
  REQUIRE_NVCC();
  // zero_copy.expected is an H200's output: cudaHostAlloc(Mapped), cudaMallocHost and
  // cudaHostRegister memory used by kernels without copies, device pointers, flags, pointer
  // attributes, cudaMemcpyDefault with pinned memory, and the error codes of misuse.
  rttest::check_prints_expected("zero_copy");
}

TEST_CASE("programs: malloc/free and new/delete in kernels behave as on the GPU") {
  REQUIRE_NVCC();
  // device_heap.expected is an H200's output: the heap limit, blocks that outlive their
  // launch, 16-byte alignment, malloc(0), exhaustion returning NULL and reuse after free.
  rttest::check_prints_expected("device_heap");
}

TEST_CASE("programs: peer copies on the one simulated device are device-to-device copies, as on a one-GPU machine") {
  REQUIRE_NVCC();
  // peer_copy.expected is an H200's output (one GPU): 0 -> 0 copies, other devices refused.
  rttest::check_prints_expected("peer_copy");
}

TEST_CASE("programs: stream-ordered allocation, memory pools and graph memory nodes, as on an H100") {
  REQUIRE_NVCC();
  // mem_pools.expected is an H100's output: cudaMallocAsync/cudaFreeAsync, the pools' used
  // and reserved bytes (32 MiB chunks), the release threshold at a synchronize, trimming,
  // reuse of a freed block, a created pool, graph allocation and free nodes, their relaunch
  // error, the device's graph-memory figures and a captured cudaMallocAsync/cudaFreeAsync.
  rttest::check_prints_expected("mem_pools");
}

TEST_CASE("programs: the driver API's stream-ordered allocation and memory pools, as on an H200") {
  REQUIRE_NVCC();
  // drv_mempool.expected is an H200's output (docs/measurements/h200_drv_mempool_2026-11-30.txt):
  // cuMemAllocAsync/cuMemFreeAsync from the default pool and a cuMemPoolCreate'd one, the
  // pools' figures, the device's current pool, one API's pools used by the other's calls,
  // and the driver's codes: CUDA_ERROR_NOT_INITIALIZED before cuInit, _INVALID_CONTEXT
  // without a context, _INVALID_DEVICE, _OUT_OF_MEMORY, _NOT_SUPPORTED for a read-only access
  // by the owning device, _INVALID_VALUE for the rest (a failed allocation's pointer is 0).
  rttest::check_prints_expected("drv_mempool", "-cudart shared -lcuda");
}

TEST_CASE("programs: cudaLaunchKernelEx with its attributes and errors, as on an H100") {
  REQUIRE_NVCC();
  // launch_ex.expected is an H100's output: launches with programmatic stream
  // serialization (what Thrust and CUB ask for), a priority and a carveout, the untyped
  // cudaLaunchKernelExC, and its error codes (which differ from cudaLaunchKernel's).
  rttest::check_prints_expected("launch_ex");
}

TEST_CASE("programs: programmatic dependent launch (griddepcontrol, sm_90) runs in order") {
  REQUIRE_NVCC();
  // The later -arch wins (nvcc warns): the PTX is sm_90's, with griddepcontrol.wait and
  // griddepcontrol.launch_dependents.
  const std::string app = rttest::build_program("pdl", "-cudart shared -arch=sm_90");
  rttest::check_prints(app, {"--functional --no-summary --config h100", "--no-summary --config h100"},
                       "cudaSuccess\ncudaSuccess\nq[10]=21 q[255]=511\n");
}

TEST_CASE("programs: cooperative launches and grid.sync(), as on an H200") {
  REQUIRE_NVCC();
  // grid_sync.expected is an H200's output: a three-phase grid reduction separated by
  // cooperative_groups' grid.sync() at 1 block, one per SM and the largest resident grid,
  // the launch one block too large (cudaErrorCooperativeLaunchTooLarge) and the cooperative
  // attribute of cudaLaunchKernelEx. Functional mode interleaves the blocks; timing mode has
  // them all resident.
  rttest::check_prints_expected("grid_sync");
}

TEST_CASE("programs: __managed__ variables are shared by the host and kernels as on an H200") {
  REQUIRE_NVCC();
  // managed_vars.expected is an H200's output: initialised and zero scalars, arrays and a
  // struct read and written by the host before, between and after launches, atomics on them,
  // the symbol calls (the variable's own address names it), plain copies and memsets, their
  // pointer attributes (managed) and cudaFree refusing one.
  rttest::check_prints_expected(
      "managed_vars", "-cudart shared",
      {"--functional --no-summary", "--no-summary --config h100", "--functional --no-summary --threads 2"});
  // inspect lists the module's variables (nvcc's printf strings left out).
  auto i = rttest::shell(rttest::warpsim_bin() + " inspect " + rttest::build_program("managed_vars"));
  CHECK(i.status == 0);
  CHECK_THAT(i.out, Catch::Contains("  module variables:\n"
                                    "    counter: .global 4 B, managed, initialised\n"
                                    "    vals: .global 32 B, managed, initialised\n"
                                    "    tally: .global 8 B, managed\n"
                                    "    big: .global 24 B, managed, initialised\n"
                                    "    plain: .global 4 B, initialised\n"));
  CHECK_THAT(i.out, !Catch::Contains("$str"));
}

TEST_CASE("programs: __managed__ variables keep their address and value across cudaDeviceReset as on an H200") {
  REQUIRE_NVCC();
  rttest::check_prints_expected("managed_reset");
}

TEST_CASE("programs: conditional graph nodes and capture into a graph, as on an H100") {
  REQUIRE_NVCC();
  // graph_conditional.expected is an H100's output (the same in seven runs): IF with one and
  // two bodies, SWITCH in and past its range, WHILE counting down on the device through
  // cudaGraphSetConditional, cudaGraphCondAssignDefault over repeated launches, a
  // conditional node added to a stream capture whose body is captured with
  // cudaStreamBeginCaptureToGraph, and the errors of bad node parameters.
  rttest::check_prints_expected("graph_conditional");
}

TEST_CASE("programs: tensor cores through wmma as on an H100") {
  REQUIRE_NVCC();
  // Built for sm_90 (bf16, tf32 and f64 wmma need sm_80). wmma_layout.expected is an H100's
  // output (tools/calibration/wmma_probe.sh): where every element of every fragment kind
  // comes from and where a store puts it; wmma_gemm.expected: GEMMs in every type and shape,
  // exact ones as checksums and random ones against a host reference.
  for (const char* name : {"wmma_layout", "wmma_gemm"}) {
    const std::string app = rttest::build_program(name, "-cudart shared -arch=sm_90");
    INFO(name);
    rttest::check_prints(app, {"--functional --no-summary --config h100", "--no-summary --config h100"},
                         rttest::slurp(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/" + std::string(name) + ".expected"));
  }
  // The C2070 has no tensor cores: each launch fails as CUDA fails a kernel built only for a
  // newer GPU (cudaErrorNoKernelImageForDevice from the launch, not sticky: the program,
  // which checks only cudaDeviceSynchronize, prints wrong results), and warpsim says why.
  auto r = exec("--functional --no-summary", rttest::build_program("wmma_gemm", "-cudart shared -arch=sm_90"));
  CHECK_THAT(r.out, Catch::StartsWith("f16->f32 16x16x16 B row      no error  checksum -226"));
  CHECK_THAT(r.err, Catch::Contains("no kernel image is available for execution on the device: kernel "
                                    "'_Z11gemm_globalILi16ELi16ELi16E6__halfS0_fN6nvcuda4wmma9row_majorEEvPKT2_S6_PT4_"
                                    "iiiS7_S7_' uses tensor cores (`wmma.load.a.sync.aligned.row.m16n16k16.global.f16") &&
                        Catch::Contains("which the Tesla C2070 (cc 2.0) does not have"));
}

TEST_CASE("programs: asynchronous copies to shared memory as on an H100") {
  REQUIRE_NVCC();
  // async_copy.expected is an H200's output (Hopper, sm_90; the same in three runs): a
  // double-buffered reduction through __pipeline_memcpy_async with wait_prior(1), and copies
  // that zero-fill their last bytes (cp.async with a src-size). nvcc compiles the zero-fill
  // switch with a trapping default, which must not move its reconvergence past the barrier.
  rttest::check_prints_expected("async_copy", "-cudart shared -arch=sm_90",
                                {"--functional --no-summary --config h100", "--no-summary --config h100"});
}

TEST_CASE("programs: mbarrier objects, bulk copies and cooperative-groups tiles as on an H200") {
  REQUIRE_NVCC();
  // mbarrier.expected is an H200's output (sm_90; the same in three runs): cuda::barrier
  // split into arrive and wait over several phases with arrive_and_drop, cuda::memcpy_async
  // completed by a barrier (bulk copies with transaction bytes, cp.async with
  // cp.async.mbarrier.arrive), a producer/consumer cuda::pipeline on mbarrier pairs, the raw
  // instructions (counts, test_wait.parity, pending_count, expect_tx/complete_tx,
  // noComplete), and cg::reduce over 64-thread tiles, whose scratch is the reserved shared
  // memory and whose warps wait for each other in a spin loop. Each result is also checked
  // against the host's computation by the program itself.
  rttest::check_prints_expected("mbarrier", "-cudart shared -arch=sm_90",
                                {"--functional --no-summary --config h100", "--no-summary --config h100",
                                 "--functional --no-summary --config h100 --threads 2",
                                 "--no-summary --config h100 --threads 2"});
}

TEST_CASE("programs: thread block clusters and distributed shared memory as on an H200") {
  REQUIRE_NVCC();
  // clusters.expected is an H200's output (the same in two runs): the cluster special
  // registers under __cluster_dims__, a 2x2 cluster given at launch and no cluster; a ring
  // exchange and a histogram through other blocks' shared memory (map_shared_rank, atomics
  // on it), the 32-bit shared::cluster window with the split barrier; the cluster fields of
  // cudaFuncGetAttributes; cudaErrorInvalidClusterSize for the shapes CUDA refuses; and
  // cudaOccupancyMaxActiveClusters / MaxPotentialClusterSize, which come from the GPCs of
  // configs/h100.json.
  rttest::check_prints_expected("clusters", "-cudart shared -arch=sm_90",
                                {"--functional --no-summary --config h100", "--no-summary --config h100",
                                 "--functional --no-summary --config h100 --threads 2"});
  // The C2070 has no clusters: every launch in clusters is refused, and says why (the
  // launch's error is cudaGetLastError's, not cudaDeviceSynchronize's: nothing ran).
  auto r = exec("--functional --no-summary", rttest::build_program("clusters", "-cudart shared -arch=sm_90"));
  CHECK_THAT(r.out, Catch::StartsWith("cluster launch supported: 0\nwhere_fixed<<<(4,2), 32>>>: cudaSuccess\n"
                                      "where_fixed, __cluster_dims__(2,1,1)\n  block  0: rank -1 of -1,"));
  CHECK_THAT(r.out, Catch::Contains("where_any, grid (4,4), cluster (2,2): cudaErrorInvalidClusterSize\n"));
  CHECK_THAT(r.err, Catch::Contains("has no thread block clusters (cc 9.0 and later; --config h100)"));
}

TEST_CASE("programs: graph kernel nodes' and streams' launch attributes, and user objects, as on an H200") {
  REQUIRE_NVCC();
  // graph_node_attributes.expected: an H200's output, two runs alike
  // (docs/measurements/h200_graph_node_attributes_2026-12-01.txt). A kernel node made
  // cooperative runs grid.sync(), one given a cluster shape runs in clusters of it; a
  // window, a priority (clamped) and copied attributes read back; stream attributes and
  // their copy (window, synchronization policy, priority); user objects' references held by
  // the program, a graph, its clone and its instantiation, the destructor run after the last.
  rttest::check_prints_expected("graph_node_attributes", "-cudart shared -arch=sm_90",
                                {"--functional --no-summary --config h100", "--no-summary --config h100",
                                 "--functional --no-summary --config h100 --threads 2"});
  // The C2070 has neither windows nor clusters nor stream priorities: those calls are
  // refused, and say why, and the rest prints as on the GPU.
  auto r = exec("--functional --no-summary", rttest::build_program("graph_node_attributes", "-cudart shared -arch=sm_90"));
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("grid_sum through grid.sync(): 6138 (want 6138)\n"));
  CHECK_THAT(r.out, Catch::Contains("cudaGraphLaunch(e, 0)                                            "
                                    "cudaErrorInvalidClusterSize\n"));
  CHECK_THAT(r.out, Catch::Contains("destroyed after the executable graph: 1\n"));
  CHECK_THAT(r.out, Catch::Contains("destroyed at the end: 3\n"));
  CHECK_THAT(r.err, Catch::Contains("an access policy window of 8192 bytes (the device's accessPolicyMaxWindowSize is 0)"));
  CHECK_THAT(r.err, Catch::Contains("has no thread block clusters (cc 9.0 and later; --config h100)"));
}

TEST_CASE("programs: managed memory's advice, batched copies and prefetches, array copies and peers, as on an H200") {
  REQUIRE_NVCC();
  // memory_advice_batches.expected: an H200's output, two runs alike
  // (docs/measurements/h200_memory_advice_batches_2026-12-01.txt). Advice kept per 4 KB
  // page and read back for whole ranges and parts of them; the last prefetch location,
  // also from a batch; cudaMemcpyBatchAsync's copies and refusals; cudaMemcpyArrayToArray
  // across rows; the linear texture width; peer access and cudaSetValidDevices with one GPU.
  rttest::check_prints_expected("memory_advice_batches", "-cudart shared",
                                {"--functional --no-summary --config h100", "--no-summary --config h100",
                                 "--functional --no-summary --config h100 --threads 2"});
  // The C2070 prints the same but for the linear texture width, which is known here for
  // cc 9.0 only: asking is cudaErrorNotSupported, and says so.
  auto r = exec("--functional --no-summary", rttest::build_program("memory_advice_batches", "-cudart shared"));
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("  accessed by, host too: -1 -2 -2\n"));
  CHECK_THAT(r.out, Catch::Contains("  b[0] 0 b[1023] 2046, c[0] 512 c[511] 1023\n"));
  CHECK_THAT(r.out, Catch::Contains("cudaDeviceGetTexture1DLinearMaxWidth(&width, &f, 0)                      "
                                    "cudaErrorNotSupported\n"));
  CHECK_THAT(r.err, Catch::Contains("known for cc 9.0 only (an H200's answers); the Tesla C2070 is cc 2.0"));
}

TEST_CASE("programs: what each stream capture mode forbids, on this thread and another, as on an H200") {
  REQUIRE_NVCC();
  // capture_modes.expected: an H200's output, two runs alike
  // (docs/measurements/h200_capture_modes_2026-12-01.txt): 18 calls made during a global,
  // thread-local and relaxed capture, on the capturing thread and another; the refused
  // ones return cudaErrorStreamCaptureUnsupported and invalidate the capture;
  // cudaThreadExchangeStreamCaptureMode, and a thread switched to relaxed for its call.
  rttest::check_prints_expected("capture_modes");
}

TEST_CASE("programs: texture faults and refusals name the object and the thread") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("texture_faults");
  auto r = exec("--functional --no-summary", app);
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out ==
        "linear filter on int: cudaErrorInvalidFilterSetting\n"
        "destroyed object: cudaErrorIllegalAddress\n"
        "after reset: cudaSuccess\n"
        "surface trap: cudaErrorIllegalAddress\n");
  CHECK_THAT(r.err, Catch::Contains("tex through texture object 1 (destroyed before this launch)") &&
                        Catch::Contains("in kernel '_Z5readyyPf'"));
  CHECK_THAT(r.err, Catch::Contains("sust out of range: x = 64 bytes, y = 0 on a surface of 16x2x1 texels of 4 bytes"));
}

TEST_CASE("programs: bar.red, carry arithmetic, function pointers and virtual calls compiled by nvcc") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("ptx_extras");
  rttest::check_prints(app, {"--functional --no-summary", "--no-summary"},
                       "syncthreads_count/and/or: 0 wrong\n"
                       "carry arithmetic: 0 wrong\n"
                       "sin of large arguments: 0 wrong\n"
                       "function pointers and virtual calls: 0 wrong (cudaSuccess)\n"
                       "PASS\n");
}

TEST_CASE("programs: shared-memory limits, the opt-in and the L1/shared preferences, as on an H100") {
  REQUIRE_NVCC();
  // carveout_calls.expected is the H100's output: the 48 KB per-block limit and its opt-in,
  // the errors past them, the carveout attribute, the cache configurations and the
  // occupancy API under each preference.
  const std::string app = rttest::build_program("carveout_calls");
  const std::string dir = std::string(WARPSIM_BINARY_DIR) + "/runtime_programs/";
  auto h = exec("--config h100 --no-summary --json " + dir + "carveout_h100.json", app);
  INFO(h.err);
  CHECK(h.status == 0);
  CHECK(h.out == rttest::slurp(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/carveout_calls.expected"));
  // The split of each launch is the one the H100's driver chose for it (ncu's
  // launch__shared_mem_config_size, docs/measurements/h100_carveout_calls_ncu.csv).
  // The last launch follows cudaDeviceReset, which keeps the kernel's carveout of 25 %.
  const uint32_t h100_kb[] = {196, 228, 32, 228, 32, 132, 32, 228, 32, 100};
  auto launches = nlohmann::json::parse(rttest::slurp(dir + "carveout_h100.json"))["launches"];
  REQUIRE(launches.size() == 10);
  for (size_t i = 0; i < 10; ++i) {
    INFO("launch " << i);
    CHECK(launches[i]["occupancy"]["shared_memory_per_sm"] == h100_kb[i] * 1024);
    CHECK(launches[i]["l1_bytes"] == (256 - h100_kb[i]) * 1024);
  }
  // The C2070: 48 KB per block with nothing to opt into, 48 KB shared / 16 KB L1 unless
  // PreferL1 (the function's or the device's) gives 16 / 48.
  auto f = exec("--functional --no-summary --json " + dir + "carveout_c2070.json", app);
  CHECK(f.status == 0);
  CHECK_THAT(f.out, Catch::Contains("sharedMemPerBlock 49152 optin 49152 per SM 49152 reserved 0\n"));
  CHECK_THAT(f.out, Catch::Contains("max dynamic 65536: cudaErrorInvalidValue\nmax dynamic 48128: cudaSuccess\n"));
  CHECK_THAT(f.out, Catch::Contains("occupancy (none) 32 threads 16384 dynamic: cudaSuccess 3 blocks\n"));
  CHECK_THAT(f.out, Catch::Contains("occupancy (PreferL1) 32 threads 0 dynamic: cudaSuccess 8 blocks\n"));
  CHECK_THAT(f.out, Catch::Contains("occupancy (PreferL1) 32 threads 20480 dynamic: cudaSuccess 2 blocks\n"));
  CHECK_THAT(f.err, Catch::Contains("launch of _Z11with_staticPi: 49152 bytes of dynamic shared memory exceed its "
                                    "limit of 48128"));
  CHECK_THAT(f.out, Catch::Contains("device cache config after reset 0\n"));
  // The C2070's opt-in stops at 48 KB, so the 64 KB launch after the reset is refused.
  CHECK_THAT(f.out, Catch::Contains("launch with 65536 dynamic bytes: cudaErrorInvalidValue"));
  launches = nlohmann::json::parse(rttest::slurp(dir + "carveout_c2070.json"))["launches"];
  REQUIRE(launches.size() == 9);
  for (size_t i = 0; i < 9; ++i) {
    INFO("launch " << i);
    const bool prefer_l1 = i == 6 || i == 8;
    CHECK(launches[i]["occupancy"]["shared_memory_per_sm"] == (prefer_l1 ? 16 : 48) * 1024);
    CHECK(launches[i]["l1_bytes"] == (prefer_l1 ? 48 : 16) * 1024);
  }
}

TEST_CASE("programs: L2 access control keeps persisting lines and evicts streaming ones first") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("l2_access", "-cudart shared -arch=sm_90");
  const std::string dir = std::string(WARPSIM_BINARY_DIR) + "/runtime_programs/";
  // The second read of the 4 MB hot buffer after 128 MB streamed through the 50 MB L2:
  // kept where the stream was streaming; kept in part where persisting (the stream's
  // window, or the first read's own launch window: the config's persisting_kept_share,
  // 0.24, of the lines; all of them with a share of 1, as documented); gone without a
  // window and after the reset.
  const std::vector<std::pair<std::string, int>> cases = {
      {"none", 0}, {"persist", 24}, {"streaming", 100}, {"reset", 0}, {"launch", 24}, {"persist --set l2.persisting_kept_share=1", 100}};
  for (const auto& [name_and_set, kept] : cases) {
    const std::string name = name_and_set.substr(0, name_and_set.find(' '));
    const std::string set = name_and_set.size() > name.size() ? name_and_set.substr(name.size()) : "";
    INFO("case " << name_and_set);
    const std::string json = dir + "l2_access_" + name + std::to_string(kept) + ".json";
    auto r = exec("--functional --no-summary --config h100" + set + " --json " + json, app, name);
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::StartsWith("persistingL2CacheMaxSize 32768000 (attribute 32768000), "
                                        "accessPolicyMaxWindowSize 134217728 (attribute 134217728)\n"
                                        "set limit twice the maximum: cudaSuccess\nlimit 32768000\n"
                                        "window past the maximum: cudaErrorInvalidValue\n"
                                        "hitRatio 1.5: cudaErrorInvalidValue\n"
                                        "missProp persisting: cudaErrorInvalidValue\n"));
    CHECK_THAT(r.out, Catch::EndsWith("synchronize: cudaSuccess\n"));
    if (name == "persist" || name == "reset")
      CHECK_THAT(r.out, Catch::Contains("persisting window: cudaSuccess\n"
                                        "get window: cudaSuccess\nwindow 4194304 bytes, hitRatio 1.00, hitProp 2, "
                                        "missProp 1\n"));
    if (name == "none" || name == "launch")
      CHECK_THAT(r.out, Catch::Contains("window 0 bytes, hitRatio 0.00, hitProp 0, missProp 0\n"));
    CHECK_THAT(r.err, Catch::Contains("cudaStreamSetAttribute: an access policy window of 134217729 bytes (the "
                                      "device's accessPolicyMaxWindowSize is 134217728)"));
    auto launches = nlohmann::json::parse(rttest::slurp(json))["launches"];
    REQUIRE(launches.size() == 3);
    const double reread = launches[2]["metrics"]["l2_read_hit_rate"].get<double>();
    CHECK(reread > kept - 5.0);
    CHECK(reread < kept + 5.0);
  }
}
