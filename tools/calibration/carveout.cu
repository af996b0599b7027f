// How the L1/shared split of an SM follows a kernel's shared memory and the program's
// preferences: the same binary runs natively on the H100 (tools/calibration/carveout.sh
// device, with ncu's launch__shared_mem_config_size per launch) and under `warpsim exec`.
//
// Each case sets a preference (none, cudaFuncAttributePreferredSharedMemoryCarveout,
// cudaFuncSetCacheConfig or cudaDeviceSetCacheConfig), then launches one block of `chase`
// with some dynamic shared memory and a block size, which together decide how many blocks
// the driver must be able to fit on an SM. One thread chases pointers 128 bytes apart
// through a footprint: a warm pass, then a timed one. Cycles per step show whether the
// footprint fits the L1 that the split leaves.
//
// Output, one line per launch:
//   case,block,dynamic_bytes,preference,value,occupancy_api,footprint_kb,cycles_per_step
// With argument `one`, only the 64 KB footprint is run (for ncu, one launch per case).
// With argument `grid`, no preference and a 1-line footprint, for block sizes 32..1024 and
// dynamic shared memory 0..48 KB: the driver's own choice, read with ncu.
// Build: nvcc -O3 -arch=sm_90 -cudart shared -o carveout carveout.cu
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void chase(const unsigned* next, unsigned lines, unsigned* out, long long* cycles) {
  extern __shared__ unsigned dyn[];
  if (threadIdx.x != 0) return;
  unsigned p = 0;
  for (unsigned i = 0; i < lines; ++i) p = next[p];  // warm pass: fill the L1
  long long t0 = clock64();
  for (unsigned i = 0; i < lines; ++i) p = next[p];
  long long t1 = clock64();
  if (p == 0xFFFFFFFFu) dyn[0] = p;  // never: keeps the shared array declared in the kernel
  out[0] = p;
  cycles[0] = t1 - t0;
}

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

struct Case {
  const char* name;
  int block;
  int dynamic_kb;
  const char* preference;  // none, carveout, func_cache, device_cache
  int value;               // carveout percent, or a cudaFuncCache value
};

int main(int argc, char** argv) {
  const bool one = argc > 1 && std::strcmp(argv[1], "one") == 0;
  const bool grid = argc > 1 && std::strcmp(argv[1], "grid") == 0;
  const Case cases[] = {
      // The driver's own choice: shared memory per block x the blocks the other limits allow.
      {"default", 32, 0, "none", -1},
      {"default", 32, 1, "none", -1},
      {"default", 32, 4, "none", -1},
      {"default", 32, 16, "none", -1},
      {"default", 32, 40, "none", -1},
      {"default", 32, 100, "none", -1},
      {"default", 32, 200, "none", -1},
      {"default", 256, 0, "none", -1},
      {"default", 256, 8, "none", -1},
      {"default", 256, 24, "none", -1},
      {"default", 1024, 0, "none", -1},
      {"default", 1024, 16, "none", -1},
      {"default", 1024, 60, "none", -1},
      // A carveout preference in percent of the largest shared capacity.
      {"carveout", 32, 0, "carveout", 0},
      {"carveout", 32, 0, "carveout", 10},
      {"carveout", 32, 0, "carveout", 25},
      {"carveout", 32, 0, "carveout", 50},
      {"carveout", 32, 0, "carveout", 100},
      {"carveout", 32, 16, "carveout", 0},
      {"carveout", 32, 16, "carveout", 50},
      {"carveout", 1024, 60, "carveout", 0},
      {"carveout", 1024, 60, "carveout", 25},
      // The older cache-configuration calls.
      {"func_cache", 32, 0, "func_cache", 1},  // cudaFuncCachePreferShared
      {"func_cache", 32, 0, "func_cache", 2},  // cudaFuncCachePreferL1
      {"func_cache", 32, 0, "func_cache", 3},  // cudaFuncCachePreferEqual
      {"func_cache", 32, 16, "func_cache", 2},
      {"device_cache", 32, 0, "device_cache", 1},
      {"device_cache", 32, 0, "device_cache", 2},
  };
  const int footprints_kb[] = {16, 24, 32, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256};
  const unsigned max_lines = 256 * 1024 / 128;
  unsigned *next, *out;
  long long* cycles;
  check(cudaMalloc(&next, max_lines * 128), "malloc next");
  check(cudaMalloc(&out, sizeof(unsigned)), "malloc out");
  check(cudaMalloc(&cycles, sizeof(long long)), "malloc cycles");
  check(cudaFuncSetAttribute(chase, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024), "max dynamic");
  std::vector<unsigned> host(max_lines * 32, 0);
  if (grid) {
    check(cudaMemset(next, 0, 128), "memset");
    const int blocks[] = {32, 64, 96, 128, 192, 256, 384, 512, 768, 1024};
    const int kb[] = {0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48};
    for (int b : blocks)
      for (int k : kb) {
        int occ = 0;
        check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, chase, b, size_t(k) * 1024), "occupancy");
        chase<<<1, b, size_t(k) * 1024>>>(next, 1, out, cycles);
        check(cudaDeviceSynchronize(), "grid launch");
        std::printf("grid,%d,%d,none,-1,%d,0,0\n", b, k * 1024, occ);
      }
    return 0;
  }
  for (const Case& c : cases) {
    // Every case starts from no preference at all.
    check(cudaFuncSetAttribute(chase, cudaFuncAttributePreferredSharedMemoryCarveout, -1), "carveout reset");
    check(cudaFuncSetCacheConfig(chase, cudaFuncCachePreferNone), "func cache reset");
    check(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone), "device cache reset");
    if (!std::strcmp(c.preference, "carveout"))
      check(cudaFuncSetAttribute(chase, cudaFuncAttributePreferredSharedMemoryCarveout, c.value), "carveout");
    else if (!std::strcmp(c.preference, "func_cache"))
      check(cudaFuncSetCacheConfig(chase, cudaFuncCache(c.value)), "func cache");
    else if (!std::strcmp(c.preference, "device_cache"))
      check(cudaDeviceSetCacheConfig(cudaFuncCache(c.value)), "device cache");
    const size_t dyn = size_t(c.dynamic_kb) * 1024;
    int occ = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, chase, c.block, dyn), "occupancy");
    for (int fp : footprints_kb) {
      if (one && fp != 64) continue;
      const unsigned lines = unsigned(fp) * 1024 / 128;
      for (unsigned i = 0; i < lines; ++i) host[size_t(i) * 32] = ((i + 1) % lines) * 32;
      check(cudaMemcpy(next, host.data(), size_t(lines) * 128, cudaMemcpyHostToDevice), "copy");
      chase<<<1, c.block, dyn>>>(next, lines, out, cycles);
      check(cudaGetLastError(), "launch");
      long long t = 0;
      check(cudaMemcpy(&t, cycles, sizeof t, cudaMemcpyDeviceToHost), "copy back");
      std::printf("%s,%d,%d,%s,%d,%d,%d,%.1f\n", c.name, c.block, c.dynamic_kb * 1024, c.preference, c.value, occ, fp,
                  double(t) / lines);
    }
  }
  return 0;
}
