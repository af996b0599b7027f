// The bits of NaN results in half precision and of f64 fma with several NaN sources (the
// cases nan_results.cu leaves out): f16 and f16x2 arithmetic, and conversions between
// f16/bf16 and f32/f64, with NaN (with a payload, negative, signalling), infinite and zero
// sources. Every instruction is inline PTX; the sources come from memory. f16 min/max and
// bf16 need sm_80 or later (the test builds it for sm_90).
#include <cstdint>
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

#include "results_cases.cuh"

enum Op {
  kAdd, kSub, kMul, kFma, kMin, kMax, kNeg, kAbs, kAddFtz, kAddSat, kAddX2, kFmaX2,
  kF16ToF32, kF32ToF16, kF16ToF64, kF64ToF16, kBf16ToF32, kF32ToBf16, kFma64, kOps
};
const char* kNames[] = {"add.f16",          "sub.f16",          "mul.f16",          "fma.rn.f16",
                        "min.f16",          "max.f16",          "neg.f16",          "abs.f16",
                        "add.ftz.f16",      "add.sat.f16",      "add.f16x2",        "fma.rn.f16x2",
                        "cvt.f32.f16",      "cvt.rn.f16.f32",   "cvt.f64.f16",      "cvt.rn.f16.f64",
                        "cvt.f32.bf16",     "cvt.rn.bf16.f32",  "fma.rn.f64"};

