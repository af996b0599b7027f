#include "spec_runner.hpp"

using kernel_test::require_spec_passes;

TEST_CASE("simple matrix multiply (Kirk Fig. 4.3): multiples and non-multiples of the block", "[kernels][matmul]") {
  require_spec_passes("matmul/matmul_simple_100.json");
  require_spec_passes("matmul/matmul_simple_100.json", {{"width", 17}});
  require_spec_passes("matmul/matmul_simple_100.json", {{"width", 1}});
  require_spec_passes("matmul/matmul_simple_512.json", {{"width", 64}});
  require_spec_passes("matmul/matmul_simple_100.json", {{"width", 40}}, "fx5800");
}

TEST_CASE("tiled matrix multiply (Kirk Fig. 5.6, as printed): Width a multiple of TILE_WIDTH", "[kernels][matmul]") {
  require_spec_passes("matmul/matmul_tiled_512.json", {{"width", 16}});
  require_spec_passes("matmul/matmul_tiled_512.json", {{"width", 48}});
  require_spec_passes("matmul/matmul_tiled_512.json", {{"width", 128}}, "fx5800");
}

TEST_CASE("tiled matrix multiply with boundary checks: any Width", "[kernels][matmul]") {
  require_spec_passes("matmul/matmul_tiled_bounds_100.json");
  require_spec_passes("matmul/matmul_tiled_bounds_100.json", {{"width", 1}});
  require_spec_passes("matmul/matmul_tiled_bounds_100.json", {{"width", 33}});
  require_spec_passes("matmul/matmul_tiled_bounds_512.json", {{"width", 64}});
}

TEST_CASE("thread-coarsened matrix multiply (Kirk Fig. 5.17): two P tiles per block", "[kernels][matmul]") {
  require_spec_passes("matmul/matmul_coarsened_512.json", {{"width", 32}});
  require_spec_passes("matmul/matmul_coarsened_512.json", {{"width", 96}});
}

TEST_CASE("matrix multiplies at the texts' 512x512", "[kernels][matmul][large]") {
  require_spec_passes("matmul/matmul_simple_512.json");
  require_spec_passes("matmul/matmul_tiled_512.json");
  require_spec_passes("matmul/matmul_tiled_bounds_512.json");
  require_spec_passes("matmul/matmul_coarsened_512.json");
}
