#include "spec_runner.hpp"

using kernel_test::require_spec_passes;

TEST_CASE("offsetCopy and strideCopy at several offsets and strides", "[kernels][memory]") {
  for (int offset : {0, 1, 16, 32})
    require_spec_passes("memory/offset_copy.json", {{"n", 4096}, {"offset", offset}});
  for (int stride : {1, 2, 3, 16})
    require_spec_passes("memory/stride_copy.json", {{"n", 4096}, {"stride", stride}});
  require_spec_passes("memory/offset_copy.json", {{"n", 96}, {"block_size", 32}, {"offset", 5}}, "fx5800");
}

TEST_CASE("array of structures vs structure of arrays", "[kernels][memory]") {
  for (const char* spec : {"memory/aos_soa_bar.json", "memory/aos_keys.json", "memory/soa_keys.json"}) {
    require_spec_passes(spec, {{"n", 256}});
    require_spec_passes(spec, {{"n", 96 * 7}, {"block_size", 96}});
  }
}

TEST_CASE("the note's A[tid] += 2 and A[tid*2] += 2", "[kernels][memory]") {
  for (const char* spec : {"memory/mem_access_contiguous.json", "memory/mem_access_strided.json"}) {
    require_spec_passes(spec);  // 1024 threads, 2048 floats
    require_spec_passes(spec, {{"block_size", 64}});
    require_spec_passes(spec, {{"threads", 32}, {"block_size", 16}, {"n", 64}}, "fx5800");
  }
}

TEST_CASE("memory examples at the specs' sizes", "[kernels][memory][large]") {
  for (const char* spec : {"memory/offset_copy.json", "memory/stride_copy.json", "memory/aos_soa_bar.json",
                           "memory/aos_keys.json", "memory/soa_keys.json"})
    require_spec_passes(spec);
}
