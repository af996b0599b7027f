// mbarrier objects (sm_80 and later) as CUDA programs reach them, built for sm_90 where
// libcu++ and cooperative groups compile to them:
//  - cuda::barrier<thread_scope_block> split into arrive() and wait(token), several phases,
//    with arrive_and_drop() taking threads out of later phases;
//  - cuda::memcpy_async into shared memory completed through a barrier: 16-byte chunks (the
//    bulk copy with a transaction count on sm_90) and 4-byte elements (cp.async with
//    cp.async.mbarrier.arrive);
//  - a thread-scope-block cuda::pipeline shared by a producer warp and consumer warps
//    (mbarrier pairs with try_wait.parity);
//  - the raw instructions through inline PTX: arrive with a count, test_wait.parity,
//    pending_count, expect_tx and complete_tx, arrive.noComplete;
//  - a cooperative-groups reduction over 64-thread tiles, whose scratch space is the
//    block's reserved shared memory (%reserved_smem_offset_1) on sm_80 and later.
// Integer arithmetic makes every result exact. Run on an H100/H200 and under warpsim
// (built for sm_90) the output must be equal: mbarrier.expected is the GPU's.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/barrier>
#include <cuda/pipeline>

#include <algorithm>
#include <cstdio>
#include <vector>

// A __shared__ barrier or pipeline state is set up by init()/make_pipeline, not by its
// constructor (which does not run for shared variables): as cuda-samples do, say so.
#pragma nv_diag_suppress static_var_with_dynamic_init

namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

constexpr int kThreads = 128;

// Each round every thread writes its slot, arrives, does work of its own and then waits
// before it reads its neighbour's slot. Threads t >= `stay` leave after round `leave_at`
// with arrive_and_drop(), so later phases complete with fewer arrivals.
__global__ void split_phases(const int* in, int* out, int rounds, int stay, int leave_at) {
  __shared__ block_barrier bar;
  __shared__ int buf[2][kThreads];
  const int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  int acc = 0;
  for (int r = 0; r < rounds; ++r) {
    buf[r & 1][t] = in[blockIdx.x * kThreads + t] * (r + 1);
    if (t >= stay && r == leave_at) {
      bar.arrive_and_drop();
      out[blockIdx.x * kThreads + t] = acc;
      return;
    }
    block_barrier::arrival_token token = bar.arrive();
    acc += t * r;
    bar.wait(std::move(token));
    const int n = (t + 1) % kThreads;
    acc += (n >= stay && r > leave_at) ? 0 : buf[r & 1][n];
  }
  out[blockIdx.x * kThreads + t] = acc;
}

// Copies a tile of int4 (16-byte chunks) and then of ints (4-byte elements) into shared
// memory with cuda::memcpy_async completed by a barrier, and sums a rotated view of each.
__global__ void async_tiles(const int4* in4, const int* in1, int* out, int tiles) {
  __shared__ block_barrier bar;
  __shared__ int4 tile4[kThreads];
  __shared__ int tile1[kThreads];
  const int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  int acc = 0;
  for (int i = 0; i < tiles; ++i) {
    const size_t base = (size_t(blockIdx.x) * tiles + i) * kThreads;
    cuda::memcpy_async(&tile4[t], &in4[base + t], sizeof(int4), bar);
    cuda::memcpy_async(&tile1[t], &in1[base + t], cuda::aligned_size_t<4>(sizeof(int)), bar);
    bar.arrive_and_wait();
    const int4 v = tile4[(t + 5) % kThreads];
    acc += v.x + 2 * v.y + 3 * v.z + 4 * v.w + 5 * tile1[(t + 9) % kThreads];
    bar.arrive_and_wait();  // everyone has read the tiles before the next copies
  }
  out[blockIdx.x * kThreads + t] = acc;
}

// Warp 0 produces stages of a two-stage pipeline; warps 1-3 consume them.
__global__ void producer_consumer(const int* in, int* out, int stages) {
  constexpr int kDepth = 2, kWidth = 96;
  __shared__ int buf[kDepth][kWidth];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kDepth> state;
  const int t = threadIdx.x;
  const bool producer = t < 32;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  int acc = 0;
  if (producer) {
    for (int s = 0; s < stages; ++s) {
      pipe.producer_acquire();
      for (int k = t; k < kWidth; k += 32)
        cuda::memcpy_async(&buf[s % kDepth][k], &in[(size_t(blockIdx.x) * stages + s) * kWidth + k],
                           cuda::aligned_size_t<4>(sizeof(int)), pipe);
      pipe.producer_commit();
    }
  } else {
    const int c = t - 32;
    for (int s = 0; s < stages; ++s) {
      pipe.consumer_wait();
      acc += buf[s % kDepth][c] * (s + 1) + buf[s % kDepth][(c + 7) % kWidth];
      pipe.consumer_release();
    }
    out[blockIdx.x * kWidth + c] = acc;
  }
}

