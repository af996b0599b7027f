// Sample submission "infinite_loop": `s >> 1` instead of `s >>= 1`, so s never changes and
// the loop never ends. Expected verdict: limit_exceeded (the warp-instruction limit).
// nvcc warns "expression has no effect" (#174) about the bug; silenced here only so that
// tools/regen_ptx.sh stays quiet.
#pragma nv_diag_suppress 174

__global__ void reduce(const int* In, int* Out) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  sdata[tid] = In[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  // grade:begin reduce_loop
  for (unsigned int s = blockDim.x / 2; s > 32; s >> 1) {
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
