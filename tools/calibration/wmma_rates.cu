// Tensor-core issue rates on the GPU: one block of W warps on one SM, each warp running
// ITER rounds of CHAINS independent wmma::mma_sync on accumulators it keeps in registers.
// With W = 1 and CHAINS = 1 the time per round is the latency of one mma_sync; with many
// warps and chains it is the SM's throughput. Prints, per type and (W, CHAINS), the SM
// cycles per mma_sync per SM (clock64 around the loop, the slowest warp).
//   nvcc -O3 -arch=sm_90 -o wmma_rates wmma_rates.cu && ./wmma_rates
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdio>

using namespace nvcuda;

template <int M, int N, int K, class TF, class TI, class TA, int CHAINS>
__global__ void rate(const TI* a_src, const TI* b_src, TA* out, int iters, long long* cycles) {
  wmma::fragment<wmma::matrix_a, M, N, K, TF, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, M, N, K, TF, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, M, N, K, TA> acc[CHAINS];
  wmma::load_matrix_sync(a, a_src, K);
  wmma::load_matrix_sync(b, b_src, K);
  for (int c = 0; c < CHAINS; ++c) wmma::fill_fragment(acc[c], TA(0));
  __syncthreads();
  long long t0 = clock64();
  for (int i = 0; i < iters; ++i)
    for (int c = 0; c < CHAINS; ++c) wmma::mma_sync(acc[c], a, b, acc[c]);
  __syncthreads();
  long long t1 = clock64();
  for (int c = 1; c < CHAINS; ++c)
    for (int e = 0; e < acc[0].num_elements; ++e) acc[0].x[e] = acc[0].x[e] + acc[c].x[e];
  wmma::store_matrix_sync(out + (threadIdx.x / 32) * M * N, acc[0], N, wmma::mem_row_major);
  if (threadIdx.x == 0) *cycles = t1 - t0;
}

template <int M, int N, int K, class TF, class TI, class TA, int CHAINS>
void measure(const char* name, int warps) {
  const int iters = 4096;
  TI *a, *b;
  TA* out;
  long long* cyc;
  cudaMalloc(&a, M * K * sizeof(TI));
  cudaMalloc(&b, K * N * sizeof(TI));
  cudaMemset(a, 0, M * K * sizeof(TI));
  cudaMemset(b, 0, K * N * sizeof(TI));
  cudaMalloc(&out, 32 * M * N * sizeof(TA));
  cudaMalloc(&cyc, sizeof(long long));
  rate<M, N, K, TF, TI, TA, CHAINS><<<1, 32 * warps>>>(a, b, out, iters, cyc);  // warm-up
  rate<M, N, K, TF, TI, TA, CHAINS><<<1, 32 * warps>>>(a, b, out, iters, cyc);
  long long c = 0;
  cudaMemcpy(&c, cyc, sizeof c, cudaMemcpyDeviceToHost);
  cudaError_t e = cudaGetLastError();
  std::printf("%s,%d,%d,%.3f,%s\n", name, warps, CHAINS, double(c) / (double(iters) * CHAINS * warps),
              cudaGetErrorString(e));
  cudaFree(a);
  cudaFree(b);
  cudaFree(out);
  cudaFree(cyc);
}

template <int M, int N, int K, class TF, class TI, class TA>
void sweep(const char* name) {
  measure<M, N, K, TF, TI, TA, 1>(name, 1);
  measure<M, N, K, TF, TI, TA, 4>(name, 1);
  measure<M, N, K, TF, TI, TA, 4>(name, 4);
  measure<M, N, K, TF, TI, TA, 4>(name, 8);
  measure<M, N, K, TF, TI, TA, 4>(name, 16);
}

int main() {
  std::printf("kind,warps,chains,cycles_per_mma_per_sm,status\n");
  sweep<16, 16, 16, __half, __half, float>("f16_f32_m16n16k16");
  sweep<32, 8, 16, __half, __half, float>("f16_f32_m32n8k16");
  sweep<16, 16, 16, __half, __half, __half>("f16_f16_m16n16k16");
  sweep<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float>("bf16_f32_m16n16k16");
  sweep<16, 16, 8, wmma::precision::tf32, float, float>("tf32_f32_m16n16k8");
  sweep<8, 8, 4, double, double, double>("f64_m8n8k4");
  sweep<16, 16, 16, signed char, signed char, int>("s8_s32_m16n16k16");
  return 0;
}
