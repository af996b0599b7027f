// Cooperative launches: a grid-wide reduction in three phases separated by
// cooperative_groups' grid.sync(), launched with cudaLaunchCooperativeKernel and with
// cudaLaunchKernelEx's cooperative attribute, at the largest grid that can be resident at
// once, and one block more (refused). grid_sync.expected is the program's output on an H100.
#include <cooperative_groups.h>

#include <cstdio>

namespace cg = cooperative_groups;

static void say(const char* what, cudaError_t e) {
  printf("%s: %s\n", what, cudaGetErrorName(e));
  cudaGetLastError();
}

__global__ void grid_sum(const int* in, int n, int* partial, long long* out) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int s[256];
  int acc = 0;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) acc += in[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
  grid.sync();  // every block's partial is written
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    long long total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) total += partial[b];
    out[0] = total;
    out[2] = grid.is_valid();
  }
  grid.sync();  // out[0] is visible to every block
  if (threadIdx.x == 0) atomicAdd((unsigned long long*)&out[1], (unsigned long long)(out[0] == out[0] ? 1 : 0));
  grid.sync();
  if (grid.thread_rank() == 0) out[3] = out[1] == gridDim.x;
}

int main() {
  int coop = -1, sms = 0, per_sm = 0;
  cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_sum, 256, 0);
  printf("cooperative launch supported %d, blocks per SM > 0: %d\n", coop, per_sm > 0);
  const int n = 1 << 20;
  int* in;
  int* partial;
  long long* out;
  cudaMalloc((void**)&in, n * sizeof(int));
  cudaMalloc((void**)&partial, (sms * per_sm + 1) * sizeof(int));
  cudaMalloc((void**)&out, 4 * sizeof(long long));
  static int h[n];
  long long want = 0;
  for (int i = 0; i < n; ++i) want += (h[i] = (i * 7) % 1000 - 300);
  cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);

  int count = n;
  void* args[] = {&in, &count, &partial, &out};
  long long got[4];
  for (int grid : {1, sms, sms * per_sm}) {
    cudaMemset(out, 0, 4 * sizeof(long long));
    say(grid == 1 ? "cooperative launch, 1 block" : grid == sms ? "cooperative launch, one block per SM"
                                                                : "cooperative launch, the largest grid",
        cudaLaunchCooperativeKernel((void*)grid_sum, dim3(grid), dim3(256), args, 0, 0));
    say("cudaDeviceSynchronize", cudaDeviceSynchronize());
    cudaMemcpy(got, out, sizeof(got), cudaMemcpyDeviceToHost);
    printf("sum %lld (want %lld), blocks counted all: %lld, grid valid: %lld\n", got[0], want, got[3], got[2]);
  }
  say("cooperative launch, one block too many",
      cudaLaunchCooperativeKernel((void*)grid_sum, dim3(sms * per_sm + 1), dim3(256), args, 0, 0));
  say("cooperative launch, 2048 threads per block",
      cudaLaunchCooperativeKernel((void*)grid_sum, dim3(1), dim3(2048), args, 0, 0));

  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeCooperative;
  attr.val.cooperative = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(sms);
  cfg.blockDim = dim3(256);
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  cudaMemset(out, 0, 4 * sizeof(long long));
  say("cudaLaunchKernelEx, cooperative attribute", cudaLaunchKernelEx(&cfg, grid_sum, (const int*)in, n, partial, out));
  cudaMemcpy(got, out, sizeof(got), cudaMemcpyDeviceToHost);
  printf("sum %lld (want %lld), blocks counted all: %lld\n", got[0], want, got[3]);
  cfg.gridDim = dim3(sms * per_sm + 1);
  say("cudaLaunchKernelEx, cooperative, one block too many",
      cudaLaunchKernelEx(&cfg, grid_sum, (const int*)in, n, partial, out));
  say("final cudaDeviceSynchronize", cudaDeviceSynchronize());
  return 0;
}
