// H100 calibration microbenchmarks (warpsim tools/calibration/). One binary, several modes:
//   h100_micro props                 device properties the config quotes
//   h100_micro chase BYTES STRIDE    pointer chase through BYTES of global memory, one thread:
//                                    a warm-up pass, then SM cycles per dependent load
//   h100_micro chase_cg BYTES STRIDE the same with ld.global.cg (L2 only, bypassing L1)
//   h100_micro shared                pointer chase in shared memory: cycles per load
//   h100_micro fma                   one thread's dependent FMA chain: cycles per FMA
//   h100_micro sfu | dp | imul       dependent rsqrt / FP64 fma / 32-bit multiply chains: cycles per op
//   h100_micro empty                 empty kernels, to be timed by ncu (launch overhead)
//   h100_micro bandwidth             DRAM copy/read bandwidth and L2 read bandwidth (events)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)

__global__ void chase(const unsigned long long* next, long long steps, unsigned long long* out,
                      long long* cycles) {
  unsigned long long p = 0;
  for (long long i = 0; i < steps; ++i) p = next[p];  // warm-up pass
  long long t0 = clock64();
  for (long long i = 0; i < steps; ++i) p = next[p];
  long long t1 = clock64();
  out[0] = p;
  cycles[0] = t1 - t0;
}

__global__ void chase_cg(const unsigned long long* next, long long steps, unsigned long long* out,
                         long long* cycles) {
  unsigned long long p = 0;
  for (long long i = 0; i < steps; ++i) p = __ldcg(next + p);
  long long t0 = clock64();
  for (long long i = 0; i < steps; ++i) p = __ldcg(next + p);
  long long t1 = clock64();
  out[0] = p;
  cycles[0] = t1 - t0;
}

__global__ void shared_chase(int steps, unsigned* out, long long* cycles) {
  __shared__ unsigned s[1024];
  for (int i = 0; i < 1024; ++i) s[i] = (i + 33) % 1024;
  __syncthreads();
  unsigned j = 0;
  for (int i = 0; i < 64; ++i) j = s[j];
  long long t0 = clock64();
  for (int i = 0; i < steps; ++i) j = s[j];
  long long t1 = clock64();
  out[0] = j;
  cycles[0] = t1 - t0;
}

__global__ void fma_chain(float a, float b, int steps, float* out, long long* cycles) {
  float x = a;
  long long t0 = clock64();
  for (int i = 0; i < steps; ++i) {
    x = fmaf(x, b, a); x = fmaf(x, b, a); x = fmaf(x, b, a); x = fmaf(x, b, a);
    x = fmaf(x, b, a); x = fmaf(x, b, a); x = fmaf(x, b, a); x = fmaf(x, b, a);
  }
  long long t1 = clock64();
  out[0] = x;
  cycles[0] = t1 - t0;
}

__global__ void sfu_chain(float a, int steps, float* out, long long* cycles) {
  float x = a;
  long long t0 = clock64();
  for (int i = 0; i < steps; ++i) {
    x = rsqrtf(x); x = rsqrtf(x); x = rsqrtf(x); x = rsqrtf(x);
    x = rsqrtf(x); x = rsqrtf(x); x = rsqrtf(x); x = rsqrtf(x);
  }
  long long t1 = clock64();
  out[0] = x;
  cycles[0] = t1 - t0;
}

__global__ void dp_chain(double a, double b, int steps, double* out, long long* cycles) {
  double x = a;
  long long t0 = clock64();
  for (int i = 0; i < steps; ++i) {
    x = fma(x, b, a); x = fma(x, b, a); x = fma(x, b, a); x = fma(x, b, a);
    x = fma(x, b, a); x = fma(x, b, a); x = fma(x, b, a); x = fma(x, b, a);
  }
  long long t1 = clock64();
  out[0] = x;
  cycles[0] = t1 - t0;
}

__global__ void imul_chain(unsigned a, unsigned b, int steps, unsigned* out, long long* cycles) {
  unsigned x = a;
  long long t0 = clock64();
  for (int i = 0; i < steps; ++i) {
    x = x * b; x = x * b; x = x * b; x = x * b; x = x * b; x = x * b; x = x * b; x = x * b;
  }
  long long t1 = clock64();
  out[0] = x;
  cycles[0] = t1 - t0;
}

__global__ void empty_kernel() {}

__global__ void copy4(float4* out, const float4* in, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

__global__ void read4(const float4* in, size_t n, size_t mask, int reps, float* out) {
  float s = 0;
  for (int r = 0; r < reps; ++r)
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
      float4 v = in[i & mask];
      s += v.x + v.y + v.z + v.w;
    }
  if (s == 12345.f) out[0] = s;
}

