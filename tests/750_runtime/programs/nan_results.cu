// The bits of NaN results: which NaN a float instruction returns when a source is NaN (with
// a payload, negative, signalling) or when it makes one (0/0, inf-inf, sqrt(-1)), in f32 and
// f64, with .ftz, .sat and directed rounding, and what printf then shows ("nan" or "-nan").
// Every instruction is written as inline PTX, so the GPU and warpsim run the same one; the
// sources come from memory, so nothing is folded at compile time.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

#include "results_cases.cuh"  // RESULTS_CHECK

enum Op32 {
  kAdd, kSub, kMul, kDiv, kFma, kMin, kMax, kSqrt, kRcp, kRsqrt, kLg2, kEx2, kSin, kAbs, kNeg,
  kAddFtz, kAddRz, kAddSat, kMulRz, kFmaRz, kDivApprox, kDivFull, kCvtRzi, kOps32
};
const char* kNames32[] = {"add", "sub", "mul", "div.rn", "fma.rn", "min", "max", "sqrt.rn", "rcp.rn",
                          "rsqrt.approx", "lg2.approx", "ex2.approx", "sin.approx", "abs", "neg", "add.ftz",
                          "add.rz", "add.sat", "mul.rz", "fma.rz", "div.approx", "div.full", "cvt.rzi.f32.f32"};

