// Benchmark/check program: two kernels whose shared memory needs give them different
// L1/shared splits on the H100 config, launched in turn (docs/performance.md, eighteenth
// session: the L1s of each split are kept while the other runs). Build:
//   nvcc -cudart shared -arch=sm_75 -o alternating_splits tools/bench/programs/alternating_splits.cu
#include <cstdio>
// Two kernels whose shared memory needs give them different L1/shared splits, launched in
// turn: each reads the same 64 KB twice (L1 hits where the L1 holds it).
__global__ void with_shared(const float* in, float* out, int n) {
  extern __shared__ float buf[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int r = 0; r < 2; ++r)
    for (int j = threadIdx.x; j < n; j += blockDim.x) s += in[j];
  buf[threadIdx.x] = s;
  __syncthreads();
  out[i] = buf[(threadIdx.x + 1) % blockDim.x];
}
__global__ void without_shared(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int r = 0; r < 2; ++r)
    for (int j = threadIdx.x; j < n; j += blockDim.x) s += in[j];
  out[i] += s;
}
int main() {
  const int n = 16384;
  float *in, *out;
  cudaMalloc(&in, n * 4); cudaMalloc(&out, 4096 * 4);
  cudaMemset(in, 0, n * 4); cudaMemset(out, 0, 4096 * 4);
  cudaFuncSetAttribute(with_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 160 * 1024);
  for (int k = 0; k < 6; ++k) {
    with_shared<<<4 + k, 256, 160 * 1024>>>(in, out, n);
    without_shared<<<4 + k, 256>>>(in, out, n);
  }
  float h; cudaMemcpy(&h, out, 4, cudaMemcpyDeviceToHost);
  printf("%s %f\n", cudaGetErrorString(cudaGetLastError()), h);
}