static long long run_chase(bool cg, size_t bytes, size_t stride, long long steps) {
  const size_t n = bytes / 8, step = stride / 8, hops = n / step;
  std::vector<unsigned long long> h(n, 0);
  for (size_t k = 0; k < hops; ++k) h[k * step] = ((k + 1) % hops) * step;
  unsigned long long *d, *o; long long* c;
  CK(cudaMalloc(&d, n * 8)); CK(cudaMalloc(&o, 8)); CK(cudaMalloc(&c, 8));
  CK(cudaMemcpy(d, h.data(), n * 8, cudaMemcpyHostToDevice));
  if (steps < (long long)hops) steps = hops;
  if (cg) chase_cg<<<1, 1>>>(d, steps, o, c); else chase<<<1, 1>>>(d, steps, o, c);
  CK(cudaDeviceSynchronize());
  long long cyc; CK(cudaMemcpy(&cyc, c, 8, cudaMemcpyDeviceToHost));
  CK(cudaFree(d)); CK(cudaFree(o)); CK(cudaFree(c));
  std::printf("%s,%zu,%zu,%lld,%.2f\n", cg ? "chase_cg" : "chase", bytes, stride, steps, double(cyc) / steps);
  return cyc;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "props";
  if (!std::strcmp(mode, "props")) {
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    int clk = 0, mclk = 0, bus = 0, l2 = 0, res = 0;
    cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
    cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, 0);
    cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0);
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
    cudaDeviceGetAttribute(&res, cudaDevAttrReservedSharedMemoryPerBlock, 0);
    std::printf("name,%s\ncc,%d.%d\nmultiProcessorCount,%d\nclockRate_kHz,%d\nmemoryClockRate_kHz,%d\n"
                "memoryBusWidth_bits,%d\nl2CacheSize,%d\ntotalGlobalMem,%zu\nsharedMemPerMultiprocessor,%zu\n"
                "sharedMemPerBlock,%zu\nsharedMemPerBlockOptin,%zu\nreservedSharedMemPerBlock,%d\n"
                "regsPerMultiprocessor,%d\nregsPerBlock,%d\nmaxThreadsPerMultiProcessor,%d\nmaxBlocksPerMultiProcessor,%d\n"
                "maxThreadsPerBlock,%d\nmaxThreadsDim,%d,%d,%d\nmaxGridSize,%d,%d,%d\nwarpSize,%d\npersistingL2CacheMaxSize,%d\n",
                p.name, p.major, p.minor, p.multiProcessorCount, clk, mclk, bus, l2, p.totalGlobalMem,
                p.sharedMemPerMultiprocessor, p.sharedMemPerBlock, p.sharedMemPerBlockOptin, res,
                p.regsPerMultiprocessor, p.regsPerBlock, p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor,
                p.maxThreadsPerBlock, p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2], p.maxGridSize[0],
                p.maxGridSize[1], p.maxGridSize[2], p.warpSize, p.persistingL2CacheMaxSize);
  } else if (!std::strcmp(mode, "chase") || !std::strcmp(mode, "chase_cg")) {
    run_chase(!std::strcmp(mode, "chase_cg"), std::strtoull(argv[2], 0, 10), std::strtoull(argv[3], 0, 10), 4096);
  } else if (!std::strcmp(mode, "empty")) {  // launch overhead: run under ncu (gpu__time_duration)
    empty_kernel<<<1, 1>>>();
    empty_kernel<<<132, 128>>>();
    empty_kernel<<<1056, 256>>>();
    CK(cudaDeviceSynchronize());
  } else if (!std::strcmp(mode, "sfu") || !std::strcmp(mode, "dp") || !std::strcmp(mode, "imul")) {
    long long* c; CK(cudaMalloc(&c, 8)); void* o; CK(cudaMalloc(&o, 8));
    const int steps = 4096;
    if (mode[0] == 's') sfu_chain<<<1, 1>>>(2.0f, steps / 8, (float*)o, c);
    else if (mode[0] == 'd') dp_chain<<<1, 1>>>(1.0, 0.999, steps / 8, (double*)o, c);
    else imul_chain<<<1, 1>>>(3u, 7u, steps / 8, (unsigned*)o, c);
    CK(cudaDeviceSynchronize());
    long long cyc; CK(cudaMemcpy(&cyc, c, 8, cudaMemcpyDeviceToHost));
    std::printf("%s,%d,%.2f\n", mode, steps, double(cyc) / steps);
  } else if (!std::strcmp(mode, "shared") || !std::strcmp(mode, "fma")) {
    long long* c; CK(cudaMalloc(&c, 8)); void* o; CK(cudaMalloc(&o, 8));
    const int steps = 4096;
    if (mode[0] == 's') shared_chase<<<1, 1>>>(steps, (unsigned*)o, c);
    else fma_chain<<<1, 1>>>(1.0f, 0.999f, steps / 8, (float*)o, c);
    CK(cudaDeviceSynchronize());
    long long cyc; CK(cudaMemcpy(&cyc, c, 8, cudaMemcpyDeviceToHost));
    std::printf("%s,%d,%.2f\n", mode, steps, double(cyc) / steps);
  } else if (!std::strcmp(mode, "bandwidth")) {
    const size_t bytes = size_t(1) << 30, n = bytes / 16;
    float4 *a, *b; float* o;
    CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes)); CK(cudaMalloc(&o, 4));
    CK(cudaMemset(a, 0, bytes)); CK(cudaMemset(b, 0, bytes));
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    auto time = [&](auto launch) {
      launch(); CK(cudaDeviceSynchronize());
      float best = 1e30f;
      for (int r = 0; r < 5; ++r) {
        cudaEventRecord(e0); launch(); cudaEventRecord(e1); CK(cudaEventSynchronize(e1));
        float ms; cudaEventElapsedTime(&ms, e0, e1); if (ms < best) best = ms;
      }
      return best;
    };
    float ms = time([&] { copy4<<<sms * 8, 256>>>(b, a, n); });
    std::printf("dram_copy_GBps,%.1f\n", 2.0 * bytes / ms / 1e6);
    ms = time([&] { read4<<<sms * 8, 256>>>(a, n, ~size_t(0), 1, o); });
    std::printf("dram_read_GBps,%.1f\n", 1.0 * bytes / ms / 1e6);
    const size_t l2n = (size_t(16) << 20) / 16;  // 16 MiB footprint, read 64 times
    ms = time([&] { read4<<<sms * 8, 256>>>(a, l2n * 64, l2n - 1, 1, o); });
    std::printf("l2_read_GBps,%.1f\n", 64.0 * l2n * 16 / ms / 1e6);
  }
  return 0;
}
