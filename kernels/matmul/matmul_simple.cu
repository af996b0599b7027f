// Kirk & Hwu Fig. 4.3: simple matrix multiplication, one thread per element of P.
// Row/Col bounds check, so Width need not be a multiple of the block size.
// Reading M[Row*Width+k] is not coalesced (Fig. 5.4); N[k*Width+Col] is (Fig. 5.3).
__global__ void MatrixMulKernel(float* M, float* N, float* P, int Width) {
  // Calculate the row index of the P element and M
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  // Calculate the column index of P and N
  int Col = blockIdx.x * blockDim.x + threadIdx.x;

  if ((Row < Width) && (Col < Width)) {
    float Pvalue = 0;
    // each thread computes one element of the block sub-matrix
    for (int k = 0; k < Width; ++k) {
      Pvalue += M[Row * Width + k] * N[k * Width + Col];
    }
    P[Row * Width + Col] = Pvalue;
  }
}
