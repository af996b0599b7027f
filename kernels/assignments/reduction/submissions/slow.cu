// Sample submission "slow": interleaved addressing (`tid % (2*s) == 0`). The sums are right,
// but the test splits every warp in every iteration and the strided shared accesses
// conflict. Expected verdict: criteria_failed (correctness points, divergence and speed
// criteria failed with the measured values).

__global__ void reduce(const int* In, int* Out) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  sdata[tid] = In[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  // grade:begin reduce_loop
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  // grade:end reduce_loop
  if (tid == 0) Out[blockIdx.x] = sdata[0];
}
