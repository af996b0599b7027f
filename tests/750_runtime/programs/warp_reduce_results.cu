// Warp reductions and byte dot products as the GPU computes them: redux.sync with add, min,
// max (.u32 and .s32), and, or, xor (.b32) over full warps and over the lanes of divergent
// branches (even lanes, the first seven, one lane), the same through cooperative groups'
// reduce and the __reduce_*_sync intrinsics (sm_80: they compile to redux.sync), and dp4a /
// dp2a.lo / dp2a.hi with every signedness of a and b (__dp4a, __dp2a_lo, __dp2a_hi).
// Needs sm_80 (redux).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>
#include <cstdio>

#include <cuda_runtime.h>

#include "results_cases.cuh"  // RESULTS_CHECK

namespace cg = cooperative_groups;

constexpr int kWarps = 8;
constexpr int kReduxOps = 12;
const char* kReduxNames[kReduxOps] = {"redux.add.u32", "redux.add.s32", "redux.min.u32", "redux.min.s32",
                                      "redux.max.u32", "redux.max.s32", "redux.and.b32", "redux.or.b32",
                                      "redux.xor.b32", "cg::reduce plus", "__reduce_max_sync(int)",
                                      "__reduce_min_sync(unsigned)"};

// The lanes of warp w that execute the reductions.
__host__ __device__ unsigned lanes_of(int w) {
  switch (w % 4) {
    case 0: return 0xFFFFFFFFu;
    case 1: return 0x55555555u;
    case 2: return 0x7Fu;
    default: return 0x80000000u;
  }
}

__global__ void reduce(const unsigned* in, unsigned* out) {
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned v = in[threadIdx.x];
  const int sv = (int)v;
  unsigned* o = out + (warp * kReduxOps) * 32;
  if ((lanes_of(warp) >> lane) & 1) {
    const unsigned mask = __activemask();
    unsigned r[kReduxOps];
    asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(r[0]) : "r"(v), "r"(mask));
    asm volatile("redux.sync.add.s32 %0, %1, %2;" : "=r"(r[1]) : "r"(v), "r"(mask));
    asm volatile("redux.sync.min.u32 %0, %1, %2;" : "=r"(r[2]) : "r"(v), "r"(mask));
    asm volatile("redux.sync.min.s32 %0, %1, %2;" : "=r"(r[3]) : "r"(v), "r"(mask));
    asm volatile("redux.sync.max.u32 %0, %1, %2;" : "=r"(r[4]) : "r"(v), "r"(mask));
    asm volatile("redux.sync.max.s32 %0, %1, %2;" : "=r"(r[5]) : "r"(v), "r"(mask));
    asm volatile("redux.sync.and.b32 %0, %1, %2;" : "=r"(r[6]) : "r"(v), "r"(mask));
    asm volatile("redux.sync.or.b32 %0, %1, %2;" : "=r"(r[7]) : "r"(v), "r"(mask));
    asm volatile("redux.sync.xor.b32 %0, %1, %2;" : "=r"(r[8]) : "r"(v), "r"(mask));
    r[9] = (unsigned)cg::reduce(cg::coalesced_threads(), sv, cg::plus<int>());
    r[10] = (unsigned)__reduce_max_sync(mask, sv);
    r[11] = __reduce_min_sync(mask, v);
    for (int k = 0; k < kReduxOps; ++k) o[k * 32 + lane] = r[k];
  }
}

constexpr int kDotOps = 8;
const char* kDotNames[kDotOps] = {"dp4a.u32.u32", "dp4a.s32.s32", "dp4a.s32.u32", "dp4a.u32.s32",
                                  "dp2a.lo.u32.u32", "dp2a.hi.s32.s32", "dp2a.lo.s32.u32", "dp2a.hi.u32.s32"};

