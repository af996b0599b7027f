// Kirk & Hwu, vector addition (Fig. 2.12 / ch. 5 "addVecKernel"): one thread per element,
// `if (i < n)` disables the threads past the end of the vector. With n = 1003 and 64-thread
// blocks, 16 blocks = 32 warps run and only the last warp diverges (ch. 5, section 5.3).
__global__ void vecAddKernel(float* A, float* B, float* C, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) C[i] = A[i] + B[i];
}
