// Asynchronous copies from global to shared memory (sm_80's cp.async) as CUDA programs
// write them with the pipeline primitives: a double-buffered reduction that prefetches the
// next tile while it sums the current one (wait_prior(1): cp.async.wait_group 1), reading
// a neighbour's element after the barrier; and copies that zero-fill their last bytes.
// Integer-valued floats make every sum exact. Run on an H100 and under warpsim (built for
// sm_90), the output must be equal: async_copy.expected is the H100's.
#include <cuda_pipeline.h>

#include <cstdio>
#include <vector>

constexpr int kThreads = 128;

__global__ void pipelined_sum(const float4* in, float* out, int tiles) {
  __shared__ float4 buf[2][kThreads];
  const int t = threadIdx.x;
  const float4* mine = in + size_t(blockIdx.x) * tiles * kThreads;
  float acc = 0;
  __pipeline_memcpy_async(&buf[0][t], &mine[t], sizeof(float4));
  __pipeline_commit();
  for (int i = 0; i < tiles; ++i) {
    if (i + 1 < tiles) __pipeline_memcpy_async(&buf[(i + 1) & 1][t], &mine[(i + 1) * kThreads + t], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    const float4 v = buf[i & 1][(t + 1) % kThreads];
    acc += v.x + 2 * v.y + 3 * v.z + 4 * v.w;
    __syncthreads();
  }
  out[blockIdx.x * kThreads + t] = acc;
}

// Thread t copies 16 bytes and zero-fills the last 4 * (t % 4) of them.
__global__ void zero_fill(const float4* in, float4* out) {
  __shared__ float4 buf[64];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&buf[t], &in[t], sizeof(float4), 4 * (t % 4));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[t] = buf[63 - t];
}

int main() {
  const int blocks = 6, tiles = 9, n = blocks * tiles * kThreads;
  std::vector<float4> h(n);
  for (int i = 0; i < n; ++i) h[i] = make_float4(i % 7, (i * 3) % 11, (i * 5) % 13, (i * 7) % 17);
  float4* din;
  float* dout;
  cudaMalloc(&din, n * sizeof(float4));
  cudaMalloc(&dout, blocks * kThreads * sizeof(float));
  cudaMemcpy(din, h.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
  pipelined_sum<<<blocks, kThreads>>>(din, dout, tiles);
  std::vector<float> got(blocks * kThreads);
  cudaMemcpy(got.data(), dout, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  double total = 0;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < kThreads; ++t) {
      float want = 0;
      for (int i = 0; i < tiles; ++i) {
        const float4 v = h[(b * tiles + i) * kThreads + (t + 1) % kThreads];
        want += v.x + 2 * v.y + 3 * v.z + 4 * v.w;
      }
      wrong += got[b * kThreads + t] != want;
      total += got[b * kThreads + t];
    }
  std::printf("pipelined_sum: %s, total %.0f, thread 0 of block 5: %.0f, wrong %d\n",
              cudaGetErrorString(cudaGetLastError()), total, got[5 * kThreads], wrong);

  float4* dz;
  cudaMalloc(&dz, 64 * sizeof(float4));
  zero_fill<<<1, 64>>>(din, dz);
  std::vector<float4> z(64);
  cudaMemcpy(z.data(), dz, 64 * sizeof(float4), cudaMemcpyDeviceToHost);
  std::printf("zero_fill: %s\n", cudaGetErrorString(cudaGetLastError()));
  for (int t = 0; t < 8; ++t) std::printf("  out[%d] = %g %g %g %g\n", t, z[t].x, z[t].y, z[t].z, z[t].w);
  int zwrong = 0;
  for (int t = 0; t < 64; ++t) {
    const int s = 63 - t, keep = 4 - s % 4;
    const float want[4] = {h[s].x, h[s].y, h[s].z, h[s].w};
    const float have[4] = {z[t].x, z[t].y, z[t].z, z[t].w};
    for (int j = 0; j < 4; ++j) zwrong += have[j] != (j < keep ? want[j] : 0.0f);
  }
  std::printf("zero_fill wrong %d\n", zwrong);
  return 0;
}
