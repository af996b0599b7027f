// Kirk & Hwu Fig. 5.17 / exercise 5.10: thread granularity. The two thread blocks that
// computed horizontally adjacent P tiles are merged: each block loads one M tile and two
// N tiles per phase and each thread computes two P elements, one in each tile, reusing
// the same Mds row. Global loads drop by 1/4. The grid has Width/(2*TILE_WIDTH) x
// Width/TILE_WIDTH blocks; Width must be a multiple of 2*TILE_WIDTH.
#define TILE_WIDTH 16

__global__ void MatrixMulKernelTwoTiles(float* M, float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds0[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds1[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x;  int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;

  // One row, two columns: the same column in two adjacent P tiles
  int Row = by * TILE_WIDTH + ty;
  int Col0 = (2 * bx) * TILE_WIDTH + tx;
  int Col1 = (2 * bx + 1) * TILE_WIDTH + tx;

  float Pvalue0 = 0;
  float Pvalue1 = 0;
  for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
    Mds[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];
    Nds0[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col0];
    Nds1[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col1];
    __syncthreads();

    for (int k = 0; k < TILE_WIDTH; ++k) {
      Pvalue0 += Mds[ty][k] * Nds0[k][tx];
      Pvalue1 += Mds[ty][k] * Nds1[k][tx];
    }
    __syncthreads();
  }
  P[Row * Width + Col0] = Pvalue0;
  P[Row * Width + Col1] = Pvalue1;
}
