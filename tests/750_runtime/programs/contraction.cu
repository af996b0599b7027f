// Which multiply-add pairs does the GPU fuse? PTX lets the code generator contract mul.f32
// and add/sub.f32 without a rounding modifier into one fma (PTX ISA, "mul"/"add"), and
// ptxas does. Each pattern below is written in inline PTX, run on 4096 inputs, and every
// result is classed by the host: equal to the unfused result, to the fma of the first
// multiply, or to the fma of the second. Run on an H100 and under warpsim, the lines must
// be equal (tests/750_runtime/programs/contraction.expected is the H100's output).
#include <cmath>
#include <cstdio>
#include <vector>

constexpr int kPatterns = 12;
constexpr int kN = 4096;

__global__ void patterns(const float* x, const double* xd, float* out, double* outd, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = x[4 * i], b = x[4 * i + 1], c = x[4 * i + 2], d = x[4 * i + 3];
  float r[kPatterns - 2];
  // 0: mul then add, the product first.
  asm("{ .reg .f32 p; mul.f32 p, %1, %2; add.f32 %0, p, %3; }" : "=f"(r[0]) : "f"(a), "f"(b), "f"(c));
  // 1: mul then add, the product second.
  asm("{ .reg .f32 p; mul.f32 p, %1, %2; add.f32 %0, %3, p; }" : "=f"(r[1]) : "f"(a), "f"(b), "f"(c));
  // 2: two products added.
  asm("{ .reg .f32 p, q; mul.f32 p, %1, %2; mul.f32 q, %3, %4; add.f32 %0, p, q; }"
      : "=f"(r[2]) : "f"(a), "f"(b), "f"(c), "f"(d));
  // 3: two products subtracted.
  asm("{ .reg .f32 p, q; mul.f32 p, %1, %2; mul.f32 q, %3, %4; sub.f32 %0, p, q; }"
      : "=f"(r[3]) : "f"(a), "f"(b), "f"(c), "f"(d));
  // 4: a product subtracted from a value.
  asm("{ .reg .f32 p; mul.f32 p, %1, %2; sub.f32 %0, %3, p; }" : "=f"(r[4]) : "f"(a), "f"(b), "f"(c));
  // 5: mul.rn is never fused.
  asm("{ .reg .f32 p; mul.rn.f32 p, %1, %2; add.f32 %0, p, %3; }" : "=f"(r[5]) : "f"(a), "f"(b), "f"(c));
  // 6: add.rn is never fused.
  asm("{ .reg .f32 p; mul.f32 p, %1, %2; add.rn.f32 %0, p, %3; }" : "=f"(r[6]) : "f"(a), "f"(b), "f"(c));
  // 7: the product also used elsewhere (stored beside the sum).
  float p7;
  asm("{ mul.f32 %1, %2, %3; add.f32 %0, %1, %4; }" : "=f"(r[7]), "=f"(p7) : "f"(a), "f"(b), "f"(c));
  // 8: ftz forms.
  asm("{ .reg .f32 p; mul.ftz.f32 p, %1, %2; add.ftz.f32 %0, p, %3; }" : "=f"(r[8]) : "f"(a), "f"(b), "f"(c));
  // 9: a product minus a product, then plus a value (the chain in a 2D rotation).
  asm("{ .reg .f32 p, q, s; mul.f32 p, %1, %2; mul.f32 q, %3, %4; sub.f32 s, q, p; add.f32 %0, s, 0f3F000000; }"
      : "=f"(r[9]) : "f"(a), "f"(b), "f"(c), "f"(d));
  for (int k = 0; k < kPatterns - 2; ++k) out[kPatterns * i + k] = r[k];
  out[kPatterns * i + kPatterns - 2] = p7;
  double da = xd[3 * i], db = xd[3 * i + 1], dc = xd[3 * i + 2], rd;
  // 10: double mul then add.
  asm("{ .reg .f64 p; mul.f64 p, %1, %2; add.f64 %0, p, %3; }" : "=d"(rd) : "d"(da), "d"(db), "d"(dc));
  outd[i] = rd;
}

