// What a cudaDeviceReset does to __managed__ variables: on an H200 they keep their address
// and value, and the host and kernels go on using them. managed_reset.expected is an
// H200's output (tools/runtime/ground_truth.sh; docs/measurements/h200_managed_reset_2026-11-28.txt).
#include <cstdio>

__managed__ int counter = 5;
__managed__ float table[4] = {1, 2, 3, 4};

__global__ void bump() { atomicAdd(&counter, 1); table[threadIdx.x % 4] += 1; }

int main() {
  counter = 40;
  bump<<<1, 4>>>();
  printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  printf("before reset: counter %d table %g %g\n", counter, table[0], table[3]);
  const void* before = &counter;
  printf("reset: %s\n", cudaGetErrorName(cudaDeviceReset()));
  fflush(stdout);
  printf("after reset: same address %d\n", before == (const void*)&counter);
  fflush(stdout);
  printf("after reset: counter %d table %g %g\n", counter, table[0], table[3]);
  fflush(stdout);
  bump<<<1, 4>>>();
  printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  printf("after launch: counter %d table %g %g\n", counter, table[0], table[3]);
  return 0;
}
