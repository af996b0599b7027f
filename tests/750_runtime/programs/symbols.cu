// __constant__ and __device__ variables from the host: cudaMemcpyToSymbol/FromSymbol,
// initialisers, cudaGetSymbolAddress/Size, and a device counter kernels update.
#include <cstdio>

__constant__ float coeffs[4];
__device__ int table[4] = {10, 20, 30, 40};
__device__ unsigned int counter;

__global__ void polynomial(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = coeffs[0] + v * (coeffs[1] + v * (coeffs[2] + v * coeffs[3])) + table[i % 4];
    atomicAdd(&counter, 1u);
  }
}

int main() {
  const int n = 100;
  float hx[n], hy[n];
  for (int i = 0; i < n; ++i) hx[i] = i * 0.5f;
  const float c[4] = {1.0f, 2.0f, 0.5f, 0.25f};
  printf("to symbol: %s\n", cudaGetErrorName(cudaMemcpyToSymbol(coeffs, c, sizeof(c))));
  size_t size = 0;
  void* addr = nullptr;
  cudaError_t size_rc = cudaGetSymbolSize(&size, table);  // before printf: argument order is unspecified
  printf("size: %s %zu\n", cudaGetErrorName(size_rc), size);
  cudaError_t addr_rc = cudaGetSymbolAddress(&addr, counter);
  printf("address: %s %s\n", cudaGetErrorName(addr_rc), addr ? "set" : "null");
  float *dx, *dy;
  cudaMalloc(&dx, sizeof(hx));
  cudaMalloc(&dy, sizeof(hy));
  cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice);
  for (int launch = 0; launch < 3; ++launch) polynomial<<<4, 32>>>(dx, dy, n);
  cudaMemcpy(hy, dy, sizeof(hy), cudaMemcpyDeviceToHost);
  unsigned int count = 0;
  printf("from symbol: %s\n", cudaGetErrorName(cudaMemcpyFromSymbol(&count, counter, sizeof(count))));
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    float v = hx[i];
    float expect = c[0] + v * (c[1] + v * (c[2] + v * c[3])) + 10 * (i % 4 + 1);
    if (hy[i] != expect) ++wrong;
  }
  printf("counter %u, wrong %d\n", count, wrong);
  int t[4];
  cudaMemcpyFromSymbol(t, table, sizeof(t));
  printf("table %d %d %d %d\n", t[0], t[1], t[2], t[3]);
  printf("past the end: %s\n", cudaGetErrorName(cudaMemcpyToSymbol(coeffs, c, sizeof(c), 8)));
  printf("not a symbol: %s\n", cudaGetErrorName(cudaMemcpyToSymbol(hx, c, 4)));
  return wrong == 0 && count == 3 * n ? 0 : 1;
}
