// bf16 arithmetic and half/bf16 comparisons as the GPU computes them: add, sub, mul, fma,
// min, max, neg, abs on .bf16 (rounding ties, overflow, NaN sources with payloads, a
// signalling NaN, signed zeros), setp on .f16 and .bf16 with every comparison (NaN
// sources: the unordered ones), cvt between .bf16 and .f64, and cvt.rn.bf16 from 16-, 32-
// and 64-bit integers (ties, and values a float would round to a tie first). Every
// instruction is inline PTX with its sources from memory. Needs sm_90 (add/sub/mul.bf16,
// cvt.rn.bf16.f64, cvt.rn.bf16 from integers).
#include <cstdint>
#include <cstdio>

#include <cuda_runtime.h>

#include "results_cases.cuh"

enum Op {
  kAdd, kSub, kMul, kFma, kMin, kMax, kNeg, kAbs, kSetpF16, kSetpBf16, kBf16ToF64, kF64ToBf16,
  kS16ToBf16, kU16ToBf16, kS32ToBf16, kU32ToBf16, kS64ToBf16, kU64ToBf16, kOps
};
const char* kNames[] = {"add.bf16",        "sub.bf16",        "mul.bf16",        "fma.rn.bf16",
                        "min.bf16",        "max.bf16",        "neg.bf16",        "abs.bf16",
                        "setp.f16",        "setp.bf16",       "cvt.f64.bf16",    "cvt.rn.bf16.f64",
                        "cvt.rn.bf16.s16", "cvt.rn.bf16.u16", "cvt.rn.bf16.s32", "cvt.rn.bf16.u32",
                        "cvt.rn.bf16.s64", "cvt.rn.bf16.u64"};
// setp's comparisons, in the order of the cases' c operand.
enum Cmp { kLt, kLe, kGt, kGe, kEq, kNe, kLtu, kLeu, kGtu, kGeu, kEqu, kNeu, kNum, kNan, kCmps };
const char* kCmpNames[] = {"lt", "le", "gt", "ge", "eq", "ne", "ltu", "leu", "gtu", "geu", "equ", "neu", "num", "nan"};

