// Where the H100's L1 hits of the tiled and coarsened 512x512 matmuls come from (the
// coarsened one's l1_sector_hit_rate is 11.7 % on the GPU and 0 in warpsim,
// docs/calibration.md "Hit rates"). The same kernels as kernels/matmul/, launched three ways:
//   full     the spec's grid, as many blocks per SM as the resources allow;
//   one_sm   the spec's grid with enough dynamic shared memory that one block fits an SM
//            (so no two blocks share an L1 at once; successive blocks on an SM still may);
//   single   one block alone (only reuse inside a block can hit).
// Usage: l1_reuse KERNEL(tiled|coarsened) CASE(full|one_sm|single); ncu measures it.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "../../kernels/matmul/matmul_tiled.cu"
#undef TILE_WIDTH
#include "../../kernels/matmul/matmul_coarsened.cu"

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: l1_reuse tiled|coarsened full|one_sm|single\n");
    return 2;
  }
  const bool coarsened = strcmp(argv[1], "coarsened") == 0;
  const int width = 512;
  const size_t bytes = size_t(width) * width * sizeof(float);
  float *m, *n, *p;
  cudaMalloc(&m, bytes);
  cudaMalloc(&n, bytes);
  cudaMalloc(&p, bytes);
  cudaMemset(m, 0, bytes);
  cudaMemset(n, 0, bytes);
  dim3 block(16, 16);
  dim3 grid(coarsened ? width / 32 : width / 16, width / 16);
  size_t dyn = 0;
  if (strcmp(argv[2], "one_sm") == 0) dyn = 150 * 1024;  // 150 KB + the static tiles: one block per SM
  if (strcmp(argv[2], "single") == 0) grid = dim3(1, 1);
  const void* k = coarsened ? (const void*)MatrixMulKernelTwoTiles : (const void*)MatrixMulKernel;
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
  if (coarsened) MatrixMulKernelTwoTiles<<<grid, block, dyn>>>(m, n, p, width);
  else MatrixMulKernel<<<grid, block, dyn>>>(m, n, p, width);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s %s: %s\n", argv[1], argv[2], cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}
