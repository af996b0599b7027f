// The shared-memory limits and L1/shared preferences a CUDA program sets and sees: the
// per-block limit and its opt-in, the errors past them, the carveout attribute, the cache
// configurations and what the occupancy API makes of them. carveout_calls.expected is the
// output of a real H100; the launches' L1/shared splits are checked in warpsim's JSON.
#include <cstdio>

__global__ void with_static(int* out) {
  __shared__ int tile[256];  // 1 KB of static shared memory
  extern __shared__ int dyn[];
  tile[threadIdx.x % 256] = threadIdx.x;
  __syncthreads();
  dyn[threadIdx.x] = tile[255 - threadIdx.x % 256];
  out[threadIdx.x] = dyn[threadIdx.x];
}

__global__ void plain(int* out, unsigned words) {
  extern __shared__ int dyn[];
  int v = threadIdx.x;
  if (threadIdx.x < words) {
    dyn[threadIdx.x] = v;
    v = dyn[threadIdx.x] + 1;
  }
  out[threadIdx.x] = v;
}

static int* out;

static void show_attributes(const char* when) {
  cudaFuncAttributes a;
  cudaError_t e = cudaFuncGetAttributes(&a, with_static);
  std::printf("%s: %s static %zu max dynamic %d carveout %d\n", when, cudaGetErrorName(e), a.sharedSizeBytes,
              a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout);
}

static void launch_static(size_t dynamic) {
  with_static<<<1, 256, dynamic>>>(out);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("launch with %zu dynamic bytes: %s, then %s\n", dynamic, cudaGetErrorName(launch),
              cudaGetErrorName(sync));
}

static void occupancy(const char* preference, int threads, size_t dynamic) {
  int blocks = -1;
  cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, plain, threads, dynamic);
  std::printf("occupancy (%s) %d threads %zu dynamic: %s %d blocks\n", preference, threads, dynamic,
              cudaGetErrorName(e), blocks);
}

static void launch_plain(const char* preference, size_t dynamic) {
  plain<<<1, 32, dynamic>>>(out, unsigned(dynamic / sizeof(int)));
  std::printf("plain (%s) with %zu dynamic bytes: %s\n", preference, dynamic, cudaGetErrorName(cudaDeviceSynchronize()));
}

int main() {
  cudaMalloc(&out, 1024 * sizeof(int));
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  std::printf("sharedMemPerBlock %zu optin %zu per SM %zu reserved %zu\n", p.sharedMemPerBlock,
              p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor, p.reservedSharedMemPerBlock);
  const int optin = int(p.sharedMemPerBlockOptin);

  show_attributes("initially");
  launch_static(48 * 1024 - 1024);
  launch_static(48 * 1024);
  for (int v : {64 * 1024, optin - 1024, optin - 1023, -1}) {
    cudaError_t e = cudaFuncSetAttribute(with_static, cudaFuncAttributeMaxDynamicSharedMemorySize, v);
    cudaGetLastError();
    std::printf("max dynamic %d: %s\n", v, cudaGetErrorName(e));
  }
  show_attributes("after the opt-in");
  launch_static(optin - 1024);
  launch_static(optin - 1023);

  for (int c : {-2, 101, 0, 50, 100, -1}) {
    cudaError_t e = cudaFuncSetAttribute(with_static, cudaFuncAttributePreferredSharedMemoryCarveout, c);
    cudaGetLastError();
    std::printf("carveout %d: %s\n", c, cudaGetErrorName(e));
  }
  cudaFuncSetAttribute(with_static, cudaFuncAttributePreferredSharedMemoryCarveout, 25);
  show_attributes("after carveout 25");
  std::printf("cache config 4: %s\n", cudaGetErrorName(cudaFuncSetCacheConfig(plain, cudaFuncCache(4))));
  cudaGetLastError();
  cudaFuncCache c = cudaFuncCachePreferShared;
  cudaDeviceGetCacheConfig(&c);
  std::printf("device cache config initially %d\n", int(c));
  cudaDeviceSetCacheConfig(cudaFuncCachePreferL1);
  cudaDeviceGetCacheConfig(&c);
  std::printf("device cache config after PreferL1 %d\n", int(c));
  cudaDeviceSetCacheConfig(cudaFuncCachePreferNone);

  // Launches of `plain` with each kind of preference (their splits are in the JSON report).
  occupancy("none", 32, 0);
  occupancy("none", 32, 16 * 1024);
  occupancy("none", 256, 8 * 1024);
  launch_plain("none", 0);
  launch_plain("none", 16 * 1024);
  cudaFuncSetAttribute(plain, cudaFuncAttributePreferredSharedMemoryCarveout, 0);
  occupancy("carveout 0", 32, 0);
  occupancy("carveout 0", 32, 16 * 1024);
  launch_plain("carveout 0", 16 * 1024);
  cudaFuncSetAttribute(plain, cudaFuncAttributePreferredSharedMemoryCarveout, 50);
  occupancy("carveout 50", 32, 16 * 1024);
  launch_plain("carveout 50", 0);
  cudaFuncSetAttribute(plain, cudaFuncAttributePreferredSharedMemoryCarveout, -1);
  cudaFuncSetCacheConfig(plain, cudaFuncCachePreferL1);
  occupancy("PreferL1", 32, 0);
  occupancy("PreferL1", 32, 20 * 1024);
  launch_plain("PreferL1", 0);
  cudaFuncSetCacheConfig(plain, cudaFuncCachePreferShared);
  occupancy("PreferShared", 32, 0);
  launch_plain("PreferShared", 0);
  cudaFuncSetCacheConfig(plain, cudaFuncCachePreferNone);
  cudaDeviceSetCacheConfig(cudaFuncCachePreferL1);
  occupancy("device PreferL1", 32, 0);
  launch_plain("device PreferL1", 0);
  cudaFree(out);

  // cudaDeviceReset: the device's cache configuration is reset, the functions' attributes stay.
  cudaDeviceReset();
  cudaDeviceGetCacheConfig(&c);
  std::printf("device cache config after reset %d\n", int(c));
  show_attributes("after reset");
  cudaMalloc(&out, 1024 * sizeof(int));
  launch_static(64 * 1024);
  cudaFree(out);
  return 0;
}
