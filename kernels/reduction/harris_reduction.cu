// The seven reduction kernels of Mark Harris, "Optimizing Parallel Reduction in CUDA", in
// the form of the seed slides (Vuduc, CSE 6230, after Jee Choi): int data, `In`/`Out`,
// shared array `Local` sized at launch (dynamic shared memory: blockDim.x * 4 bytes).
// Each block writes its partial sum to Out[blockIdx.x]; a second launch (or the host)
// adds the partial sums. Departures from the slides, each fixing a slide typo so the
// kernels compute the sum (Harris's own code reads the same way):
//   reduce1: the slide adds into Local[tid]; Harris adds into Local[index].
//   reduce5: the slide puts __syncthreads() inside `if (tid < ...)`, a barrier in divergent
//            code; Harris (and here) syncs outside the condition.
//   warpReduce: the slide writes `volatile* int`; it is `volatile int*`.

// Version 0: interleaved addressing with divergent branching (`tid % (2*s) == 0`).
// Section size blockDim.x; blockDim.x a power of two.
__global__ void reduce0(const int* In, int* Out) {
  int tid = threadIdx.x;                      // Local thread ID
  int i = blockIdx.x * blockDim.x + tid;      // Global index
  extern __shared__ int Local[];
  Local[tid] = In[i];                         // Load into shared mem
  __syncthreads();
  for (int s = 1; s < blockDim.x; s *= 2) {   // Reduce loop
    if (tid % (2 * s) == 0)                   // Is multiple of s (2, 4, 8, ...)
      Local[tid] += Local[tid + s];
    __syncthreads();
  }
  if (tid == 0) Out[blockIdx.x] = Local[0];
}

// Version 1: interleaved addressing, non-divergent threading (`index = 2*s*tid`), but
// strided shared-memory accesses with bank conflicts.
__global__ void reduce1(const int* In, int* Out) {
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  extern __shared__ int Local[];
  Local[tid] = In[i];
  __syncthreads();
  for (int s = 1; s < blockDim.x; s *= 2) {   // Element stride
    int index = 2 * s * tid;                  // Thread ID stride
    if (index < blockDim.x)
      Local[index] += Local[index + s];
    __syncthreads();
  }
  if (tid == 0) Out[blockIdx.x] = Local[0];
}

// Version 2: sequential addressing (no divergence in the first iterations, no conflicts).
__global__ void reduce2(const int* In, int* Out) {
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  extern __shared__ int Local[];
  Local[tid] = In[i];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      Local[tid] += Local[tid + s];
    __syncthreads();
  }
  if (tid == 0) Out[blockIdx.x] = Local[0];
}

// Version 3: half the threads, first add during load. Section size 2 * blockDim.x.
__global__ void reduce3(const int* In, int* Out) {
  int tid = threadIdx.x;
  int i = blockIdx.x * (blockDim.x * 2) + tid;
  extern __shared__ int Local[];
  Local[tid] = In[i] + In[i + blockDim.x];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      Local[tid] += Local[tid + s];
    __syncthreads();
  }
  if (tid == 0) Out[blockIdx.x] = Local[0];
}

// The last warp, unrolled: no __syncthreads() and no conditionals, relying on the warp's
// threads running in lockstep; `volatile` makes every step go through shared memory.
__device__ void warpReduce(volatile int* Local, int tid) {
  Local[tid] += Local[tid + 32];
  Local[tid] += Local[tid + 16];
  Local[tid] += Local[tid + 8];
  Local[tid] += Local[tid + 4];
  Local[tid] += Local[tid + 2];
  Local[tid] += Local[tid + 1];
}

// Version 4: unroll the last warp. Section size 2 * blockDim.x; blockDim.x >= 64.
__global__ void reduce4(const int* In, int* Out) {
  int tid = threadIdx.x;
  int i = blockIdx.x * (blockDim.x * 2) + tid;
  extern __shared__ int Local[];
  Local[tid] = In[i] + In[i + blockDim.x];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      Local[tid] += Local[tid + s];
    __syncthreads();
  }
  if (tid < 32) warpReduce(Local, tid);
  if (tid == 0) Out[blockIdx.x] = Local[0];
}

// The last warp for a block size known at compile time.
template <unsigned int TBS>
__device__ void warpReduce(volatile int* Local, int tid) {
  if (TBS >= 64) Local[tid] += Local[tid + 32];
  if (TBS >= 32) Local[tid] += Local[tid + 16];
  if (TBS >= 16) Local[tid] += Local[tid + 8];
  if (TBS >= 8) Local[tid] += Local[tid + 4];
  if (TBS >= 4) Local[tid] += Local[tid + 2];
  if (TBS >= 2) Local[tid] += Local[tid + 1];
}

// Version 5: completely unrolled; TBS (thread-block size) must equal blockDim.x.
// Section size 2 * TBS.
template <unsigned int TBS>  // Thread-block size
__global__ void reduce5(const int* In, int* Out) {
  int tid = threadIdx.x;
  int i = blockIdx.x * (TBS * 2) + tid;
  extern __shared__ int Local[];
  Local[tid] = In[i] + In[i + TBS];
  __syncthreads();
  if (TBS >= 1024) { if (tid < 512) { Local[tid] += Local[tid + 512]; } __syncthreads(); }
  if (TBS >= 512) { if (tid < 256) { Local[tid] += Local[tid + 256]; } __syncthreads(); }
  if (TBS >= 256) { if (tid < 128) { Local[tid] += Local[tid + 128]; } __syncthreads(); }
  if (TBS >= 128) { if (tid < 64) { Local[tid] += Local[tid + 64]; } __syncthreads(); }
  if (tid < 32) warpReduce<TBS>(Local, tid);
  if (tid == 0) Out[blockIdx.x] = Local[0];
}

// Version 6: multiple elements per thread. Each block strides through the whole input
// with step 2 * TBS * gridDim.x (Brent's theorem: fewer blocks, more work each);
// n must be a multiple of 2 * TBS but need not be a multiple of the grid's stride.
template <unsigned int TBS>
__global__ void reduce6(const int* In, int* Out, unsigned int n) {
  int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (TBS * 2) + tid;
  unsigned int gridSize = TBS * 2 * gridDim.x;
  extern __shared__ int Local[];
  Local[tid] = 0;
  while (i < n) {
    Local[tid] += In[i] + In[i + TBS];
    i += gridSize;
  }
  __syncthreads();
  if (TBS >= 1024) { if (tid < 512) { Local[tid] += Local[tid + 512]; } __syncthreads(); }
  if (TBS >= 512) { if (tid < 256) { Local[tid] += Local[tid + 256]; } __syncthreads(); }
  if (TBS >= 256) { if (tid < 128) { Local[tid] += Local[tid + 128]; } __syncthreads(); }
  if (TBS >= 128) { if (tid < 64) { Local[tid] += Local[tid + 64]; } __syncthreads(); }
  if (tid < 32) warpReduce<TBS>(Local, tid);
  if (tid == 0) Out[blockIdx.x] = Local[0];
}

template __global__ void reduce5<64>(const int*, int*);
template __global__ void reduce5<128>(const int*, int*);
template __global__ void reduce5<256>(const int*, int*);
template __global__ void reduce5<512>(const int*, int*);
template __global__ void reduce5<1024>(const int*, int*);
template __global__ void reduce6<64>(const int*, int*, unsigned int);
template __global__ void reduce6<128>(const int*, int*, unsigned int);
template __global__ void reduce6<256>(const int*, int*, unsigned int);
template __global__ void reduce6<512>(const int*, int*, unsigned int);
template __global__ void reduce6<1024>(const int*, int*, unsigned int);
