// A kernel writing one element past its buffer: the launch returns, the fault is the
// sticky error the next calls return, and warpsim names kernel, block, thread and line.
#include <cstdio>

__global__ void write_past_end(int* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = i;  // no bounds check: thread n writes past the end
}

int main() {
  const int n = 100;
  int* d;
  cudaMalloc(&d, n * sizeof(int));
  write_past_end<<<1, 128>>>(d, n);
  printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  printf("then malloc: %s\n", cudaGetErrorName(cudaMalloc(&d, 16)));
  printf("reset: %s\n", cudaGetErrorName(cudaDeviceReset()));
  printf("after reset: %s\n", cudaGetErrorName(cudaMalloc(&d, 16)));
  return 0;
}
