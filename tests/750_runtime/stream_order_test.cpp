// When launched work runs: queued until the program's next call that is not stream work,
// so host code after a launch runs before the kernel (as it may on a GPU), and device
// printf output appears where a GPU shows it. The expected outputs are an H200's
// (docs/measurements/h200_stream_order_2026-11-29.txt).
#include "program_runner.hpp"

using rttest::exec;

namespace {
const char* kPrintfOrder =
    "host: after the launch\n"
    "device: hello 1 from thread 0\n"
    "device: hello 1 from thread 1\n"
    "cudaDeviceSynchronize: cudaSuccess\n"
    "host: after cudaDeviceSynchronize\n";
const char* kPrintfOrderBlocking =
    "device: hello 1 from thread 0\n"
    "device: hello 1 from thread 1\n"
    "host: after the launch\n"
    "cudaDeviceSynchronize: cudaSuccess\n"
    "host: after cudaDeviceSynchronize\n";
}  // namespace

TEST_CASE("stream order: a kernel waiting for a flag the host sets after launching it finishes, as on the GPU") {
  REQUIRE_NVCC();
  // stream_order.expected: a kernel spins on a pinned latch the host sets after queueing a
  // kernel, an async copy into pinned memory and events behind it (the copy's target still
  // holds its old bytes when the latch is set); then the stream is synchronised. The event
  // pair measures the simulated time, so only timing mode prints its line as the GPU does.
  rttest::check_prints_expected("stream_order", "-cudart shared", {"--no-summary --config h100", "--no-summary"});
}

TEST_CASE("stream order: device printf appears at the synchronising call, or at the launch with CUDA_LAUNCH_BLOCKING") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("stream_order");
  rttest::check_prints(app, {"--functional --no-summary", "--no-summary"}, kPrintfOrder, "printf");
  // CUDA's own switch: each launch runs (and its output appears) when it is made.
  for (const char* mode : {"--functional --no-summary", "--no-summary"}) {
    auto r = rttest::shell("CUDA_LAUNCH_BLOCKING=1 " + rttest::warpsim_bin() + " exec " + mode + " -- " + app +
                           " printf");
    INFO(mode << "\n" << r.err);
    CHECK(r.status == 0);
    CHECK(r.out == kPrintfOrderBlocking);
  }
}

TEST_CASE("stream order: a launch the program never waits for runs for the report, its printf dropped as on the GPU") {
  REQUIRE_NVCC();
  const std::string app = rttest::build_program("stream_order");
  for (const char* mode : {"--functional", ""}) {
    auto r = exec(mode, app, "unsynced");
    INFO(mode << "\n" << r.err);
    CHECK(r.status == 0);
    CHECK(r.out == "host: returning without waiting\n");  // the H200 prints no device line
    CHECK_THAT(r.err, Catch::Contains("the program exited without waiting for its last 1 kernel launch"));
    CHECK_THAT(r.err, Catch::Contains("device printf output is not printed"));
    CHECK_THAT(r.err, Catch::Contains("1 launch of 1 kernel"));  // the summary counts it
  }
  auto blocking = rttest::shell("CUDA_LAUNCH_BLOCKING=1 " + rttest::warpsim_bin() + " exec --no-summary -- " + app +
                                " unsynced");
  INFO(blocking.err);
  CHECK(blocking.out == "device: hello 3 from thread 0\nhost: returning without waiting\n");
  CHECK(blocking.err.empty());
}
