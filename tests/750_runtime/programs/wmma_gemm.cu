// Tensor-core GEMMs through the wmma API, in every element type and shape nvcc offers for
// sm_90 (except the experimental sub-byte ones): C = alpha * A * B + beta * C, one warp per
// output tile, reading its tiles from global memory or through shared memory. Inputs of
// small integers give exact results, which are printed as checksums; random inputs are
// compared with a double-precision reference on the host and printed as a pass/fail at a
// tolerance fit for the type. Run on an H100 and under warpsim (built for sm_90), the output
// must be equal: wmma_gemm.expected is the H100's.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cmath>
#include <cstdio>
#include <vector>

using namespace nvcuda;

template <class T> T to(double v) { return T(v); }
template <> __half to<__half>(double v) { return __float2half(float(v)); }
template <> __nv_bfloat16 to<__nv_bfloat16>(double v) { return __float2bfloat16(float(v)); }
template <class T> double from(T v) { return double(v); }
template <> double from<__half>(__half v) { return double(__half2float(v)); }
template <> double from<__nv_bfloat16>(__nv_bfloat16 v) { return double(__bfloat162float(v)); }

// A is MxK row-major, B is KxN (row- or column-major as BLayout says), C is MxN row-major.
// Each warp computes one WMxWN tile of C, walking K in steps of WK.
template <int WM, int WN, int WK, class TI, class TF, class TA, class BLayout>
__global__ void gemm_global(const TI* A, const TI* B, TA* C, int M, int N, int K, TA alpha, TA beta) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int tiles_n = N / WN;
  const int tm = warp / tiles_n, tn = warp % tiles_n;
  if (tm * WM >= M) return;
  constexpr bool b_col = std::is_same<BLayout, wmma::col_major>::value;
  wmma::fragment<wmma::matrix_a, WM, WN, WK, TF, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, WM, WN, WK, TF, BLayout> b;
  wmma::fragment<wmma::accumulator, WM, WN, WK, TA> acc, c;
  wmma::fill_fragment(acc, TA(0));
  for (int k = 0; k < K; k += WK) {
    wmma::load_matrix_sync(a, A + tm * WM * K + k, K);
    if (b_col) wmma::load_matrix_sync(b, B + tn * WN * K + k, K);
    else wmma::load_matrix_sync(b, B + k * N + tn * WN, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  TA* ct = C + tm * WM * N + tn * WN;
  wmma::load_matrix_sync(c, ct, N, wmma::mem_row_major);
  for (int i = 0; i < c.num_elements; ++i) c.x[i] = alpha * acc.x[i] + beta * c.x[i];
  wmma::store_matrix_sync(ct, c, N, wmma::mem_row_major);
}

// The same GEMM for 16x16x16 half tiles, a block of 4 warps (2x2 tiles) staging A and B
// through shared memory, the accumulator stored to shared and copied out column-major.
__global__ void gemm_shared(const __half* A, const __half* B, float* C, int M, int N, int K) {
  __shared__ __half as[32][16 + 8];
  __shared__ __half bs[16][32 + 8];
  __shared__ float cs[32][32 + 4];
  const int warp = threadIdx.x / 32, wy = warp / 2, wx = warp % 2;
  const int by = blockIdx.y * 32, bx = blockIdx.x * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    for (int i = threadIdx.x; i < 32 * 16; i += blockDim.x) {
      as[i / 16][i % 16] = A[(by + i / 16) * K + k + i % 16];
      bs[i / 32][i % 32] = B[(k + i / 32) * N + bx + i % 32];
    }
    __syncthreads();
    wmma::load_matrix_sync(a, &as[wy * 16][0], 16 + 8);
    wmma::load_matrix_sync(b, &bs[0][wx * 16], 32 + 8);
    wmma::mma_sync(acc, a, b, acc);
    __syncthreads();
  }
  wmma::store_matrix_sync(&cs[wx * 16][wy * 16], acc, 32 + 4, wmma::mem_col_major);
  __syncthreads();
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) C[(by + i % 32) * N + bx + i / 32] = cs[i / 32][i % 32];
}

unsigned rng = 12345;
double next_random() {
  rng = rng * 1664525u + 1013904223u;
  return double(rng >> 8) / double(1u << 24);  // [0, 1)
}

// Runs one GEMM, checks it against the host, prints a line.
template <int WM, int WN, int WK, class TI, class TF, class TA, class BLayout>
void run(const char* name, int M, int N, int K, bool exact, double tol) {
  constexpr bool b_col = std::is_same<BLayout, wmma::col_major>::value;
  std::vector<TI> a(M * K), b(K * N);
  std::vector<TA> c(M * N);
  std::vector<double> ad(M * K), bd(K * N), cd(M * N);
  // Unsigned inputs are 0..6, signed ones -3..3.
  const double low = std::is_same<TI, unsigned char>::value ? 0 : -3;
  for (int i = 0; i < M * K; ++i) {
    double v = exact ? double(int(next_random() * 7)) + low : next_random() * 2 - 1;
    a[i] = to<TI>(v);
    ad[i] = from(a[i]);
  }
  for (int i = 0; i < K * N; ++i) {
    double v = exact ? double(int(next_random() * 7)) + low : next_random() * 2 - 1;
    b[i] = to<TI>(v);
    bd[i] = from(b[i]);
  }
  for (int i = 0; i < M * N; ++i) {
    double v = exact ? double(int(next_random() * 9) - 4) : next_random() * 2 - 1;
    c[i] = to<TA>(v);
    cd[i] = from(c[i]);
  }
  const TA alpha = to<TA>(exact ? 2 : 1.5), beta = to<TA>(exact ? -1 : 0.5);
  TI *da, *db;
  TA* dc;
  cudaMalloc(&da, a.size() * sizeof(TI));
  cudaMalloc(&db, b.size() * sizeof(TI));
  cudaMalloc(&dc, c.size() * sizeof(TA));
  cudaMemcpy(da, a.data(), a.size() * sizeof(TI), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * sizeof(TI), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), c.size() * sizeof(TA), cudaMemcpyHostToDevice);
  const int warps = (M / WM) * (N / WN);
  gemm_global<WM, WN, WK, TI, TF, TA, BLayout><<<(warps + 3) / 4, 128>>>(da, db, dc, M, N, K, alpha, beta);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(c.data(), dc, c.size() * sizeof(TA), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  double worst = 0, checksum = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k) s += ad[i * K + k] * (b_col ? bd[j * K + k] : bd[k * N + j]);
      double want = from(alpha) * s + from(beta) * cd[i * N + j];
      double got = from(c[i * N + j]);
      worst = std::fmax(worst, std::fabs(got - want) / std::fmax(1.0, std::fabs(want)));
      checksum += got * double((i * 7 + j * 3) % 11 - 5);
    }
  if (exact)
    std::printf("%-28s %s  checksum %.0f  C[0] %.0f  C[last] %.0f  error %g\n", name, cudaGetErrorString(e), checksum,
                from(c[0]), from(c[M * N - 1]), worst);
  else
    std::printf("%-28s %s  within %g: %s\n", name, cudaGetErrorString(e), tol, worst <= tol ? "yes" : "no");
}

