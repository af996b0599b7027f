// DRAM bandwidth against the bytes in flight, for reads, writes and copies: the same binary
// runs natively on the H100 (events, after an L2 flush) and under `warpsim exec --config h100
// --cache-control all` (tools/calibration/dram_inflight.sh).
//
// Each kernel is a grid-stride loop over a 64 MiB buffer of float4 in which every thread
// issues K independent 16-byte accesses per iteration (the loop is unrolled by hand, so the
// K loads are in flight together): K x 16 bytes x resident threads are in flight at most.
// Blocks of 256 threads, B blocks per SM (B x 8 warps per SM).
// Output, one line per launch: kind,K,blocks_per_sm,us,GB/s (bytes read + written / time).
// Build: nvcc -O3 -arch=sm_90 -cudart shared -o dram_inflight dram_inflight.cu
#include <cstdio>
#include <cstdlib>
#include <cstring>

template <int K>
__global__ void read_k(const float4* in, size_t n, float* out) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  float s = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i + (K - 1) * stride < n; i += K * stride) {
    float4 v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = in[i + k * stride];
#pragma unroll
    for (int k = 0; k < K; ++k) s += v[k].x + v[k].y + v[k].z + v[k].w;
  }
  if (s == 12345.0f) out[0] = s;  // never true for the zero data: keeps the loads
}

template <int K>
__global__ void write_k(float4* outp, size_t n, float f) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i + (K - 1) * stride < n; i += K * stride) {
#pragma unroll
    for (int k = 0; k < K; ++k) outp[i + k * stride] = make_float4(f, f, f, f);
  }
}

template <int K>
__global__ void copy_k(const float4* in, float4* outp, size_t n) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i + (K - 1) * stride < n; i += K * stride) {
    float4 v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = in[i + k * stride];
#pragma unroll
    for (int k = 0; k < K; ++k) outp[i + k * stride] = v[k];
  }
}

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

template <int K>
static float run(const char* kind, int blocks, const float4* a, float4* b, size_t n, float* out) {
  if (!std::strcmp(kind, "read")) read_k<K><<<blocks, 256>>>(a, n, out);
  else if (!std::strcmp(kind, "write")) write_k<K><<<blocks, 256>>>(b, n, 1.0f);
  else copy_k<K><<<blocks, 256>>>(a, b, n);
  return 0;
}

int main(int argc, char** argv) {
  // Arguments: "noflush" leaves out the L2 flush before each launch (warpsim's
  // --cache-control all and ncu's flush instead); "KIND K BLOCKS_PER_SM" runs one launch.
  const bool flush_l2 = !(argc > 1 && !std::strcmp(argv[1], "noflush"));
  if (!flush_l2) --argc, ++argv;
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attribute");
  const size_t bytes = size_t(64) << 20, n = bytes / sizeof(float4);
  float4 *a, *b, *flush;
  float* out;
  const size_t flush_bytes = size_t(128) << 20;
  check(cudaMalloc(&a, bytes), "malloc a");
  check(cudaMalloc(&b, bytes), "malloc b");
  check(cudaMalloc(&flush, flush_bytes), "malloc flush");
  check(cudaMalloc(&out, sizeof(float)), "malloc out");
  check(cudaMemset(a, 0, bytes), "memset a");
  check(cudaMemset(b, 0, bytes), "memset b");
  check(cudaMemset(flush, 0, flush_bytes), "memset flush");
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  const char* kinds[] = {"read", "write", "copy"};
  const int ks[] = {1, 2, 4, 8};
  const int occupancies[] = {1, 2, 4, 8};
  for (const char* kind : kinds)
    for (int k : ks)
      for (int occ : occupancies) {
        if (argc > 3 && (std::strcmp(argv[1], kind) || std::atoi(argv[2]) != k || std::atoi(argv[3]) != occ)) continue;
        // An unrelated read of 128 MiB first, so that nothing of a or b is in the L2.
        if (flush_l2) {
          read_k<4><<<sms * 8, 256>>>(flush, flush_bytes / sizeof(float4), out);
          check(cudaDeviceSynchronize(), "flush");
        }
        const int blocks = sms * occ;
        cudaEventRecord(t0);
        switch (k) {
          case 1: run<1>(kind, blocks, a, b, n, out); break;
          case 2: run<2>(kind, blocks, a, b, n, out); break;
          case 4: run<4>(kind, blocks, a, b, n, out); break;
          default: run<8>(kind, blocks, a, b, n, out); break;
        }
        cudaEventRecord(t1);
        check(cudaEventSynchronize(t1), "launch");
        float ms = 0;
        cudaEventElapsedTime(&ms, t0, t1);
        const double moved = std::strcmp(kind, "copy") ? double(bytes) : 2.0 * bytes;
        std::printf("%s,%d,%d,%.2f,%.0f\n", kind, k, occ, ms * 1000.0f, moved / (ms * 1e6));
      }
  return 0;
}
