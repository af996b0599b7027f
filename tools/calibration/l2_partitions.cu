// The H100's two L2 partitions, seen from single SMs (warpsim tools/calibration/, run by
// l2_partitions.sh). One thread on a chosen SM (blocks read %smid; the first block on that
// SM claims the work, the others leave) chases pointers 128 bytes apart with ld.global.cg
// (L2 only), one pass in address order; before each experiment a 256 MB read evicts the L2.
//   l2_partitions map MB A [STEP] for every STEP-th SM b: A reads MB once; then b's first and second
//                                 pass and A's pass again, in cycles per load
//   l2_partitions capacity SM [FROM TO STEP]  MB = 4..80 by 4: SM's second pass through MB (its
//                                 first warms)
//   l2_partitions write MB A B    a block on A writes MB (the chase's own pointers); then B's
//                                 pass, A's pass, B's pass
//   l2_partitions hist MB A B MB2 per-load latency histograms: B's two passes and A's pass
//                                 again after A read MB; A's second pass through MB2
//   l2_partitions pair MB A B     A reads MB once, then B once (for ncu, one experiment)
// Output: CSV lines, cycles per load with two decimals.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)

__device__ unsigned smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// The first block that finds itself on SM `target` claims the launch.
__device__ bool claim(unsigned target, unsigned* claimed) {
  __shared__ unsigned mine;
  if (threadIdx.x == 0) mine = smid() == target && atomicCAS(claimed, 0u, 1u) == 0u;
  __syncthreads();
  return mine != 0;
}

__global__ void chase_on(const unsigned long long* next, long long steps, unsigned target, unsigned* claimed,
                         unsigned long long* out, long long* cycles) {
  if (!claim(target, claimed)) return;
  unsigned long long p = 0;
  long long t0 = clock64();
  for (long long i = 0; i < steps; ++i) p = __ldcg(next + p);
  long long t1 = clock64();
  out[0] = p;
  cycles[0] = t1 - t0;
}

// chase_on, recording each load's cycles (the clock read before and after it).
__global__ void chase_timed_on(const unsigned long long* next, long long steps, unsigned target, unsigned* claimed,
                               unsigned long long* out, unsigned* each) {
  if (!claim(target, claimed)) return;
  unsigned long long p = 0;
  for (long long i = 0; i < steps; ++i) {
    const long long t0 = clock64();
    p = __ldcg(next + p);
    asm volatile("add.u64 %0, %0, 0;" : "+l"(p));  // waits for the load's value
    const long long t1 = clock64();
    each[i] = unsigned(t1 - t0);
  }
  out[0] = p;
}

__global__ void write_on(unsigned long long* next, const unsigned long long* src, size_t n, unsigned target,
                         unsigned* claimed) {
  if (!claim(target, claimed)) return;
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) next[i] = src[i];
}

__global__ void evict(const float4* in, size_t n, float* out) {
  float s = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    float4 v = __ldcg(in + i);
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 12345.f) out[0] = s;
}

struct Probe {
  int sms = 0;
  unsigned long long* next = nullptr;
  unsigned long long* src = nullptr;
  size_t max_words = 0;
  size_t words = 0;
  unsigned* claimed = nullptr;
  unsigned long long* out = nullptr;
  long long* cycles = nullptr;
  float4* junk = nullptr;
  size_t junk_n = 0;