__global__ void f32_ops(const int* op, const float* a, const float* b, const float* c, float* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i], z = c[i], r = 0;
  switch (op[i]) {
    case kAdd: asm("add.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); break;
    case kSub: asm("sub.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); break;
    case kMul: asm("mul.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); break;
    case kDiv: asm("div.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); break;
    case kFma: asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(x), "f"(y), "f"(z)); break;
    case kMin: asm("min.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); break;
    case kMax: asm("max.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); break;
    case kSqrt: asm("sqrt.rn.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    case kRcp: asm("rcp.rn.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    case kRsqrt: asm("rsqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    case kLg2: asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    case kEx2: asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    case kSin: asm("sin.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    case kAbs: asm("abs.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    case kNeg: asm("neg.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    case kAddFtz: asm("add.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); break;
    case kAddRz: asm("add.rz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); break;
    case kAddSat: asm("add.sat.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); break;
    case kMulRz: asm("mul.rz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); break;
    case kFmaRz: asm("fma.rz.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(x), "f"(y), "f"(z)); break;
    case kDivApprox: asm("div.approx.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); break;
    case kDivFull: asm("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); break;
    case kCvtRzi: asm("cvt.rzi.f32.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
  }
  d[i] = r;
}

enum Op64 { kAdd64, kSub64, kMul64, kDiv64, kFma64, kMin64, kMax64, kSqrt64, kRcp64, kAbs64, kNeg64,
            kAddRz64, kCvtToF32, kCvtFromF32, kOps64 };
const char* kNames64[] = {"add.f64", "sub.f64", "mul.f64", "div.rn.f64", "fma.rn.f64", "min.f64", "max.f64",
                          "sqrt.rn.f64", "rcp.rn.f64", "abs.f64", "neg.f64", "add.rz.f64",
                          "cvt.rn.f32.f64 (a)", "cvt.f64.f32 (low word of a)"};

__global__ void f64_ops(const int* op, const double* a, const double* b, const double* c, double* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = a[i], y = b[i], z = c[i], r = 0;
  float f = 0;
  switch (op[i]) {
    case kAdd64: asm("add.f64 %0, %1, %2;" : "=d"(r) : "d"(x), "d"(y)); break;
    case kSub64: asm("sub.f64 %0, %1, %2;" : "=d"(r) : "d"(x), "d"(y)); break;
    case kMul64: asm("mul.f64 %0, %1, %2;" : "=d"(r) : "d"(x), "d"(y)); break;
    case kDiv64: asm("div.rn.f64 %0, %1, %2;" : "=d"(r) : "d"(x), "d"(y)); break;
    case kFma64: asm("fma.rn.f64 %0, %1, %2, %3;" : "=d"(r) : "d"(x), "d"(y), "d"(z)); break;
    case kMin64: asm("min.f64 %0, %1, %2;" : "=d"(r) : "d"(x), "d"(y)); break;
    case kMax64: asm("max.f64 %0, %1, %2;" : "=d"(r) : "d"(x), "d"(y)); break;
    case kSqrt64: asm("sqrt.rn.f64 %0, %1;" : "=d"(r) : "d"(x)); break;
    case kRcp64: asm("rcp.rn.f64 %0, %1;" : "=d"(r) : "d"(x)); break;
    case kAbs64: asm("abs.f64 %0, %1;" : "=d"(r) : "d"(x)); break;
    case kNeg64: asm("neg.f64 %0, %1;" : "=d"(r) : "d"(x)); break;
    case kAddRz64: asm("add.rz.f64 %0, %1, %2;" : "=d"(r) : "d"(x), "d"(y)); break;
    case kCvtToF32: {
      asm("cvt.rn.f32.f64 %0, %1;" : "=f"(f) : "d"(x));
      unsigned u;
      asm("mov.b32 %0, %1;" : "=r"(u) : "f"(f));
      r = __longlong_as_double((long long)u);  // the f32's bits in the low word
      break;
    }
    case kCvtFromF32: {
      unsigned lo = unsigned(__double_as_longlong(x));
      asm("mov.b32 %0, %1;" : "=f"(f) : "r"(lo));
      asm("cvt.f64.f32 %0, %1;" : "=d"(r) : "f"(f));
      break;
    }
  }
  d[i] = r;
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float from32(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint64_t bits(double f) {
  uint64_t u;
  std::memcpy(&u, &f, 8);
  return u;
}
double from64(uint64_t u) {
  double f;
  std::memcpy(&f, &u, 8);
  return f;
}

template <class T>
T* to_device(const T* host, int n) {
  T* p = nullptr;
  if (cudaMalloc(&p, sizeof(T) * n) != cudaSuccess) return nullptr;
  cudaMemcpy(p, host, sizeof(T) * n, cudaMemcpyHostToDevice);
  return p;
}

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  // f32 sources: a quiet NaN with a payload, its negative, a signalling NaN, infinities,
  // zeros and ordinary numbers.
  const uint32_t kQ = 0x7FC00005u, kNegQ = 0xFFC00007u, kS = 0x7F800003u, kInf = 0x7F800000u,
                 kNegInf = 0xFF800000u, kZero = 0, kNegZero = 0x80000000u, kOne = 0x3F800000u,
                 kNegOne = 0xBF800000u, kTwo = 0x40000000u;
  struct Case32 { int op; uint32_t a, b, c; };
  const uint32_t binary_pairs[][2] = {{kQ, kOne},    {kOne, kQ},    {kNegQ, kOne}, {kOne, kNegQ}, {kS, kOne},
                                      {kOne, kS},    {kQ, kNegQ},   {kNegQ, kQ},   {kS, kQ},      {kInf, kNegInf},
                                      {kZero, kZero}, {kInf, kZero}, {kNegZero, kInf}, {kNegInf, kNegInf}};
  const int binary_ops[] = {kAdd, kSub, kMul, kDiv, kMin, kMax, kAddFtz, kAddRz, kAddSat, kMulRz, kDivApprox,
                            kDivFull};
  const uint32_t unary_sources[] = {kQ, kNegQ, kS, kNegOne, kNegInf, kInf, kZero, kNegZero};
  const int unary_ops[] = {kSqrt, kRcp, kRsqrt, kLg2, kEx2, kSin, kAbs, kNeg, kCvtRzi};
  const uint32_t fma_triples[][3] = {{kQ, kOne, kOne},  {kOne, kNegQ, kOne}, {kOne, kOne, kQ}, {kNegQ, kOne, kQ},
                                     {kInf, kZero, kOne}, {kInf, kOne, kNegInf}, {kS, kTwo, kOne},
                                     {kOne, kOne, kS}};
  Case32 cases[512];
  int n = 0;
  for (int op : binary_ops)
    for (auto& p : binary_pairs) cases[n++] = {op, p[0], p[1], kZero};
  for (int op : unary_ops)
    for (uint32_t s : unary_sources)
      if (!(op == kSin && s == kNegOne)) cases[n++] = {op, s, kZero, kZero};  // sin(-1): approximate bits
  const int fma_ops[] = {kFma, kFmaRz};
  for (int op : fma_ops)
    for (auto& t : fma_triples) cases[n++] = {op, t[0], t[1], t[2]};

  int ops[512];
  float a[512], b[512], c[512], d[512];
  for (int i = 0; i < n; ++i) {
    ops[i] = cases[i].op;
    a[i] = from32(cases[i].a);
    b[i] = from32(cases[i].b);
    c[i] = from32(cases[i].c);
  }
  int* dop = to_device(ops, n);
  float *da = to_device(a, n), *db = to_device(b, n), *dc = to_device(c, n), *dd = to_device(d, n);
  f32_ops<<<(n + 127) / 128, 128>>>(dop, da, db, dc, dd, n);
  RESULTS_CHECK(cudaGetLastError());
  RESULTS_CHECK(cudaMemcpy(d, dd, sizeof(float) * n, cudaMemcpyDeviceToHost));
  std::printf("f32: %d cases\n", n);
  for (int i = 0; i < n; ++i) {
    const char* name = kNames32[cases[i].op];
    std::printf("%-16s %08x %08x %08x -> %08x %f\n", name, cases[i].a, cases[i].b, cases[i].c, bits(d[i]), d[i]);
  }

  const uint64_t kQ64 = 0x7FF8000000000005ull, kNegQ64 = 0xFFF8000000000007ull, kS64 = 0x7FF0000000000003ull,
                 kInf64 = 0x7FF0000000000000ull, kNegInf64 = 0xFFF0000000000000ull, kZero64 = 0,
                 kOne64 = 0x3FF0000000000000ull, kNegOne64 = 0xBFF0000000000000ull;
  struct Case64 { int op; uint64_t a, b, c; };
  const uint64_t pairs64[][2] = {{kQ64, kOne64}, {kOne64, kQ64}, {kNegQ64, kOne64}, {kS64, kOne64},
                                 {kQ64, kNegQ64}, {kNegQ64, kQ64}, {kInf64, kNegInf64}, {kZero64, kZero64}};
  const int binary64[] = {kAdd64, kSub64, kMul64, kDiv64, kMin64, kMax64, kAddRz64};
  const uint64_t unary64[] = {kQ64, kNegQ64, kS64, kNegOne64, kNegInf64};
  const int unary_ops64[] = {kSqrt64, kRcp64, kAbs64, kNeg64};
  Case64 c64[256];
  int m = 0;
  for (int op : binary64)
    for (auto& p : pairs64) c64[m++] = {op, p[0], p[1], kZero64};
  for (int op : unary_ops64)
    for (uint64_t s : unary64) c64[m++] = {op, s, kZero64, kZero64};
  c64[m++] = {kFma64, kQ64, kOne64, kOne64};
  c64[m++] = {kFma64, kOne64, kOne64, kNegQ64};
  c64[m++] = {kFma64, kInf64, kZero64, kOne64};
  // cvt: f64 NaNs to f32; f32 NaNs (in the low word) to f64.
  const uint64_t narrowed[] = {kQ64, kNegQ64, kS64, 0x7FF8000123456789ull};
  const uint32_t widened[] = {kQ, kNegQ, kS, 0x7FC12345u};
  for (uint64_t s : narrowed) c64[m++] = {kCvtToF32, s, 0, 0};
  for (uint32_t s : widened) c64[m++] = {kCvtFromF32, s, 0, 0};

  int ops64[256];
  double a64[256], b64[256], cc64[256], d64[256];
  for (int i = 0; i < m; ++i) {
    ops64[i] = c64[i].op;
    a64[i] = from64(c64[i].a);
    b64[i] = from64(c64[i].b);
    cc64[i] = from64(c64[i].c);
  }
  int* dop64 = to_device(ops64, m);
  double *da64 = to_device(a64, m), *db64 = to_device(b64, m), *dc64 = to_device(cc64, m), *dd64 = to_device(d64, m);
  f64_ops<<<(m + 127) / 128, 128>>>(dop64, da64, db64, dc64, dd64, m);
  RESULTS_CHECK(cudaGetLastError());
  RESULTS_CHECK(cudaMemcpy(d64, dd64, sizeof(double) * m, cudaMemcpyDeviceToHost));
  std::printf("f64: %d cases\n", m);
  for (int i = 0; i < m; ++i) {
    std::printf("%-28s %016llx %016llx %016llx -> %016llx %f\n", kNames64[c64[i].op],
                (unsigned long long)c64[i].a, (unsigned long long)c64[i].b, (unsigned long long)c64[i].c,
                (unsigned long long)bits(d64[i]), d64[i]);
  }
  return 0;
}
