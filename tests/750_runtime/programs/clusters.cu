// Thread block clusters (Hopper, cc 9.0): where each block of a cluster sits (cooperative
// groups and the PTX special registers), distributed shared memory (a ring exchange through
// map_shared_rank, a histogram whose bins are spread over the cluster's blocks and counted
// with atomics on another block's shared memory, the 32-bit shared::cluster window through
// mapa), the cluster barrier split into arrive and wait, the cluster attributes of
// cudaFuncGetAttributes, the cluster occupancy calls, and the launch errors.
// clusters.expected is the program's output on an H200.
// nvcc flags: -arch=sm_90
#include <cooperative_groups.h>

#include <cstdio>

namespace cg = cooperative_groups;

static void say(const char* what, cudaError_t e) {
  printf("%s: %s\n", what, cudaGetErrorName(e));
  cudaGetLastError();
}

// Thread 0 of every block writes 12 numbers: the block's rank and index in its cluster, the
// cluster's shape, and the special registers behind them.
__device__ void where(int* out) {
  if (threadIdx.x != 0 || threadIdx.y != 0) return;
  cg::cluster_group c = cg::this_cluster();
  const int b = blockIdx.x + gridDim.x * blockIdx.y;
  const dim3 bi = c.block_index(), d = c.dim_blocks();
  unsigned cid_x, cid_y, ncid_x, rank, nrank, expl;
  asm("mov.u32 %0, %%clusterid.x;" : "=r"(cid_x));
  asm("mov.u32 %0, %%clusterid.y;" : "=r"(cid_y));
  asm("mov.u32 %0, %%nclusterid.x;" : "=r"(ncid_x));
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(nrank));
  asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(expl));
  int* o = out + 12 * b;
  o[0] = c.block_rank();
  o[1] = c.num_blocks();
  o[2] = bi.x;
  o[3] = bi.y;
  o[4] = d.x;
  o[5] = d.y;
  o[6] = cid_x;
  o[7] = cid_y;
  o[8] = ncid_x;
  o[9] = rank;
  o[10] = nrank;
  o[11] = expl;
}

__global__ void __cluster_dims__(2, 1, 1) where_fixed(int* out) { where(out); }
__global__ void where_any(int* out) { where(out); }

// Each block fills its shared array, then reads the next block's (in rank order, around the
// cluster) in a permuted order.
__global__ void ring(int* out) {
  __shared__ int s[128];
  cg::cluster_group c = cg::this_cluster();
  const unsigned r = c.block_rank(), n = c.num_blocks();
  s[threadIdx.x] = (blockIdx.x + 1) * 1000 + threadIdx.x;
  c.sync();
  const int* peer = c.map_shared_rank(s, (r + 1) % n);
  const int v = peer[(threadIdx.x * 5) % blockDim.x];
  c.sync();  // the peer's shared memory stays until every read of it is done
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// A histogram of `bins` bins spread over the cluster's blocks (bins / cluster size each, in
// dynamic shared memory), counted with atomics on whichever block holds the bin.
__global__ void histogram(const int* in, int n, int bins, int* hist) {
  extern __shared__ int part[];
  cg::cluster_group c = cg::this_cluster();
  const int per = bins / c.num_blocks();
  for (int i = threadIdx.x; i < per; i += blockDim.x) part[i] = 0;
  c.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const int v = in[i] % bins;
    int* dst = c.map_shared_rank(part, v / per);
    atomicAdd(dst + v % per, 1);
  }
  c.sync();
  for (int i = threadIdx.x; i < per; i += blockDim.x) atomicAdd(&hist[c.block_rank() * per + i], part[i]);
}

// The 32-bit shared::cluster window: mapa to the last block of the cluster, a store there
// from the first, the split barrier (arrive, then wait), and a load back.
__global__ void window32(int* out) {
  __shared__ int s[32];
  s[threadIdx.x] = -1;
  unsigned rank, nrank;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(nrank));
  const unsigned local = static_cast<unsigned>(__cvta_generic_to_shared(&s[threadIdx.x]));
  unsigned remote;
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
  asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(nrank - 1));
  if (rank == 0) asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(remote), "r"(int(threadIdx.x * 3 + 7)) : "memory");
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
  int v;
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(remote) : "memory");
  unsigned peer_rank;
  asm("getctarank.shared::cluster.u32 %0, %1;" : "=r"(peer_rank) : "r"(remote));
  out[blockIdx.x * 32 + threadIdx.x] = v * 100 + static_cast<int>(peer_rank);
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

static cudaError_t launch_clustered(const void* fn, dim3 grid, dim3 block, dim3 cluster, size_t shared, void** args) {
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = cluster.x;
  attr.val.clusterDim.y = cluster.y;
  attr.val.clusterDim.z = cluster.z;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = shared;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  return cudaLaunchKernelExC(&cfg, fn, args);
}

