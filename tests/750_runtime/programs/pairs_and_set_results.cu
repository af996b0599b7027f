// Paired halves and set as the GPU computes them: add, sub, mul, fma, min, max, neg, abs
// on .bf16x2 (each half its own case: NaN payloads, a signalling NaN, ties, overflow,
// signed zeros), cvt.rn.bf16x2.f32 and cvt.rn.f16x2.f32 (a to the upper half), and set
// (setp's comparison written as a value) from integer, f32, f64, f16, bf16, f16x2 and
// bf16x2 sources into integer and float destinations, with .ftz and with a predicate
// combined by .and/.or/.xor; min/max.NaN on .f32, .f16, .f16x2, .bf16 and .bf16x2 (a NaN
// source gives NaN); cvt.rna.tf32.f32 of NaNs and ties; setp p|q on .f16x2 and .bf16x2.
// Every instruction is inline PTX with its sources from memory. Needs sm_90 (.bf16x2
// add/sub/mul and set).
#include <cstdint>
#include <cstdio>

#include <cuda_runtime.h>

#include "results_cases.cuh"

enum Op {
  kAdd2, kSub2, kMul2, kFma2, kMin2, kMax2, kNeg2, kAbs2, kCvtBf16x2, kCvtF16x2,
  kSetLtU32S32, kSetLoU32U32, kSetHiS32U64, kSetGeS32S16, kSetNeU32B16,
  kSetLtF32F32, kSetGtuU32F32, kSetNanS32F64, kSetEqF16F32, kSetLeBf16F32, kSetGeFtzU32F32,
  kSetLtU16F16, kSetGtFtzF16F16, kSetNeuU32Bf16,
  kSetGtF16x2, kSetLeU32F16x2, kSetLtuBf16x2, kSetEqU32Bf16x2,
  kSetGtAndU32S32, kSetEqOrF32F32, kSetLtXorNotU32F32, kSetGtAndF16x2,
  kMinNanF32, kMaxNanF32, kMinNanF16, kMaxNanF16x2, kMinNanBf16, kMaxNanBf16x2, kCvtTf32,
  kSetpLtF16x2, kSetpGeuBf16x2, kSetpEqAndF16x2,
  kOps
};
const char* kNames[] = {
    "add.bf16x2",         "sub.bf16x2",          "mul.bf16x2",         "fma.rn.bf16x2",
    "min.bf16x2",         "max.bf16x2",          "neg.bf16x2",         "abs.bf16x2",
    "cvt.rn.bf16x2.f32",  "cvt.rn.f16x2.f32",    "set.lt.u32.s32",     "set.lo.u32.u32",
    "set.hi.s32.u64",     "set.ge.s32.s16",      "set.ne.u32.b16",     "set.lt.f32.f32",
    "set.gtu.u32.f32",    "set.nan.s32.f64",     "set.eq.f16.f32",     "set.le.bf16.f32",
    "set.ge.ftz.u32.f32", "set.lt.u16.f16",      "set.gt.ftz.f16.f16", "set.neu.u32.bf16",
    "set.gt.f16x2",       "set.le.u32.f16x2",    "set.ltu.bf16x2",     "set.eq.u32.bf16x2",
    "set.gt.and.u32.s32", "set.eq.or.f32.f32",   "set.lt.xor.u32.f32(!p)", "set.gt.and.f16x2",
    "min.NaN.f32",        "max.NaN.f32",         "min.NaN.f16",        "max.NaN.f16x2",
    "min.NaN.bf16",       "max.NaN.bf16x2",      "cvt.rna.tf32.f32",   "setp.lt.f16x2",
    "setp.geu.bf16x2",    "setp.eq.and.f16x2"};

