// Occupancy of cc 9.0 launches by NVIDIA's own rules, on the real device: the CUDA
// toolkit's cuda_occupancy.h calculator fed the device's properties (any register count),
// and the driver's cudaOccupancyMaxActiveBlocksPerMultiprocessor for a real kernel whose
// register count is fixed (dynamic shared memory varied). Prints CSV rows:
//   source,threads,regs,smem_bytes,blocks,limit_warps,limit_blocks,limit_regs,limit_smem,alloc_regs,alloc_smem
#include <cuda_occupancy.h>
#include <cstdio>
#include <climits>

__global__ void k_dyn(float* p) {
  extern __shared__ float s[];
  s[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

int main() {
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  cudaOccDeviceProp op(p);
  cudaOccDeviceState st;
  const int cases[][3] = {
      {32, 16, 0},      {64, 32, 0},       {96, 32, 0},       {128, 32, 0},     {256, 32, 0},
      {512, 32, 0},     {1024, 32, 0},     {256, 40, 0},      {256, 48, 0},     {256, 64, 0},
      {256, 72, 0},     {256, 128, 0},     {256, 255, 0},     {128, 255, 0},    {1024, 64, 0},
      {768, 40, 0},     {640, 48, 0},      {192, 96, 0},      {160, 80, 0},     {96, 168, 0},
      {256, 32, 4096},  {256, 32, 16384},  {256, 32, 48128},  {128, 16, 8192},  {128, 24, 2048},
      {64, 32, 1},      {512, 32, 32768},  {1024, 32, 100000},{256, 32, 232448},{32, 8, 7000},
      {1024, 16, 0},    {288, 38, 2048},   {256, 38, 2048},   {512, 14, 2048},  {128, 14, 512},
      {1000, 20, 0},    {33, 255, 0},      {1024, 72, 0},
  };
  for (const auto& c : cases) {
    cudaOccFuncAttributes a;
    a.maxThreadsPerBlock = 1024;
    a.numRegs = c[1];
    a.sharedSizeBytes = 0;
    a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    a.maxDynamicSharedSizeBytes = p.sharedMemPerBlockOptin;
    a.numBlockBarriers = 1;
    cudaOccResult r;
    cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&r, &op, &a, &st, c[0], c[2]);
    if (e != CUDA_OCC_SUCCESS) { std::printf("calculator,%d,%d,%d,error%d\n", c[0], c[1], c[2], int(e)); continue; }
    std::printf("calculator,%d,%d,%d,%d,%d,%d,%d,%d,%d,%zu\n", c[0], c[1], c[2], r.activeBlocksPerMultiprocessor,
                r.blockLimitWarps, r.blockLimitBlocks, r.blockLimitRegs == INT_MAX ? -1 : r.blockLimitRegs,
                r.blockLimitSharedMem == INT_MAX ? -1 : r.blockLimitSharedMem, r.allocatedRegistersPerBlock,
                r.allocatedSharedMemPerBlock);
  }
  cudaFuncAttributes fa; cudaFuncGetAttributes(&fa, k_dyn);
  cudaFuncSetAttribute(k_dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, int(p.sharedMemPerBlockOptin));
  const int dyn[][2] = {{128, 0}, {256, 0}, {1024, 0}, {128, 4096}, {256, 16384}, {256, 48128},
                        {128, 100000}, {64, 232448}, {96, 7000}, {128, 1}};
  for (const auto& c : dyn) {
    int blocks = -1;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k_dyn, c[0], c[1]);
    std::printf("driver,%d,%d,%d,%d,%s\n", c[0], fa.numRegs, c[1], blocks, e == cudaSuccess ? "" : cudaGetErrorString(e));
  }
  return 0;
}
