// What does shfl.sync return when its source lane does not take part? CUDA calls it
// undefined; programs depend on it anyway (a last-warp reduction where only the first
// lanes shuffle down by 16). Each case is inline PTX, so the registers are the ones written
// here; the program prints what lanes 0-7 received. Run on an H100 and under warpsim, the
// output must be equal (shfl_inactive.expected is the H100's).
#include <cstdio>

__global__ void probe(unsigned* out) {
  unsigned lane = threadIdx.x;
  unsigned v = lane * 100 + 7;
  unsigned r[4];
  // 0: a predicated shfl.down by 16 with membermask 0xff: lanes 16-23 are the sources.
  asm volatile(
      "{ .reg .pred p; setp.lt.u32 p, %1, 8; mov.u32 %0, 0xdead; @p shfl.sync.down.b32 %0, %2, 16, 0x1f, 0xff; }"
      : "=r"(r[0]) : "r"(lane), "r"(v));
  // 1: the same inside a divergent branch.
  r[1] = 0xdead;
  if (lane < 8) asm volatile("shfl.sync.down.b32 %0, %1, 16, 0x1f, 0xff;" : "=r"(r[1]) : "r"(v));
  // 2: shfl.idx from lane + 8, with membermask 0xff.
  r[2] = 0xdead;
  if (lane < 8) asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xff;" : "=r"(r[2]) : "r"(v), "r"(lane + 8));
  // 3: shfl.bfly by 8, with membermask 0xff.
  r[3] = 0xdead;
  if (lane < 8) asm volatile("shfl.sync.bfly.b32 %0, %1, 8, 0x1f, 0xff;" : "=r"(r[3]) : "r"(v));
  for (int k = 0; k < 4; ++k) out[k * 32 + lane] = r[k];
}

// A block-sum in the shape of a common tuned reduction: each warp reduces with shuffles,
// lane 0 of each writes shared memory, then the first blockDim/32 lanes of warp 0 reduce
// those with shuffles by 16, 8, 4, 2, 1 under a ballot of themselves.
__global__ void block_sum(const int* in, int* out) {
  __shared__ int warp_sums[32];
  unsigned tid = threadIdx.x;
  int s = in[blockIdx.x * blockDim.x + tid];
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  if (tid % 32 == 0) warp_sums[tid / 32] = s;
  __syncthreads();
  const unsigned warps = blockDim.x / 32;
  const unsigned mask = __ballot_sync(0xffffffffu, tid < warps);
  if (tid < warps) {
    s = warp_sums[tid];
    for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(mask, s, o);
  }
  if (tid == 0) out[blockIdx.x] = s;
}

int main() {
  unsigned* d;
  cudaMalloc(&d, 4 * 32 * sizeof(unsigned));
  probe<<<1, 32>>>(d);
  unsigned h[4 * 32];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  const char* names[4] = {"predicated down 16", "branch down 16", "branch idx lane+8", "branch bfly 8"};
  for (int k = 0; k < 4; ++k) {
    std::printf("%-20s", names[k]);
    for (int l = 0; l < 8; ++l) std::printf(" %u", h[k * 32 + l]);
    std::printf("\n");
  }
  const int blocks = 4, threads = 256;
  int hin[blocks * threads];
  for (int i = 0; i < blocks * threads; ++i) hin[i] = (i * 37) % 101;
  int *din, *dout;
  cudaMalloc(&din, sizeof hin);
  cudaMalloc(&dout, blocks * sizeof(int));
  cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice);
  block_sum<<<blocks, threads>>>(din, dout);
  int hout[blocks];
  cudaError_t e = cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b) {
    int want = 0;
    for (int t = 0; t < threads; ++t) want += hin[b * threads + t];
    std::printf("block %d: sum %d, expected %d\n", b, hout[b], want);
  }
  std::printf("%s\n", cudaGetErrorString(e));
  return 0;
}
