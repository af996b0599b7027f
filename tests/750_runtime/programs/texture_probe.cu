// Linear filtering of float texels that are not exactly representable sums: 256 1D and
// 256 2D fetches printed exactly (%a). texture_probe.expected is what an NVIDIA H100
// printed (tools/runtime/texture_ground_truth.sh); warpsim must print the same.
#include <cstdio>
#include <cstring>
__global__ void k1(cudaTextureObject_t t, float* out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) out[i] = tex1D<float>(t, 0.5f + i / 64.0f);
}
__global__ void k2(cudaTextureObject_t t, float* out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) out[i] = tex2D<float>(t, 0.5f + (i % 16) / 16.0f * 1.0f + 0.013f * (i / 16), 0.5f + (i / 16) / 17.0f);
}
int main() {
  const int W = 8;
  float h[W * 8];
  for (int i = 0; i < W * 8; ++i) h[i] = 0.1f + 0.37f * (i % 7) + 0.011f * i;
  cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
  cudaArray_t a1, a2;
  cudaMallocArray(&a1, &d, W, 0);
  cudaMallocArray(&a2, &d, W, 8);
  cudaMemcpy2DToArray(a1, 0, 0, h, W * 4, W * 4, 1, cudaMemcpyHostToDevice);
  cudaMemcpy2DToArray(a2, 0, 0, h, W * 4, W * 4, 8, cudaMemcpyHostToDevice);
  cudaResourceDesc r; memset(&r, 0, sizeof r); r.resType = cudaResourceTypeArray;
  cudaTextureDesc td; memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp; td.filterMode = cudaFilterModeLinear;
  cudaTextureObject_t t1, t2;
  r.res.array.array = a1; cudaCreateTextureObject(&t1, &r, &td, nullptr);
  r.res.array.array = a2; cudaCreateTextureObject(&t2, &r, &td, nullptr);
  float* o; cudaMalloc(&o, 256 * 4); float out[256];
  k1<<<1, 256>>>(t1, o, 256);
  cudaMemcpy(out, o, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 256; ++i) printf("1d %d %a\n", i, out[i]);
  k2<<<1, 256>>>(t2, o, 256);
  cudaMemcpy(out, o, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 256; ++i) printf("2d %d %a\n", i, out[i]);
  return 0;
}
