// Volkov (GTC 2010) via the seed slides: memory-level parallelism. Each thread issues K
// independent loads before its K stores; element k of thread i of block b is
// b*blockDim.x*K + k*blockDim.x + i (the slides' f(i,k)), so every load and store of a warp
// is coalesced. No bounds check: n = gridDim.x * blockDim.x * K.
template <int K>
__global__ void memcpyIlp(float* dest, float* src) {
  int i = blockIdx.x * blockDim.x * K + threadIdx.x;  // index calculation
  float a[K];
#pragma unroll
  for (int k = 0; k < K; ++k) a[k] = src[i + k * blockDim.x];
#pragma unroll
  for (int k = 0; k < K; ++k) dest[i + k * blockDim.x] = a[k];
}

template __global__ void memcpyIlp<1>(float*, float*);
template __global__ void memcpyIlp<2>(float*, float*);
template __global__ void memcpyIlp<4>(float*, float*);
template __global__ void memcpyIlp<8>(float*, float*);

// Word size: the same copy moving float, float2 or float4 per thread (one load, one
// store of 4, 8 or 16 bytes). No bounds check: gridDim.x * blockDim.x words.
template <typename T>
__global__ void copyWords(T* dest, T* src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dest[i] = src[i];
}

template __global__ void copyWords<float>(float*, float*);
template __global__ void copyWords<float2>(float2*, float2*);
template __global__ void copyWords<float4>(float4*, float4*);
