#include "spec_runner.hpp"

using kernel_test::require_spec_passes;

TEST_CASE("vecAddKernel: Kirk's n = 1003 with 64-thread blocks", "[kernels][vecadd]") {
  auto run = require_spec_passes("vecadd/vecadd_1003.json");
  CHECK(run.spec.grid.x == 16);
  CHECK(run.stats.exec.warps == 32);
  CHECK(run.stats.exec.divergent_branch == 1);  // only the last warp diverges (ch. 5)
}

TEST_CASE("vecAddKernel: sizes that are and are not multiples of the block", "[kernels][vecadd]") {
  // Kirk: n = 100 with 64-thread blocks is four warps, one of them divergent.
  auto run = require_spec_passes("vecadd/vecadd_1003.json", {{"n", 100}});
  CHECK(run.stats.exec.warps == 4);
  CHECK(run.stats.exec.divergent_branch == 1);
  require_spec_passes("vecadd/vecadd_1003.json", {{"n", 1}});
  auto even = require_spec_passes("vecadd/vecadd_1003.json", {{"n", 1024}});
  CHECK(even.stats.exec.divergent_branch == 0);
  require_spec_passes("vecadd/vecadd_1m.json", {{"n", 10007}});
  require_spec_passes("vecadd/vecadd_1003.json", {}, "fx5800");
}

TEST_CASE("vecAddKernel: 2^20 elements", "[kernels][vecadd][large]") {
  auto run = require_spec_passes("vecadd/vecadd_1m.json");
  CHECK(run.stats.exec.divergent_branch == 0);
}
