// The per-block shared-memory limits a CUDA program sees, and the errors it gets past them:
// run natively on the H100 and under `warpsim exec --config h100`, the output must match
// (tools/calibration/carveout.sh runs it in both modes).
// Build: nvcc -O3 -arch=sm_90 -cudart shared -o shared_limits shared_limits.cu
#include <cstdio>

__global__ void with_static(int* out) {
  __shared__ int tile[256];  // 1 KB of static shared memory
  extern __shared__ int dyn[];
  tile[threadIdx.x] = threadIdx.x;
  dyn[threadIdx.x] = tile[255 - threadIdx.x];
  out[threadIdx.x] = dyn[threadIdx.x];
}

static void attributes(const char* when) {
  cudaFuncAttributes a;
  cudaError_t e = cudaFuncGetAttributes(&a, with_static);
  std::printf("%s: attributes %s shared %zu max_dynamic %d carveout %d\n", when, cudaGetErrorName(e),
              a.sharedSizeBytes, a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout);
}

static void launch(size_t dyn) {
  int* out;
  cudaMalloc(&out, 256 * sizeof(int));
  with_static<<<1, 256, dyn>>>(out);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("launch dynamic %zu: %s / %s\n", dyn, cudaGetErrorName(launch), cudaGetErrorName(sync));
  cudaFree(out);
}

int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  std::printf("sharedMemPerBlock %zu optin %zu per_sm %zu reserved %zu\n", p.sharedMemPerBlock,
              p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor, p.reservedSharedMemPerBlock);
  attributes("initial");
  launch(47 * 1024);
  launch(48 * 1024);
  launch(64 * 1024);
  const int sizes[] = {64 * 1024, int(p.sharedMemPerBlockOptin) - 1024, int(p.sharedMemPerBlockOptin) - 1023,
                       int(p.sharedMemPerBlockOptin)};
  for (int v : sizes) {
    cudaError_t e = cudaFuncSetAttribute(with_static, cudaFuncAttributeMaxDynamicSharedMemorySize, v);
    std::printf("set max dynamic %d: %s\n", v, cudaGetErrorName(e));
    cudaGetLastError();
  }
  attributes("after opt-in");
  launch(64 * 1024);
  launch(p.sharedMemPerBlockOptin - 1024);
  launch(p.sharedMemPerBlockOptin - 1023);
  const int carveouts[] = {-2, -1, 0, 50, 100, 101};
  for (int c : carveouts) {
    cudaError_t e = cudaFuncSetAttribute(with_static, cudaFuncAttributePreferredSharedMemoryCarveout, c);
    std::printf("set carveout %d: %s\n", c, cudaGetErrorName(e));
    cudaGetLastError();
  }
  attributes("after carveout");
  cudaError_t e = cudaFuncSetCacheConfig(with_static, cudaFuncCache(7));
  std::printf("cache config 7: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  cudaFuncCache c = cudaFuncCachePreferNone;
  cudaDeviceSetCacheConfig(cudaFuncCachePreferL1);
  cudaDeviceGetCacheConfig(&c);
  std::printf("device cache config after PreferL1: %d\n", int(c));
  for (int b : {32, 256}) {
    int n = -1;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, with_static, b, 100 * 1024);
    std::printf("occupancy block %d dynamic 100 KB: %d\n", b, n);
  }
  return 0;
}
