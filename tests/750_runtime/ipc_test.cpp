// CUDA IPC between two processes that each run under warpsim: memory and an event a parent
// exports and a child it spawns opens. ipc.expected is an H200's output
// (tools/runtime/ground_truth.sh; docs/measurements/h200_ipc_2026-11-29.txt).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <vector>

#include "program_runner.hpp"

namespace {

// Shared-memory objects in /dev/shm named as warpsim's IPC named them until it used memfds
// (runtime_ipc.cpp): there must be none.
std::set<std::string> ipc_objects() {
  std::set<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/dev/shm", ec))
    if (e.path().filename().string().rfind("warpsim-ipc", 0) == 0) names.insert(e.path().filename().string());
  return names;
}

}  // namespace

TEST_CASE("ipc: a child process opens the parent's memory and event and the parent waits on its record, as on an H200") {
  REQUIRE_NVCC();
  // The child reads what the parent wrote, adds 1 with a kernel and records the event; the
  // parent's cudaEventSynchronize waits for that record and then reads the child's result.
  // Also: one pointer per handle however often it is opened (an interior pointer's handle
  // names the allocation), the error codes of opening a handle in its own process, of an
  // event without cudaEventInterprocess, of an interprocess event with timing, of elapsed
  // time on one and of closing once too often.
  const std::set<std::string> before = ipc_objects();
  rttest::check_prints_expected("ipc");
  // Nothing is left behind.
  for (const std::string& name : ipc_objects()) {
    INFO(name);
    CHECK(before.count(name) == 1);
  }
}

TEST_CASE("ipc: another process sees an interprocess event not ready while the work before its record runs") {
  REQUIRE_NVCC();
  // The parent's kernel marks that it started and waits for a flag the child sets; the
  // child, between the two, finds the parent's event cudaErrorNotReady, and cudaSuccess once
  // it waited on it. ipc_event_pending.expected is an H200's output, three runs alike
  // (docs/measurements/h200_ipc_event_pending_2026-11-30.txt).
  rttest::check_prints_expected("ipc_event_pending");
}

TEST_CASE("ipc: the child process reports its own launches, into its own JSON file") {
  REQUIRE_NVCC();
  namespace fs = std::filesystem;
  const std::string app = rttest::build_program("ipc");
  const fs::path dir = fs::temp_directory_path() / fmt::format("warpsim_ipc_json_{}", ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto r = rttest::exec("--functional --json " + (dir / "report.json").string(), app);
  INFO(r.err);
  CHECK(r.status == 0);
  // The parent (the process warpsim exec started) ran fill, the child add_one; each
  // summary names its own kernel, and the child's says it is another process.
  CHECK_THAT(r.err, Catch::Contains("(process "));
  CHECK_THAT(r.err, Catch::Contains("started by the program)"));
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() == 2);
  CHECK(files[1] == "report.json");
  CHECK(files[0].rfind("report.", 0) == 0);
  CHECK(rttest::slurp((dir / "report.json").string()).find("_Z4fill") != std::string::npos);
  CHECK(rttest::slurp((dir / files[0]).string()).find("_Z7add_one") != std::string::npos);
  CHECK(rttest::slurp((dir / files[0]).string()).find("_Z4fill") == std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("ipc: a memory pool shared through a file descriptor, as on an H200") {
  REQUIRE_NVCC();
  // pool_ipc.expected is an H200's output (docs/measurements/h200_pool_ipc_2026-11-29.txt):
  // the parent exports a cudaMemHandleTypePosixFileDescriptor pool and two of its
  // allocations; the child imports them (the same pointer when imported twice), reads the
  // parent's values, adds 1 with kernels and frees its imports; the parent reads the result.
  // Also the errors: exporting a pool made without the handle type (or the default pool),
  // exporting a pointer that is no pool allocation's start, importing a pointer into the
  // exporting pool, and allocating from an imported pool.
  rttest::check_prints_expected("pool_ipc");
}

TEST_CASE("ipc: driver-API virtual memory shared through a file descriptor, as on an H200") {
  REQUIRE_NVCC();
  // vmm_ipc.expected is an H200's output (docs/measurements/h200_vmm_ipc_2026-11-29.txt): an
  // allocation made with CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, exported, imported by the
  // child, mapped there and written by its kernel; requestedHandleTypes on either side (0
  // for the imported handle), and the errors: exporting a plain allocation or as a fabric
  // handle (CUDA_ERROR_INVALID_VALUE), importing a closed descriptor (CUDA_ERROR_UNKNOWN).
  rttest::check_prints_expected("vmm_ipc", "-cudart shared -lcuda");
}

TEST_CASE("ipc: the driver API's cuIpc calls, as on an H200") {
  REQUIRE_NVCC();
  // drv_ipc.expected is an H200's output (docs/measurements/h200_drv_ipc_2026-11-29.txt):
  // ipc.cu's exchange through cuIpcGetMemHandle, cuIpcOpenMemHandle, cuIpcGetEventHandle and
  // cuIpcOpenEventHandle, and the driver's codes for the error cases (a handle opened in its
  // own process is CUDA_ERROR_INVALID_CONTEXT; unknown flags, a handle of zeros and a close
  // of memory not opened are CUDA_ERROR_INVALID_VALUE; an event without
  // CU_EVENT_INTERPROCESS, and elapsed time on an interprocess one, CUDA_ERROR_INVALID_HANDLE).
  rttest::check_prints_expected("drv_ipc", "-cudart shared -lcuda");
}

TEST_CASE("ipc: the driver API's memory pools shared with another process, as on an H200") {
  REQUIRE_NVCC();
  // drv_pool_ipc.expected is an H200's output (docs/measurements/h200_drv_pool_ipc_2026-11-30.txt):
  // pool_ipc.cu's exchange through cuMemPoolExportToShareableHandle,
  // cuMemPoolImportFromShareableHandle, cuMemPoolExportPointer and cuMemPoolImportPointer,
  // and the driver's codes for their error cases.
  rttest::check_prints_expected("drv_pool_ipc", "-cudart shared -lcuda");
}