int main() {
  using wmma::col_major;
  using wmma::row_major;
  // Exact: small integers.
  run<16, 16, 16, __half, __half, float, row_major>("f16->f32 16x16x16 B row", 64, 48, 64, true, 0);
  run<16, 16, 16, __half, __half, float, col_major>("f16->f32 16x16x16 B col", 64, 48, 64, true, 0);
  run<32, 8, 16, __half, __half, float, row_major>("f16->f32 32x8x16", 64, 32, 48, true, 0);
  run<8, 32, 16, __half, __half, float, col_major>("f16->f32 8x32x16", 32, 64, 48, true, 0);
  run<16, 16, 16, __half, __half, __half, row_major>("f16->f16 16x16x16", 32, 32, 32, true, 0);
  run<32, 8, 16, __half, __half, __half, col_major>("f16->f16 32x8x16", 64, 16, 32, true, 0);
  run<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float, row_major>("bf16->f32 16x16x16", 48, 32, 64, true, 0);
  run<8, 32, 16, __nv_bfloat16, __nv_bfloat16, float, row_major>("bf16->f32 8x32x16", 16, 64, 32, true, 0);
  run<16, 16, 8, float, wmma::precision::tf32, float, row_major>("tf32->f32 16x16x8", 32, 32, 32, true, 0);
  run<16, 16, 8, float, wmma::precision::tf32, float, col_major>("tf32->f32 16x16x8 B col", 32, 48, 24, true, 0);
  run<8, 8, 4, double, double, double, row_major>("f64 8x8x4", 24, 16, 32, true, 0);
  run<8, 8, 4, double, double, double, col_major>("f64 8x8x4 B col", 16, 24, 12, true, 0);
  run<16, 16, 16, signed char, signed char, int, row_major>("s8->s32 16x16x16", 32, 32, 64, true, 0);
  run<32, 8, 16, signed char, signed char, int, col_major>("s8->s32 32x8x16", 64, 16, 32, true, 0);
  run<8, 32, 16, unsigned char, unsigned char, int, row_major>("u8->s32 8x32x16", 16, 64, 32, true, 0);
  // Random inputs: rounding inside the tensor core is the hardware's; compare at a tolerance.
  run<16, 16, 16, __half, __half, float, row_major>("f16->f32 random", 64, 64, 128, false, 2e-3);
  run<16, 16, 16, __half, __half, __half, row_major>("f16->f16 random", 32, 32, 64, false, 2e-2);
  run<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float, col_major>("bf16->f32 random", 32, 32, 64, false, 2e-3);
  run<16, 16, 8, float, wmma::precision::tf32, float, row_major>("tf32->f32 random", 32, 32, 64, false, 5e-3);
  run<8, 8, 4, double, double, double, row_major>("f64 random", 16, 16, 64, false, 1e-12);

  // Through shared memory: 64x64x64 half, exact inputs.
  const int M = 64, N = 64, K = 64;
  std::vector<__half> a(M * K), b(K * N);
  std::vector<double> ad(M * K), bd(K * N);
  for (int i = 0; i < M * K; ++i) ad[i] = double(int(next_random() * 5) - 2), a[i] = __float2half(float(ad[i]));
  for (int i = 0; i < K * N; ++i) bd[i] = double(int(next_random() * 5) - 2), b[i] = __float2half(float(bd[i]));
  __half *da, *db;
  float* dc;
  cudaMalloc(&da, M * K * sizeof(__half));
  cudaMalloc(&db, K * N * sizeof(__half));
  cudaMalloc(&dc, M * N * sizeof(float));
  cudaMemcpy(da, a.data(), M * K * sizeof(__half), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), K * N * sizeof(__half), cudaMemcpyHostToDevice);
  gemm_shared<<<dim3(N / 32, M / 32), 128>>>(da, db, dc, M, N, K);
  cudaError_t e = cudaDeviceSynchronize();
  std::vector<float> c(M * N);
  cudaMemcpy(c.data(), dc, M * N * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  double checksum = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k) s += ad[i * K + k] * bd[k * N + j];
      wrong += s != c[i * N + j];
      checksum += c[i * N + j] * double((i + 2 * j) % 7 - 3);
    }
  std::printf("%-28s %s  checksum %.0f  wrong %d\n", "f16->f32 through shared", cudaGetErrorString(e), checksum, wrong);
  return 0;
}
