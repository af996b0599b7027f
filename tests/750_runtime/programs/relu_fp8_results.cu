// The narrow-format instructions of cuda_fp8.hpp, cuda_fp16.hpp and cuda_bf16.hpp as the GPU
// computes them: cvt to and from the fp8 pairs (.e4m3x2, .e5m2x2: from two f32s and from an
// f16x2, with .satfinite and .relu; to f16x2 for every one of the 256 values of each
// format, plain and with .relu), cvt from f32 to f16/bf16 (and their pairs) with .rz,
// .relu and .satfinite, cvt to tf32 with .rn, .rz and .rna.satfinite, fma.rn.relu on
// the four half types, and min/max.xorsign.abs on f32, f16, f16x2, bf16 and bf16x2. Ties,
// overflow, infinities, NaNs (quiet, signalling, negative), signed zeros, subnormals.
// Every instruction is inline PTX with its sources from memory. Needs sm_90 (fp8: sm_89;
// xorsign: sm_86; cvt.rn.tf32: sm_90).
#include <cstdint>
#include <cstdio>

#include <cuda_runtime.h>

#include "results_cases.cuh"

enum Op {
  kE4m3F32, kE4m3F32Relu, kE5m2F32, kE5m2F32Relu, kE4m3F16x2, kE5m2F16x2Relu,
  kF16x2E4m3, kF16x2E4m3Relu, kF16x2E5m2, kF16x2E5m2Relu,
  kReluF16, kSatF16, kRzF16, kRzReluSatF16, kReluF16x2, kSatBf16, kRzBf16, kRzReluSatBf16x2, kSatF16x2,
  kTf32RnaSat, kTf32Rn, kTf32Rz,
  kFmaReluF16, kFmaReluFtzF16x2, kFmaReluBf16, kFmaReluBf16x2,
  kMinXsF32, kMaxXsF32, kMaxXsNanF32, kMinXsFtzF32, kMinXsF16, kMaxXsNanF16x2, kMinXsFtzF16, kMaxXsBf16,
  kMinXsNanBf16x2,
  kOps
};
const char* kNames[] = {
    "cvt.sf.e4m3x2.f32",      "cvt.sf.relu.e4m3x2.f32", "cvt.sf.e5m2x2.f32",     "cvt.sf.relu.e5m2x2.f32",
    "cvt.sf.e4m3x2.f16x2",    "cvt.sf.relu.e5m2x2.f16x2",
    "cvt.f16x2.e4m3x2",       "cvt.relu.f16x2.e4m3x2",  "cvt.f16x2.e5m2x2",      "cvt.relu.f16x2.e5m2x2",
    "cvt.rn.relu.f16.f32",    "cvt.rn.sf.f16.f32",      "cvt.rz.f16.f32",        "cvt.rz.relu.sf.f16.f32",
    "cvt.rn.relu.f16x2.f32",  "cvt.rn.sf.bf16.f32",     "cvt.rz.bf16.f32",       "cvt.rz.relu.sf.bf16x2.f32",
    "cvt.rn.sf.f16x2.f32",
    "cvt.rna.sf.tf32.f32",    "cvt.rn.tf32.f32",        "cvt.rz.tf32.f32",
    "fma.rn.relu.f16",        "fma.rn.ftz.relu.f16x2",  "fma.rn.relu.bf16",      "fma.rn.relu.bf16x2",
    "min.xorsign.abs.f32",    "max.xorsign.abs.f32",    "max.NaN.xs.abs.f32",    "min.ftz.xs.abs.f32",
    "min.xorsign.abs.f16",    "max.NaN.xs.abs.f16x2",   "min.ftz.xs.abs.f16",    "max.xorsign.abs.bf16",
    "min.NaN.xs.abs.bf16x2"};

