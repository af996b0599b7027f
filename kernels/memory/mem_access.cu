// "Performance Analysis of CUDA Programs" (note, section 1, Memory Coalescing): 1024
// threads update an array of 2048 floats, contiguously (A[tid]) or with stride 2
// (A[tid*2]); the note counts 64 vs 128 transactions with 16-thread warps and 16-element
// transactions. Both kernels are called mem_access in the note.
__global__ void mem_access_contiguous(float* A) {
  int tid = blockDim.x * blockIdx.x + threadIdx.x;
  A[tid] += 2;
}

__global__ void mem_access_strided(float* A) {
  int tid = blockDim.x * blockIdx.x + threadIdx.x;
  A[tid * 2] += 2;
}