#define SETP(ty, cmp, reg)                                                                          \
  asm("{ .reg .pred p; setp." #cmp "." #ty " p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(w) : "h"(hx), "h"(hy))

__device__ unsigned setp16(int cmp, bool bf, unsigned short hx, unsigned short hy) {
  unsigned w = 0;
  if (bf) {
    switch (cmp) {
      case kLt: SETP(bf16, lt, w); break;   case kLe: SETP(bf16, le, w); break;
      case kGt: SETP(bf16, gt, w); break;   case kGe: SETP(bf16, ge, w); break;
      case kEq: SETP(bf16, eq, w); break;   case kNe: SETP(bf16, ne, w); break;
      case kLtu: SETP(bf16, ltu, w); break; case kLeu: SETP(bf16, leu, w); break;
      case kGtu: SETP(bf16, gtu, w); break; case kGeu: SETP(bf16, geu, w); break;
      case kEqu: SETP(bf16, equ, w); break; case kNeu: SETP(bf16, neu, w); break;
      case kNum: SETP(bf16, num, w); break; case kNan: SETP(bf16, nan, w); break;
    }
  } else {
    switch (cmp) {
      case kLt: SETP(f16, lt, w); break;   case kLe: SETP(f16, le, w); break;
      case kGt: SETP(f16, gt, w); break;   case kGe: SETP(f16, ge, w); break;
      case kEq: SETP(f16, eq, w); break;   case kNe: SETP(f16, ne, w); break;
      case kLtu: SETP(f16, ltu, w); break; case kLeu: SETP(f16, leu, w); break;
      case kGtu: SETP(f16, gtu, w); break; case kGeu: SETP(f16, geu, w); break;
      case kEqu: SETP(f16, equ, w); break; case kNeu: SETP(f16, neu, w); break;
      case kNum: SETP(f16, num, w); break; case kNan: SETP(f16, nan, w); break;
    }
  }
  return w;
}

// Sources and result as raw bits: bf16/f16 in the low 16 bits, f64 in all 64; setp's
// comparison in c, its result 0 or 1.
__global__ void ops(const int* op, const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint64_t x = a[i], y = b[i], z = c[i];
  unsigned short hx = (unsigned short)x, hy = (unsigned short)y, hz = (unsigned short)z, hr = 0;
  uint64_t r = 0;
  switch (op[i]) {
    case kAdd: asm("add.bf16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); r = hr; break;
    case kSub: asm("sub.bf16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); r = hr; break;
    case kMul: asm("mul.bf16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); r = hr; break;
    case kFma: asm("fma.rn.bf16 %0, %1, %2, %3;" : "=h"(hr) : "h"(hx), "h"(hy), "h"(hz)); r = hr; break;
    case kMin: asm("min.bf16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); r = hr; break;
    case kMax: asm("max.bf16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); r = hr; break;
    case kNeg: asm("neg.bf16 %0, %1;" : "=h"(hr) : "h"(hx)); r = hr; break;
    case kAbs: asm("abs.bf16 %0, %1;" : "=h"(hr) : "h"(hx)); r = hr; break;
    case kSetpF16: r = setp16(int(z), false, hx, hy); break;
    case kSetpBf16: r = setp16(int(z), true, hx, hy); break;
    case kBf16ToF64: {
      double f;
      asm("cvt.f64.bf16 %0, %1;" : "=d"(f) : "h"(hx));
      r = (uint64_t)__double_as_longlong(f);
      break;
    }
    case kF64ToBf16:
      asm("cvt.rn.bf16.f64 %0, %1;" : "=h"(hr) : "d"(__longlong_as_double((long long)x)));
      r = hr;
      break;
    case kS16ToBf16: asm("cvt.rn.bf16.s16 %0, %1;" : "=h"(hr) : "h"(hx)); r = hr; break;
    case kU16ToBf16: asm("cvt.rn.bf16.u16 %0, %1;" : "=h"(hr) : "h"(hx)); r = hr; break;
    case kS32ToBf16: asm("cvt.rn.bf16.s32 %0, %1;" : "=h"(hr) : "r"((unsigned)x)); r = hr; break;
    case kU32ToBf16: asm("cvt.rn.bf16.u32 %0, %1;" : "=h"(hr) : "r"((unsigned)x)); r = hr; break;
    case kS64ToBf16: asm("cvt.rn.bf16.s64 %0, %1;" : "=h"(hr) : "l"(x)); r = hr; break;
    case kU64ToBf16: asm("cvt.rn.bf16.u64 %0, %1;" : "=h"(hr) : "l"(x)); r = hr; break;
  }
  d[i] = r;
}

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  // bf16: quiet NaN with a payload, its negative, a signalling NaN, infinities, zeros, one,
  // minus one, one plus an ulp, 2^-8 (half an ulp of one), 1.0625, the largest finite, the
  // smallest subnormal, 2^-100.
  const uint64_t q = 0x7FC5, nq = 0xFFC7, sn = 0x7F83, inf = 0x7F80, ninf = 0xFF80, z0 = 0, nz = 0x8000,
                 one = 0x3F80, none = 0xBF80, onep = 0x3F81, h8 = 0x3B80, x1625 = 0x3F88, big = 0x7F7F,
                 sub = 0x0001, tiny = 0x0D80, ntiny = 0x8D80;
  const uint64_t pairs[][2] = {{q, one},  {one, q},   {nq, one},  {sn, one},    {q, nq},   {nq, q},
                               {inf, ninf}, {z0, nz}, {nz, z0},   {one, h8},    {onep, h8}, {big, big},
                               {sub, sub}, {none, onep}, {x1625, x1625}, {inf, one}};
  const int binary[] = {kAdd, kSub, kMul, kMin, kMax};
  // fma: NaN sources, a product that is a rounding tie with a tiny addend either side (the
  // exact sum is not a tie), overflow, a zero result's sign.
  const uint64_t triples[][3] = {{q, one, one},     {one, nq, one},      {one, one, sn},     {nq, one, q},
                                 {inf, z0, one},    {x1625, x1625, tiny}, {x1625, x1625, ntiny}, {x1625, x1625, z0},
                                 {big, big, ninf},  {one, nz, z0},       {none, one, one},   {one, h8, one}};
  const uint64_t unary[] = {q, nq, sn, none, ninf, nz};
  Case cases[512];
  int n = 0;
  for (int op : binary)
    for (auto& p : pairs) cases[n++] = {op, p[0], p[1], 0};
  for (auto& t : triples) cases[n++] = {kFma, t[0], t[1], t[2]};
  for (uint64_t s : unary) cases[n++] = {kNeg, s, 0, 0};
  for (uint64_t s : unary) cases[n++] = {kAbs, s, 0, 0};
  // setp: ordered and unordered pairs, equal values, signed zeros, infinities.
  const uint64_t hq = 0x7E05, h1 = 0x3C00, h2 = 0x4000, hinf = 0x7C00, hnz = 0x8000;
  const uint64_t f16pairs[][2] = {{h1, h2}, {h2, h1}, {h1, h1}, {hq, h1}, {h1, hq}, {0, hnz}, {hinf, hinf}};
  const uint64_t bfpairs[][2] = {{one, 0x4000}, {0x4000, one}, {one, one}, {q, one}, {one, q}, {z0, nz}, {inf, inf}};
  for (int cmp = 0; cmp < kCmps; ++cmp) {
    for (auto& p : f16pairs) cases[n++] = {kSetpF16, p[0], p[1], uint64_t(cmp)};
    for (auto& p : bfpairs) cases[n++] = {kSetpBf16, p[0], p[1], uint64_t(cmp)};
  }
  for (uint64_t s : {q, nq, sn, one, sub, ninf}) cases[n++] = {kBf16ToF64, s, 0, 0};
  // f64 -> bf16: NaNs with payloads, a tie, just above a tie, overflow, a value below the
  // smallest subnormal.
  const uint64_t f64s[] = {0x7FF8000000000005ull, 0xFFF8000000000007ull, 0x7FF0000000000003ull,
                           0x3FF0100000000000ull, 0x3FF0100000000001ull, 0x47F0000000000000ull,
                           0x3690000000000000ull, 0xBFF0300000000000ull};
  for (uint64_t s : f64s) cases[n++] = {kF64ToBf16, s, 0, 0};
  // Integers to bf16: exact, a tie either way, past a tie by one (2^24 + 2^16 + 1: a float
  // rounds it to the tie), the extremes.
  for (uint64_t s : {0x0000ull, 0x0101ull, 0x0181ull, 0x0183ull, 0x7FFFull, 0x8000ull, 0xFFFFull, 0xFE7Full})
    for (int op : {kS16ToBf16, kU16ToBf16}) cases[n++] = {op, s, 0, 0};
  for (uint64_t s : {0x00000000ull, 0x01010000ull, 0x01030000ull, 0x01010001ull, 0x0100FFFFull, 0x7FFFFFFFull,
                     0x80000000ull, 0xFEFEFFFFull, 0xFFFFFFFFull, 0x00000181ull})
    for (int op : {kS32ToBf16, kU32ToBf16}) cases[n++] = {op, s, 0, 0};
  for (uint64_t s : {0x0000000001010001ull, 0x1010000000000000ull, 0x1010000000000001ull, 0x100FFFFFFFFFFFFFull,
                     0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, 0xFFFFFFFFFFFFFFFFull, 0xFEFEFFFFFFFFFFFFull,
                     0x1030000000000000ull})
    for (int op : {kS64ToBf16, kU64ToBf16}) cases[n++] = {op, s, 0, 0};

  static uint64_t d[512];
  RESULTS_CHECK(run_cases(ops, cases, n, d));
  std::printf("%d cases\n", n);
  for (int i = 0; i < n; ++i) {
    const bool setp = cases[i].op == kSetpF16 || cases[i].op == kSetpBf16;
    char name[32];
    std::snprintf(name, sizeof name, "%s%s%s", kNames[cases[i].op], setp ? "." : "",
                  setp ? kCmpNames[cases[i].c] : "");
    std::printf("%-16s %016llx %016llx %016llx -> %016llx\n", name, (unsigned long long)cases[i].a,
                (unsigned long long)cases[i].b, setp ? 0ull : (unsigned long long)cases[i].c,
                (unsigned long long)d[i]);
  }
  return 0;
}
