// PTX that nvcc emits for __syncthreads_count/_and/_or (bar.red), 64-bit multiply-high and
// inline-asm carry chains (add.cc/addc/mad.lo.cc/madc), double sin of large arguments (the
// trig reduction's slow path), function pointers (a __device__ table, a pointer copied to
// the host and passed back) and virtual functions. Each part prints its mismatch count.
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <new>

__global__ void barrier_reduce(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];
  const int count = __syncthreads_count(v > 3);
  const int all = __syncthreads_and(v > 0);
  const int any = __syncthreads_or(v > 5);
  out[3 * i] = count;
  out[3 * i + 1] = all;
  out[3 * i + 2] = any;
}

__global__ void carries(const unsigned long long* a, unsigned long long* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned long long x = a[2 * i], y = a[2 * i + 1];
  out[4 * i] = __umul64hi(x, y);
  unsigned int lo, hi;
  asm("add.cc.u32 %0, %2, %4;\n\taddc.u32 %1, %3, %5;"
      : "=r"(lo), "=r"(hi)
      : "r"(unsigned(x)), "r"(unsigned(x >> 32)), "r"(unsigned(y)), "r"(unsigned(y >> 32)));
  out[4 * i + 1] = (static_cast<unsigned long long>(hi) << 32) | lo;
  unsigned int d0, d1, borrow;
  asm("sub.cc.u32 %0, %3, %5;\n\tsubc.cc.u32 %1, %4, %6;\n\tsubc.u32 %2, 0, 0;"
      : "=r"(d0), "=r"(d1), "=r"(borrow)
      : "r"(unsigned(x)), "r"(unsigned(x >> 32)), "r"(unsigned(y)), "r"(unsigned(y >> 32)));
  out[4 * i + 2] = (static_cast<unsigned long long>(d1) << 32) | d0;
  out[4 * i + 3] = borrow;
}

__global__ void big_sines(const double* x, double* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = sin(x[i]);
}

typedef int (*binop)(int, int);
__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ __noinline__ int op_max(int a, int b) { return a > b ? a : b; }
__device__ binop ops[3] = {op_add, op_mul, op_max};
__device__ binop host_pick = op_mul;

struct Shape {
  __device__ virtual int area(int s) const = 0;
  __device__ virtual int sides() const { return 0; }
};
struct Square : Shape {
  __device__ int area(int s) const override { return s * s; }
  __device__ int sides() const override { return 4; }
};
struct Triangle : Shape {
  __device__ int area(int s) const override { return s * s / 2; }
  __device__ int sides() const override { return 3; }
};

__global__ void pointers(binop from_host, int* out) {
  const int t = threadIdx.x;
  Square sq;
  Triangle tri;
  const Shape* s = (t % 3 == 0) ? static_cast<const Shape*>(&sq) : static_cast<const Shape*>(&tri);
  out[t] = ops[t % 3](t, 7) + 1000 * from_host(t, 2) + 100000 * s->sides() + 1000000 * s->area(t % 5);
}

int main() {
  int bad = 0;
  {  // bar.red
    const int blocks = 3, n = 200;
    int h_in[blocks * n], h_out[3 * blocks * n];
    for (int i = 0; i < blocks * n; ++i) h_in[i] = (i * 7 + i / 5) % 9;
    for (int t = 0; t < n; ++t) h_in[n + t] = 1 + t % 5;  // block 1: all positive, none above 5
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    barrier_reduce<<<blocks, n>>>(d_in, d_out);
    cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int b = 0; b < blocks; ++b) {
      int count = 0, all = 1, any = 0;
      for (int t = 0; t < n; ++t) {
        const int v = h_in[b * n + t];
        count += v > 3;
        all &= v > 0;
        any |= v > 5;
      }
      for (int t = 0; t < n; ++t) {
        const int* o = h_out + 3 * (b * n + t);
        wrong += o[0] != count || (o[1] != 0) != (all != 0) || (o[2] != 0) != (any != 0);
      }
    }
    printf("syncthreads_count/and/or: %d wrong\n", wrong);
    bad += wrong;
    cudaFree(d_in);
    cudaFree(d_out);
  }
  {  // carries
    const int n = 1000;
    static unsigned long long h_a[2 * n], h_out[4 * n];
    unsigned long long s = 88172645463325252ull;
    for (int i = 0; i < 2 * n; ++i) {
      s ^= s << 13;
      s ^= s >> 7;
      s ^= s << 17;
      h_a[i] = (i % 4 == 1) ? (s | 0xFFFFFFFF00000000ull) : s;
    }
    unsigned long long *d_a, *d_out;
    cudaMalloc(&d_a, sizeof h_a);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_a, h_a, sizeof h_a, cudaMemcpyHostToDevice);
    carries<<<(n + 127) / 128, 128>>>(d_a, d_out, n);
    cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      const unsigned long long x = h_a[2 * i], y = h_a[2 * i + 1];
      const unsigned __int128 p = static_cast<unsigned __int128>(x) * y;
      wrong += h_out[4 * i] != static_cast<unsigned long long>(p >> 64);
      wrong += h_out[4 * i + 1] != x + y;
      wrong += h_out[4 * i + 2] != x - y;
      wrong += h_out[4 * i + 3] != (x < y ? 0xFFFFFFFFull : 0ull);
    }
    printf("carry arithmetic: %d wrong\n", wrong);
    bad += wrong;
    cudaFree(d_a);
    cudaFree(d_out);
  }
  {  // sin of large arguments
    // warpsim's call frames save every register of the callee, so the trig reduction's
    // slow path needs a little more than CUDA's default 1 KiB stack there.
    cudaDeviceSetLimit(cudaLimitStackSize, 4096);
    const int n = 64;
    double h_x[n], h_y[n];
    for (int i = 0; i < n; ++i) h_x[i] = std::ldexp(1.0 + i / 64.0, 20 + i % 40) * (i % 2 ? -1 : 1);
    double *d_x, *d_y;
    cudaMalloc(&d_x, sizeof h_x);
    cudaMalloc(&d_y, sizeof h_y);
    cudaMemcpy(d_x, h_x, sizeof h_x, cudaMemcpyHostToDevice);
    big_sines<<<1, n>>>(d_x, d_y, n);
    cudaMemcpy(h_y, d_y, sizeof h_y, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += !(std::fabs(h_y[i] - std::sin(h_x[i])) <= 1e-15);
    printf("sin of large arguments: %d wrong\n", wrong);
    bad += wrong;
    cudaFree(d_x);
    cudaFree(d_y);
  }
  {  // function pointers and virtual functions
    const int n = 64;
    binop pick;
    cudaMemcpyFromSymbol(&pick, host_pick, sizeof pick);
    int h_out[n];
    int* d_out;
    cudaMalloc(&d_out, sizeof h_out);
    pointers<<<1, n>>>(pick, d_out);
    cudaError_t e = cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    int wrong = e != cudaSuccess;
    for (int t = 0; t < n && !wrong; ++t) {
      const int op = t % 3 == 0 ? t + 7 : t % 3 == 1 ? t * 7 : (t > 7 ? t : 7);
      const int shape = t % 3 == 0 ? 4 * 100000 + 1000000 * (t % 5) * (t % 5)
                                   : 3 * 100000 + 1000000 * ((t % 5) * (t % 5) / 2);
      wrong += h_out[t] != op + 1000 * (2 * t) + shape;
    }
    printf("function pointers and virtual calls: %d wrong (%s)\n", wrong, cudaGetErrorName(e));
    bad += wrong;
    cudaFree(d_out);
  }
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad ? 1 : 0;
}
