#include "spec_runner.hpp"

using kernel_test::require_spec_passes;

namespace {
const char* const kKernels[] = {"copy", "copy_shared_mem", "transpose_naive", "transpose_coalesced",
                                "transpose_no_bank_conflicts", "transpose_diagonal"};
}

TEST_CASE("transpose kernels: square and non-square matrices", "[kernels][transpose]") {
  for (const char* k : kKernels) {
    std::string small = std::string("transpose/") + k + "_256x128.json";
    require_spec_passes(small);
    require_spec_passes(small, {{"width", 32}, {"height", 32}});
    require_spec_passes(small, {{"width", 64}, {"height", 160}});
    require_spec_passes(small, {{"nreps", 2}});
    require_spec_passes(std::string("transpose/") + k + "_2048.json", {{"width", 128}, {"height", 128}});
  }
}

TEST_CASE("transpose kernels at 2048x2048", "[kernels][transpose][large]") {
  for (const char* k : kKernels) require_spec_passes(std::string("transpose/") + k + "_2048.json");
}