// Sources and result as raw bits (the low 16 or 32 bits).
__global__ void ops(const int* op, const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned rx = (unsigned)a[i], ry = (unsigned)b[i], rz = (unsigned)c[i];
  const unsigned short hx = (unsigned short)rx, hy = (unsigned short)ry, hz = (unsigned short)rz;
  const float fx = __uint_as_float(rx), fy = __uint_as_float(ry);
  unsigned r = 0;
  unsigned short hr = 0;
  uint64_t out = 0;
  switch (op[i]) {
    case kE4m3F32: asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(hr) : "f"(fx), "f"(fy)); out = hr; break;
    case kE4m3F32Relu: asm("cvt.rn.satfinite.relu.e4m3x2.f32 %0, %1, %2;" : "=h"(hr) : "f"(fx), "f"(fy)); out = hr; break;
    case kE5m2F32: asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(hr) : "f"(fx), "f"(fy)); out = hr; break;
    case kE5m2F32Relu: asm("cvt.rn.satfinite.relu.e5m2x2.f32 %0, %1, %2;" : "=h"(hr) : "f"(fx), "f"(fy)); out = hr; break;
    case kE4m3F16x2: asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(hr) : "r"(rx)); out = hr; break;
    case kE5m2F16x2Relu: asm("cvt.rn.satfinite.relu.e5m2x2.f16x2 %0, %1;" : "=h"(hr) : "r"(rx)); out = hr; break;
    case kF16x2E4m3: asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(r) : "h"(hx)); out = r; break;
    case kF16x2E4m3Relu: asm("cvt.rn.relu.f16x2.e4m3x2 %0, %1;" : "=r"(r) : "h"(hx)); out = r; break;
    case kF16x2E5m2: asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(r) : "h"(hx)); out = r; break;
    case kF16x2E5m2Relu: asm("cvt.rn.relu.f16x2.e5m2x2 %0, %1;" : "=r"(r) : "h"(hx)); out = r; break;
    case kReluF16: asm("cvt.rn.relu.f16.f32 %0, %1;" : "=h"(hr) : "f"(fx)); out = hr; break;
    case kSatF16: asm("cvt.rn.satfinite.f16.f32 %0, %1;" : "=h"(hr) : "f"(fx)); out = hr; break;
    case kRzF16: asm("cvt.rz.f16.f32 %0, %1;" : "=h"(hr) : "f"(fx)); out = hr; break;
    case kRzReluSatF16: asm("cvt.rz.relu.satfinite.f16.f32 %0, %1;" : "=h"(hr) : "f"(fx)); out = hr; break;
    case kReluF16x2: asm("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(fx), "f"(fy)); out = r; break;
    case kSatBf16: asm("cvt.rn.satfinite.bf16.f32 %0, %1;" : "=h"(hr) : "f"(fx)); out = hr; break;
    case kRzBf16: asm("cvt.rz.bf16.f32 %0, %1;" : "=h"(hr) : "f"(fx)); out = hr; break;
    case kRzReluSatBf16x2: asm("cvt.rz.relu.satfinite.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(fx), "f"(fy)); out = r; break;
    case kSatF16x2: asm("cvt.rn.satfinite.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(fx), "f"(fy)); out = r; break;
    case kTf32RnaSat: asm("cvt.rna.satfinite.tf32.f32 %0, %1;" : "=r"(r) : "f"(fx)); out = r; break;
    case kTf32Rn: asm("cvt.rn.tf32.f32 %0, %1;" : "=r"(r) : "f"(fx)); out = r; break;
    case kTf32Rz: asm("cvt.rz.tf32.f32 %0, %1;" : "=r"(r) : "f"(fx)); out = r; break;
    case kFmaReluF16: asm("fma.rn.relu.f16 %0, %1, %2, %3;" : "=h"(hr) : "h"(hx), "h"(hy), "h"(hz)); out = hr; break;
    case kFmaReluFtzF16x2: asm("fma.rn.ftz.relu.f16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(rx), "r"(ry), "r"(rz)); out = r; break;
    case kFmaReluBf16: asm("fma.rn.relu.bf16 %0, %1, %2, %3;" : "=h"(hr) : "h"(hx), "h"(hy), "h"(hz)); out = hr; break;
    case kFmaReluBf16x2: asm("fma.rn.relu.bf16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(rx), "r"(ry), "r"(rz)); out = r; break;
    case kMinXsF32: asm("min.xorsign.abs.f32 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kMaxXsF32: asm("max.xorsign.abs.f32 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kMaxXsNanF32: asm("max.NaN.xorsign.abs.f32 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kMinXsFtzF32: asm("min.ftz.xorsign.abs.f32 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kMinXsF16: asm("min.xorsign.abs.f16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); out = hr; break;
    case kMaxXsNanF16x2: asm("max.NaN.xorsign.abs.f16x2 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
    case kMinXsFtzF16: asm("min.ftz.xorsign.abs.f16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); out = hr; break;
    case kMaxXsBf16: asm("max.xorsign.abs.bf16 %0, %1, %2;" : "=h"(hr) : "h"(hx), "h"(hy)); out = hr; break;
    case kMinXsNanBf16x2: asm("min.NaN.xorsign.abs.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(rx), "r"(ry)); out = r; break;
  }
  d[i] = out;
}

constexpr int kMax = 1024;

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  static CaseList<kMax> list;
  auto add = [&](int op, uint64_t a, uint64_t b, uint64_t c) { list.add(op, a, b, c); };
  auto pack = [](uint64_t high, uint64_t low) { return high << 16 | low; };
  // f32 sources for fp8: zeros, +-1, E4M3's largest (448), past it (449), its tie with the
  // NaN encoding (464), far past it, E5M2's largest (57344) and its tie with infinity
  // (61440), infinities, NaNs (quiet with a payload, negative, signalling), E4M3's smallest
  // subnormal 2^-9 and the tie below it 2^-10, 3 x 2^-11, E5M2's smallest 2^-16, 1 + 2^-4
  // and 1 + 3 x 2^-4 (E4M3 ties, down and up to even), 1 + 2^-3 (an E5M2 tie), a tiny
  // negative (-0 in both), 0.3 and -2.75.
  const uint32_t f32s[] = {0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x43E00000, 0x43E08000, 0x43E80000,
                           0x49742400, 0x47600000, 0x47700000, 0x7F800000, 0xFF800000, 0x7FC00123, 0xFFC00001,
                           0x7F800005, 0x3B000000, 0x3A800000, 0x3AC00000, 0x37800000, 0x3F880000, 0x3F980000,
                           0x3F900000, 0xA8000000, 0x3E99999A, 0xC0300000};
  const int nf = sizeof(f32s) / sizeof(f32s[0]);
  for (int op : {kE4m3F32, kE4m3F32Relu, kE5m2F32, kE5m2F32Relu})
    for (int k = 0; k < nf; ++k) add(op, f32s[k], f32s[(k + 7) % nf], 0);
  // f16x2 sources for fp8: NaN, -inf, 448, 464, 65504, the smallest subnormal, 1, -1.0625,
  // 57344, 61440, -0, 2^-10 (an E4M3 tie to zero), 0.5.
  const uint32_t f16s[] = {0x7E00, 0xFC00, 0x5F00, 0x5F40, 0x7BFF, 0x0001, 0x3C00, 0xBC40,
                           0x7B00, 0x7B80, 0x8000, 0x1400, 0x3800};
  const int nh = sizeof(f16s) / sizeof(f16s[0]);
  for (int op : {kE4m3F16x2, kE5m2F16x2Relu})
    for (int k = 0; k < nh; ++k) add(op, pack(f16s[k], f16s[(k + 5) % nh]), 0, 0);
  // fp8 to f16x2: all 256 values of each format, two a case.
  for (int op : {kF16x2E4m3, kF16x2E4m3Relu, kF16x2E5m2, kF16x2E5m2Relu})
    for (int v = 0; v < 256; v += 2) add(op, uint64_t(v + 1) << 8 | uint64_t(v), 0, 0);
  // f32 to halves: f16's largest (65504), the tie past it (65520), past it, infinities, NaN,
  // -1.5, -0, a tiny negative, 1 + 2^-11 (an f16 tie), f16's smallest subnormal 2^-24, the
  // tie below it, 3 x 2^-26, f32's largest, bf16's tie with infinity (0x7F7F8000), bf16
  // ties (1 + 2^-8, 1 + 3 x 2^-8), -3e-5, an f32 just under 1 + 2^-11.
  const uint32_t narrow[] = {0x477FE000, 0x477FF000, 0x47800000, 0x7F800000, 0xFF800000, 0x7FC00001, 0xBFC00000,
                             0x80000000, 0x80000001, 0x3F801000, 0x33800000, 0x33000000, 0x32C00000, 0x7F7FFFFF,
                             0x7F7F8000, 0x3F808000, 0x3F818000, 0xB7FBA882, 0x3F800FFF, 0xC7800000};
  const int nn = sizeof(narrow) / sizeof(narrow[0]);
  for (int op : {kReluF16, kSatF16, kRzF16, kRzReluSatF16, kSatBf16, kRzBf16})
    for (int k = 0; k < nn; ++k) add(op, narrow[k], 0, 0);
  for (int op : {kReluF16x2, kRzReluSatBf16x2, kSatF16x2})
    for (int k = 0; k < nn; ++k) add(op, narrow[k], narrow[(k + 3) % nn], 0);
  // tf32: ties (1 + 2^-11 either sign; 1 + 3 x 2^-11), just under a tie, the largest
  // float, infinities, NaNs (a payload in the kept and in the dropped bits, negative
  // signalling), -1, -0, a subnormal tie.
  const uint32_t tf32s[] = {0x3F801000, 0xBF801000, 0x3F803000, 0x3F800FFF, 0x7F7FFFFF, 0x7F800000, 0xFF800000,
                            0x7FC00123, 0x7F800001, 0xFF812345, 0xBF800000, 0x80000000, 0x00001000, 0x7F7FF000};
  for (int op : {kTf32RnaSat, kTf32Rn, kTf32Rz})
    for (uint32_t v : tf32s) add(op, v, 0, 0);
  // fma.relu on f16: a negative result, an exact zero from cancelling (+0), -0 * 1 + -0,
  // a NaN source, a positive result, a subnormal result (flushed with .ftz), overflow to
  // -inf; on bf16 likewise.
  const uint32_t h1 = 0x3C00, hm2 = 0xC000, hm1 = 0xBC00, hnz = 0x8000, hq = 0x7E05, h2 = 0x4000, h3 = 0x4200,
                 hhalf = 0x3800, hmin = 0x0400, hbig = 0x7BFF;
  const uint32_t fh[][3] = {{h1, hm2, h1}, {h1, h1, hm1}, {hnz, h1, hnz}, {hq, h1, h1}, {h2, h3, hhalf},
                            {hmin, hhalf, 0}, {hbig, hbig, 0}, {hbig ^ 0x8000, hbig, 0}};
  for (auto& t : fh) add(kFmaReluF16, t[0], t[1], t[2]);
  for (int k = 0; k < 8; k += 2)
    add(kFmaReluFtzF16x2, pack(fh[k + 1][0], fh[k][0]), pack(fh[k + 1][1], fh[k][1]), pack(fh[k + 1][2], fh[k][2]));
  const uint32_t b1 = 0x3F80, bm1 = 0xBF80, bhalf = 0x3F00, bnz = 0x8000, bq = 0x7FC5, bbig = 0x7F7F, bsub = 0x0001;
  const uint32_t fb[][3] = {{bm1, b1, bhalf}, {b1, b1, bm1}, {bnz, b1, bnz}, {bq, b1, b1},
                            {bbig, bbig, 0}, {bbig ^ 0x8000, bbig, 0}, {bsub, bhalf, 0}, {b1, bhalf, bhalf}};
  for (auto& t : fb) add(kFmaReluBf16, t[0], t[1], t[2]);
  for (int k = 0; k < 8; k += 2)
    add(kFmaReluBf16x2, pack(fb[k + 1][0], fb[k][0]), pack(fb[k + 1][1], fb[k][1]), pack(fb[k + 1][2], fb[k][2]));
  // xorsign.abs: signs mixed and equal, equal magnitudes, signed zeros, one and two NaNs
  // (negative, signalling), infinities, subnormals (flushed with .ftz).
  const uint32_t x32[][2] = {{0xC0000000, 0x40400000}, {0xC0000000, 0xC0400000}, {0x40400000, 0xC0400000},
                             {0x80000000, 0x00000000}, {0xFFC00001, 0xBF800000}, {0x3F800000, 0x7F800001},
                             {0x7FC00000, 0xFFC00000}, {0xFF800000, 0x3F800000}, {0x00000001, 0xC0000000},
                             {0x80000003, 0x00000002}};
  for (int op : {kMinXsF32, kMaxXsF32, kMaxXsNanF32, kMinXsFtzF32})
    for (auto& p : x32) add(op, p[0], p[1], 0);
  const uint32_t x16[][2] = {{0xC000, 0x4200}, {0xC000, 0xC200}, {0x4200, 0xC200}, {0x8000, 0x0000}, {0xFE01, 0xBC00},
                             {0x3C00, 0x7C01}, {0x7E00, 0xFE00}, {0xFC00, 0x3C00}, {0x0001, 0xC000}, {0x8003, 0x0002}};
  for (int op : {kMinXsF16, kMinXsFtzF16})
    for (auto& p : x16) add(op, p[0], p[1], 0);
  for (int k = 0; k < 10; k += 2) add(kMaxXsNanF16x2, pack(x16[k + 1][0], x16[k][0]), pack(x16[k + 1][1], x16[k][1]), 0);
  const uint32_t xb[][2] = {{0xC000, 0x4040}, {0xC000, 0xC040}, {0x4040, 0xC040}, {0x8000, 0x0000}, {0xFFC1, 0xBF80},
                            {0x3F80, 0x7F81}, {0x7FC0, 0xFFC0}, {0xFF80, 0x3F80}, {0x0001, 0xC000}, {0x8003, 0x0002}};
  for (auto& p : xb) add(kMaxXsBf16, p[0], p[1], 0);
  for (int k = 0; k < 10; k += 2) add(kMinXsNanBf16x2, pack(xb[k + 1][0], xb[k][0]), pack(xb[k + 1][1], xb[k][1]), 0);

  static uint64_t d[kMax];
  RESULTS_CHECK(run_cases(ops, list.items, list.n, d));
  print_cases(kNames, list.items, list.n, d, 25, 8);
  return 0;
}
