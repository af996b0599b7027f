// Atomic adds on halves as the GPU computes them: atomicAdd on __half, __half2,
// __nv_bfloat16 and __nv_bfloat162 (atom.add.noftz.{f16,f16x2,bf16,bf16x2}) and the red
// form, in global and shared memory. Each thread adds once to its own word, so the results
// do not depend on the order of the atomics: ties, overflow, infinities, NaNs, signed zeros
// and subnormals (which .noftz keeps). Printed: the value after the add and the old one.
// Left out: __half2 and __nv_bfloat162 atomics on shared memory, where an H200 adds only the
// low half (docs/measurements/h200_half_atomics_with_shared_{bf16x2,f16x2}_2026-12-02.txt,
// docs/ptx-programs.md).
#include <cstdint>
#include <cstdio>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "results_cases.cuh"

enum Op { kF16, kF16x2, kBf16, kBf16x2, kF16Shared, kRedF16x2, kOps };
const char* kNames[] = {"atomicAdd(__half)",       "atomicAdd(__half2)",        "atomicAdd(bf16)",
                        "atomicAdd(bf162)",        "atomicAdd(__half) shared",
                        "red.add.noftz.f16x2"};

__global__ void ops(const int* op, const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d, int n) {
  __shared__ unsigned sh[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned init = (unsigned)a[i], add = (unsigned)b[i];
  // Each thread's own word, in d (global) or sh (shared), holds the initial value first.
  unsigned* g = (unsigned*)&d[i];
  unsigned* s = &sh[threadIdx.x];
  g[0] = init;
  g[1] = 0;
  *s = init;
  unsigned old = 0;
  switch (op[i]) {
    case kF16: old = __half_as_ushort(atomicAdd((__half*)g, __ushort_as_half((unsigned short)add))); break;
    case kF16x2: {
      __half2 r = atomicAdd((__half2*)g, *(const __half2*)&add);
      old = *(unsigned*)&r;
      break;
    }
    case kBf16: old = __bfloat16_as_ushort(atomicAdd((__nv_bfloat16*)g, __ushort_as_bfloat16((unsigned short)add))); break;
    case kBf16x2: {
      __nv_bfloat162 r = atomicAdd((__nv_bfloat162*)g, *(const __nv_bfloat162*)&add);
      old = *(unsigned*)&r;
      break;
    }
    case kF16Shared:
      old = __half_as_ushort(atomicAdd((__half*)s, __ushort_as_half((unsigned short)add)));
      g[0] = *s;
      break;
    case kRedF16x2: asm volatile("red.global.add.noftz.f16x2 [%0], %1;" ::"l"(g), "r"(add) : "memory"); break;
  }
  g[1] = old;
}

constexpr int kMax = 512;

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  static CaseList<kMax> list;
  auto add = [&](int op, uint64_t x, uint64_t y) { list.add(op, x, y, 0); };
  // f16 (initial, addend): 1 + 2^-11 (a tie to even), 65504 + 16 (a tie to infinity), inf + -inf,
  // a NaN, -0 + +0, -0 + -0, two subnormals (kept), 2048 + 1 (a tie), 1 + -1.
  const uint64_t h[][2] = {{0x3C00, 0x1000}, {0x7BFF, 0x4C00}, {0x7C00, 0xFC00}, {0x7E05, 0x3C00}, {0x8000, 0x0000},
                           {0x8000, 0x8000}, {0x0001, 0x0003}, {0x6800, 0x3C00}, {0x3C00, 0xBC00}, {0xFBFF, 0xCC00}};
  const int nh = sizeof(h) / sizeof(h[0]);
  // bf16: 1 + 2^-8 (a tie), the largest + its ulp / 2 (a tie to infinity), inf + -inf, a NaN,
  // signed zeros, subnormals, 256 + 1 (a tie), 1 + -1, 3 + 2^-7.
  const uint64_t bf[][2] = {{0x3F80, 0x3B80}, {0x7F7F, 0x7300}, {0x7F80, 0xFF80}, {0x7FC5, 0x3F80}, {0x8000, 0x0000},
                            {0x8000, 0x8000}, {0x0001, 0x0003}, {0x4380, 0x3F80}, {0x3F80, 0xBF80}, {0x4040, 0x3C00}};
  const int nb = sizeof(bf) / sizeof(bf[0]);
  for (int k = 0; k < nh; ++k) {
    add(kF16, h[k][0], h[k][1]);
    add(kF16Shared, h[k][0], h[k][1]);
    const int j = (k + 3) % nh;
    add(kF16x2, h[k][0] << 16 | h[j][0], h[k][1] << 16 | h[j][1]);
    add(kRedF16x2, h[k][0] << 16 | h[j][0], h[k][1] << 16 | h[j][1]);
  }
  for (int k = 0; k < nb; ++k) {
    add(kBf16, bf[k][0], bf[k][1]);
    const int j = (k + 3) % nb;
    add(kBf16x2, bf[k][0] << 16 | bf[j][0], bf[k][1] << 16 | bf[j][1]);
  }
  static uint64_t d[kMax];
  RESULTS_CHECK(run_cases(ops, list.items, list.n, d));
  const Case* cases = list.items;
  std::printf("%d cases\n", list.n);
  for (int i = 0; i < list.n; ++i)
    std::printf("%-26s %08llx + %08llx -> %08llx (old %08llx)\n", kNames[cases[i].op],
                (unsigned long long)cases[i].a, (unsigned long long)cases[i].b,
                (unsigned long long)(d[i] & 0xFFFFFFFFu), (unsigned long long)(d[i] >> 32));
  return 0;
}
