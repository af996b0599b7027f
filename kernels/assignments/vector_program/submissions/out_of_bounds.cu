// Sample submission "out_of_bounds": reads in[i + 1], one past the end for the last thread.
#include <cstdio>
#include <cstdlib>

__global__ void scale(const float* in, float* out, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * in[i + 1];
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  const size_t bytes = size_t(n) * sizeof(float);
  float* h = static_cast<float*>(std::malloc(bytes));
  for (int i = 0; i < n; ++i) h[i] = float(i);
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, bytes);
  cudaMalloc(&out, bytes);
  cudaMemcpy(in, h, bytes, cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(in, out, 2.0f, n);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  cudaMemcpy(h, out, bytes, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += h[i];
  std::printf("n=%d\nsum=%.0f\nlast=%.0f\n", n, sum, double(h[n - 1]));
  cudaFree(in);
  cudaFree(out);
  std::free(h);
  return 0;
}
