// Programs with relocatable device code (nvcc -rdc=true): dynamic parallelism (kernels that
// launch kernels, the device runtime's streams, copies and queries) and device code linked
// from several units, built by nvcc and run under `warpsim exec`, against an H200's output.
#include <filesystem>
#include <fstream>

#include "program_runner.hpp"

using rttest::exec;

namespace {
const std::string kRdc = "-cudart shared -rdc=true -lcudadevrt";  // nvcc's flags for these programs
}  // namespace

TEST_CASE("programs: dynamic parallelism (kernels launching kernels, -rdc=true) as on an H200") {
  REQUIRE_NVCC();
  // dynamic_parallelism.expected is an H200's output (tools/runtime/ground_truth.sh): one
  // child per block, a block's NULL stream in order across its warps, a tail launch after
  // the whole grid, 2048 nested grids and the 2049th refused (the pending-launch limit),
  // launch errors returned to the launching thread only, device-side streams, cudaMalloc,
  // cudaMemcpyAsync and cudaFree, a recursive quicksort on streams, and device error strings.
  rttest::check_prints_expected("dynamic_parallelism", kRdc,
                                {"--functional --no-summary", "--no-summary --config h100",
                                 "--functional --no-summary --config h100 --threads 2"});
  // The exit summary counts the grids the device launched with the host's: 3 + 2 + 1 +
  // 2048 + 0 + 2 + the quicksort's + 1 launches of the children's kernels.
  auto r = exec("--functional --config h100", rttest::build_program("dynamic_parallelism", kRdc));
  CHECK(r.status == 0);
  CHECK_THAT(r.err, Catch::Contains("fill") && Catch::Contains("nest") && Catch::Contains("quicksort"));
  CHECK_THAT(r.err, Catch::Matches("(.|\n)*\n==warpsim== +2049 +[^\n]*nest\\(int(.|\n)*"));
}

TEST_CASE("programs: kernels' device-runtime queries answer as the host's calls do, as on an H200") {
  REQUIRE_NVCC();
  // device_queries.expected is an H200's output: cudaDeviceGetAttribute, cudaDeviceGetLimit,
  // the cache and bank configurations, cudaGetDeviceCount, cudaFuncGetAttributes (its first
  // seven fields) and the occupancy calls in a kernel, each against the host's answer, before
  // and after the host changes the settings; attribute 0 and another device's attribute are 0,
  // a block of 0 threads is cudaErrorInvalidValue with 0 written, and a query about an
  // address that is no kernel faults the kernel (cudaErrorIllegalAddress).
  for (const auto& r : rttest::check_prints_expected("device_queries", kRdc + " -diag-suppress 1215")) {
    CHECK_THAT(r.err, Catch::Contains("cudaFuncGetAttributes: 0x1234 is not the address of a kernel of this module") &&
                          Catch::Contains("kernel '_Z9bad_queryPKv', block (0,0,0), thread (0,0,0)"));
  }
}

TEST_CASE("programs: kernels' 2D and 3D copies and sets run as on an H200") {
  REQUIRE_NVCC();
  // device_copies_2d.expected is an H200's output: cudaMemcpy2DAsync between pitches,
  // cudaMemset2DAsync (zeros, whatever the value, as the 1D set), cudaMemcpy3DAsync with
  // positions in both volumes, cudaMemset3DAsync, in the NULL stream and a created one, and
  // the refusals of a row wider than its pitch and of a host-to-device kind.
  for (const auto& r : rttest::check_prints_expected("device_copies_2d", kRdc)) {
    CHECK_THAT(r.err, Catch::Contains("cudaMemset2DAsync in a kernel (kernel _Z6copies") &&
                          Catch::Contains("writes zeros, not 0x5b"));
  }
}

TEST_CASE("programs: dynamic parallelism built with --default-stream per-thread") {
  REQUIRE_NVCC();
  // nvcc then calls the _ptsz forms (launch, event record, stream wait, copy): a child's
  // writes, then a copy of them in the same thread's stream, then a created stream waiting on
  // an event. What an H200 prints (docs/measurements/h200_cdp_ptsz_2026-11-28.txt).
  const char* source =
      "#include <cstdio>\n"
      "__global__ void child(int* p) { p[threadIdx.x] = threadIdx.x + 1; }\n"
      "__global__ void parent(int* p) {\n"
      "  child<<<1, 4>>>(p);\n"
      "  cudaEvent_t e; cudaEventCreateWithFlags(&e, cudaEventDisableTiming);\n"
      "  cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);\n"
      "  cudaMemcpyAsync(p + 4, p, 16, cudaMemcpyDeviceToDevice, 0);\n"
      "  cudaEventRecord(e, 0);\n"
      "  cudaStreamWaitEvent(s, e, 0);\n"
      "  cudaMemcpyAsync(p + 8, p + 4, 16, cudaMemcpyDeviceToDevice, s);\n"
      "  p[15] = cudaGetLastError();\n"
      "}\n"
      "int main() { int* p; cudaMallocManaged(&p, 64); for (int i = 0; i < 16; ++i) p[i] = -1;\n"
      "  parent<<<1, 1>>>(p); printf(\"%s\\n\", cudaGetErrorName(cudaDeviceSynchronize()));\n"
      "  for (int i = 0; i < 16; ++i) printf(\"%d \", p[i]); printf(\"\\n\"); return 0; }\n";
  const std::string app = rttest::build_sources("rdc_ptsz", {{"ptsz.cu", source}}, kRdc + " --default-stream per-thread");
  rttest::check_prints(app, {"--functional --no-summary", "--no-summary --config h100"},
                       "cudaSuccess\n1 2 3 4 1 2 3 4 1 2 3 4 -1 -1 -1 0 \n");
}

