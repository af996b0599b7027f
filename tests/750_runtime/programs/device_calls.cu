// Device functions, printf and assert in a whole program (written for warpsim's tests).
#include <cassert>
#include <cstdio>

__device__ __noinline__ int depth_sum(int n) { return n <= 0 ? 0 : n + depth_sum(n - 1); }

__device__ __noinline__ float scaled(float x, int k) {
  float steps[4];
  for (int i = 0; i < 4; ++i) steps[i] = x * i;
  return steps[k & 3];
}

__global__ void work(int* out) {
  int t = threadIdx.x;
  out[t] = depth_sum(t % 6) + (int)scaled(2.0f, t);
  if (t % 3 == 0) printf("block %d thread %d: sum %d, %.2f, %s\n", blockIdx.x, t, out[t], 0.5f * t, "ok");
}

__global__ void check(const int* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(in[i] >= 0);
}

int main() {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  work<<<2, 8>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("work: %s\n", cudaGetErrorName(e));
  int h[8];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; ++i) printf("%d ", h[i]);
  printf("\n");
  int bad = -1;
  cudaMemcpy(d + 5, &bad, sizeof bad, cudaMemcpyHostToDevice);
  check<<<1, 8>>>(d, 8);
  e = cudaDeviceSynchronize();
  printf("check: %s\n", cudaGetErrorName(e));
  return 0;
}
