// Bit and byte instructions of the CUDA intrinsics as the GPU computes them: lop3.b32 (any
// three-input logic function, which nvcc emits for the SIMD intrinsics and bit tricks) with
// every one of the 256 lookup tables, sad on every type (__sad, __usad), vabsdiff4 with
// per-byte results (__vabsdiffu4, __vabsdiffs4) with every signedness, and pmevent
// (__prof_trigger, which must do nothing but let the program go on).
#include <cstdint>
#include <cstdio>
#include <utility>

#include <cuda_runtime.h>

#include "results_cases.cuh"

enum Op {
  kLop3,  // the table is c's bits 32-39 (lop3_by_table instantiates the instruction for each)
  kSadU16, kSadS16, kSadU32, kSadS32, kSadU64, kSadS64, kIntrSad, kIntrUsad,
  kAbsDiffUUU, kAbsDiffSSS, kAbsDiffUSU, kAbsDiffSUS, kIntrAbsDiffU4, kIntrAbsDiffS4,
  kOps
};
const char* kNames[] = {"lop3.b32",       "sad.u16",        "sad.s16",        "sad.u32",       "sad.s32",
                        "sad.u64",        "sad.s64",        "__sad",          "__usad",        "vabsdiff4.u.u.u",
                        "vabsdiff4.s.s.s", "vabsdiff4.u.s.u", "vabsdiff4.s.u.s", "__vabsdiffu4", "__vabsdiffs4"};

template <int Lut>
__device__ unsigned lop3(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c), "n"(Lut));
  return r;
}

template <int... L>
struct Luts {
  __device__ static unsigned run(int lut, unsigned a, unsigned b, unsigned c) {
    unsigned r = 0;
    ((lut == L ? (r = lop3<L>(a, b, c), 0) : 0), ...);
    return r;
  }
};

template <int Base, int... I>
__device__ unsigned lop3_any(int lut, unsigned a, unsigned b, unsigned c, std::integer_sequence<int, I...>) {
  return Luts<(Base + I)...>::run(lut, a, b, c);
}

__device__ unsigned lop3_by_table(int lut, unsigned a, unsigned b, unsigned c) {
  return lop3_any<0>(lut, a, b, c, std::make_integer_sequence<int, 256>{});
}

__global__ void ops(const int* op, const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint64_t x = a[i], y = b[i], z = c[i];
  const unsigned rx = (unsigned)x, ry = (unsigned)y, rz = (unsigned)z;
  const unsigned short hx = (unsigned short)x, hy = (unsigned short)y, hz = (unsigned short)z;
  unsigned r = 0;
  unsigned short hr = 0;
  uint64_t out = 0;
  switch (op[i]) {
    case kLop3: out = lop3_by_table((int)(z >> 32), rx, ry, rz); break;
    case kSadU16: asm("sad.u16 %0, %1, %2, %3;" : "=h"(hr) : "h"(hx), "h"(hy), "h"(hz)); out = hr; break;
    case kSadS16: asm("sad.s16 %0, %1, %2, %3;" : "=h"(hr) : "h"(hx), "h"(hy), "h"(hz)); out = hr; break;
    case kSadU32: asm("sad.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(rx), "r"(ry), "r"(rz)); out = r; break;
    case kSadS32: asm("sad.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(rx), "r"(ry), "r"(rz)); out = r; break;
    case kSadU64: asm("sad.u64 %0, %1, %2, %3;" : "=l"(out) : "l"(x), "l"(y), "l"(z)); break;
    case kSadS64: asm("sad.s64 %0, %1, %2, %3;" : "=l"(out) : "l"(x), "l"(y), "l"(z)); break;
    case kIntrSad: out = (unsigned)__sad((int)rx, (int)ry, rz); break;
    case kIntrUsad: out = __usad(rx, ry, rz); break;
    case kAbsDiffUUU: asm("vabsdiff4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(rx), "r"(ry), "r"(rz)); out = r; break;
    case kAbsDiffSSS: asm("vabsdiff4.s32.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(rx), "r"(ry), "r"(rz)); out = r; break;
    case kAbsDiffUSU: asm("vabsdiff4.u32.s32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(rx), "r"(ry), "r"(rz)); out = r; break;
    case kAbsDiffSUS: asm("vabsdiff4.s32.u32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(rx), "r"(ry), "r"(rz)); out = r; break;
    case kIntrAbsDiffU4: out = __vabsdiffu4(rx, ry); break;
    case kIntrAbsDiffS4: out = __vabsdiffs4(rx, ry); break;
  }
  if (i == 0) __prof_trigger(3);
  d[i] = out;
}

constexpr int kMax = 1024;

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  static CaseList<kMax> list;
  auto add = [&](int op, uint64_t a, uint64_t b, uint64_t c) { list.add(op, a, b, c); };
  // lop3: every table on the three canonical operands (0xF0, 0xCC, 0xAA in each byte: the
  // result is the table itself, repeated) and on mixed words.
  for (int lut = 0; lut < 256; ++lut) {
    add(kLop3, 0xF0F0F0F0u, 0xCCCCCCCCu, (uint64_t(lut) << 32) | 0xAAAAAAAAu);
    add(kLop3, 0x12345678u, 0xFEDCBA98u, (uint64_t(lut) << 32) | 0x0F0F3C3Cu);
  }
  const uint64_t w[] = {0, 1, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000ull, 0xFFFFFFFFull,
                        0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, 0xFFFFFFFFFFFFFFFFull, 0x123456789ABCDEF0ull};
  const int nw = sizeof(w) / sizeof(w[0]);
  for (int op : {kSadU16, kSadS16, kSadU32, kSadS32, kSadU64, kSadS64, kIntrSad, kIntrUsad})
    for (int k = 0; k < nw; ++k) add(op, w[k], w[(k * 5 + 3) % nw], w[(k * 7 + 1) % nw]);
  const uint64_t bytes[] = {0x00000000, 0xFFFFFFFF, 0x80808080, 0x7F7F7F7F, 0x01FF80C3, 0x12345678, 0xFEDCBA98,
                            0x80007FFF};
  for (int op : {kAbsDiffUUU, kAbsDiffSSS, kAbsDiffUSU, kAbsDiffSUS, kIntrAbsDiffU4, kIntrAbsDiffS4})
    for (uint64_t p : bytes)
      for (uint64_t q : {0x00000000ull, 0x7F80FF01ull, 0xDEADBEEFull}) add(op, p, q, 0x11223344);

  static uint64_t d[kMax];
  RESULTS_CHECK(run_cases(ops, list.items, list.n, d));
  print_cases(kNames, list.items, list.n, d, 16, 16);
  return 0;
}
