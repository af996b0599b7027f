// The driver API: modules the program loads itself (the Runtime's side, without nvcc),
// a driver-API program built by nvcc against an H100's output, and the exports of
// warpsim's libcuda.so.1 and libcudart.so.13 against NVIDIA's.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "error_code.hpp"
#include "fatbin_builder.hpp"
#include "program_runner.hpp"
#include "runtime_options.hpp"
#include "sim/runtime/runtime.hpp"

using namespace warpsim;
using namespace warpsim::runtime;
using rttest::code_of;

namespace {

// A kernel that reads a module variable, for cuModuleGetGlobal.
const char* kBumpPtx = R"(.version 7.0
.target sm_75
.address_size 64
.global .align 4 .u32 counter = 7;
.visible .entry bump(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.u32 %r1, [counter];
  add.s32 %r2, %r1, 1;
  st.global.u32 [%rd2], %r2;
  ret;
}
)";

uint32_t run_bump(Runtime& rt, void* function) {
  void* out = rt.malloc(4);
  void* args[] = {&out};
  rt.launch(function, {1, 1, 1}, {32, 1, 1}, args, 0, nullptr);
  uint32_t v = 0;
  rt.memcpy(&v, out, 4, cuda::DeviceToHost, "t");
  return v;
}

}  // namespace

TEST_CASE("driver: a module from PTX text with its function and its variable") {
  Runtime rt(rttest::functional_options());
  void* m = rt.load_module(kBumpPtx, "bump.ptx", "cuModuleLoadData");
  void* f = rt.module_function(m, "bump", "cuModuleGetFunction");
  CHECK(rt.module_function(m, "bump", "cuModuleGetFunction") == f);  // the same handle
  CHECK(run_bump(rt, f) == 8);
  auto [address, size] = rt.module_global(m, "counter", "cuModuleGetGlobal");
  CHECK(size == 4);
  const uint32_t v = 41;
  rt.memcpy(reinterpret_cast<void*>(address), &v, 4, cuda::HostToDevice, "t");
  CHECK(run_bump(rt, f) == 42);
  cuda::FuncAttributes attr{};
  rt.func_attributes(&attr, f);
  CHECK(attr.maxThreadsPerBlock == 1024);
  // CUDA's search on the C2070 (1536 threads per SM): 768-thread blocks fill it twice.
  auto [grid, block] = rt.max_potential_block_size(f, [](int) { return uint64_t(0); }, 0);
  CHECK(block == 768);
  CHECK(grid == 2 * 14);
  // Limited to 500 threads: 500 (3 blocks, 1500 threads) down to 384 (4 blocks, 1536).
  std::tie(grid, block) = rt.max_potential_block_size(f, [](int) { return uint64_t(0); }, 500);
  CHECK(block == 384);
  CHECK(grid == 4 * 14);
}

TEST_CASE("driver: a module's __managed__ variable is host memory at its device address") {
  const char* ptx = R"(.version 7.0
.target sm_75
.address_size 64
.global .attribute(.managed) .align 4 .u32 counter = 7;
.visible .entry bump()
{
  .reg .b32 %r<3>;
  ld.global.u32 %r1, [counter];
  add.s32 %r2, %r1, 1;
  st.global.u32 [counter], %r2;
  ret;
}
)";
  Runtime rt(rttest::functional_options());
  void* m = rt.load_module(ptx, "managed.ptx", "cuModuleLoadData");
  void* f = rt.module_function(m, "bump", "cuModuleGetFunction");
  auto [address, size] = rt.module_global(m, "counter", "cuModuleGetGlobal");
  CHECK(size == 4);
  auto* host = reinterpret_cast<volatile uint32_t*>(address);
  CHECK(*host == 7);  // the initial value, readable by the host at the device address
  *host = 40;
  rt.launch(f, {1, 1, 1}, {1, 1, 1}, nullptr, 0, nullptr);
  CHECK(*host == 41);  // the kernel saw the host's write and the host sees the kernel's
  CHECK(code_of([&] { rt.free(reinterpret_cast<void*>(address)); }) == cuda::ErrorInvalidValue);
  CHECK(*host == 41);
  // A device reset keeps it where it was, with its value (as an H200 does).
  rt.reset();
  CHECK(rt.module_global(m, "counter", "cuModuleGetGlobal").first == address);
  CHECK(*host == 41);
  rt.launch(rt.module_function(m, "bump", "cuModuleGetFunction"), {1, 1, 1}, {1, 1, 1}, nullptr, 0, nullptr);
  CHECK(*host == 42);
}

