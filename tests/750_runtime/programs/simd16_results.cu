// The 16-bit integer pairs of cc 9.0 as the GPU computes them: add, min, max on
// .u16x2 and .s16x2, min/max.relu on .s16x2 and .s32, and the intrinsics that compile to
// them on sm_90 (the SIMD __vadd2, __vsub2, __vmaxs2, __vminu2, __vabsdiffs2 and the DPX
// __vimax_s16x2_relu, __vimin_s32_relu, __viaddmax_s16x2, __vimax3_s16x2_relu ...).
#include <cstdint>
#include <cstdio>

#include <cuda_runtime.h>

#include "results_cases.cuh"

enum Op {
  kAddU, kAddS, kMinU, kMinS, kMaxU, kMaxS, kMinReluS, kMaxReluS, kMinRelu32, kMaxRelu32,
  kVadd2, kVsub2, kVmaxs2, kVminu2, kVabsdiffs2, kVimaxReluS16, kViminRelu32, kViaddmaxS16, kVimax3ReluS16,
  kViaddminU16,
  kOps
};
const char* kNames[] = {"add.u16x2",         "add.s16x2",
                        "min.u16x2",         "min.s16x2",         "max.u16x2",        "max.s16x2",
                        "min.relu.s16x2",    "max.relu.s16x2",    "min.relu.s32",     "max.relu.s32",
                        "__vadd2",           "__vsub2",           "__vmaxs2",         "__vminu2",
                        "__vabsdiffs2",      "__vimax_s16x2_relu", "__vimin_s32_relu", "__viaddmax_s16x2",
                        "__vimax3_s16x2_relu", "__viaddmin_u16x2"};

__global__ void ops(const int* op, const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned x = (unsigned)a[i], y = (unsigned)b[i], z = (unsigned)c[i];
  unsigned r = 0;
  switch (op[i]) {
    case kAddU: asm("add.u16x2 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); break;
    case kAddS: asm("add.s16x2 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); break;
    case kMinU: asm("min.u16x2 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); break;
    case kMinS: asm("min.s16x2 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); break;
    case kMaxU: asm("max.u16x2 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); break;
    case kMaxS: asm("max.s16x2 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); break;
    case kMinReluS: asm("min.relu.s16x2 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); break;
    case kMaxReluS: asm("max.relu.s16x2 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); break;
    case kMinRelu32: asm("min.relu.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); break;
    case kMaxRelu32: asm("max.relu.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); break;
    case kVadd2: r = __vadd2(x, y); break;
    case kVsub2: r = __vsub2(x, y); break;
    case kVmaxs2: r = __vmaxs2(x, y); break;
    case kVminu2: r = __vminu2(x, y); break;
    case kVabsdiffs2: r = __vabsdiffs2(x, y); break;
    case kVimaxReluS16: r = __vimax_s16x2_relu(x, y); break;
    case kViminRelu32: r = (unsigned)__vimin_s32_relu((int)x, (int)y); break;
    case kViaddmaxS16: r = __viaddmax_s16x2(x, y, z); break;
    case kVimax3ReluS16: r = __vimax3_s16x2_relu(x, y, z); break;
    case kViaddminU16: r = __viaddmin_u16x2(x, y, z); break;
  }
  d[i] = r;
}

constexpr int kMax = 1024;

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  static CaseList<kMax> list;
  // Halves at the edges of both readings: 0, 1, 0x7FFF, 0x8000, 0xFFFF, and mixed words.
  const uint64_t w[] = {0x00000000, 0x00010001, 0x7FFF8000, 0x80007FFF, 0xFFFFFFFF, 0xFFFF0001,
                        0x12345678, 0xFEDCBA98, 0x7FFFFFFF, 0x80000000};
  const int nw = sizeof(w) / sizeof(w[0]);
  for (int op = 0; op < kOps; ++op)
    for (int k = 0; k < nw; ++k)
      list.add(op, w[k], w[(k * 3 + 1) % nw], w[(k * 7 + 4) % nw]);
  static uint64_t d[kMax];
  RESULTS_CHECK(run_cases(ops, list.items, list.n, d));
  print_cases(kNames, list.items, list.n, d, 20, 8);
  return 0;
}