__device__ unsigned shared_addr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// The instructions themselves: warp 0's lanes arrive with counts, warp 1 spins on
// test_wait.parity; a transaction count is expected and completed by hand; a
// noComplete arrival leaves the last one to thread 0.
__global__ void raw_instructions(unsigned* out) {
  __shared__ unsigned long long bar;
  __shared__ unsigned seen[64];
  const unsigned a = shared_addr(&bar);
  const int t = threadIdx.x;
  if (t == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(a), "r"(40) : "memory");
  __syncthreads();
  unsigned long long st = 0;
  if (t < 32) {
    seen[t] = 100 + t;
    // Lanes 0-7 arrive twice at once, the others once: 8 * 2 + 24 = 40 arrivals.
    if (t < 8) asm volatile("mbarrier.arrive.shared.b64 %0, [%1], 2;" : "=l"(st) : "r"(a) : "memory");
    else asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(a) : "memory");
    unsigned done = 0;  // then waits on its own arrival's phase through the state token
    while (!done)
      asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done) : "r"(a), "l"(st) : "memory");
  } else {
    unsigned done = 0, spins = 0;
    while (!done) {
      asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done) : "r"(a) : "memory");
      ++spins;
    }
    seen[t] = seen[t - 32] + 1000;
    out[t] = spins > 0;
  }
  __syncthreads();
  if (t < 32) out[t] = seen[t + 32];
  __syncthreads();
  // Phase 1: one expected arrival and 256 bytes of transactions.
  if (t == 0) {
    unsigned long long s1;
    unsigned pending;
    asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], 39;" : "=l"(s1) : "r"(a) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pending) : "l"(s1));
    out[64] = pending;
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], 256;" ::"r"(a) : "memory");
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(s1) : "r"(a) : "memory");
    unsigned done;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(a), "l"(s1) : "memory");
    out[65] = done;  // transactions still pending: not complete
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], 200;" ::"r"(a) : "memory");
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(a), "l"(s1) : "memory");
    out[66] = done;
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], 56;" ::"r"(a) : "memory");
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(a), "l"(s1) : "memory");
    out[67] = done;
    // Phase 2: 39 noComplete arrivals, then the last one.
    asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], 39;" : "=l"(s1) : "r"(a) : "memory");
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(a) : "memory");
    out[68] = done;  // parity 0 is the current phase's (phase 2)
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 1; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(a) : "memory");
    out[69] = done;  // parity 1: the phase before (phase 1), completed
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(a), "l"(s1) : "memory");
    out[70] = done;  // phase 2 is not
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(s1) : "r"(a) : "memory");
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(a) : "memory");
    out[71] = done;  // phase 2 (parity 0) completed
    asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(a) : "memory");
  }
}

// A reduction over 64-thread tiles (two warps each) with cooperative groups.
__global__ void tile64_sums(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<64>(block);
  const int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const int sum = cg::reduce(tile, v, cg::plus<int>());
  const int top = cg::reduce(tile, v, cg::greater<int>());
  if (tile.thread_rank() == 0) {
    out[2 * (blockIdx.x * (blockDim.x / 64) + tile.meta_group_rank())] = sum;
    out[2 * (blockIdx.x * (blockDim.x / 64) + tile.meta_group_rank()) + 1] = top;
  }
}

static unsigned long long checksum(const std::vector<int>& v) {
  unsigned long long h = 1469598103934665603ull;
  for (int x : v) h = (h ^ static_cast<unsigned>(x)) * 1099511628211ull;
  return h;
}

// What each kernel computes, on the host.
static std::vector<int> split_phases_host(const std::vector<int>& in, int blocks, int rounds, int stay, int leave_at) {
  std::vector<int> out(blocks * kThreads);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < kThreads; ++t) {
      int acc = 0;
      for (int r = 0; r < rounds; ++r) {
        if (t >= stay && r == leave_at) break;
        acc += t * r;
        const int n = (t + 1) % kThreads;
        acc += (n >= stay && r > leave_at) ? 0 : in[b * kThreads + n] * (r + 1);
      }
      out[b * kThreads + t] = acc;
    }
  return out;
}

static std::vector<int> async_tiles_host(const std::vector<int>& in4, const std::vector<int>& in1, int blocks,
                                         int tiles) {
  std::vector<int> out(blocks * kThreads);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < kThreads; ++t) {
      int acc = 0;
      for (int i = 0; i < tiles; ++i) {
        const size_t base = (size_t(b) * tiles + i) * kThreads;
        const int* v = &in4[(base + (t + 5) % kThreads) * 4];
        acc += v[0] + 2 * v[1] + 3 * v[2] + 4 * v[3] + 5 * in1[base + (t + 9) % kThreads];
      }
      out[b * kThreads + t] = acc;
    }
  return out;
}

static std::vector<int> producer_consumer_host(const std::vector<int>& in, int blocks, int stages) {
  std::vector<int> out(blocks * 96);
  for (int b = 0; b < blocks; ++b)
    for (int c = 0; c < 96; ++c) {
      int acc = 0;
      for (int s = 0; s < stages; ++s) {
        const int* row = &in[(size_t(b) * stages + s) * 96];
        acc += row[c] * (s + 1) + row[(c + 7) % 96];
      }
      out[b * 96 + c] = acc;
    }
  return out;
}

static const char* same(bool ok) { return ok ? "as the host computes" : "DIFFERENT from the host's"; }

