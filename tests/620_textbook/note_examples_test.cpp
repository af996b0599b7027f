// The seed note "Performance Analysis of CUDA Programs", end to end on its own GPU
// (configs/note16.json: warp size 16, 16-element transactions): the exact transaction and
// divergence counts the note derives by hand.
#include <catch2/catch.hpp>

#include "sim/spec/device_spec.hpp"
#include "sim/launch/launch_spec.hpp"

using namespace warpsim;

namespace {

LaunchStats run(const std::string& spec, const std::string& config) {
  const std::string root = WARPSIM_SOURCE_DIR;
  Device dev(load_device_spec(root + "/configs/" + config + ".json"));
  PreparedLaunch p = prepare(dev, load_launch_spec(root + "/" + spec));
  LaunchOptions o;
  o.mode = SimMode::Functional;
  LaunchStats s = launch(dev, p, o);
  REQUIRE(check_outputs(dev, p).passed);
  return s;
}

}  // namespace

TEST_CASE("620: note section 1: A[tid] += 2 costs 64 transactions, A[2*tid] += 2 costs 128", "[textbook]") {
  // 1024 threads in 16-thread warps = 64 warps; one 64-byte segment per warp for A[tid],
  // two for A[2*tid] (the warp spans 32 floats).
  LaunchStats contiguous = run("kernels/memory/mem_access_contiguous.json", "note16");
  CHECK(contiguous.exec.warps == 64);
  CHECK(contiguous.mem.gld_transactions == 64);
  CHECK(contiguous.mem.gst_transactions == 64);
  LaunchStats strided = run("kernels/memory/mem_access_strided.json", "note16");
  CHECK(strided.mem.gld_transactions == 128);
  CHECK(strided.mem.gst_transactions == 128);
}

TEST_CASE("620: note section 2: if (j%2) diverges in every 16-thread warp, if ((j/16)%2) in none", "[textbook]") {
  LaunchStats odd_even = run("kernels/divergence/divergence_odd_even_branch.json", "note16");
  CHECK(odd_even.exec.divergent_branch == odd_even.exec.warps);
  LaunchStats half = run("kernels/divergence/divergence_half_warps_branch.json", "note16");
  CHECK(half.exec.divergent_branch == 0);
  // On 32-thread warps (the C2070) the (j/16)%2 condition splits every warp again.
  LaunchStats half32 = run("kernels/divergence/divergence_half_warps_branch.json", "c2070");
  CHECK(half32.exec.divergent_branch == half32.exec.warps);
}
