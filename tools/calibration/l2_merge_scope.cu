// Which SMs' requests for the same sectors reach the L2 as one (l2_merge_scope.sh).
// One block per SM (the dynamic shared memory allows no second); the blocks on SM_A and SM_B
// meet at a barrier in global memory and then read the same data, the others end at once.
//   ./l2_merge_scope MODE SM_A DELAY_NS SM_B...|all
// MODE stream: each of the two blocks reads the same 8 MiB once, in the same order, with
//   ordinary (L1-caching) loads, as a tiled matmul's neighbouring blocks read a shared tile.
// The block on SM_B starts reading DELAY_NS after the barrier (0: at once), which tells a
// merge of requests in flight from a cache that keeps what it returned.
// MODE hot: each warp reads the same 4 KiB, 256 times, with ld.global.cg (L2 only).
// MODE skewN: as stream, but one float per thread (a warp asks for one whole 128-byte line)
//   and SM_B's reads start N bytes further on (N a multiple of 4 below 4096): with N 32 its
//   warps ask for sectors 1-3 of a line and 0 of the next, sharing sectors with SM_A's
//   requests but never asking for the same ones; with N 128 they ask for the same lines.
// MODE bytesN: as skewN with one byte per thread (a warp asks for one 32-byte sector; with
//   N not a multiple of 32, for parts of two), as the greyscale kernels' byte loads.
// MODE rgbN: the greyscale kernel's reads (kernels/greyscale): 3-byte pixels in rows of 200
//   (600 bytes); a block reads a 16-pixel-wide column strip, 64 rows at a time, each
//   thread its pixel's 3 bytes with 3 byte loads; SM_A's strip is columns 0-15, SM_B's N
//   pixels further right (16: the next block's, sharing one sector per row; 0: the same).
// One launch per SM_B given, or per SM of the device for "all" (SM_B == SM_A: SM_A alone,
// the control); ncu counts each launch's L1 misses and the L2's SM reads (l2_merge_scope.sh).
// Prints "launch,mode,sm_a,sm_b,delay_ns,status" per launch (status "ok", or "timeout" where a block waited 50 ms for its partner).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "sm_clock.cuh"

__device__ float4 load_cg(const float4* p) {
  float4 v;
  asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
  return v;
}

__global__ void pair_read(const float4* __restrict__ buf, unsigned n_vec, int hot, int skew_words, int skew_bytes,
                          int rgb_shift, unsigned sm_a,
                          unsigned sm_b, unsigned long long delay_ns, unsigned* arrive, unsigned* timed_out,
                          float* sink) {
  extern __shared__ float pad[];
  const unsigned id = smid();
  if (id != sm_a && id != sm_b) return;
  const unsigned parties = sm_a == sm_b ? 1u : 2u;
  if (threadIdx.x == 0) {
    atomicAdd(arrive, 1u);
    const unsigned long long t0 = now_ns();
    while (atomicAdd(arrive, 0u) < parties) {
      if (now_ns() - t0 > 50000000ull) {
        atomicExch(timed_out, 1u);
        break;
      }
    }
  }
  __syncthreads();
  if (id == sm_b && id != sm_a && delay_ns) {
    const unsigned long long t0 = now_ns();
    while (now_ns() - t0 < delay_ns) {
    }
  }
  float acc = 0.f;
  if (hot) {
    const unsigned lane = threadIdx.x & 31u;
    const unsigned warp = threadIdx.x >> 5;
    for (int r = 0; r < 256; ++r) {
      // 4 KiB = 8 warps' 512 bytes; each warp takes one of the 8 slices, rotating.
      const unsigned slice = (warp + unsigned(r)) & 7u;
      float4 v = load_cg(buf + slice * 32u + lane);
      acc += v.x + v.y + v.z + v.w;
    }
  } else if (rgb_shift >= 0) {
    const unsigned char* px = reinterpret_cast<const unsigned char*>(buf);
    const unsigned col = (threadIdx.x & 15u) + (id == sm_b && id != sm_a ? unsigned(rgb_shift) : 0u);
    const unsigned rows = n_vec * 16u / 600u;
    for (unsigned row = threadIdx.x >> 4; row < rows; row += blockDim.x >> 4) {
      const unsigned char* p = px + row * 600u + col * 3u;
      acc += float(p[0]) * 0.21f + float(p[1]) * 0.71f + float(p[2]) * 0.07f;
    }
  } else if (skew_bytes >= 0) {
    const unsigned char* bytes =
        reinterpret_cast<const unsigned char*>(buf) + (id == sm_b && id != sm_a ? skew_bytes : 0);
    for (unsigned i = threadIdx.x; i < n_vec * 16u; i += blockDim.x) acc += float(bytes[i]);
  } else if (skew_words >= 0) {
    const float* words = reinterpret_cast<const float*>(buf) + (id == sm_b && id != sm_a ? skew_words : 0);
    for (unsigned i = threadIdx.x; i < n_vec * 4u; i += blockDim.x) acc += words[i];
  } else {
    for (unsigned i = threadIdx.x; i < n_vec; i += blockDim.x) {
      float4 v = buf[i];
      acc += v.x + v.y + v.z + v.w;
    }
  }
  pad[threadIdx.x] = acc;
  if (acc == 1234.5f) sink[blockIdx.x * blockDim.x + threadIdx.x] = pad[threadIdx.x ^ 1u];
}

