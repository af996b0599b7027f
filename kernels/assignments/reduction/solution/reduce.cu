// Assignment "reduction without divergence" (kernels/assignments/reduction/assignment.json):
// the reference solution. Each block sums its blockDim.x ints of In into Out[blockIdx.x];
// blockDim.x is a power of two >= 64 and the launch gives blockDim.x * 4 bytes of dynamic
// shared memory. Sequential addressing keeps whole warps on one side of `tid < s` while
// s >= 64; the last warp then runs unrolled without __syncthreads (warp-synchronous through
// volatile), so no branch in the loop splits a warp.

__device__ void warp_reduce(volatile int* sdata, unsigned int tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

__global__ void reduce(const int* In, int* Out) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  sdata[tid] = In[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  // grade:begin reduce_loop
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  // grade:end reduce_loop
  if (tid < 32) warp_reduce(sdata, tid);
  if (tid == 0) Out[blockIdx.x] = sdata[0];
}
