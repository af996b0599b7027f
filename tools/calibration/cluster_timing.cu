// Kernel times of distributed shared memory, on the GPU and under warpsim (the same binary):
//   histogram: 2^20 values into 1,024 bins spread over a cluster's blocks, counted with
//     atomics on the block that holds the bin (cluster 1: all bins in the block's own memory);
//   remote_sum: every thread adds 64 words of the next block's shared array (cluster >= 2),
//     or of its own (cluster 1).
// 264 blocks of 256 threads (two per SM on 132 SMs), timed with events after a warm-up
// launch, the median of 5; cluster 0 is the same kernel launched without a cluster shape.
//   ./cluster_timing     prints "kernel,cluster,us"
#include <cooperative_groups.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

__global__ void histogram(const int* in, int n, int bins, int* hist) {
  extern __shared__ int part[];
  cg::cluster_group c = cg::this_cluster();
  const int per = bins / c.num_blocks();
  for (int i = threadIdx.x; i < per; i += blockDim.x) part[i] = 0;
  c.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const int v = in[i] % bins;
    atomicAdd(c.map_shared_rank(part, v / per) + v % per, 1);
  }
  c.sync();
  for (int i = threadIdx.x; i < per; i += blockDim.x) atomicAdd(&hist[c.block_rank() * per + i], part[i]);
}

__global__ void remote_sum(int* out) {
  __shared__ int s[4096];
  cg::cluster_group c = cg::this_cluster();
  for (int i = threadIdx.x; i < 4096; i += blockDim.x) s[i] = i + blockIdx.x;
  c.sync();
  const int* peer = c.map_shared_rank(s, (c.block_rank() + 1) % c.num_blocks());
  int acc = 0;
  for (int k = 0; k < 64; ++k) acc += peer[(threadIdx.x + k * 64) & 4095];
  c.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// cluster 0: a plain launch (cudaLaunchKernel; each block a cluster of one, not an explicit one).
static float time_launch(const void* fn, unsigned cluster, size_t shared, void** args) {
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = cluster;
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(264);
  cfg.blockDim = dim3(256);
  cfg.dynamicSmemBytes = shared;
  cfg.attrs = cluster ? &attr : nullptr;
  cfg.numAttrs = cluster ? 1 : 0;
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaLaunchKernelExC(&cfg, fn, args);  // warm-up
  std::vector<float> ms;
  for (int r = 0; r < 5; ++r) {
    cudaEventRecord(a);
    cudaLaunchKernelExC(&cfg, fn, args);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float t = 0;
    cudaEventElapsedTime(&t, a, b);
    ms.push_back(t);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(ms.begin(), ms.end());
  const cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? ms[2] * 1000.0f : -1.0f;
}

int main() {
  const int n = 1 << 20, bins = 1024;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = int((unsigned(i) * 2654435761u) >> 7) & 0x7fffffff;
  int *in, *hist, *out;
  cudaMalloc((void**)&in, n * sizeof(int));
  cudaMalloc((void**)&hist, bins * sizeof(int));
  cudaMalloc((void**)&out, 264 * 256 * sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int count = n, nbins = bins;
  printf("kernel,cluster,us\n");
  for (unsigned c : {0u, 1u, 2u, 4u, 8u}) {
    void* args[] = {&in, &count, &nbins, &hist};
    printf("histogram,%u,%.2f\n", c, time_launch((void*)histogram, c, bins / (c ? c : 1) * sizeof(int), args));
  }
  for (unsigned c : {0u, 1u, 2u, 4u, 8u}) {
    void* args[] = {&out};
    printf("remote_sum,%u,%.2f\n", c, time_launch((void*)remote_sum, c, 0, args));
  }
  return 0;
}
