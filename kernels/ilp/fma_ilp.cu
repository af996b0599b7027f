// Volkov, "Better performance at lower occupancy" (GTC 2010), via the seed slides (Vuduc,
// CSE 6230): K mutually independent FMA chains per thread. With K = 1 the FMA latency is
// hidden only by other warps (the plateau near 640 threads per SM on Fermi); more chains
// per thread reach it with fewer threads. The slides' `#define N` becomes the `n`
// argument; each thread accumulates into its own pa[i] (the slides' `*pa += a[k]`, where
// every thread adds into one word, races).
template <int K>
__global__ void fmaChains(float* pa, float b, float c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a[K];
#pragma unroll
  for (int k = 0; k < K; ++k) a[k] = 0;
#pragma unroll 8
  for (int it = 0; it < n; ++it) {
#pragma unroll
    for (int k = 0; k < K; ++k) a[k] = a[k] * b + c;
  }
#pragma unroll
  for (int k = 0; k < K; ++k) pa[i] += a[k];
}

template __global__ void fmaChains<1>(float*, float, float, int);
template __global__ void fmaChains<2>(float*, float, float, int);
template __global__ void fmaChains<4>(float*, float, float, int);
template __global__ void fmaChains<8>(float*, float, float, int);
template __global__ void fmaChains<16>(float*, float, float, int);