TEST_CASE("programs: a copy a kernel asks for outside device memory is a fault naming the thread") {
  REQUIRE_NVCC();
  const char* source =
      "#include <cstdio>\n"
      "__global__ void k(int* d) { if (threadIdx.x == 3) cudaMemcpyAsync(d, (int*)0x10, 64, "
      "cudaMemcpyDeviceToDevice, 0); }\n"
      "int main() { int* d; cudaMalloc(&d, 64); k<<<1, 4>>>(d);\n"
      "  printf(\"%s\\n\", cudaGetErrorName(cudaDeviceSynchronize())); return 0; }\n";
  const std::string app = rttest::build_sources("rdc_bad_copy", {{"bad_copy.cu", source}}, kRdc);
  auto r = exec("--functional --no-summary", app);
  CHECK(r.status == 0);
  CHECK(r.out == "cudaErrorIllegalAddress\n");
  CHECK_THAT(r.err, Catch::Contains("cudaMemcpyAsync in a kernel (kernel _Z1kPi, block (0,0,0), thread (3,0,0))"));
}

TEST_CASE("programs: device code in several translation units (-rdc=true) is linked as nvlink links it") {
  REQUIRE_NVCC();
  // Two .cu files with relocatable device code: a device function and a __device__ variable
  // of the other unit, a kernel launched (from a kernel) across units, a static function and a
  // printf string in each (same names: renamed in one), and an inline function both compiled
  // (.weak: kept once). Each unit's own -lineinfo file is kept for its fault messages.
  const std::string app = rttest::build_sources(
      "rdc_two_units",
      {{"common.h",
        "inline __device__ int plus_one(int x) { return x + 1; }\n"
        "__device__ int twice(int x);\n"
        "extern __device__ int scale;\n"
        "__global__ void in_b(int* p);\n"},
       {"a.cu",
        "#include <cstdio>\n#include \"common.h\"\n"
        "static __device__ int local_fn(int x) { return x * 3; }\n"
        "__global__ void k(int* p) { p[0] = twice(21); p[1] = plus_one(local_fn(scale));\n"
        "  printf(\"a: %d\\n\", p[0]); in_b<<<1, 1>>>(p); }\n"
        "__global__ void bad(int* p) { p[1 << 28] = 1; }\n"
        "int main() { int* d; cudaMalloc(&d, 16); k<<<1, 1>>>(d);\n"
        "  if (cudaDeviceSynchronize() != cudaSuccess) return 3;\n"
        "  int h[4]; cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);\n"
        "  printf(\"%d %d %d\\n\", h[0], h[1], h[2]);\n"
        "  bad<<<1, 1>>>(d); return cudaDeviceSynchronize() == cudaSuccess ? 0 : 4; }\n"},
       {"b.cu",
        "#include <cstdio>\n#include \"common.h\"\n"
        "__device__ int scale = 5;\n"
        "static __device__ int local_fn(int x) { return x * 7; }\n"
        "__device__ int twice(int x) { return 2 * x; }\n"
        "__global__ void in_b(int* p) { p[2] = plus_one(local_fn(2)); printf(\"b: %d\\n\", p[2]); }\n"}},
      kRdc + " -lineinfo");
  for (const auto& r : rttest::check_prints(app, {"--functional --no-summary", "--no-summary --config h100"},
                                            "a: 42\nb: 15\n42 16 15\n", "", 4)) {
    CHECK_THAT(r.err, Catch::Contains("kernel fault") && Catch::Contains("a.cu:6"));
  }
  // warpsim inspect lists the linked module's kernels (the program's own fatbinary is nvlink's machine code).
  auto r = rttest::shell(rttest::warpsim_bin() + " inspect " + app);
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("relocatable device code (-rdc=true)") && Catch::Contains("3 kernels") &&
                        Catch::Contains("in_b(int*)") && Catch::Contains("bad(int*)"));
}
