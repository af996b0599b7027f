// nvcc flags: -rdc=true -lcudadevrt
// Dynamic parallelism (CDP2, CUDA 12/13): kernels that launch kernels, written here to check
// warpsim against the GPU (built with the flags above, and -cudart shared for warpsim). Every line
// it prints is fixed by CUDA's semantics (no timing, no order that the GPU may choose), so
// an H100/H200 and warpsim print the same (dynamic_parallelism.expected).
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                                     \
  do {                                                                                  \
    cudaError_t e_ = (call);                                                            \
    if (e_ != cudaSuccess) {                                                            \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_));       \
      return 1;                                                                         \
    }                                                                                   \
  } while (0)

// 1. One child per block, its parameters from the parent's registers.
__global__ void fill(int* out, int base) { out[base + threadIdx.x] = base * 100 + threadIdx.x; }
__global__ void fill_per_block(int* out) {
  if (threadIdx.x == 0) fill<<<1, 4>>>(out, blockIdx.x * 4);
}

// 2. A block's NULL stream is in order, whoever in the block launched: warp 1 launches the
// first child, warp 0 the second after a barrier; the second reads what the first wrote.
__global__ void set_to(int* x, int v) { *x = v; }
__global__ void add_one(const int* x, int* y) { *y = *x + 1; }
__global__ void in_order(int* x, int* y) {
  if (threadIdx.x == 32) set_to<<<1, 1>>>(x, 41);
  __syncthreads();
  if (threadIdx.x == 0) add_one<<<1, 1>>>(x, y);
}

// 3. A tail launch runs after the whole launching grid: it sees every block's increment.
__global__ void read_count(const int* count, int* seen) { *seen = *count; }
__global__ void count_blocks(int* count, int* seen) {
  if (threadIdx.x == 0) {
    atomicAdd(count, 1);
    if (blockIdx.x == 0) read_count<<<1, 1, 0, cudaStreamTailLaunch>>>(count, seen);
  }
}

// 4. Nesting: each level launches the next until the device refuses; the deepest level
// that ran and the refusal's code.
__global__ void nest(int depth, int* deepest, int* refused_at, int* code) {
  atomicMax(deepest, depth);
  nest<<<1, 1>>>(depth + 1, deepest, refused_at, code);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    *refused_at = depth + 1;
    *code = e;
  }
}

// 5. Launch errors come back to the launching thread: cudaPeekAtLastError keeps the error,
// cudaGetLastError clears it; other threads see none.
__global__ void bad_launches(int* codes) {
  const int t = threadIdx.x;
  if (t == 0) {
    fill<<<1, 2048>>>(codes, 0);  // more threads than a block may have
    codes[0] = cudaPeekAtLastError();
    codes[1] = cudaGetLastError();
    codes[2] = cudaGetLastError();
    fill<<<1, 1, 1 << 20>>>(codes, 0);  // more shared memory than a block may have
    codes[3] = cudaGetLastError();
  }
  __syncthreads();
  if (t == 1) codes[4] = cudaGetLastError();
}

// 6. Streams made on the device, device-side cudaMalloc, a child that fills the memory, a
// copy in the same stream after it, and a tail launch that frees it.
__global__ void iota(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 3 * i;
}
__global__ void release(void* p) { cudaFree(p); }
__global__ void via_device_heap(int* out, int n, int* status) {
  cudaStream_t s;
  status[0] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  int* buf = nullptr;
  status[1] = cudaMalloc((void**)&buf, n * sizeof(int));
  iota<<<(n + 31) / 32, 32, 0, s>>>(buf, n);
  status[2] = cudaMemcpyAsync(out, buf, n * sizeof(int), cudaMemcpyDeviceToDevice, s);
  status[3] = cudaMemsetAsync(out + n, 0x7f, sizeof(int), s);
  status[4] = cudaStreamDestroy(s);
  release<<<1, 1, 0, cudaStreamTailLaunch>>>(buf);
  int device = -1, version = 0;
  status[5] = cudaGetDevice(&device);
  status[6] = device;
  status[7] = cudaRuntimeGetVersion(&version);
  status[8] = version;
}