// Sources and result as raw bits (the low 16, 32 or all 64 bits); c is the predicate
// source of the .and/.or/.xor forms (its low bit) and fma's third source.
__global__ void ops(const int* op, const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint64_t x = a[i], y = b[i], z = c[i];
  const unsigned rx = (unsigned)x, ry = (unsigned)y, rz = (unsigned)z;
  const unsigned short hx = (unsigned short)x, hy = (unsigned short)y;
  const float fx = __uint_as_float(rx), fy = __uint_as_float(ry);
  const double dx = __longlong_as_double((long long)x), dy = __longlong_as_double((long long)y);
  unsigned r = 0;
  unsigned short hr = 0;
  uint64_t out = 0;
  switch (op[i]) {
    case kAdd2: asm("add.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kSub2: asm("sub.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kMul2: asm("mul.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kFma2: asm("fma.rn.bf16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(rx), "r"(ry), "r"(rz)); out = r; break;
    case kMin2: asm("min.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kMax2: asm("max.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kNeg2: asm("neg.bf16x2 %0, %1;" : "=r"(r) : "r"(rx)); out = r; break;
    case kAbs2: asm("abs.bf16x2 %0, %1;" : "=r"(r) : "r"(rx)); out = r; break;
    case kCvtBf16x2: asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(fx), "f"(fy)); out = r; break;
    case kCvtF16x2: asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(fx), "f"(fy)); out = r; break;
    case kSetLtU32S32: asm("set.lt.u32.s32 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kSetLoU32U32: asm("set.lo.u32.u32 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kSetHiS32U64: asm("set.hi.s32.u64 %0, %1, %2;" : "=r"(r) : "l"(x), "l"(y)); out = r; break;
    case kSetGeS32S16: asm("set.ge.s32.s16 %0, %1, %2;" : "=r"(r) : "h"(hx), "h"(hy)); out = r; break;
    case kSetNeU32B16: asm("set.ne.u32.b16 %0, %1, %2;" : "=r"(r) : "h"(hx), "h"(hy)); out = r; break;
    case kSetLtF32F32: asm("set.lt.f32.f32 %0, %1, %2;" : "=r"(r) : "f"(fx), "f"(fy)); out = r; break;
    case kSetGtuU32F32: asm("set.gtu.u32.f32 %0, %1, %2;" : "=r"(r) : "f"(fx), "f"(fy)); out = r; break;
    case kSetNanS32F64: asm("set.nan.s32.f64 %0, %1, %2;" : "=r"(r) : "d"(dx), "d"(dy)); out = r; break;
    case kSetEqF16F32: asm("set.eq.f16.f32 %0, %1, %2;" : "=h"(hr) : "f"(fx), "f"(fy)); out = hr; break;
    case kSetLeBf16F32: asm("set.le.bf16.f32 %0, %1, %2;" : "=h"(hr) : "f"(fx), "f"(fy)); out = hr; break;
    case kSetGeFtzU32F32: asm("set.ge.ftz.u32.f32 %0, %1, %2;" : "=r"(r) : "f"(fx), "f"(fy)); out = r; break;
    case kSetLtU16F16: asm("set.lt.u16.f16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); out = hr; break;
    case kSetGtFtzF16F16: asm("set.gt.ftz.f16.f16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); out = hr; break;
    case kSetNeuU32Bf16: asm("set.neu.u32.bf16 %0, %1, %2;" : "=r"(r) : "h"(hx), "h"(hy)); out = r; break;
    case kSetGtF16x2: asm("set.gt.f16x2.f16x2 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kSetLeU32F16x2: asm("set.le.u32.f16x2 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kSetLtuBf16x2: asm("set.ltu.bf16x2.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kSetEqU32Bf16x2: asm("set.eq.u32.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kSetGtAndU32S32:
      asm("{ .reg .pred p; setp.ne.u32 p, %3, 0; set.gt.and.u32.s32 %0, %1, %2, p; }"
          : "=r"(r) : "r"(rx), "r"(ry), "r"(rz & 1));
      out = r;
      break;
    case kSetEqOrF32F32:
      asm("{ .reg .pred p; setp.ne.u32 p, %3, 0; set.eq.or.f32.f32 %0, %1, %2, p; }"
          : "=r"(r) : "f"(fx), "f"(fy), "r"(rz & 1));
      out = r;
      break;
    case kSetLtXorNotU32F32:
      asm("{ .reg .pred p; setp.ne.u32 p, %3, 0; set.lt.xor.u32.f32 %0, %1, %2, !p; }"
          : "=r"(r) : "f"(fx), "f"(fy), "r"(rz & 1));
      out = r;
      break;
    case kSetGtAndF16x2:
      asm("{ .reg .pred p; setp.ne.u32 p, %3, 0; set.gt.and.f16x2.f16x2 %0, %1, %2, p; }"
          : "=r"(r) : "r"(rx), "r"(ry), "r"(rz & 1));
      out = r;
      break;
    case kMinNanF32: asm("min.NaN.f32 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kMaxNanF32: asm("max.NaN.f32 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kMinNanF16: asm("min.NaN.f16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); out = hr; break;
    case kMaxNanF16x2: asm("max.NaN.f16x2 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kMinNanBf16: asm("min.NaN.bf16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); out = hr; break;
    case kMaxNanBf16x2: asm("max.NaN.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kCvtTf32: asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(fx)); out = r; break;
    // setp p|q on pairs: the result is p + 2q.
    case kSetpLtF16x2:
      asm("{ .reg .pred p, q; setp.lt.f16x2 p|q, %1, %2; selp.u32 %0, 1, 0, p; @q add.u32 %0, %0, 2; }"
          : "=r"(r) : "r"(rx), "r"(ry));
      out = r;
      break;
    case kSetpGeuBf16x2:
      asm("{ .reg .pred p, q; setp.geu.bf16x2 p|q, %1, %2; selp.u32 %0, 1, 0, p; @q add.u32 %0, %0, 2; }"
          : "=r"(r) : "r"(rx), "r"(ry));
      out = r;
      break;
    case kSetpEqAndF16x2:
      asm("{ .reg .pred p, q, c; setp.ne.u32 c, %3, 0; setp.eq.and.f16x2 p|q, %1, %2, c; selp.u32 %0, 1, 0, p;"
          " @q add.u32 %0, %0, 2; }"
          : "=r"(r) : "r"(rx), "r"(ry), "r"(rz & 1));
      out = r;
      break;
  }
  d[i] = out;
}

constexpr int kMax = 512;

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  static CaseList<kMax> list;
  auto add = [&](int op, uint64_t a, uint64_t b, uint64_t c) { list.add(op, a, b, c); };
  // bf16: quiet NaN with a payload, its negative, a signalling NaN, infinities, zeros, one,
  // minus one, one plus an ulp, 2^-8, 1.0625, the largest finite, the smallest subnormal.
  const uint32_t q = 0x7FC5, nq = 0xFFC7, sn = 0x7F83, inf = 0x7F80, ninf = 0xFF80, z0 = 0, nz = 0x8000,
                 one = 0x3F80, none = 0xBF80, onep = 0x3F81, h8 = 0x3B80, x1625 = 0x3F88, big = 0x7F7F,
                 sub = 0x0001, tiny = 0x0D80;
  const uint32_t lo[][2] = {{q, one}, {one, h8}, {inf, ninf}, {z0, nz}, {big, big}, {sub, sub}, {x1625, x1625}, {sn, one}};
  const uint32_t hi[][2] = {{onep, h8}, {nq, q}, {none, onep}, {nz, z0}, {one, q}, {inf, one}, {big, none}, {q, nq}};
  auto pack = [](uint32_t high, uint32_t low) { return uint64_t(high) << 16 | low; };
  for (int op : {kAdd2, kSub2, kMul2, kMin2, kMax2})
    for (int k = 0; k < 8; ++k) add(op, pack(hi[k][0], lo[k][0]), pack(hi[k][1], lo[k][1]), 0);
  const uint32_t fma_lo[][3] = {{x1625, x1625, tiny}, {q, one, one}, {big, big, ninf}, {one, nz, z0}};
  const uint32_t fma_hi[][3] = {{one, h8, one}, {inf, z0, one}, {x1625, x1625, tiny | 0x8000}, {none, one, one}};
  for (int k = 0; k < 4; ++k)
    add(kFma2, pack(fma_hi[k][0], fma_lo[k][0]), pack(fma_hi[k][1], fma_lo[k][1]), pack(fma_hi[k][2], fma_lo[k][2]));
  for (uint64_t s : {pack(q, none), pack(sn, nz), pack(ninf, nq), pack(one, z0)}) {
    add(kNeg2, s, 0, 0);
    add(kAbs2, s, 0, 0);
  }
  // f32 pairs to halves: a NaN with a payload, a bf16 tie either way, an f16 tie, overflow
  // of f16, an f16 subnormal, a value that is no bf16 tie only by its last bit.
  const uint64_t f32s[][2] = {{0x7FC00123, 0x3F808000}, {0x3F818000, 0x3F808001}, {0x3F801000, 0x477FF000},
                              {0x477FF001, 0x33800000}, {0x80000000, 0xFF800000}, {0x3F800000, 0x7F7FFFFF}};
  for (auto& p : f32s) {
    add(kCvtBf16x2, p[0], p[1], 0);
    add(kCvtF16x2, p[0], p[1], 0);
  }
  // set from integers: signed against unsigned views of the same bits.
  const uint64_t ints[][2] = {{0xFFFFFFFF, 1}, {1, 0xFFFFFFFF}, {5, 5}, {0x80000000, 0x7FFFFFFF}};
  for (auto& p : ints) {
    add(kSetLtU32S32, p[0], p[1], 0);
    add(kSetLoU32U32, p[0], p[1], 0);
  }
  for (auto& p : {std::pair<uint64_t, uint64_t>{0xFFFFFFFFFFFFFFFFull, 1}, {1, 0x8000000000000000ull}, {7, 7}})
    add(kSetHiS32U64, p.first, p.second, 0);
  for (auto& p : {std::pair<uint64_t, uint64_t>{0x8000, 0x7FFF}, {0x7FFF, 0x8000}, {0xFFFF, 0xFFFF}}) {
    add(kSetGeS32S16, p.first, p.second, 0);
    add(kSetNeU32B16, p.first, p.second, 0);
  }
  // set from f32/f64: ordered and unordered with a NaN, equal values, signed zeros, a
  // subnormal (ftz: equal to zero).
  const uint64_t fq = 0x7FC00001, f1 = 0x3F800000, f2 = 0x40000000, fnz = 0x80000000, fsub = 0x00000001;
  const uint64_t fpairs[][2] = {{f1, f2}, {f2, f1}, {f1, f1}, {fq, f1}, {0, fnz}, {fsub, 0}, {0, fsub}};
  for (int op : {kSetLtF32F32, kSetGtuU32F32, kSetEqF16F32, kSetLeBf16F32, kSetGeFtzU32F32})
    for (auto& p : fpairs) add(op, p[0], p[1], 0);
  for (auto& p : {std::pair<uint64_t, uint64_t>{0x7FF8000000000001ull, 0x3FF0000000000000ull},
                  {0x3FF0000000000000ull, 0x3FF0000000000000ull}})
    add(kSetNanS32F64, p.first, p.second, 0);
  // set from f16/bf16 (and their pairs): a NaN, ordered pairs, signed zeros, an f16
  // subnormal (ftz: equal to zero).
  const uint64_t hq = 0x7E05, h1 = 0x3C00, h2 = 0x4000, hnz = 0x8000, hsub = 0x0001;
  const uint64_t hpairs[][2] = {{h1, h2}, {h2, h1}, {hq, h1}, {0, hnz}, {hsub, 0}};
  for (int op : {kSetLtU16F16, kSetGtFtzF16F16})
    for (auto& p : hpairs) add(op, p[0], p[1], 0);
  for (auto& p : {std::pair<uint64_t, uint64_t>{one, one}, {q, one}, {z0, nz}, {one, onep}})
    add(kSetNeuU32Bf16, p.first, p.second, 0);
  for (int op : {kSetGtF16x2, kSetLeU32F16x2}) {
    add(op, pack(h2, h1), pack(h1, h2), 0);
    add(op, pack(hq, hnz), pack(h1, 0), 0);
    add(op, pack(hsub, h1), pack(0, h1), 0);
  }
  for (int op : {kSetLtuBf16x2, kSetEqU32Bf16x2}) {
    add(op, pack(one, onep), pack(onep, one), 0);
    add(op, pack(q, nz), pack(one, z0), 0);
    add(op, pack(inf, none), pack(inf, one), 0);
  }
  // The .and/.or/.xor forms, with the predicate false and true.
  for (uint64_t p : {0ull, 1ull}) {
    add(kSetGtAndU32S32, 2, 1, p);
    add(kSetGtAndU32S32, 1, 2, p);
    add(kSetEqOrF32F32, f1, f2, p);
    add(kSetEqOrF32F32, fq, fq, p);
    add(kSetLtXorNotU32F32, f1, f2, p);
    add(kSetLtXorNotU32F32, f2, f1, p);
    add(kSetGtAndF16x2, pack(h2, h1), pack(h1, h2), p);
  }
  // min/max.NaN: a NaN source (with a payload, negative, signalling) gives NaN; numbers and
  // signed zeros as min/max.
  const uint64_t fnq = 0xFFC00005, fsn = 0x7F800003;
  for (auto& p : {std::pair<uint64_t, uint64_t>{fq, f1}, {f1, fnq}, {fsn, f2}, {fq, fnq}, {0, fnz}, {f1, f2}})
    for (int op : {kMinNanF32, kMaxNanF32}) add(op, p.first, p.second, 0);
  for (auto& p : {std::pair<uint64_t, uint64_t>{hq, h1}, {h1, 0xFE07}, {0x7C01, h2}, {0, hnz}, {h1, h2}})
    add(kMinNanF16, p.first, p.second, 0);
  for (auto& p : {std::pair<uint64_t, uint64_t>{q, one}, {one, nq}, {sn, 0x4000}, {z0, nz}, {one, 0x4000}})
    add(kMinNanBf16, p.first, p.second, 0);
  add(kMaxNanF16x2, pack(hq, h1), pack(h1, h2), 0);
  add(kMaxNanF16x2, pack(hnz, 0x7C01), pack(0, h1), 0);
  add(kMaxNanBf16x2, pack(one, q), pack(0x4000, one), 0);
  add(kMaxNanBf16x2, pack(nz, one), pack(z0, sn), 0);
  // cvt.rna.tf32.f32: NaNs (quiet and signalling, payloads in the kept and the dropped
  // bits), infinity, ties away from zero either sign, below a tie, the largest float.
  for (uint64_t v : {0x7FC00123ull, 0x7F800001ull, 0xFF812345ull, 0x7FFFFFFFull, 0x7F800000ull, 0x3F801000ull,
                     0xBF801000ull, 0x3F800FFFull, 0x7F7FFFFFull, 0x00001000ull})
    add(kCvtTf32, v, 0, 0);
  // setp on pairs: which half goes to p, NaNs, signed zeros.
  add(kSetpLtF16x2, pack(h2, h1), pack(h1, h2), 0);
  add(kSetpLtF16x2, pack(h1, h2), pack(h2, h1), 0);
  add(kSetpLtF16x2, pack(hnz, hq), pack(0, h1), 0);
  add(kSetpGeuBf16x2, pack(one, q), pack(0x4000, one), 0);
  add(kSetpGeuBf16x2, pack(z0, none), pack(nz, one), 0);
  for (uint64_t p : {0ull, 1ull}) add(kSetpEqAndF16x2, pack(h1, h1), pack(h1, h1), p);
  add(kSetpEqAndF16x2, pack(h1, 0), pack(h2, hnz), 1);

  static uint64_t d[kMax];
  RESULTS_CHECK(run_cases(ops, list.items, list.n, d));
  print_cases(kNames, list.items, list.n, d, 22, 16);
  return 0;
}
