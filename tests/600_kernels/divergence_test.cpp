#include "spec_runner.hpp"

using kernel_test::require_spec_passes;

TEST_CASE("the note's divergence kernels, as printed and with the branch kept", "[kernels][divergence]") {
  for (const char* spec : {"divergence/divergence_odd_even.json", "divergence/divergence_half_warps.json",
                           "divergence/divergence_warps.json", "divergence/divergence_odd_even_branch.json",
                           "divergence/divergence_half_warps_branch.json", "divergence/divergence_warps_branch.json"}) {
    require_spec_passes(spec);
    require_spec_passes(spec, {{"n", 96}, {"block_size", 32}});
  }
}

TEST_CASE("divergence counts of the note's conditions with 32-thread warps", "[kernels][divergence]") {
  // As printed, nvcc turns the if/else into a select: no branch, no divergence.
  auto printed = require_spec_passes("divergence/divergence_odd_even.json");
  CHECK(printed.stats.exec.divergent_branch == 0);
  // With the branch kept: j%2 and (j/16)%2 split all 128 warps, (j/32)%2 none.
  auto odd_even = require_spec_passes("divergence/divergence_odd_even_branch.json");
  CHECK(odd_even.stats.exec.warps == 128);
  CHECK(odd_even.stats.exec.divergent_branch == 128);
  auto half = require_spec_passes("divergence/divergence_half_warps_branch.json");
  CHECK(half.stats.exec.divergent_branch == 128);
  auto warps = require_spec_passes("divergence/divergence_warps_branch.json");
  CHECK(warps.stats.exec.divergent_branch == 0);
}

TEST_CASE("per_thread_sum: data-dependent trip counts", "[kernels][divergence]") {
  require_spec_passes("divergence/per_thread_sum.json");
  require_spec_passes("divergence/per_thread_sum.json", {{"n", 32}, {"block_size", 32}, {"max_len", 1}});
  require_spec_passes("divergence/per_thread_sum.json", {{"n", 640}, {"block_size", 64}, {"max_len", 300}});
}
