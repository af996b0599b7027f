// Sample submission "correct": sequential addressing, the last warp unrolled by hand.
// Expected verdict: passed, full marks.

__global__ void reduce(const int* In, int* Out) {
  extern __shared__ int partial[];
  int t = threadIdx.x;
  partial[t] = In[blockIdx.x * blockDim.x + t];
  __syncthreads();
  // grade:begin reduce_loop
  for (int stride = blockDim.x / 2; stride >= 64; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  // grade:end reduce_loop
  if (t < 32) {
    volatile int* p = partial;
    p[t] += p[t + 32];
    p[t] += p[t + 16];
    p[t] += p[t + 8];
    p[t] += p[t + 4];
    p[t] += p[t + 2];
    p[t] += p[t + 1];
  }
  if (t == 0) Out[blockIdx.x] = partial[0];
}
