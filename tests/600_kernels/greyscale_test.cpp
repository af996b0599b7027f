#include "spec_runner.hpp"

using kernel_test::require_spec_passes;

TEST_CASE("colour to greyscale: Kirk's 76x62 picture, 31 of 160 warps divergent", "[kernels][greyscale]") {
  auto run = require_spec_passes("greyscale/greyscale_76x62.json");
  CHECK(run.stats.exec.warps == 160);
  CHECK(run.stats.exec.divergent_branch == 31);
  require_spec_passes("greyscale/greyscale_76x62.json", {}, "fx5800");
}

TEST_CASE("colour to greyscale: Kirk's 200x150 picture, 75 of 1040 warps divergent", "[kernels][greyscale]") {
  // Kirk counts 80 = 72 (region 2: the 9 right-edge blocks, 8 columns in, 8 out) + 8
  // (region 4, the corner block). But 150 rows is even, so, as he says of region 3, the
  // corner block's warps 3-7 (rows 150-159) lie wholly outside the picture and do not
  // diverge; only its warps 0-2 do: 72 + 3 = 75. (For 76x62 the same count gives his 31.)
  auto run = require_spec_passes("greyscale/greyscale_200x150.json");
  CHECK(run.stats.exec.warps == 1040);
  CHECK(run.stats.exec.divergent_branch == 75);
}

TEST_CASE("colour to greyscale: other picture sizes", "[kernels][greyscale]") {
  require_spec_passes("greyscale/greyscale_76x62.json", {{"width", 1}, {"height", 1}});
  require_spec_passes("greyscale/greyscale_76x62.json", {{"width", 64}, {"height", 32}});
  // An odd height: the bottom warps now straddle the picture's edge (Kirk's region 3 remark).
  auto odd = require_spec_passes("greyscale/greyscale_76x62.json", {{"height", 61}});
  CHECK(odd.stats.exec.divergent_branch > 31);
}