  explicit Probe(size_t max_mb) {
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    max_words = max_mb * 1024 * 1024 / 8;
    CK(cudaMalloc(&next, max_words * 8));
    CK(cudaMalloc(&src, max_words * 8));
    CK(cudaMalloc(&claimed, 4));
    CK(cudaMalloc(&out, 8));
    CK(cudaMalloc(&cycles, 8));
    junk_n = size_t(256) * 1024 * 1024 / 16;
    CK(cudaMalloc(&junk, junk_n * 16));
    CK(cudaMemset(junk, 0, junk_n * 16));
  }
  // The pointers of a chase through `mb` MB, 128 bytes (16 words) apart, in address order.
  void layout(size_t mb, unsigned long long* where) {
    words = mb * 1024 * 1024 / 8;
    const size_t step = 16, hops = words / step;
    std::vector<unsigned long long> h(words, 0);
    for (size_t k = 0; k < hops; ++k) h[k * step] = ((k + 1) % hops) * step;
    CK(cudaMemcpy(where, h.data(), words * 8, cudaMemcpyHostToDevice));
  }
  void flush() {
    evict<<<sms * 4, 512>>>(junk, junk_n, reinterpret_cast<float*>(out));
    CK(cudaDeviceSynchronize());
  }
  // One pass of the chase on SM `sm`: cycles per load, or -1 if no block landed there.
  double pass(int sm) {
    const long long steps = (long long)(words / 16);
    CK(cudaMemset(claimed, 0, 4));
    CK(cudaMemset(cycles, 0xff, 8));
    chase_on<<<sms * 8, 32>>>(next, steps, unsigned(sm), claimed, out, cycles);
    CK(cudaDeviceSynchronize());
    long long c;
    CK(cudaMemcpy(&c, cycles, 8, cudaMemcpyDeviceToHost));
    return c < 0 ? -1.0 : double(c) / double(steps);
  }
  // A pass on SM `sm` that records each load's cycles: a histogram in 20-cycle bins.
  void timed_pass(int sm, const char* label, int mb) {
    const long long steps = (long long)(words / 16);
    unsigned* each;
    CK(cudaMalloc(&each, steps * 4));
    CK(cudaMemset(claimed, 0, 4));
    chase_timed_on<<<sms * 8, 32>>>(next, steps, unsigned(sm), claimed, out, each);
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> h(steps);
    CK(cudaMemcpy(h.data(), each, steps * 4, cudaMemcpyDeviceToHost));
    CK(cudaFree(each));
    std::vector<long long> bins(64, 0);
    for (unsigned c : h) ++bins[c / 20 < 63 ? c / 20 : 63];
    for (int i = 0; i < 64; ++i)
      if (bins[i]) std::printf("hist,%s,%d,%d,%d,%lld\n", label, mb, sm, i * 20, bins[i]);
  }
  void write(int sm) {
    CK(cudaMemset(claimed, 0, 4));
    write_on<<<sms * 2, 1024>>>(next, src, words, unsigned(sm), claimed);
    CK(cudaDeviceSynchronize());
  }
};

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "map";
  auto arg = [&](int i, int dflt) { return argc > i ? std::atoi(argv[i]) : dflt; };
  if (!std::strcmp(mode, "map")) {
    const int mb = arg(2, 4), a = arg(3, 0), step = arg(4, 1);
    Probe p(mb);
    p.layout(mb, p.next);
    std::printf("mode,mb,a,b,b_first,b_second,a_after\n");
    for (int b = 0; b < p.sms; b += step) {
      p.flush();
      p.pass(a);
      const double f = p.pass(b), s = p.pass(b), again = p.pass(a);
      std::printf("map,%d,%d,%d,%.2f,%.2f,%.2f\n", mb, a, b, f, s, again);
    }
  } else if (!std::strcmp(mode, "capacity")) {
    const int sm = arg(2, 0), from = arg(3, 4), to = arg(4, 80), step = arg(5, 4);
    Probe p(to);
    std::printf("mode,sm,mb,first,second\n");
    for (int mb = from; mb <= to; mb += step) {
      p.layout(mb, p.next);
      p.flush();
      const double f = p.pass(sm), s = p.pass(sm);
      std::printf("capacity,%d,%d,%.2f,%.2f\n", sm, mb, f, s);
    }
  } else if (!std::strcmp(mode, "write")) {
    const int mb = arg(2, 4), a = arg(3, 0), b = arg(4, 1);
    Probe p(mb);
    p.layout(mb, p.src);
    p.words = size_t(mb) * 1024 * 1024 / 8;
    CK(cudaMemset(p.next, 0, p.words * 8));
    std::printf("mode,mb,a,b,b_first,a_after,b_second\n");
    p.flush();
    p.write(a);
    const double f = p.pass(b), again = p.pass(a), s = p.pass(b);
    std::printf("write,%d,%d,%d,%.2f,%.2f,%.2f\n", mb, a, b, f, again, s);
  } else if (!std::strcmp(mode, "hist")) {
    // Per-load latency histograms: B's first and second pass after A read MB once, and
    // A's second pass through MB2 (the capacity experiment).
    const int mb = arg(2, 4), a = arg(3, 0), b = arg(4, 66), mb2 = arg(5, 32);
    Probe p(mb > mb2 ? mb : mb2);
    std::printf("mode,label,mb,sm,cycles_from,loads\n");
    p.layout(mb, p.next);
    p.flush();
    p.pass(a);
    p.timed_pass(b, "other_first", mb);
    p.timed_pass(b, "other_second", mb);
    p.timed_pass(a, "same_again", mb);
    p.layout(mb2, p.next);
    p.flush();
    p.pass(a);
    p.timed_pass(a, "capacity_second", mb2);
  } else if (!std::strcmp(mode, "pair")) {
    const int mb = arg(2, 4), a = arg(3, 0), b = arg(4, 1);
    Probe p(mb);
    p.layout(mb, p.next);
    p.flush();
    const double x = p.pass(a), y = p.pass(b);
    std::printf("pair,%d,%d,%d,%.2f,%.2f\n", mb, a, b, x, y);
  } else {
    std::fprintf(stderr, "l2_partitions: unknown mode %s\n", mode);
    return 2;
  }
  return 0;
}