int main(int argc, char** argv) {
  const bool bytes = argc > 1 && strncmp(argv[1], "bytes", 5) == 0;
  const bool rgb = argc > 1 && strncmp(argv[1], "rgb", 3) == 0;
  const bool skewed = argc > 1 && (strncmp(argv[1], "skew", 4) == 0 || bytes || rgb);
  const char* number = argc > 1 ? argv[1] + (bytes ? 5 : rgb ? 3 : 4) : "";
  char* end = nullptr;
  const long skew_bytes = skewed ? strtol(number, &end, 10) : -1;
  if (argc < 5 || (strcmp(argv[1], "stream") && strcmp(argv[1], "hot") && !skewed) ||
      (skewed && (end == number || *end || skew_bytes < 0 || skew_bytes >= 4096 || (rgb && skew_bytes > 184) ||
                  (!bytes && !rgb && skew_bytes % 4)))) {
    fprintf(stderr,
            "usage: %s stream|hot|skewN|bytesN|rgbN SM_A DELAY_NS SM_B...|all  (N: bytes below 4096, for skewN a "
            "multiple of 4; for rgbN pixels, at most 184)\n",
            argv[0]);
    return 2;
  }
  const int hot = strcmp(argv[1], "hot") == 0;
  const unsigned sm_a = unsigned(atoi(argv[2]));
  const unsigned long long delay_ns = strtoull(argv[3], nullptr, 10);
  int sms = 0, smem_max = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  const unsigned threads = 1024, n_vec = (8u << 20) / 16u;
  // More than half an SM's shared memory: one block per SM, so all SMs hold one each.
  const int smem = smem_max;
  if (cudaFuncSetAttribute(pair_read, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) != cudaSuccess) {
    fprintf(stderr, "cudaFuncSetAttribute failed\n");
    return 1;
  }
  float4* buf;
  unsigned *arrive, *timed_out;
  float* sink;
  if (cudaMalloc(&buf, size_t(n_vec) * 16 + 4096) != cudaSuccess || cudaMalloc(&arrive, 4) != cudaSuccess ||
      cudaMalloc(&timed_out, 4) != cudaSuccess || cudaMalloc(&sink, size_t(sms) * threads * 4) != cudaSuccess) {
    fprintf(stderr, "cudaMalloc failed\n");
    return 1;
  }
  std::vector<float> init(size_t(n_vec) * 4 + 1024);
  for (size_t i = 0; i < init.size(); ++i) init[i] = float(i % 7);
  cudaMemcpy(buf, init.data(), init.size() * 4, cudaMemcpyHostToDevice);
  std::vector<unsigned> partners;
  if (strcmp(argv[4], "all") == 0)
    for (int s = 0; s < sms; ++s) partners.push_back(unsigned(s));
  else
    for (int i = 4; i < argc; ++i) partners.push_back(unsigned(atoi(argv[i])));
  printf("launch,mode,sm_a,sm_b,delay_ns,status\n");
  for (size_t i = 0; i < partners.size(); ++i) {
    const unsigned sm_b = partners[i];
    cudaMemset(arrive, 0, 4);
    cudaMemset(timed_out, 0, 4);
    pair_read<<<sms, threads, smem>>>(buf, n_vec, hot, skewed && !bytes && !rgb ? int(skew_bytes / 4) : -1,
                                      bytes ? int(skew_bytes) : -1, rgb ? int(skew_bytes) : -1, sm_a, sm_b, delay_ns, arrive,
                                      timed_out, sink);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      fprintf(stderr, "launch: %s\n", cudaGetErrorString(e));
      return 1;
    }
    unsigned t = 0;
    cudaMemcpy(&t, timed_out, 4, cudaMemcpyDeviceToHost);
    printf("%zu,%s,%u,%u,%llu,%s\n", i, argv[1], sm_a, sm_b, delay_ns, t ? "timeout" : "ok");
  }
  return 0;
}
