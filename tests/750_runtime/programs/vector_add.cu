// The first program a CUDA course writes: allocate, copy, launch, copy back, check.
#include <cstdio>
#include <cstdlib>

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  size_t bytes = n * sizeof(float);
  float* a = (float*)malloc(bytes);
  float* b = (float*)malloc(bytes);
  float* c = (float*)malloc(bytes);
  for (int i = 0; i < n; ++i) {
    a[i] = i;
    b[i] = 2 * i;
  }
  float *da, *db, *dc;
  cudaMalloc(&da, bytes);
  cudaMalloc(&db, bytes);
  cudaMalloc(&dc, bytes);
  cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  int threads = 256;
  vector_add<<<(n + threads - 1) / threads, threads>>>(da, db, dc, n);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    printf("launch failed: %s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    if (c[i] != 3.0f * i) ++wrong;
  printf("n=%d wrong=%d %s\n", n, wrong, wrong ? "FAIL" : "PASS");
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(a);
  free(b);
  free(c);
  return wrong ? 1 : 0;
}
