// Textbook CUDA idioms compiled by nvcc 13 (-ptx -lineinfo -O3 -arch=sm_75) into
// textbook_idioms.ptx, which the engine tests run and check against the host.
// Regenerate: nvcc -ptx -lineinfo -O3 -arch=sm_75 textbook_idioms.cu -o textbook_idioms.ptx
//             (then make the .file path relative: textbook_idioms.cu)

// Histogram with shared-memory atomics and a grid-stride loop (Kirk & Hwu ch. 9).
__global__ void histogram(const unsigned char* in, unsigned int* hist, int n) {
  __shared__ unsigned int local[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[in[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&hist[i], local[i]);
}

// Warp-level sum with shuffles and a ballot of the positive inputs.
__global__ void warp_sum(const float* in, float* sums, unsigned int* positive) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  unsigned int b = __ballot_sync(0xffffffffu, v > 0.0f);
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) {
    sums[i / 32] = v;
    positive[i / 32] = b;
  }
}

// A per-thread array indexed at run time lives in local memory.
__global__ void local_lookup(int* out, const int* idx) {
  int table[16];
  for (int i = 0; i < 16; ++i) table[i] = i * (int)threadIdx.x + 3;
  out[threadIdx.x] = table[idx[threadIdx.x] & 15];
}

struct Params {
  int scale;
  float offset;
  double bias;
};

// A struct passed by value.
__global__ void struct_param(Params p, float* out) {
  out[threadIdx.x] = (float)(p.scale * (int)threadIdx.x + p.offset + p.bias);
}

// Reverse a block's values through dynamically sized shared memory.
extern __shared__ float dynamic_buffer[];
__global__ void dyn_reverse(float* data) {
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  dynamic_buffer[t] = data[base + t];
  __syncthreads();
  data[base + t] = dynamic_buffer[blockDim.x - 1 - t];
}

// 2D indexing with bounds checks.
__global__ void grid2d(float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = x + y * 0.5f;
}

// 64-bit integer division, remainder and shifts with a run-time divisor.
__global__ void int64_ops(long long* out, const long long* a, long long d) {
  int i = threadIdx.x;
  out[i] = a[i] / d + a[i] % 7 + (a[i] >> 3);
}

// Fast-math intrinsics.
__global__ void math_approx(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  out[i * 8 + 0] = sqrtf(x);
  out[i * 8 + 1] = rsqrtf(x);
  out[i * 8 + 2] = __expf(x);
  out[i * 8 + 3] = __logf(x);
  out[i * 8 + 4] = __sinf(x);
  out[i * 8 + 5] = __fdividef(x, 3.0f);
  out[i * 8 + 6] = fminf(x, 1.5f) + fmaxf(x, 2.0f) + fabsf(-x);
  out[i * 8 + 7] = floorf(x) + ceilf(x) + truncf(x) + rintf(x);
}

// Conversions: round-to-nearest, truncation, saturation, unsigned 64-bit.
__global__ void conversions(int* out, const float* in) {
  int t = threadIdx.x;
  float x = in[t];
  out[t * 4 + 0] = __float2int_rn(x);
  out[t * 4 + 1] = (int)__float2uint_rz(x);
  out[t * 4 + 2] = (int)(__saturatef(x) * 1000.0f);
  out[t * 4 + 3] = (int)(unsigned long long)(x > 0.0f ? x * 3.0f : 0.0f);
}

// atomicAdd on floats.
__global__ void float_atomic(float* sum, const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, x[i]);
}

// Votes and shuffles of every mode.
__global__ void vote_shfl(int* out, const int* in) {
  int t = threadIdx.x;
  int v = in[t];
  out[t * 4 + 0] = __all_sync(0xffffffffu, v > 0) + 2 * __any_sync(0xffffffffu, v > 5);
  out[t * 4 + 1] = __shfl_sync(0xffffffffu, v, 3);
  out[t * 4 + 2] = __shfl_up_sync(0xffffffffu, v, 1, 8);
  out[t * 4 + 3] = __shfl_xor_sync(0xffffffffu, v, 4);
}

// Warp-aggregated atomics (the "CUDA Pro Tip" filtering idiom): the lowest active lane
// (__ffs of the ballot) does one atomicAdd for its warp and broadcasts the base.
__global__ void filter_positive(int* dst, int* count, const int* src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = src[i];
  unsigned int mask = __ballot_sync(0xffffffffu, v > 0);
  if (v > 0) {
    int leader = __ffs(mask) - 1;
    int lane = threadIdx.x & 31;
    int base = 0;
    if (lane == leader) base = atomicAdd(count, __popc(mask));
    base = __shfl_sync(mask, base, leader);
    dst[base + __popc(mask & ((1u << lane) - 1))] = v;
  }
}

// Bit tricks nvcc maps to single instructions: rotate (shf), __byte_perm (prmt),
// __activemask (activemask), __match_any_sync (match.any).
__global__ void bit_tricks(unsigned int* out, const unsigned int* in, int r) {
  int t = threadIdx.x;
  unsigned int x = in[t];
  out[t * 4 + 0] = (x << r) | (x >> (32 - r));
  out[t * 4 + 1] = __byte_perm(x, 0x77665544u, 0x5140);
  if (t % 3 != 0) out[t * 4 + 2] = __activemask();
  out[t * 4 + 3] = __match_any_sync(0xffffffffu, x & 7u);
}