// Sources and result as raw bits: halves in the low 16 bits (f16x2: both halves), f32 in
// the low 32, f64 in all 64.
__global__ void ops(const int* op, const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint64_t x = a[i], y = b[i], z = c[i];
  unsigned short hx = (unsigned short)x, hy = (unsigned short)y, hz = (unsigned short)z, hr = 0;
  unsigned int wx = (unsigned int)x, wy = (unsigned int)y, wz = (unsigned int)z, wr = 0;
  uint64_t r = 0;
  switch (op[i]) {
    case kAdd: asm("add.f16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); r = hr; break;
    case kSub: asm("sub.f16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); r = hr; break;
    case kMul: asm("mul.f16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); r = hr; break;
    case kFma: asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(hr) : "h"(hx), "h"(hy), "h"(hz)); r = hr; break;
    case kMin: asm("min.f16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); r = hr; break;
    case kMax: asm("max.f16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); r = hr; break;
    case kNeg: asm("neg.f16 %0, %1;" : "=h"(hr) : "h"(hx)); r = hr; break;
    case kAbs: asm("abs.f16 %0, %1;" : "=h"(hr) : "h"(hx)); r = hr; break;
    case kAddFtz: asm("add.ftz.f16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); r = hr; break;
    case kAddSat: asm("add.sat.f16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); r = hr; break;
    case kAddX2: asm("add.f16x2 %0, %1, %2;" : "=r"(wr) : "r"(wx), "r"(wy)); r = wr; break;
    case kFmaX2: asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(wr) : "r"(wx), "r"(wy), "r"(wz)); r = wr; break;
    case kF16ToF32: {
      float f;
      asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(hx));
      r = __float_as_uint(f);
      break;
    }
    case kF32ToF16: asm("cvt.rn.f16.f32 %0, %1;" : "=h"(hr) : "f"(__uint_as_float(wx))); r = hr; break;
    case kF16ToF64: {
      double f;
      asm("cvt.f64.f16 %0, %1;" : "=d"(f) : "h"(hx));
      r = (uint64_t)__double_as_longlong(f);
      break;
    }
    case kF64ToF16: asm("cvt.rn.f16.f64 %0, %1;" : "=h"(hr) : "d"(__longlong_as_double((long long)x))); r = hr; break;
    case kBf16ToF32: {
      float f;
      asm("cvt.f32.bf16 %0, %1;" : "=f"(f) : "h"(hx));
      r = __float_as_uint(f);
      break;
    }
    case kF32ToBf16: asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(hr) : "f"(__uint_as_float(wx))); r = hr; break;
    case kFma64: {
      double f;
      asm("fma.rn.f64 %0, %1, %2, %3;"
          : "=d"(f)
          : "d"(__longlong_as_double((long long)x)), "d"(__longlong_as_double((long long)y)),
            "d"(__longlong_as_double((long long)z)));
      r = (uint64_t)__double_as_longlong(f);
      break;
    }
  }
  d[i] = r;
}

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  // f16 sources: quiet NaN with a payload, its negative, a signalling NaN, infinities,
  // zero, one, minus one.
  const uint64_t hq = 0x7E05, hnq = 0xFE07, hs = 0x7C03, hinf = 0x7C00, hninf = 0xFC00, h0 = 0, h1 = 0x3C00,
                 hn1 = 0xBC00;
  const uint64_t pairs[][2] = {{hq, h1},  {h1, hq},      {hnq, h1},   {h1, hnq}, {hs, h1},
                               {hq, hnq}, {hnq, hq},     {hinf, hninf}, {h0, h0}, {hinf, h0}};
  const int binary[] = {kAdd, kSub, kMul, kMin, kMax, kAddFtz, kAddSat};
  const uint64_t triples[][3] = {{hq, h1, h1}, {h1, hnq, h1}, {h1, h1, hs}, {hnq, h1, hq}, {hinf, h0, h1}};
  const uint64_t unary[] = {hq, hnq, hs, hn1, hninf};
  Case cases[256];
  int n = 0;
  for (int op : binary)
    for (auto& p : pairs) cases[n++] = {op, p[0], p[1], 0};
  for (auto& t : triples) cases[n++] = {kFma, t[0], t[1], t[2]};
  for (uint64_t s : unary) cases[n++] = {kNeg, s, 0, 0};
  for (uint64_t s : unary) cases[n++] = {kAbs, s, 0, 0};
  // f16x2: a NaN in either half, and NaNs in both.
  const uint64_t x2[][3] = {{(h1 << 16) | hq, (h1 << 16) | h1, 0},
                            {(hnq << 16) | h1, (h1 << 16) | h1, 0},
                            {(hq << 16) | hs, (hnq << 16) | hnq, 0},
                            {(hinf << 16) | hinf, (hninf << 16) | h1, 0}};
  for (auto& v : x2) cases[n++] = {kAddX2, v[0], v[1], 0};
  for (auto& v : x2) cases[n++] = {kFmaX2, v[0], v[1], (hq << 16) | h1};
  // Conversions.
  for (uint64_t s : unary) cases[n++] = {kF16ToF32, s, 0, 0};
  for (uint64_t s : unary) cases[n++] = {kF16ToF64, s, 0, 0};
  const uint64_t f32s[] = {0x7FC00005u, 0xFFC00007u, 0x7F800003u, 0x7FC12345u, 0xFF800000u};
  for (uint64_t s : f32s) cases[n++] = {kF32ToF16, s, 0, 0};
  for (uint64_t s : f32s) cases[n++] = {kF32ToBf16, s, 0, 0};
  const uint64_t f64s[] = {0x7FF8000000000005ull, 0xFFF8000000000007ull, 0x7FF0000000000003ull,
                           0x7FF8123456789ABCull};
  for (uint64_t s : f64s) cases[n++] = {kF64ToF16, s, 0, 0};
  const uint64_t bf16s[] = {0x7FC5, 0xFFC7, 0x7F83, 0xFF80};
  for (uint64_t s : bf16s) cases[n++] = {kBf16ToF32, s, 0, 0};
  // f64 fma with two and three NaN sources.
  const uint64_t q = 0x7FF8000000000005ull, nq = 0xFFF8000000000007ull, sn = 0x7FF0000000000003ull,
                 one = 0x3FF0000000000000ull;
  const uint64_t fma64[][3] = {{q, nq, one}, {nq, q, one}, {q, one, nq}, {one, q, nq}, {nq, one, q},
                               {q, nq, sn},  {sn, q, nq}, {one, sn, q}};
  for (auto& t : fma64) cases[n++] = {kFma64, t[0], t[1], t[2]};

  static uint64_t d[256];
  RESULTS_CHECK(run_cases(ops, cases, n, d));
  print_cases(kNames, cases, n, d, 16, 16);
  return 0;
}
