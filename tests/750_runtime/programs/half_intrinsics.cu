// cuda_fp16.hpp's and cuda_bf16.hpp's intrinsics as a program uses them, built for sm_90:
// __nv_bfloat16 __hadd, __hsub, __hmul, __hfma, __hmax, __hlt (add/sub/mul/fma/max/setp
// .bf16), and __half __hdiv and __hlt (setp.f16 in __hdiv's refinement). Prints every
// result's float bits; the expected output is an H200's.
#include <cstdio>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void k(const float* in, float* out) {
  int i = threadIdx.x;
  __nv_bfloat16 a = __float2bfloat16(in[i]), b = __float2bfloat16(in[i + 32]);
  __half x = __float2half(in[i]), y = __float2half(in[i + 32]);
  out[i] = __bfloat162float(__hfma(a, b, __hadd(a, b)));
  out[i + 32] = __half2float(__hdiv(x, y));
  out[i + 64] = (__hlt(a, b) ? 1.f : 0.f) + (__hlt(x, y) ? 2.f : 0.f);
  out[i + 96] = __bfloat162float(__hmax(__hmul(a, b), __hsub(a, b)));
}
int main() {
  float h[64], o[128];
  for (int i = 0; i < 64; ++i) h[i] = (i * 37 % 23) / 7.0f - 1.5f;
  float *d, *e;
  cudaMalloc(&d, sizeof h); cudaMalloc(&e, sizeof o);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, 32>>>(d, e);
  cudaMemcpy(o, e, sizeof o, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 128; ++i) printf("%d %a\n", i, o[i]);
  return 0;
}
