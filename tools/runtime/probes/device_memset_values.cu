// Device-side cudaMemsetAsync (dynamic parallelism) with several values and sizes: on an H200
// with CUDA 13.0 (driver 580.159.04) it writes zeros whatever the value
// (docs/measurements/h200_device_memset_2026-11-28.txt). Build: nvcc -arch=native -rdc=true -lcudadevrt
#include <cstdio>
__global__ void k(unsigned char* p, int v, int n, int* ret) { *ret = cudaMemsetAsync(p, v, n, 0); }
int main() {
  unsigned char* p; int* r; cudaMalloc(&p, 64); cudaMalloc(&r, 4);
  int vals[] = {0x7f, 0x01, 0xff, 0x80, 0x1234, 0x42};
  int ns[] = {1, 3, 4, 8, 16};
  for (int v : vals) for (int n : ns) {
    cudaMemset(p, 0xaa, 64);
    k<<<1,1>>>(p, v, n, r); cudaDeviceSynchronize();
    unsigned char h[20]; int hr; cudaMemcpy(h, p, 20, cudaMemcpyDeviceToHost); cudaMemcpy(&hr, r, 4, cudaMemcpyDeviceToHost);
    printf("v=%#x n=%d ret=%d:", v, n, hr); for (int i = 0; i < 18; ++i) printf(" %02x", h[i]); printf("\n");
  }
}
