// Benchmark program: N launches of a one-block kernel (argv[1], default 1000), for the cost
// of a launch under `warpsim exec` (docs/performance.md, eighteenth session). Build:
//   nvcc -cudart shared -arch=sm_75 -o launch_loop tools/bench/programs/launch_loop.cu
#include <cstdio>
#include <cstdlib>

__global__ void inc(int* a) { a[threadIdx.x] += 1; }

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  int* d;
  cudaMalloc(&d, 128 * sizeof(int));
  cudaMemset(d, 0, 128 * sizeof(int));
  for (int i = 0; i < n; ++i) inc<<<1, 128>>>(d);
  int h[128];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("%d\n", h[5]);
  return h[5] == n ? 0 : 1;
}