TEST_CASE("driver: only .global variables can be managed and .managed is the only attribute") {
  Runtime rt(rttest::functional_options());
  const std::string head = ".version 7.0\n.target sm_75\n.address_size 64\n";
  auto message = [&](const std::string& decl) {
    try {
      rt.load_module((head + decl).c_str(), "bad.ptx", "cuModuleLoadData");
    } catch (const ApiError& e) {
      CHECK(e.code() == cuda::ErrorInvalidPtx);
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  CHECK_THAT(message(".const .attribute(.managed) .u32 c;\n"),
             Catch::Contains("bad.ptx:4") && Catch::Contains("only .global variables can be .managed"));
  CHECK_THAT(message(".global .attribute(.unified(1, 2)) .u32 u;\n"),
             Catch::Contains("bad.ptx:4: unsupported PTX") && Catch::Contains("variable attribute .unified"));
}

TEST_CASE("driver: the same module from a fatbinary and from nvcc's wrapper of one") {
  Runtime rt(rttest::functional_options());
  const auto image = rttest::make_fatbin({{2, 75, "", std::string(64, 'E')}, {1, 75, "zstd", kBumpPtx}});
  void* m = rt.load_module(image.data(), "bump.fatbin", "cuModuleLoadData");
  CHECK(run_bump(rt, rt.module_function(m, "bump", "t")) == 8);
  cuda::FatbinWrapper wrapper{};
  wrapper.magic = cuda::kFatbinWrapperMagic;
  wrapper.version = 1;
  wrapper.data = reinterpret_cast<const unsigned long long*>(image.data());
  void* m2 = rt.load_module(&wrapper, "wrapped", "cuModuleLoadFatBinary");
  CHECK(m2 != m);
  CHECK(run_bump(rt, rt.module_function(m2, "bump", "t")) == 8);
}

TEST_CASE("driver: images warpsim cannot run get the driver's codes") {
  Runtime rt(rttest::functional_options());
  // A cubin and a fatbinary of SASS only: no image for the simulated device.
  const char cubin[] = "\x7f" "ELF\x02\x01\x01 rest of a cubin";
  CHECK(code_of([&] { rt.load_module(cubin, "k.cubin", "cuModuleLoadData"); }) == cuda::ErrorNoKernelImageForDevice);
  const auto sass_only = rttest::make_fatbin({{2, 90, "", std::string(64, 'E')}});
  CHECK(code_of([&] { rt.load_module(sass_only.data(), "k.fatbin", "cuModuleLoadData"); }) ==
        cuda::ErrorNoKernelImageForDevice);
  CHECK(code_of([&] { rt.load_module("hello, world", "k", "cuModuleLoadData"); }) == cuda::ErrorInvalidKernelImage);
  CHECK(code_of([&] { rt.load_module("", "k", "cuModuleLoadData"); }) == cuda::ErrorInvalidKernelImage);
  CHECK(code_of([&] { rt.load_module("ab", "k", "cuModuleLoadData"); }) == cuda::ErrorInvalidKernelImage);
  cuda::FatbinWrapper empty{};
  empty.magic = cuda::kFatbinWrapperMagic;
  CHECK(code_of([&] { rt.load_module(&empty, "k", "cuModuleLoadFatBinary"); }) == cuda::ErrorInvalidKernelImage);
  CHECK(code_of([&] { rt.load_module(nullptr, "k", "cuModuleLoadData"); }) == cuda::ErrorInvalidValue);
  const std::string broken = std::string(kBumpPtx).replace(std::string(kBumpPtx).find("add.s32"), 7, "frobnicate");
  try {
    rt.load_module(broken.c_str(), "broken.ptx", "cuModuleLoadData");
    FAIL("broken PTX loaded");
  } catch (const ApiError& e) {
    CHECK(e.code() == cuda::ErrorInvalidPtx);
    CHECK_THAT(e.what(), Catch::Contains("broken.ptx:12: unsupported PTX"));
  }
  CHECK(code_of([&] { rt.load_module_file("/no/such/file.ptx", "cuModuleLoad"); }) == cuda::ErrorFileNotFound);
}

TEST_CASE("driver: names that are not there and an unloaded module's handles") {
  Runtime rt(rttest::functional_options());
  void* m = rt.load_module(kBumpPtx, "bump.ptx", "cuModuleLoadData");
  try {
    rt.module_function(m, "bum", "cuModuleGetFunction");
    FAIL("found a kernel that is not there");
  } catch (const ApiError& e) {
    CHECK(e.code() == cuda::ErrorSymbolNotFound);
    CHECK_THAT(e.what(), Catch::Contains("it has: bump"));
  }
  CHECK(code_of([&] { rt.module_global(m, "count", "cuModuleGetGlobal"); }) == cuda::ErrorSymbolNotFound);
  void* f = rt.module_function(m, "bump", "cuModuleGetFunction");
  rt.unload_module(m, "cuModuleUnload");
  CHECK(code_of([&] { rt.unload_module(m, "cuModuleUnload"); }) == cuda::ErrorInvalidResourceHandle);
  CHECK(code_of([&] { rt.module_function(m, "bump", "cuModuleGetFunction"); }) == cuda::ErrorInvalidResourceHandle);
  CHECK(code_of([&] { run_bump(rt, f); }) == cuda::ErrorInvalidDeviceFunction);
  int not_a_module = 0;
  CHECK(code_of([&] { rt.module_function(&not_a_module, "bump", "t"); }) == cuda::ErrorInvalidResourceHandle);
}

TEST_CASE("driver: a library loads at first use, and its kernel handles stand for its functions") {
  Runtime rt(rttest::functional_options());
  // PTX text, copied at load: the program may free it.
  std::string text = kBumpPtx;
  void* lib = rt.load_library(text.c_str(), "cuLibraryLoadData");
  text.assign(text.size(), ' ');
  CHECK(rt.library_kernel_count(lib, "t") == 1);
  void* k = rt.library_kernel(lib, "bump", "cuLibraryGetKernel");
  void* f = rt.kernel_function(k, "cuKernelGetFunction");
  CHECK(k != f);  // distinct handles, as CUDA's CUkernel and CUfunction
  CHECK(rt.library_kernel(lib, "bump", "t") == k);
  CHECK(rt.library_kernels(lib, "t") == std::vector<void*>{k});
  CHECK(rt.kernel_library(k, "t") == lib);
  CHECK(rt.library_module(lib, "t") == rt.function_module(f, "t"));
  CHECK(run_bump(rt, k) == 8);  // a launch takes the kernel handle
  // An attribute set through the kernel is its function's.
  rt.set_func_attribute(k, cuda::FuncAttrMaxDynamicSharedMemorySize, 1024, "cuKernelSetAttribute");
  cuda::FuncAttributes a{};
  rt.func_attributes(&a, f);
  CHECK(a.maxDynamicSharedSizeBytes == 1024);
  CHECK(rt.library_global(lib, "counter", false, "t").second == 4);
  CHECK(code_of([&] { rt.library_global(lib, "counter", true, "t"); }) == cuda::ErrorSymbolNotFound);
  CHECK(code_of([&] { rt.library_global(lib, "bump", false, "t"); }) == cuda::ErrorInvalidValue);
  CHECK(code_of([&] { rt.library_kernel(lib, "nope", "t"); }) == cuda::ErrorSymbolNotFound);
  rt.unload_library(lib, "cuLibraryUnload");
  CHECK(code_of([&] { rt.library_kernel(lib, "bump", "t"); }) == cuda::ErrorInvalidResourceHandle);
  CHECK(code_of([&] { rt.kernel_for(k, "t"); }) == cuda::ErrorInvalidDeviceFunction);

  // What is not PTX, or does not parse, loads, and fails at first use every time; it counts
  // no kernels. A cubin is refused at first use with how to keep PTX.
  void* junk = rt.load_library("not PTX at all", "cudaLibraryLoadData");
  CHECK(rt.library_kernel_count(junk, "t") == 0);
  for (int i = 0; i < 2; ++i)
    CHECK(code_of([&] { rt.library_kernel(junk, "k", "t"); }) == cuda::ErrorInvalidKernelImage);
  void* broken = rt.load_library(".version 7.5\n.target sm_75\n.address_size 64\n.visible .entry k( {\n", "t");
  CHECK(code_of([&] { rt.library_kernel(broken, "k", "t"); }) == cuda::ErrorInvalidPtx);
  const char cubin[] = "\x7f" "ELF\x02\x01\x01";
  void* elf = rt.load_library(cubin, "t");
  CHECK(code_of([&] { rt.library_kernel(elf, "k", "t"); }) == cuda::ErrorNoKernelImageForDevice);
  // A fatbinary file shorter than its header says, one of 6 bytes, and one whose header
  // says it holds nothing: loaded without reading past the file, refused at first use (the
  // last as a fatbinary without PTX).
  const std::string dir = std::string(WARPSIM_BINARY_DIR) + "/runtime_programs/library_files";
  std::filesystem::create_directories(dir);
  for (const uint64_t claimed : {uint64_t(4096), uint64_t(0)}) {
    std::string image("\x50\xed\x55\xba\x01\x00\x10\x00", 8);  // magic, version 1, header 16 bytes
    image.append(reinterpret_cast<const char*>(&claimed), 8);
    image.append(32, 'x');
    for (const size_t keep : {image.size(), size_t(6)}) {
      const std::string path = dir + "/short" + std::to_string(::getpid()) + ".fatbin";
      std::ofstream(path, std::ios::binary).write(image.data(), std::streamsize(keep));
      void* short_fatbin = rt.load_library_file(path, "cuLibraryLoadFromFile");
      const bool empty = claimed == 0 && keep == image.size();
      CHECK(code_of([&] { rt.library_kernel(short_fatbin, "k", "t"); }) ==
            (empty ? cuda::ErrorNoKernelImageForDevice : cuda::ErrorInvalidKernelImage));
    }
  }
  CHECK(code_of([&] { rt.load_library(nullptr, "t"); }) == cuda::ErrorInvalidValue);
  CHECK(code_of([&] { rt.load_library_file("/nonexistent/lib.ptx", "t"); }) == cuda::ErrorFileNotFound);
}

TEST_CASE("driver: 8- 16- and 32-bit memsets in one and two dimensions") {
  Runtime rt(rttest::functional_options());
  auto* p = static_cast<char*>(rt.malloc(64));
  rt.memset_elements(p, 0, 0x11223344u, 4, 16, 1, "cuMemsetD32");
  rt.memset_elements(p + 8, 0, 0xabcd, 2, 2, 1, "cuMemsetD16");
  rt.memset_elements(p + 14, 0, 0x7f, 1, 1, 1, "cuMemsetD8");
  rt.memset_elements(p + 32, 16, 0xbeef, 2, 3, 2, "cuMemsetD2D16");
  uint8_t b[64];
  rt.memcpy(b, p, 64, cuda::DeviceToHost, "t");
  const uint8_t want[16] = {0x44, 0x33, 0x22, 0x11, 0x44, 0x33, 0x22, 0x11,
                            0xcd, 0xab, 0xcd, 0xab, 0x44, 0x33, 0x7f, 0x11};
  CHECK(std::memcmp(b, want, 16) == 0);
  CHECK(b[32] == 0xef);
  CHECK(b[37] == 0xbe);
  CHECK(b[38] == 0x22);  // past the row's 3 elements: the D32 pattern
  CHECK(b[48] == 0xef);  // the second row, a pitch later
  CHECK(code_of([&] { rt.memset_elements(p + 2, 0, 0, 4, 1, 1, "cuMemsetD32"); }) == cuda::ErrorInvalidValue);
  CHECK(code_of([&] { rt.memset_elements(p, 4, 0, 4, 2, 2, "cuMemsetD2D32"); }) == cuda::ErrorInvalidValue);
  CHECK(code_of([&] { rt.memset_elements(p + 60, 0, 0, 4, 2, 1, "cuMemsetD32"); }) == cuda::ErrorInvalidValue);
}

TEST_CASE("driver: a driver-API program prints what an H100 prints") {
  REQUIRE_NVCC();
  const std::string dir = rttest::build_modules("driver_kernels");
  const std::string app = rttest::build_program("driver_api", "-cudart shared -lcuda");
  // driver_api.expected is the program's output on an H100 (driver 580.159.04,
  // tools/runtime/driver_ground_truth.sh; docs/measurements/h100_driver_api_run2.txt). In an
  // earlier run on the same H100 (h100_driver_api_run1.txt) the kernel's store 1 GiB past
  // a 16-byte allocation was CUDA_ERROR_INVALID_ADDRESS_SPACE instead of
  // CUDA_ERROR_ILLEGAL_ADDRESS: the GPU's code for a wild address depends on where it lands.
  const std::string want = rttest::slurp(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/driver_api.expected");
  for (const auto& r : rttest::check_prints(app, {"--functional --no-summary --config h100", "--no-summary --config h100"},
                                            want, dir + "/driver_kernels.ptx " + dir + "/driver_kernels.fatbin " + dir +
                                                      "/driver_kernels.cubin")) {
    // warpsim says why, naming the place.
    CHECK_THAT(r.err, Catch::Contains("cuMemAlloc: no current context on this thread"));
    CHECK_THAT(r.err, Catch::Contains("is a cubin (GPU machine code only), which warpsim cannot run"));
    CHECK_THAT(r.err, Catch::Contains("(cuModuleLoadDataEx):4: unsupported PTX"));
    CHECK_THAT(r.err, Catch::Contains("are read from the buffer anyway, as the driver does"));
    CHECK_THAT(r.err, Catch::Contains("in kernel 'out_of_bounds', block (0,0,0), thread (0,0,0)"));
  }
}

TEST_CASE("driver: per-thread default stream entry points and host callbacks print what an H100 prints") {
  REQUIRE_NVCC();
  const std::string dir = rttest::build_modules("driver_kernels");
  const std::string app = rttest::build_program("driver_streams", "-cudart shared -lcuda --default-stream per-thread");
  // driver_streams.expected: the program's output on an H100 (tools/runtime/driver_ground_truth.sh).
  const std::string want = rttest::slurp(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/driver_streams.expected");
  rttest::check_prints(app, {"--functional --no-summary --config h100", "--no-summary --config h100"}, want,
                       dir + "/driver_kernels.ptx");
}

TEST_CASE("driver: destroying a context frees what it allocated and loaded, and nothing else, as on an H200") {
  REQUIRE_NVCC();
  // driver_contexts.expected: an H200's output (tools/runtime/ground_truth.sh): A's 512 MiB
  // come back to cuMemGetInfo when A is destroyed; memory A freed itself, and B's memory,
  // which may lie where A's freed memory was, are left alone.
  rttest::check_prints_expected("driver_contexts", "-cudart shared -lcuda");
}

TEST_CASE("driver: streams, events and functions belong to the context that made them, as on an H200") {
  REQUIRE_NVCC();
  // driver_context_streams.expected: an H200's output, three runs alike
  // (docs/measurements/h200_driver_context_streams_2026-11-30.txt). A launch's function and
  // stream, an event and its stream, and an elapsed time's two events from two contexts are
  // CUDA_ERROR_INVALID_HANDLE; another context's stream may be synchronised, copied and set
  // on; cuStreamGetCtx names the maker, the current context for the null stream; a stream
  // the runtime makes belongs to the current context; a pool on a device that is not there
  // is cudaErrorInvalidValue.
  rttest::check_prints_expected("driver_context_streams", "-cudart shared -lcuda");
}

TEST_CASE("runtime: an event and its stream, and an elapsed time's two events, belong to one context, as on an H200") {
  REQUIRE_NVCC();
  // runtime_context_streams.expected: an H200's output, three runs alike
  // (docs/measurements/h200_runtime_context_streams_2026-11-30.txt). With a context the
  // driver API made beside the primary one, runtime launches run on either's streams, and
  // cudaStreamWaitEvent mixes them, but cudaEventRecord of one's event on the other's stream
  // and cudaEventElapsedTime between their events are cudaErrorInvalidResourceHandle.
  rttest::check_prints_expected("runtime_context_streams", "-cudart shared -lcuda");
}

TEST_CASE("runtime and driver: a stream's flags, priority, id and device, as on an H200") {
  REQUIRE_NVCC();
  // stream_properties.expected: an H200's output, three runs alike
  // (docs/measurements/h200_stream_properties_2026-11-30.txt). Priorities run from 0 (least)
  // to -5 (greatest) on cc 9.0 and are clamped to that range; the null, legacy and
  // per-thread streams have flags 0 and priority 0; ids grow by one per stream made, the
  // null and legacy streams share one; flags other than 0 and 1 are cudaErrorInvalidValue.
  // Before, every one of these getters was cudaErrorNotSupported.
  rttest::check_prints_expected("stream_properties", "-cudart shared -lcuda",
                                {"--functional --no-summary --config h100", "--no-summary --config h100"});
  // A device before cc 3.5 has no priorities: range 0 to 0, every stream's priority 0.
  const std::string app = rttest::build_program("stream_properties", "-cudart shared -lcuda");
  auto c2070 = rttest::exec("--functional --no-summary", app);
  INFO(c2070.err);
  CHECK(c2070.status == 0);
  CHECK_THAT(c2070.out, Catch::StartsWith("priority range: least 0, greatest 0\n"
                                          "driver priority range: least 0, greatest 0\n"));
  CHECK_THAT(c2070.out, Catch::Contains("priority greatest - 10: flags cudaSuccess 0, priority cudaSuccess 0,"));
  CHECK_THAT(c2070.out, Catch::EndsWith("done\n"));
}

TEST_CASE("runtime: a program built with --default-stream per-thread runs (the *_ptds and *_ptsz calls)") {
  REQUIRE_NVCC();
  // cuda_runtime_api.h names cudaMemcpy cudaMemcpy_ptds (and so on) in such a program;
  // before these forms existed its first copy was cudaErrorNotSupported.
  const std::string app = rttest::build_program("per_thread_stream", "-cudart shared --default-stream per-thread");
  const std::string want = rttest::slurp(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/per_thread_stream.expected");
  rttest::check_prints(app, {"--functional --no-summary", "--no-summary --config h100"}, want);
}

TEST_CASE("driver: entry points by name and version as an H100's driver gives them") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("proc_address", "-cudart shared -lcuda");
  // proc_address.expected: the program's output on an H100 (driver 580.159.04), with a first
  // line from an H200 (the same driver): cuGetProcAddress works before cuInit, and what it
  // finds answers CUDA_ERROR_NOT_INITIALIZED until then (docs/measurements/h200_proc_address_2026-12-01.txt).
  const std::string want = rttest::slurp(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/proc_address.expected");
  auto r = rttest::exec("--functional --no-summary --config h100", app);
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == want);
}

TEST_CASE("driver: device attributes equal an H100's but for the features warpsim does not model") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("device_attributes");
  // docs/measurements/h100_device_attributes.tsv: the program's output on an H100 80GB HBM3
  // (driver 580.159.04). These differ, each a feature the simulated device does not have
  // (0 or cudaErrorNotSupported): GPU overlap, concurrent kernels, ECC, PCI ids, copy
  // engines, texture gather, concurrent managed access, preemption, compression, RDMA,
  // sparse arrays, read-only registration, semaphores, pool handle types,
  // deferred mapping, memory-sync domains, host memory pools and reserved attributes.
  const std::set<int> unmodelled = {15,  31,  32,  34,  40,  44,  89,  90,  92,  93,  94,  96,
                                    107, 110, 112, 113, 114, 116, 117, 118, 119, 121, 122,
                                    123, 124, 126, 127, 128, 129, 139, 140, 141, 142, 144, 145};
  const std::string gpu = rttest::slurp(WARPSIM_SOURCE_DIR "/docs/measurements/h100_device_attributes.tsv");
  auto r = rttest::exec("--functional --no-summary --config h100", app);
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::stringstream want(gpu), have(r.out);
  int compared = 0;
  for (std::string w, h; std::getline(want, w) && std::getline(have, h);) {
    const int attr = std::stoi(w);
    INFO("attribute " << attr << ": H100 " << w << ", warpsim " << h);
    if (unmodelled.count(attr)) {
      CHECK(w != h);  // a difference that went away is news: take it off the list
    } else {
      CHECK(w == h);
      ++compared;
    }
  }
  CHECK(compared == 125);  // 120 (cluster launch) since thread block clusters, 2026-11-30
}

TEST_CASE("driver: virtual memory management answers as an H100 does") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("vmm", "-cudart shared -lcuda");
  // vmm.expected: the program's output on an H100 (tools/runtime/driver_ground_truth.sh).
  const std::string want = rttest::slurp(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/vmm.expected");
  for (const auto& r : rttest::check_prints(app,
                                            {"--functional --no-summary --config h100", "--no-summary --config c2070",
                                             "--functional --threads 2 --no-summary --config h100"},
                                            want)) {
    // warpsim says why it refused, naming the call.
    CHECK_THAT(r.err, Catch::Contains("cuMemMap: [") && Catch::Contains("overlaps the mapping at"));
    CHECK_THAT(r.err, Catch::Contains("cuMemUnmap: [") && Catch::Contains("does not end where a mapping ends"));
    CHECK_THAT(r.err, Catch::Contains("cuMemAddressFree: the reservation at"));
  }
}

TEST_CASE("driver: libraries and kernel handles (cudaLibrary*, cuLibrary*, cuKernel*) as on an H200") {
  REQUIRE_NVCC();
  // library_api.expected: an H200's output, two runs alike
  // (docs/measurements/h200_library_api_2026-12-01.txt). NVRTC's PTX loaded as a library
  // from memory and from a file; kernel handles by name and enumerated (the PTX's last kernel
  // first), launched through both APIs; the library's __device__ and __managed__ variables;
  // attributes set through a kernel handle are its CUfunction's; code that is not PTX, or
  // PTX that does not parse, loads and fails at first use; the module behind a library and
  // its functions (in the PTX's order), and every refusal's code.
  const std::string app = rttest::build_program("library_api", "-cudart shared -lcuda -lnvrtc");
  const std::string want = rttest::slurp(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/library_api.expected");
  for (const auto& r : rttest::check_prints(app,
                                            {"--functional --no-summary --config h100", "--no-summary --config h100",
                                             "--functional --no-summary --config h100 --threads 2"},
                                            want)) {
    CHECK_THAT(r.err, Catch::Contains("cudaLibraryGetKernel: library_api (cudaLibraryLoadData #5):4:20: parse error"));
    CHECK_THAT(r.err, Catch::Contains("cudaLibraryGetKernel: library_api (cudaLibraryLoadData #4) is neither PTX "
                                      "text, a fatbinary nor a cubin"));
  }
  // The C2070 allows 48 KB of shared memory a block: asking a kernel handle for 64 KB is
  // refused there, with the device's limit, and the 64 KB launch with it.
  auto r = rttest::exec("--functional --no-summary --config c2070", app);
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("cudaKernelSetAttributeForDevice(reverse, cudaFuncAttributeMaxDynamicSharedMemorySize, "
                                    "int(big), 0) cudaErrorInvalidValue\n"));
  CHECK_THAT(r.out, Catch::Contains("\nreverse: maxDynamicSharedSizeBytes 49152\n"));
  CHECK_THAT(r.err, Catch::Contains("cudaKernelSetAttributeForDevice(reverse, cudaFuncAttributeMaxDynamicSharedMemorySize, "
                                    "65536): at most 49152 bytes"));
  CHECK_THAT(r.out, Catch::Contains("scaled twice more: h[1] = 6.25, launches = 5\n"));
}

TEST_CASE("driver: NVIDIA's prebuilt libraries fail to initialise, and warpsim says why") {
  REQUIRE_NVCC();
  // cuBLAS, cuRAND's host API and cuFFT need the driver's private tables (cuGetExportTable):
  // their creation calls return their own failure codes (CUBLAS_STATUS_NOT_INITIALIZED,
  // CURAND_STATUS_INITIALIZATION_FAILED, CUFFT_INTERNAL_ERROR), the program goes on, and
  // stderr names the reason once. Skipped where the toolkit has not these libraries.
  for (const char* lib : {"libcublas.so", "libcurand.so", "libcufft.so"})
    if (!std::ifstream(std::string(WARPSIM_CUDA_HOME "/lib64/") + lib)) {
      WARN(std::string("skipped: the CUDA toolkit has no ") + lib);
      return;
    }
  const std::string app = rttest::build_program("prebuilt_libraries", "-cudart shared -lcublas -lcurand -lcufft");
  auto r = rttest::exec("--functional --no-summary", app);
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out ==
        "cublasCreate: 1\n"
        "curandCreateGenerator: 203\n"
        "cufftPlan1d: 5\n"
        "cudaMalloc afterwards: cudaSuccess\n");
  CHECK_THAT(r.err, Catch::Contains("cuGetExportTable (NVIDIA's private driver tables) is not supported by warpsim's "
                                    "CUDA driver"));
}

TEST_CASE("driver: kernels NVRTC compiles to a cubin run as on the GPU") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("nvrtc_cubin", "-cudart shared -lcuda -lnvrtc");
  // nvrtc_cubin.expected: the program's output on an H200 (cc 9.0, as the h100 config;
  // tools/runtime/driver_ground_truth.sh, docs/measurements/h200_nvrtc_cubin_2026-11-28.txt).
  const std::string want = rttest::slurp(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/nvrtc_cubin.expected");
  for (const auto& r : rttest::check_prints(app, {"--functional --no-summary --config h100", "--no-summary --config h100"},
                                            want)) {
    CHECK_THAT(r.err, Catch::Contains("NVRTC compiles for compute_90 in place of the sm_90 cubin the program asked "
                                      "for; nvrtcGetCUBIN hands over the PTX"));
  }
  // The C2070 (cc 2.0) is older than any target NVRTC 13 has: its programs get compute_75
  // PTX, which warpsim runs on every config, and print what the GPU printed but their
  // device's compute capability.
  auto r = rttest::exec("--no-summary --config c2070", app);
  INFO(r.err);
  CHECK(r.status == 0);
  std::string c2070_want = want;
  const std::string line = "device: compute capability 9.0\n";
  REQUIRE(c2070_want.rfind(line, 0) == 0);
  c2070_want.replace(0, line.size(), "device: compute capability 2.0\n");
  CHECK(r.out == c2070_want);
  CHECK_THAT(r.err, Catch::Contains("NVRTC compiles for compute_75 in place of the sm_20 cubin the program asked for, "
                                    "the oldest target NVRTC has"));
}

TEST_CASE("driver: warpsim inspect lists a fatbinary file's kernels and refuses a cubin with the fix") {
  REQUIRE_NVCC();
  const std::string dir = rttest::build_modules("driver_kernels");
  auto r = rttest::shell(rttest::warpsim_bin() + " inspect " + dir + "/driver_kernels.fatbin");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("fatbinary 1 of 1: sm_75 ELF, compute_75 PTX") &&
                        Catch::Contains("4 kernels") && Catch::Contains("mixed_param_3 (2 B)"));
  r = rttest::shell(rttest::warpsim_bin() + " inspect " + dir + "/driver_kernels.cubin");
  CHECK(r.status != 0);
  CHECK_THAT(r.out, Catch::Contains("a cubin (GPU machine code only); warpsim runs PTX"));
}

namespace {
// The global function symbols a shared library exports (objdump -T), or empty if it is absent.
std::set<std::string> exports(const std::string& lib, const std::string& prefix) {
  std::set<std::string> names;
  if (!std::filesystem::exists(lib)) return names;
  auto r = rttest::shell("objdump -T " + lib + " | awk '$2 ~ /g/ && $4 == \".text\" {print $NF}'");
  std::stringstream in(r.out);
  for (std::string s; in >> s;)
    if (s.rfind(prefix, 0) == 0) names.insert(s);
  return names;
}
}  // namespace

TEST_CASE("driver: libcuda.so.1 and libcudart.so.13 export every entry point NVIDIA's do") {
  const std::string stub = WARPSIM_CUDA_HOME "/lib64/stubs/libcuda.so";
  const std::string real_cudart = WARPSIM_CUDA_HOME "/lib64/libcudart.so.13";
  if (!std::filesystem::exists(stub) || !std::filesystem::exists(real_cudart)) {
    WARN("skipped: needs the CUDA toolkit's libcuda.so stub and libcudart.so.13 (" << stub << ")");
    return;
  }
  const std::string lib = std::string(WARPSIM_BINARY_DIR) + "/lib/";
  for (const auto& [theirs, ours, prefix] :
       {std::tuple{stub, lib + "libcuda.so.1", std::string("cu")},
        std::tuple{real_cudart, lib + "libcudart.so.13", std::string("cuda")}}) {
    const auto want = exports(theirs, prefix), have = exports(ours, prefix);
    INFO(ours);
    CHECK(want.size() > 100);
    std::string missing;
    for (const auto& s : want)
      if (!have.count(s)) missing += s + " ";
    CHECK(missing.empty());
  }
}
