#include "spec_runner.hpp"

using kernel_test::require_spec_passes;

TEST_CASE("FMA chains, K = 1 to 16", "[kernels][ilp]") {
  for (int k : {1, 2, 4, 8, 16}) {
    std::string spec = "ilp/fma_chains_k" + std::to_string(k) + ".json";
    require_spec_passes(spec, {{"blocks", 2}, {"iters", 64}});
    require_spec_passes(spec, {{"blocks", 3}, {"block_size", 96}, {"iters", 13}});  // not a multiple of the unroll
    require_spec_passes(spec, {{"blocks", 1}, {"block_size", 32}, {"iters", 1}});
  }
}

TEST_CASE("memory ILP copies and word sizes", "[kernels][ilp]") {
  for (int k : {1, 2, 4, 8}) {
    std::string spec = "ilp/memcpy_ilp_k" + std::to_string(k) + ".json";
    require_spec_passes(spec, {{"n", 256 * k * 4}});
    require_spec_passes(spec, {{"n", 64 * k * 3}, {"block_size", 64}});
  }
  for (const char* word : {"float", "float2", "float4"}) {
    std::string spec = std::string("ilp/copy_") + word + ".json";
    require_spec_passes(spec, {{"n", 4096}});
    require_spec_passes(spec, {{"n", 32 * 4 * 5}, {"block_size", 32}});
  }
}

TEST_CASE("ILP examples at the specs' sizes", "[kernels][ilp][large]") {
  for (int k : {1, 2, 4, 8, 16}) require_spec_passes("ilp/fma_chains_k" + std::to_string(k) + ".json");
  for (int k : {1, 2, 4, 8}) require_spec_passes("ilp/memcpy_ilp_k" + std::to_string(k) + ".json");
  for (const char* word : {"float", "float2", "float4"}) require_spec_passes(std::string("ilp/copy_") + word + ".json");
}
