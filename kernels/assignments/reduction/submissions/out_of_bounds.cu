// Sample submission "out_of_bounds": "first add during load" (two elements per thread)
// without halving the grid, so the last block reads blockDim.x ints past the end of In.
// Expected verdict: memory_fault naming the read past the end of buffer 'In'.

__global__ void reduce(const int* In, int* Out) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = In[i] + In[i + blockDim.x];
  __syncthreads();
  // grade:begin reduce_loop
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  // grade:end reduce_loop
  if (tid < 32) {
    volatile int* v = sdata;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];
    v[tid] += v[tid + 2];
    v[tid] += v[tid + 1];
  }
  if (tid == 0) Out[blockIdx.x] = sdata[0];
}