__global__ void dot(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* d, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned x = a[i], y = b[i], z = c[i];
  unsigned* o = d + i * kDotOps;
  o[0] = __dp4a(x, y, z);
  o[1] = (unsigned)__dp4a((int)x, (int)y, (int)z);
  asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(o[2]) : "r"(x), "r"(y), "r"(z));
  asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(o[3]) : "r"(x), "r"(y), "r"(z));
  o[4] = __dp2a_lo(x, y, z);
  o[5] = (unsigned)__dp2a_hi((int)x, (int)y, (int)z);
  asm("dp2a.lo.s32.u32 %0, %1, %2, %3;" : "=r"(o[6]) : "r"(x), "r"(y), "r"(z));
  asm("dp2a.hi.u32.s32 %0, %1, %2, %3;" : "=r"(o[7]) : "r"(x), "r"(y), "r"(z));
}

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  // Lane values: a 32-bit LCG, with warps 4-7 drawn small and signed around zero (so that
  // signed and unsigned min/max differ inside the range), and extremes (0, 0xFFFFFFFF,
  // INT_MIN, INT_MAX) placed in the active lanes of warps 0-3.
  constexpr int kThreads = kWarps * 32;
  static unsigned in[kThreads];
  uint32_t s = 12345;
  for (int i = 0; i < kThreads; ++i) {
    s = s * 1664525u + 1013904223u;
    in[i] = i / 32 >= 4 ? (unsigned)((int)(s >> 24) - 128) : s;
  }
  for (int w = 0; w < 4; ++w) {
    in[w * 32 + 0] = 0x80000000u;
    in[w * 32 + 2] = 0x7FFFFFFFu;
    in[w * 32 + 4] = 0xFFFFFFFFu;
    in[w * 32 + 6] = 0;
    in[w * 32 + 31] = w & 1 ? 0xFFFFFFFEu : 5;
  }
  unsigned *din = nullptr, *dout = nullptr;
  static unsigned out[kWarps * kReduxOps * 32];
  RESULTS_CHECK(cudaMalloc(&din, sizeof(in)));
  RESULTS_CHECK(cudaMalloc(&dout, sizeof(out)));
  RESULTS_CHECK(cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice));
  RESULTS_CHECK(cudaMemset(dout, 0xAB, sizeof(out)));
  reduce<<<1, kThreads>>>(din, dout);
  RESULTS_CHECK(cudaGetLastError());
  RESULTS_CHECK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
  for (int w = 0; w < kWarps; ++w) {
    const unsigned lanes = lanes_of(w);
    for (int k = 0; k < kReduxOps; ++k) {
      const unsigned* o = out + (w * kReduxOps + k) * 32;
      // Every executing lane's result, and whether the other lanes kept the fill value.
      bool same = true, untouched = true;
      unsigned first = 0;
      bool seen = false;
      for (int l = 0; l < 32; ++l) {
        if ((lanes >> l) & 1) {
          if (!seen) first = o[l], seen = true;
          same = same && o[l] == first;
        } else {
          untouched = untouched && o[l] == 0xABABABABu;
        }
      }
      std::printf("warp %d lanes %08x %-28s %08x%s%s\n", w, lanes, kReduxNames[k], first, same ? "" : " (lanes differ)",
                  untouched ? "" : " (an idle lane was written)");
    }
  }
  // Dot products: extremes and mixed signs in every byte and half.
  const unsigned vals[] = {0x00000000u, 0xFFFFFFFFu, 0x80808080u, 0x7F7F7F7Fu, 0x01FF80C3u,
                           0x12345678u, 0xFEDCBA98u, 0x8000FFFFu, 0x00017FFFu, 0xC0DEF00Du};
  constexpr int nv = sizeof(vals) / sizeof(vals[0]);
  constexpr int n = nv * nv;
  static unsigned a[n], b[n], c[n], d[n * kDotOps];
  for (int i = 0; i < nv; ++i)
    for (int j = 0; j < nv; ++j) {
      a[i * nv + j] = vals[i];
      b[i * nv + j] = vals[j];
      c[i * nv + j] = vals[(i + 3 * j) % nv];
    }
  unsigned *da, *db, *dc, *dd;
  RESULTS_CHECK(cudaMalloc(&da, sizeof(a)));
  RESULTS_CHECK(cudaMalloc(&db, sizeof(b)));
  RESULTS_CHECK(cudaMalloc(&dc, sizeof(c)));
  RESULTS_CHECK(cudaMalloc(&dd, sizeof(d)));
  RESULTS_CHECK(cudaMemcpy(da, a, sizeof(a), cudaMemcpyHostToDevice));
  RESULTS_CHECK(cudaMemcpy(db, b, sizeof(b), cudaMemcpyHostToDevice));
  RESULTS_CHECK(cudaMemcpy(dc, c, sizeof(c), cudaMemcpyHostToDevice));
  dot<<<(n + 63) / 64, 64>>>(da, db, dc, dd, n);
  RESULTS_CHECK(cudaGetLastError());
  RESULTS_CHECK(cudaMemcpy(d, dd, sizeof(d), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < kDotOps; ++k)
      std::printf("%-16s %08x %08x %08x -> %08x\n", kDotNames[k], a[i], b[i], c[i], d[i * kDotOps + k]);
  return 0;
}