static void print_where(const char* what, int* d_out, int blocks) {
  int h[12 * 16];
  cudaMemcpy(h, d_out, 12 * blocks * sizeof(int), cudaMemcpyDeviceToHost);
  printf("%s\n", what);
  for (int b = 0; b < blocks; ++b) {
    const int* o = h + 12 * b;
    printf("  block %2d: rank %d of %d, index (%d,%d) in (%d,%d), cluster (%d,%d) of %d, ctarank %d of %d, explicit %d\n",
           b, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11]);
  }
}

static void occupancy(const char* what, const void* fn, dim3 block, size_t shared, unsigned cluster) {
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = cluster;
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(cluster * 64);
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = shared;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  int n = -1;
  const cudaError_t e = cudaOccupancyMaxActiveClusters(&n, fn, &cfg);
  printf("max active clusters, %s, cluster %2u: %s %d\n", what, cluster, cudaGetErrorName(e), n);
  cudaGetLastError();
}

int main() {
  int has = -1;
  cudaDeviceGetAttribute(&has, cudaDevAttrClusterLaunch, 0);
  printf("cluster launch supported: %d\n", has);

  int* d_out;
  cudaMalloc((void**)&d_out, 1 << 20);
  // A compile-time cluster of 2 on a 4x2 grid, launched with <<<>>>.
  cudaMemset(d_out, 0xff, 1 << 20);
  where_fixed<<<dim3(4, 2), 32>>>(d_out);
  say("where_fixed<<<(4,2), 32>>>", cudaDeviceSynchronize());
  print_where("where_fixed, __cluster_dims__(2,1,1)", d_out, 8);
  // A 2x2 cluster given at launch on a 4x4 grid.
  void* args[] = {&d_out};
  say("where_any, grid (4,4), cluster (2,2)", launch_clustered((void*)where_any, dim3(4, 4), dim3(32), dim3(2, 2, 1), 0, args));
  say("cudaDeviceSynchronize", cudaDeviceSynchronize());
  print_where("where_any, cluster (2,2,1)", d_out, 16);
  // No cluster at all: every block is a cluster of one, not an explicit one.
  where_any<<<dim3(2, 2), 32>>>(d_out);
  say("where_any<<<(2,2), 32>>>", cudaDeviceSynchronize());
  print_where("where_any, no cluster", d_out, 4);

  // Distributed shared memory: the ring at cluster sizes 1 (no cluster), 2, 4 and 8.
  for (unsigned cluster : {1u, 2u, 4u, 8u}) {
    cudaMemset(d_out, 0, 16 * 128 * sizeof(int));
    char what[64];
    snprintf(what, sizeof what, "ring, 16 blocks, cluster %u", cluster);
    if (cluster == 1) ring<<<16, 128>>>(d_out);
    else say(what, launch_clustered((void*)ring, dim3(16), dim3(128), dim3(cluster, 1, 1), 0, args));
    say("cudaDeviceSynchronize", cudaDeviceSynchronize());
    int h[16 * 128];
    cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
    long long sum = 0;
    for (int i = 0; i < 16 * 128; ++i) sum += (long long)h[i] * (i % 7 + 1);
    printf("%s: block 0 thread 1 read %d, block %u thread 127 read %d, weighted sum %lld\n", what, h[1], cluster - 1,
           h[(cluster - 1) * 128 + 127], sum);
  }

  // The histogram: 1024 bins over clusters of 4 (256 bins, 1 KB, a block).
  const int n = 1 << 16, bins = 1024;
  int* d_in;
  int* d_hist;
  cudaMalloc((void**)&d_in, n * sizeof(int));
  cudaMalloc((void**)&d_hist, bins * sizeof(int));
  static int h_in[n];
  static int want[bins];
  for (int i = 0; i < n; ++i) {
    h_in[i] = (int)((i * 2654435761u) >> 7) & 0x7fffffff;
    ++want[h_in[i] % bins];
  }
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  for (unsigned cluster : {2u, 4u, 8u}) {
    cudaMemset(d_hist, 0, bins * sizeof(int));
    int count = n, nbins = bins;
    void* hargs[] = {&d_in, &count, &nbins, &d_hist};
    char what[64];
    snprintf(what, sizeof what, "histogram, 32 blocks, cluster %u", cluster);
    say(what, launch_clustered((void*)histogram, dim3(32), dim3(256), dim3(cluster, 1, 1), bins / cluster * sizeof(int),
                               hargs));
    say("cudaDeviceSynchronize", cudaDeviceSynchronize());
    static int got[bins];
    cudaMemcpy(got, d_hist, sizeof got, cudaMemcpyDeviceToHost);
    int wrong = 0;
    long long total = 0;
    for (int i = 0; i < bins; ++i) {
      wrong += got[i] != want[i];
      total += got[i];
    }
    printf("%s: %lld counted, %d bins wrong, bin 5 = %d\n", what, total, wrong, got[5]);
  }

  // The 32-bit window, clusters of 4.
  say("window32, 8 blocks, cluster 4", launch_clustered((void*)window32, dim3(8), dim3(32), dim3(4, 1, 1), 0, args));
  say("cudaDeviceSynchronize", cudaDeviceSynchronize());
  {
    int h[8 * 32];
    cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
    for (int b = 0; b < 8; ++b) printf("  window32 block %d: thread 0 %d, thread 31 %d\n", b, h[b * 32], h[b * 32 + 31]);
  }

  // What cudaFuncGetAttributes says about clusters.
  for (auto [name, fn] : {std::pair<const char*, const void*>{"where_fixed", (const void*)where_fixed},
                          {"ring", (const void*)ring}}) {
    cudaFuncAttributes a;
    say("cudaFuncGetAttributes", cudaFuncGetAttributes(&a, fn));
    printf("%s: required cluster (%d,%d,%d), must be set %d, non-portable allowed %d, scheduling preference %d\n", name,
           a.requiredClusterWidth, a.requiredClusterHeight, a.requiredClusterDepth, a.clusterDimMustBeSet,
           a.nonPortableClusterSizeAllowed, a.clusterSchedulingPolicyPreference);
  }

  // Launch errors.
  say("ring, 12 blocks, cluster 8 (not a multiple)",
      launch_clustered((void*)ring, dim3(12), dim3(128), dim3(8, 1, 1), 0, args));
  say("ring, 32 blocks, cluster 16 (non-portable, not allowed)",
      launch_clustered((void*)ring, dim3(32), dim3(128), dim3(16, 1, 1), 0, args));
  say("ring, 64 blocks, cluster 32", launch_clustered((void*)ring, dim3(64), dim3(128), dim3(32, 1, 1), 0, args));
  say("ring, 16 blocks, cluster (2,2,1) on a 1D grid",
      launch_clustered((void*)ring, dim3(16), dim3(128), dim3(2, 2, 1), 0, args));
  say("ring, cluster (0,1,1)", launch_clustered((void*)ring, dim3(16), dim3(128), dim3(0, 1, 1), 0, args));
  where_fixed<<<3, 32>>>(d_out);
  say("where_fixed<<<3, 32>>> (not a multiple of 2)", cudaGetLastError());
  say("where_fixed, cluster 4 at launch", launch_clustered((void*)where_fixed, dim3(8), dim3(32), dim3(4, 1, 1), 0, args));
  say("cudaDeviceSynchronize", cudaDeviceSynchronize());
  say("cudaFuncSetAttribute(ring, NonPortableClusterSizeAllowed, 1)",
      cudaFuncSetAttribute((void*)ring, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaMemset(d_out, 0, 32 * 128 * sizeof(int));
  say("ring, 32 blocks, cluster 16 (non-portable, allowed)",
      launch_clustered((void*)ring, dim3(32), dim3(128), dim3(16, 1, 1), 0, args));
  say("cudaDeviceSynchronize", cudaDeviceSynchronize());
  {
    int h[32 * 128];
    cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
    printf("ring, cluster 16: block 15 thread 3 read %d, block 31 thread 0 read %d\n", h[15 * 128 + 3], h[31 * 128]);
  }

  // Occupancy in clusters: a small block, and one that fills an SM's shared memory.
  for (unsigned cluster : {1u, 2u, 4u, 8u, 16u}) occupancy("ring 128 threads", (const void*)ring, dim3(128), 0, cluster);
  cudaFuncSetAttribute((void*)histogram, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
  for (unsigned cluster : {1u, 2u, 3u, 4u, 8u})
    occupancy("histogram 200 KB", (const void*)histogram, dim3(256), 200 * 1024, cluster);
  occupancy("histogram 200 KB", (const void*)histogram, dim3(256), 200 * 1024, 16);
  cudaFuncSetAttribute((void*)histogram, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  occupancy("histogram 200 KB, non-portable", (const void*)histogram, dim3(256), 200 * 1024, 16);
  {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(64);
    cfg.blockDim = dim3(128);
    int size = -1;
    say("cudaOccupancyMaxPotentialClusterSize(ring)", cudaOccupancyMaxPotentialClusterSize(&size, (void*)ring, &cfg));
    printf("ring: largest cluster %d\n", size);
    say("cudaOccupancyMaxPotentialClusterSize(where_any)",
        cudaOccupancyMaxPotentialClusterSize(&size, (void*)where_any, &cfg));
    printf("where_any: largest cluster %d\n", size);
  }
  cudaFree(d_out);
  cudaFree(d_in);
  cudaFree(d_hist);
  return 0;
}