// 7. A recursive quicksort on streams of its own (the pattern of NVIDIA's CDP samples):
// each range partitions on one thread and sorts its halves in two child grids.
__device__ void swap(int& a, int& b) {
  int t = a;
  a = b;
  b = t;
}
__global__ void quicksort(int* v, int lo, int hi, int depth) {
  if (hi - lo < 16 || depth >= 12) {  // small: insertion sort
    for (int i = lo + 1; i <= hi; ++i)
      for (int j = i; j > lo && v[j - 1] > v[j]; --j) swap(v[j - 1], v[j]);
    return;
  }
  const int pivot = v[(lo + hi) / 2];
  int i = lo, j = hi;
  while (i <= j) {
    while (v[i] < pivot) ++i;
    while (v[j] > pivot) --j;
    if (i <= j) swap(v[i++], v[j--]);
  }
  cudaStream_t left, right;
  cudaStreamCreateWithFlags(&left, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&right, cudaStreamNonBlocking);
  if (lo < j) quicksort<<<1, 1, 0, left>>>(v, lo, j, depth + 1);
  if (i < hi) quicksort<<<1, 1, 0, right>>>(v, i, hi, depth + 1);
  cudaStreamDestroy(left);
  cudaStreamDestroy(right);
}

// 8. Error strings on the device, printed by a tail launch (the program's only device printf).
__global__ void say(int code) { printf("device: %s (%s)\n", cudaGetErrorString((cudaError_t)code), cudaGetErrorName((cudaError_t)code)); }
__global__ void say_later(int code) { say<<<1, 1, 0, cudaStreamTailLaunch>>>(code); }

int main() {
  int* d = nullptr;
  const int n = 1000;
  CHECK(cudaMalloc(&d, 4096 * sizeof(int)));
  CHECK(cudaMemset(d, 0, 4096 * sizeof(int)));
  int h[4096];

  fill_per_block<<<3, 32>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, d, 12 * sizeof(int), cudaMemcpyDeviceToHost));
  printf("per block:");
  for (int i = 0; i < 12; ++i) printf(" %d", h[i]);
  printf("\n");

  CHECK(cudaMemset(d, 0, 16));
  in_order<<<1, 64>>>(d, d + 1);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, d, 2 * sizeof(int), cudaMemcpyDeviceToHost));
  printf("in order: x=%d y=%d\n", h[0], h[1]);

  CHECK(cudaMemset(d, 0, 16));
  count_blocks<<<6, 32>>>(d, d + 1);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, d, 2 * sizeof(int), cudaMemcpyDeviceToHost));
  printf("tail launch: count=%d seen=%d\n", h[0], h[1]);

  CHECK(cudaMemset(d, 0, 16));
  nest<<<1, 1>>>(0, d, d + 1, d + 2);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, d, 3 * sizeof(int), cudaMemcpyDeviceToHost));
  printf("nesting: deepest level run %d, refused at level %d with %s\n", h[0], h[1], cudaGetErrorName((cudaError_t)h[2]));

  CHECK(cudaMemset(d, 0xff, 5 * sizeof(int)));
  bad_launches<<<1, 32>>>(d);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, d, 5 * sizeof(int), cudaMemcpyDeviceToHost));
  printf("device launch errors:");
  for (int i = 0; i < 5; ++i) printf(" %s", cudaGetErrorName((cudaError_t)h[i]));
  printf("\n");

  CHECK(cudaMemset(d, 0, 4096 * sizeof(int)));
  via_device_heap<<<1, 1>>>(d, 100, d + 200);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, d, 209 * sizeof(int), cudaMemcpyDeviceToHost));
  long sum = 0;
  for (int i = 0; i < 100; ++i) sum += h[i];
  printf("device heap and streams: sum=%ld p[99]=%d set=%#x status", sum, h[99], h[100]);
  for (int i = 0; i < 9; ++i) printf(" %d", h[200 + i]);
  printf("\n");

  unsigned x = 12345;
  for (int i = 0; i < n; ++i) {
    x = x * 1103515245u + 12345u;
    h[i] = int((x >> 8) % 10000);
  }
  CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
  quicksort<<<1, 1>>>(d, 0, n - 1, 0);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  int sorted = 1;
  for (int i = 1; i < n; ++i) sorted &= h[i - 1] <= h[i];
  printf("quicksort of %d: %s, first %d last %d\n", n, sorted ? "sorted" : "NOT sorted", h[0], h[n - 1]);

  say_later<<<1, 1>>>(cudaErrorInvalidConfiguration);
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
