// Programs built for CUDA 12's runtime (libcudart.so.12): nvcc 13 compiles them here and
// links them against warpsim's libcudart.so.12, so they call it by CUDA 12's names and
// versioned symbols, as a program built by nvcc 12 with -cudart shared does.
#include <filesystem>
#include <fstream>

#include "program_runner.hpp"

using rttest::exec;

TEST_CASE("programs: a CUDA 12 program gets CUDA 12's layouts and names from libcudart.so.12") {
  REQUIRE_NVCC();
  const std::string lib = std::string(WARPSIM_BINARY_DIR) + "/lib";
  const std::string app = rttest::build_program("cuda12_abi", "-cudart none -L" + lib + " -l:libcudart.so.12");
  // Linked as CUDA 12 links: its runtime symbols carry libcudart.so.12's version node.
  auto syms = rttest::shell("nm -D --undefined-only " + app);
  REQUIRE(syms.status == 0);
  CHECK_THAT(syms.out, Catch::Contains("cudaGetDeviceProperties_v2@libcudart.so.12") &&
                           Catch::Contains("cudaStreamGetCaptureInfo_v2@libcudart.so.12") &&
                           Catch::Contains("__cudaRegisterFatBinary@libcudart.so.12"));
  CHECK_THAT(syms.out, !Catch::Contains("libcudart.so.13"));
  // The device's numbers land in CUDA 12's fields (clockRate and memoryClockRate, which
  // CUDA 13 dropped, from the config: 1980 MHz, HBM3 at 2619 MHz), the shorter structs get
  // no byte past their end, and the capture and graph calls without edge data work.
  rttest::check_prints_expected("cuda12_abi", "-cudart none -L" + lib + " -l:libcudart.so.12",
                                {"--functional --no-summary --config h100", "--no-summary --config h100"});
}

TEST_CASE("programs: a program linked against a runtime warpsim does not stand in for is refused naming it") {
  // A library with CUDA 11's soname and a program that needs it (no CUDA code: the check
  // reads the program's dynamic section before anything runs).
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(WARPSIM_BINARY_DIR) / "runtime_programs" / "cudart11";
  fs::create_directories(dir);
  std::ofstream(dir / "lib.c") << "int cudaMalloc(void** p, unsigned long n) { (void)p; (void)n; return 0; }\n";
  std::ofstream(dir / "main.c")
      << "int cudaMalloc(void**, unsigned long);\nint main(void) { void* p; return cudaMalloc(&p, 4); }\n";
  const std::string d = dir.string();
  auto b = rttest::shell("cc -shared -fPIC -Wl,-soname,libcudart.so.11.0 -o " + d + "/libcudart.so.11.0 " + d +
                         "/lib.c && cc -o " + d + "/app " + d + "/main.c " + d + "/libcudart.so.11.0");
  INFO(b.err);
  REQUIRE(b.status == 0);
  auto r = exec("--functional", d + "/app");
  CHECK(r.status != 0);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::Contains("is linked against libcudart.so.11.0; warpsim's runtimes stand in for "
                                    "libcudart.so.12 and libcudart.so.13"));
}