namespace {
unsigned state = 2463534242u;
float next_float() {  // a value in [-4, 4) with a full mantissa, so rounding shows
  state ^= state << 13;
  state ^= state >> 17;
  state ^= state << 5;
  return (float(state >> 8) / 16777216.0f - 0.5f) * 8.0f;
}
template <class T> T mul(T a, T b) { volatile T p = a * b; return p; }
template <class T> T add(T a, T b) { volatile T s = a + b; return s; }

struct Tally {
  int unfused = 0, first = 0, second = 0, other = 0;
  void add(float got, float unf, float f1, float f2) {
    if (got == unf) ++unfused;
    else if (got == f1) ++first;
    else if (got == f2) ++second;
    else ++other;
  }
};
}  // namespace

int main() {
  std::vector<float> x(4 * kN);
  std::vector<double> xd(3 * kN);
  for (auto& v : x) v = next_float();
  for (auto& v : xd) v = double(next_float()) * (1.0 + double(next_float()) / 3.0);
  float *dx, *dout;
  double *dxd, *doutd;
  cudaMalloc(&dx, x.size() * sizeof(float));
  cudaMalloc(&dxd, xd.size() * sizeof(double));
  cudaMalloc(&dout, kPatterns * kN * sizeof(float));
  cudaMalloc(&doutd, kN * sizeof(double));
  cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dxd, xd.data(), xd.size() * sizeof(double), cudaMemcpyHostToDevice);
  patterns<<<kN / 128, 128>>>(dx, dxd, dout, doutd, kN);
  std::vector<float> out(kPatterns * kN);
  std::vector<double> outd(kN);
  cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaError_t e = cudaMemcpy(outd.data(), doutd, outd.size() * sizeof(double), cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  const char* names[kPatterns - 1] = {"mul, add(p, c)",     "mul, add(c, p)",     "mul, mul, add(p, q)",
                                      "mul, mul, sub(p, q)", "mul, sub(c, p)",     "mul.rn, add(p, c)",
                                      "mul, add.rn(p, c)",  "mul, add(p, c), p kept", "mul.ftz, add.ftz(p, c)",
                                      "mul, mul, sub(q, p), add 0.5", "f64 mul, add(p, c)"};
  Tally t[kPatterns - 1];
  int product_kept_wrong = 0;
  for (int i = 0; i < kN; ++i) {
    const float a = x[4 * i], b = x[4 * i + 1], c = x[4 * i + 2], d = x[4 * i + 3];
    const float* r = &out[kPatterns * i];
    const float ab = mul(a, b), cd = mul(c, d);
    t[0].add(r[0], add(ab, c), std::fma(a, b, c), std::fma(a, b, c));
    t[1].add(r[1], add(c, ab), std::fma(a, b, c), std::fma(a, b, c));
    t[2].add(r[2], add(ab, cd), std::fma(a, b, cd), std::fma(c, d, ab));
    t[3].add(r[3], add(ab, -cd), std::fma(a, b, -cd), std::fma(-c, d, ab));
    t[4].add(r[4], add(c, -ab), std::fma(-a, b, c), std::fma(-a, b, c));
    t[5].add(r[5], add(ab, c), std::fma(a, b, c), std::fma(a, b, c));
    t[6].add(r[6], add(ab, c), std::fma(a, b, c), std::fma(a, b, c));
    t[7].add(r[7], add(ab, c), std::fma(a, b, c), std::fma(a, b, c));
    if (r[kPatterns - 2] != ab) ++product_kept_wrong;
    t[8].add(r[8], add(ab, c), std::fma(a, b, c), std::fma(a, b, c));
    // 9: (c*d - a*b) + 0.5: the first product of the sub fused, or the second, or neither.
    t[9].add(r[9], add(add(cd, -ab), 0.5f), add(std::fma(c, d, -ab), 0.5f), add(std::fma(-a, b, cd), 0.5f));
    const double da = xd[3 * i], db = xd[3 * i + 1], dc = xd[3 * i + 2];
    const double unf = add(mul(da, db), dc), fused = std::fma(da, db, dc);
    if (outd[i] == unf) ++t[10].unfused;
    else if (outd[i] == fused) ++t[10].first;
    else ++t[10].other;
  }
  std::printf("pattern: results equal to unfused / fma of the first product / fma of the second / neither\n");
  for (int k = 0; k < kPatterns - 1; ++k)
    std::printf("%-30s %4d %4d %4d %4d\n", names[k], t[k].unfused, t[k].first, t[k].second, t[k].other);
  std::printf("kept product wrong: %d\n", product_kept_wrong);
  return 0;
}