int main() {
  const int blocks = 4, rounds = 7;
  std::vector<int> h(blocks * kThreads);
  for (size_t i = 0; i < h.size(); ++i) h[i] = int(i * 37 % 101) - 50;
  int *din, *dout;
  cudaMalloc(&din, h.size() * sizeof(int));
  cudaMalloc(&dout, 64 * 1024 * sizeof(int));
  cudaMemcpy(din, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice);
  std::vector<int> r(blocks * kThreads);

  for (int stay : {kThreads, 96}) {
    split_phases<<<blocks, kThreads>>>(din, dout, rounds, stay, 3);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(r.data(), dout, r.size() * sizeof(int), cudaMemcpyDeviceToHost);
    printf("split_phases stay=%d: %s, out[0]=%d out[100]=%d out[127]=%d, %s (checksum %llx)\n", stay,
           cudaGetErrorString(e), r[0], r[100], r[127], same(r == split_phases_host(h, blocks, rounds, stay, 3)),
           checksum(r));
  }

  const int tiles = 5;
  std::vector<int> in4(blocks * tiles * kThreads * 4), in1(blocks * tiles * kThreads);
  for (size_t i = 0; i < in4.size(); ++i) in4[i] = int((i * 7919) % 61) - 30;
  for (size_t i = 0; i < in1.size(); ++i) in1[i] = int((i * 104729) % 53) - 26;
  int *d4, *d1;
  cudaMalloc(&d4, in4.size() * sizeof(int));
  cudaMalloc(&d1, in1.size() * sizeof(int));
  cudaMemcpy(d4, in4.data(), in4.size() * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d1, in1.data(), in1.size() * sizeof(int), cudaMemcpyHostToDevice);
  async_tiles<<<blocks, kThreads>>>(reinterpret_cast<const int4*>(d4), d1, dout, tiles);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(r.data(), dout, r.size() * sizeof(int), cudaMemcpyDeviceToHost);
  printf("async_tiles: %s, out[0]=%d out[77]=%d out[511]=%d, %s (checksum %llx)\n", cudaGetErrorString(e), r[0],
         r[77], r[511], same(r == async_tiles_host(in4, in1, blocks, tiles)), checksum(r));

  const int stages = 9;
  std::vector<int> pin(blocks * stages * 96);
  for (size_t i = 0; i < pin.size(); ++i) pin[i] = int((i * 31) % 47) - 20;
  int* dp;
  cudaMalloc(&dp, pin.size() * sizeof(int));
  cudaMemcpy(dp, pin.data(), pin.size() * sizeof(int), cudaMemcpyHostToDevice);
  producer_consumer<<<blocks, kThreads>>>(dp, dout, stages);
  e = cudaDeviceSynchronize();
  std::vector<int> pc(blocks * 96);
  cudaMemcpy(pc.data(), dout, pc.size() * sizeof(int), cudaMemcpyDeviceToHost);
  printf("producer_consumer: %s, out[0]=%d out[95]=%d out[383]=%d, %s (checksum %llx)\n", cudaGetErrorString(e),
         pc[0], pc[95], pc[383], same(pc == producer_consumer_host(pin, blocks, stages)), checksum(pc));

  unsigned* du;
  cudaMalloc(&du, 72 * sizeof(unsigned));
  cudaMemset(du, 0xFF, 72 * sizeof(unsigned));
  raw_instructions<<<1, 64>>>(du);
  e = cudaDeviceSynchronize();
  unsigned hu[72];
  cudaMemcpy(hu, du, sizeof hu, cudaMemcpyDeviceToHost);
  printf("raw_instructions: %s, seen[32..34]=%u %u %u seen[63]=%u spun=%u\n", cudaGetErrorString(e), hu[0], hu[1],
         hu[2], hu[31], hu[40]);
  printf("  pending after 39 more=%u, tx 256 left: %u, 56 left: %u, none left: %u\n", hu[64], hu[65], hu[66], hu[67]);
  printf("  parity 0 (current) done: %u, parity 1 (previous) done: %u, phase 2 before its last arrival: %u, after: %u\n",
         hu[68], hu[69], hu[70], hu[71]);

  const int tiles64 = blocks * kThreads / 64;  // the 512 inputs in blocks of 256 threads
  tile64_sums<<<blocks * kThreads / 256, 256>>>(din, dout);
  e = cudaDeviceSynchronize();
  std::vector<int> ts(tiles64 * 2), th(tiles64 * 2);
  cudaMemcpy(ts.data(), dout, ts.size() * sizeof(int), cudaMemcpyDeviceToHost);
  for (int g = 0; g < tiles64; ++g) {
    th[2 * g] = 0;
    th[2 * g + 1] = h[64 * g];
    for (int i = 0; i < 64; ++i) {
      th[2 * g] += h[64 * g + i];
      th[2 * g + 1] = std::max(th[2 * g + 1], h[64 * g + i]);
    }
  }
  printf("tile64_sums: %s,", cudaGetErrorString(e));
  for (int x : ts) printf(" %d", x);
  printf(", %s\n", same(ts == th));
  return 0;
}
