// Every 16-bit input of the approximate half-precision special functions (cc 7.5+/9.0):
// tanh.approx.{f16,bf16,f16x2,bf16x2}, ex2.approx.{f16,f16x2} and ex2.approx.ftz.{bf16,bf16x2}.
// Writes OUT (a binary file): for each of the 8 instructions in the order of kNames, 65,536
// little-endian 32-bit results, the one for input i at index i (pairs: the input word is
// i in the upper half and i ^ 0x5555 in the lower). The same binary runs on the GPU and
// under `warpsim exec`, and tools/calibration/compare_half_approx.py compares the files.
//   nvcc -cudart shared -arch=sm_90 -o sweep tools/calibration/half_approx_sweep.cu && ./sweep OUT
#include <cstdint>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

constexpr int kOps = 8;
const char* kNames[kOps] = {"tanh.approx.f16",   "tanh.approx.bf16",     "ex2.approx.f16",   "ex2.approx.ftz.bf16",
                            "tanh.approx.f16x2", "tanh.approx.bf16x2",   "ex2.approx.f16x2", "ex2.approx.ftz.bf16x2"};

__global__ void sweep(uint32_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;  // 0 .. 65535
  const unsigned short h = (unsigned short)i;
  const uint32_t w = (i << 16) | (i ^ 0x5555u);
  unsigned short r;
  uint32_t r2;
  asm("tanh.approx.f16 %0, %1;" : "=h"(r) : "h"(h));
  out[0 * 65536 + i] = r;
  asm("tanh.approx.bf16 %0, %1;" : "=h"(r) : "h"(h));
  out[1 * 65536 + i] = r;
  asm("ex2.approx.f16 %0, %1;" : "=h"(r) : "h"(h));
  out[2 * 65536 + i] = r;
  asm("ex2.approx.ftz.bf16 %0, %1;" : "=h"(r) : "h"(h));
  out[3 * 65536 + i] = r;
  asm("tanh.approx.f16x2 %0, %1;" : "=r"(r2) : "r"(w));
  out[4 * 65536 + i] = r2;
  asm("tanh.approx.bf16x2 %0, %1;" : "=r"(r2) : "r"(w));
  out[5 * 65536 + i] = r2;
  asm("ex2.approx.f16x2 %0, %1;" : "=r"(r2) : "r"(w));
  out[6 * 65536 + i] = r2;
  asm("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(r2) : "r"(w));
  out[7 * 65536 + i] = r2;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT\n", argv[0]);
    return 2;
  }
  uint32_t* d = nullptr;
  const size_t n = size_t(kOps) * 65536;
  if (cudaMalloc(&d, n * sizeof(uint32_t)) != cudaSuccess) return 1;
  sweep<<<65536 / 256, 256>>>(d);
  std::vector<uint32_t> h(n);
  const cudaError_t e = cudaMemcpy(h.data(), d, n * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s\n", cudaGetErrorString(e));
    return 1;
  }
  FILE* f = std::fopen(argv[1], "wb");
  if (!f || std::fwrite(h.data(), sizeof(uint32_t), n, f) != n) return 1;
  std::fclose(f);
  for (int k = 0; k < kOps; ++k) std::printf("%s\n", kNames[k]);
  return 0;
}
