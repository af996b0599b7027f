// Kirk & Hwu ch. 5 sum reductions. Each block reduces one section of X in shared memory
// and thread 0 writes the section's sum to Y[blockIdx.x] (exercise 5.3's complete kernel:
// the section is selected with blockIdx.x). SIZE, the section size of the printed
// `__shared__ float partialSum[SIZE]`, is a template parameter instantiated for 512- and
// 1024-thread blocks below. Sections must be full: X has gridDim.x * SIZE elements.

// Fig. 5.13: a simple sum reduction kernel. Neighbours are added first; `t % (2*stride)`
// makes every warp diverge in every iteration. Launch with blockDim.x == SIZE.
template <unsigned int SIZE>
__global__ void sumReductionFig5_13(float* X, float* Y) {
  __shared__ float partialSum[SIZE];
  partialSum[threadIdx.x] = X[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned int t = threadIdx.x;
  for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads();
    if (t % (2 * stride) == 0)
      partialSum[t] += partialSum[t + stride];
  }
  if (t == 0) Y[blockIdx.x] = partialSum[0];
}

// Fig. 5.15: a kernel with fewer thread divergence. Elements half a section apart are
// added; only the last five iterations (stride < 32) diverge. Launch with blockDim.x == SIZE.
template <unsigned int SIZE>
__global__ void sumReductionFig5_15(float* X, float* Y) {
  __shared__ float partialSum[SIZE];
  partialSum[threadIdx.x] = X[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned int t = threadIdx.x;
  for (unsigned int stride = blockDim.x / 2; stride >= 1; stride = stride >> 1) {
    __syncthreads();
    if (t < stride)
      partialSum[t] += partialSum[t + stride];
  }
  if (t == 0) Y[blockIdx.x] = partialSum[0];
}

// Exercise 5.1 for Fig. 5.13: no idle half. Each of the SIZE/2 threads loads two elements
// (line 2 adjusted) and the loop runs to stride == blockDim.x with thread t owning element
// 2*t (lines 3 and 6 adjusted). Launch with blockDim.x == SIZE/2.
template <unsigned int SIZE>
__global__ void sumReductionFig5_13HalfThreads(float* X, float* Y) {
  __shared__ float partialSum[SIZE];
  unsigned int t = threadIdx.x;
  unsigned int start = 2 * blockIdx.x * blockDim.x;
  partialSum[t] = X[start + t];
  partialSum[blockDim.x + t] = X[start + blockDim.x + t];
  for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
    __syncthreads();
    if (t % stride == 0)
      partialSum[2 * t] += partialSum[2 * t + stride];
  }
  if (t == 0) Y[blockIdx.x] = partialSum[0];
}

// Exercise 5.1 for Fig. 5.15: each of the SIZE/2 threads loads two elements and the first
// stride is blockDim.x (a whole half section). Launch with blockDim.x == SIZE/2.
template <unsigned int SIZE>
__global__ void sumReductionFig5_15HalfThreads(float* X, float* Y) {
  __shared__ float partialSum[SIZE];
  unsigned int t = threadIdx.x;
  unsigned int start = 2 * blockIdx.x * blockDim.x;
  partialSum[t] = X[start + t];
  partialSum[blockDim.x + t] = X[start + blockDim.x + t];
  for (unsigned int stride = blockDim.x; stride >= 1; stride = stride >> 1) {
    __syncthreads();
    if (t < stride)
      partialSum[t] += partialSum[t + stride];
  }
  if (t == 0) Y[blockIdx.x] = partialSum[0];
}

// Exercise 5.12, the "bright young engineer" kernel, as printed (the printed code declares
// `partialSum` and uses `shared`; here the array is `shared`). The strides >= 32 run with
// barriers, the last five steps run warp-synchronously without `__syncthreads()` and
// without `volatile`: the compiler may keep shared[tid] in a register and read the
// neighbours' elements before they are updated. Launch with blockDim.x == n == SIZE.
template <unsigned int SIZE>
__global__ void sumReductionEx5_12(float* X, float* Y, unsigned int n) {
  __shared__ float shared[SIZE];
  shared[threadIdx.x] = X[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned int tid = threadIdx.x;
  for (unsigned int stride = n >> 1; stride >= 32; stride >>= 1) {
    __syncthreads();
    if (tid < stride)
      shared[tid] += shared[tid + stride];
  }
  __syncthreads();
  if (tid < 32) {  // unroll last 5 predicated steps
    shared[tid] += shared[tid + 16];
    shared[tid] += shared[tid + 8];
    shared[tid] += shared[tid + 4];
    shared[tid] += shared[tid + 2];
    shared[tid] += shared[tid + 1];
  }
  if (tid == 0) Y[blockIdx.x] = shared[0];
}

// Exercise 5.12 with the fix the lecture's answer needs: the warp-synchronous steps go
// through a volatile pointer, so every step reads and writes shared memory.
template <unsigned int SIZE>
__global__ void sumReductionEx5_12Volatile(float* X, float* Y, unsigned int n) {
  __shared__ float shared[SIZE];
  shared[threadIdx.x] = X[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned int tid = threadIdx.x;
  for (unsigned int stride = n >> 1; stride >= 32; stride >>= 1) {
    __syncthreads();
    if (tid < stride)
      shared[tid] += shared[tid + stride];
  }
  __syncthreads();
  if (tid < 32) {  // unroll last 5 predicated steps
    volatile float* vshared = shared;
    vshared[tid] += vshared[tid + 16];
    vshared[tid] += vshared[tid + 8];
    vshared[tid] += vshared[tid + 4];
    vshared[tid] += vshared[tid + 2];
    vshared[tid] += vshared[tid + 1];
  }
  if (tid == 0) Y[blockIdx.x] = shared[0];
}

// Sections of 512 and 1024 elements.
template __global__ void sumReductionFig5_13<512>(float*, float*);
template __global__ void sumReductionFig5_13<1024>(float*, float*);
template __global__ void sumReductionFig5_15<512>(float*, float*);
template __global__ void sumReductionFig5_15<1024>(float*, float*);
template __global__ void sumReductionFig5_13HalfThreads<1024>(float*, float*);
template __global__ void sumReductionFig5_13HalfThreads<2048>(float*, float*);
template __global__ void sumReductionFig5_15HalfThreads<1024>(float*, float*);
template __global__ void sumReductionFig5_15HalfThreads<2048>(float*, float*);
template __global__ void sumReductionEx5_12<512>(float*, float*, unsigned int);
template __global__ void sumReductionEx5_12<1024>(float*, float*, unsigned int);
template __global__ void sumReductionEx5_12Volatile<512>(float*, float*, unsigned int);
template __global__ void sumReductionEx5_12Volatile<1024>(float*, float*, unsigned int);
