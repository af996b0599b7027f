#include "spec_runner.hpp"

using kernel_test::require_spec_passes;

TEST_CASE("Harris reduce0-4: per-block partial sums at several sizes", "[kernels][reduction]") {
  for (const char* name : {"reduce0", "reduce1", "reduce2"}) {
    std::string spec = std::string("reduction/harris_") + name + ".json";
    require_spec_passes(spec, {{"n", 128}});
    require_spec_passes(spec, {{"n", 128 * 37}});
    require_spec_passes(spec, {{"n", 256 * 5}, {"block_size", 256}});
    require_spec_passes(spec, {{"n", 512 * 3}, {"block_size", 512}}, "fx5800");
  }
  for (const char* name : {"reduce3", "reduce4"}) {
    std::string spec = std::string("reduction/harris_") + name + ".json";
    require_spec_passes(spec, {{"n", 256}});
    require_spec_passes(spec, {{"n", 256 * 37}});
    require_spec_passes(spec, {{"n", 2048 * 3}, {"block_size", 1024}});
    require_spec_passes(spec, {{"n", 128 * 9}, {"block_size", 64}}, "fx5800");
  }
}

TEST_CASE("Harris reduce5 (completely unrolled): every instantiated block size", "[kernels][reduction]") {
  require_spec_passes("reduction/harris_reduce5_128.json", {{"n", 256}});
  require_spec_passes("reduction/harris_reduce5_128.json", {{"n", 256 * 11}});
  require_spec_passes("reduction/harris_reduce5_512.json", {{"n", 1024 * 3}});
}

TEST_CASE("Harris reduce6 (multiple elements per thread): n not a multiple of the grid's stride", "[kernels][reduction]") {
  // 64 blocks of 128 threads stride through 2*128*64 elements; 100 chunks of 256 leave
  // blocks 0-35 with two chunks and the others with one.
  require_spec_passes("reduction/harris_reduce6_128.json", {{"n", 256 * 100}});
  require_spec_passes("reduction/harris_reduce6_128.json", {{"n", 256 * 10}});  // blocks 10-63 add nothing
  require_spec_passes("reduction/harris_reduce6_128.json", {{"n", 256 * 64 * 3}, {"blocks", 64}});
  require_spec_passes("reduction/harris_reduce6_512.json", {{"n", 1024 * 50}, {"blocks", 8}});
}

TEST_CASE("Harris's ladder at 4M ints", "[kernels][reduction][large]") {
  for (const char* spec :
       {"reduction/harris_reduce0.json", "reduction/harris_reduce1.json", "reduction/harris_reduce2.json",
        "reduction/harris_reduce3.json", "reduction/harris_reduce4.json", "reduction/harris_reduce5_128.json",
        "reduction/harris_reduce5_512.json", "reduction/harris_reduce6_128.json", "reduction/harris_reduce6_512.json"})
    require_spec_passes(spec);
}
