// Sample submission "wrong": the unrolled last warp starts at +16 ("a warp has 32 threads"),
// so elements 32..63 of the tile are never added. Expected verdict: wrong_result.

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
  if (tid < 32) {
    volatile int* v = sdata;
    v[tid] += v[tid + 16];
    v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];
    v[tid] += v[tid + 2];
    v[tid] += v[tid + 1];
  }
  if (tid == 0) Out[blockIdx.x] = sdata[0];
}
