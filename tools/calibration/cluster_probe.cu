// Thread block clusters on the GPU, for configs/h100.json and the timing model:
//  1. cudaOccupancyMaxActiveClusters at cluster sizes 1-16 with one block per SM (a block
//     that takes most of an SM's shared memory) and with a small block;
//  2. which SMs the blocks of each cluster ran on (%smid), at cluster sizes 16 and 8, one
//     block per SM: a cluster lies in one GPC, so the sets join into the GPCs;
//  3. blocks per SM in cluster launches over block and shared sizes;
//  4. the latency of a dependent load chain through distributed shared memory: one thread
//     of block 0 chases pointers in its own shared memory, then in block 1's (generic
//     pointers from map_shared_rank, and the 32-bit shared::cluster window), in SM clocks.
//   ./cluster_probe     prints "occupancy,...", "blocks,...", "placement,..." and "latency,..." rows
#include <cooperative_groups.h>

#include <cstdio>
#include <vector>

#include "sm_clock.cuh"

namespace cg = cooperative_groups;

__global__ void place(unsigned* sm) {
  extern __shared__ int scratch[];
  scratch[threadIdx.x] = 0;
  if (threadIdx.x == 0) sm[blockIdx.x] = smid();
  cg::this_cluster().sync();
}

constexpr int kChase = 1024;  // elements of the chain, 4 KB
constexpr int kSteps = 4096;

// Block 1 links its shared array into a cycle with a stride of 33 elements (a new bank each
// step); after the cluster barrier thread 0 of block 0 follows it in block `target`'s array.
__global__ void chase(unsigned target, int mode, long long* out) {
  __shared__ unsigned s[kChase];
  cg::cluster_group c = cg::this_cluster();
  for (int i = threadIdx.x; i < kChase; i += blockDim.x) s[i] = (i + 33) % kChase;
  c.sync();
  if (c.block_rank() == 0 && threadIdx.x == 0) {
    unsigned idx = 0;
    long long t0 = 0, t1 = 0;
    if (mode == 0) {  // generic pointers
      const unsigned* p = c.map_shared_rank(s, target);
      for (int i = 0; i < 64; ++i) idx = p[idx];
      t0 = clock64();
      for (int i = 0; i < kSteps; ++i) idx = p[idx];
      t1 = clock64();
    } else {  // the 32-bit shared::cluster window
      const unsigned local = static_cast<unsigned>(__cvta_generic_to_shared(s));
      unsigned base;
      asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(base) : "r"(local), "r"(target));
      for (int i = 0; i < 64; ++i) asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(idx) : "r"(base + 4 * idx));
      t0 = clock64();
      for (int i = 0; i < kSteps; ++i)
        asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(idx) : "r"(base + 4 * idx));
      t1 = clock64();
    }
    out[0] = t1 - t0;
    out[1] = idx;
  }
  c.sync();
}

// A launch configuration of `blocks` blocks in clusters of `cluster` (attr is its storage).
static cudaLaunchConfig_t config(cudaLaunchAttribute& attr, unsigned blocks, unsigned threads, unsigned cluster,
                                 size_t shared) {
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = cluster;
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(blocks);
  cfg.blockDim = dim3(threads);
  cfg.dynamicSmemBytes = shared;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  return cfg;
}

static cudaError_t launch(const void* fn, unsigned blocks, unsigned threads, unsigned cluster, size_t shared,
                          void** args) {
  cudaLaunchAttribute attr;
  const cudaLaunchConfig_t cfg = config(attr, blocks, threads, cluster, shared);
  return cudaLaunchKernelExC(&cfg, fn, args);
}

static int max_clusters(const void* fn, unsigned threads, size_t shared, unsigned cluster) {
  cudaLaunchAttribute attr;
  const cudaLaunchConfig_t cfg = config(attr, cluster, threads, cluster, shared);
  int n = -1;
  if (cudaOccupancyMaxActiveClusters(&n, fn, &cfg) != cudaSuccess) n = -1;
  cudaGetLastError();
  return n;
}

int main() {
  const size_t big = 200 * 1024;
  cudaFuncSetAttribute((void*)place, cudaFuncAttributeMaxDynamicSharedMemorySize, big);
  cudaFuncSetAttribute((void*)place, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  cudaFuncSetAttribute((void*)chase, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  printf("occupancy,cluster,one_block_per_sm,block_128_no_shared,block_1024\n");
  for (unsigned c = 1; c <= 16; ++c)
    printf("occupancy,%u,%d,%d,%d\n", c, max_clusters((void*)place, 128, big, c), max_clusters((void*)place, 128, 0, c),
           max_clusters((void*)place, 1024, 0, c));

  // Blocks per SM in a cluster launch against a plain launch's, over block and shared sizes.
  printf("blocks,threads,dynamic_shared,plain_blocks_per_sm,clusters_of_1,clusters_of_2\n");
  for (unsigned t : {32u, 64u, 96u, 128u, 192u, 256u, 384u, 512u, 768u, 1024u})
    for (size_t sh : {size_t(0), size_t(4096), size_t(20000), size_t(48 * 1024)}) {
      int plain = -1;
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&plain, place, int(t), sh);
      printf("blocks,%u,%zu,%d,%d,%d\n", t, sh, plain, max_clusters((void*)place, t, sh, 1),
             max_clusters((void*)place, t, sh, 2));
    }

  unsigned* d_sm;
  cudaMalloc((void**)&d_sm, 4096 * sizeof(unsigned));
  printf("placement,cluster_size,cluster,sms\n");
  for (unsigned c : {16u, 8u, 4u}) {
    const int n = max_clusters((void*)place, 128, big, c);
    if (n <= 0) continue;
    const unsigned blocks = unsigned(n) * c;
    void* args[] = {&d_sm};
    const cudaError_t e = launch((void*)place, blocks, 128, c, big, args);
    const cudaError_t s = cudaDeviceSynchronize();
    if (e != cudaSuccess || s != cudaSuccess) {
      printf("placement,%u,error,%s %s\n", c, cudaGetErrorName(e), cudaGetErrorName(s));
      continue;
    }
    std::vector<unsigned> h(blocks);
    cudaMemcpy(h.data(), d_sm, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost);
    for (unsigned k = 0; k < blocks / c; ++k) {
      printf("placement,%u,%u,", c, k);
      for (unsigned b = 0; b < c; ++b) printf("%u%s", h[k * c + b], b + 1 < c ? " " : "\n");
    }
  }

  long long* d_t;
  cudaMalloc((void**)&d_t, 2 * sizeof(long long));
  printf("latency,cluster_size,target_rank,mode,cycles_per_load\n");
  for (unsigned c : {2u, 4u, 8u, 16u})
    for (unsigned target = 0; target < 2; ++target)
      for (int mode = 0; mode < 2; ++mode) {
        void* args[] = {&target, &mode, &d_t};
        long long best = -1;
        for (int rep = 0; rep < 5; ++rep) {
          launch((void*)chase, c, 256, c, 0, args);
          if (cudaDeviceSynchronize() != cudaSuccess) {
            printf("latency,%u,%u,%d,error\n", c, target, mode);
            break;
          }
          long long h[2];
          cudaMemcpy(h, d_t, sizeof h, cudaMemcpyDeviceToHost);
          if (best < 0 || h[0] < best) best = h[0];
        }
        printf("latency,%u,%u,%s,%.2f\n", c, target, mode ? "shared_cluster_u32" : "generic",
               double(best) / kSteps);
      }
  return 0;
}
