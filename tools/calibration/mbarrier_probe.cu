// What the GPU's mbarrier objects and reserved shared memory look like from a kernel
// (sm_90): the %reserved_smem_offset_* special registers and the shared-memory size
// registers for three shared layouts, where a static __shared__ variable and the dynamic
// array start, an mbarrier's raw 64-bit word after init and arrivals, what the arrive's
// state token holds, and how long a try_wait on a phase that never completes stays
// suspended (clock64 cycles), without a hint and with suspend-time hints. Run by
// tools/calibration/mbarrier_probe.sh on the device; warpsim's constants cite its output
// (docs/measurements/h100_mbarrier_probe.txt).
#include <cstdio>

__device__ unsigned smem_reg(int which) {
  unsigned v = 0;
  switch (which) {
    case 0: asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(v)); break;
    case 1: asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(v)); break;
    case 2: asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(v)); break;
    case 3: asm volatile("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(v)); break;
    case 4: asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(v)); break;
    case 5: asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(v)); break;
    case 6: asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(v)); break;
    case 7: asm volatile("mov.u32 %0, %%aggr_smem_size;" : "=r"(v)); break;
  }
  return v;
}

extern __shared__ unsigned char dyn[];

template <int Static>
__global__ void layout(unsigned* out) {
  __shared__ unsigned char s[Static > 0 ? Static : 1];
  if (threadIdx.x == 0) {
    for (int i = 0; i < 8; ++i) out[i] = smem_reg(i);
    out[8] = Static > 0 ? (unsigned)__cvta_generic_to_shared(s) : 0xFFFFFFFFu;
    out[9] = (unsigned)__cvta_generic_to_shared(dyn);
    s[0] = 1;
  }
}

__global__ void raw_words(unsigned long long* out) {
  __shared__ unsigned long long bar;
  const unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) {
    unsigned long long st;
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(a), "r"(3));
    out[0] = bar;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(a));
    out[1] = bar;
    out[2] = st;
    unsigned pending;
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pending) : "l"(st));
    out[3] = pending;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1], 2;" : "=l"(st) : "r"(a));
    out[4] = bar;
    out[5] = st;
    asm volatile("mbarrier.expect_tx.shared.b64 [%0], 64;" ::"r"(a));
    out[6] = bar;
    asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(st) : "r"(a));
    out[7] = bar;
  }
}

// Thread 0 makes a barrier that needs two arrivals, arrives once and times try_wait.
__global__ void suspend_time(long long* out, unsigned hint_ns) {
  __shared__ unsigned long long bar;
  const unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x != 0) return;
  unsigned long long st;
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(a), "r"(2));
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(a));
  for (int i = 0; i < 5; ++i) {
    unsigned ok;
    const long long t0 = clock64();
    if (hint_ns)
      asm volatile("{ .reg .pred p; mbarrier.try_wait.shared.b64 p, [%1], %2, %3; selp.u32 %0, 1, 0, p; }"
                   : "=r"(ok) : "r"(a), "l"(st), "r"(hint_ns) : "memory");
    else
      asm volatile("{ .reg .pred p; mbarrier.try_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                   : "=r"(ok) : "r"(a), "l"(st) : "memory");
    const long long t1 = clock64();
    out[2 * i] = t1 - t0;
    out[2 * i + 1] = ok;
  }
  unsigned ok;
  const long long t0 = clock64();
  asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(ok) : "r"(a), "l"(st) : "memory");
  out[10] = clock64() - t0;
  out[11] = ok;
}

int main() {
  unsigned* d;
  cudaMalloc(&d, 16 * sizeof(unsigned));
  unsigned h[16];
  const char* names[] = {"reserved_smem_offset_begin", "reserved_smem_offset_end", "reserved_smem_offset_cap",
                         "reserved_smem_offset_0",     "reserved_smem_offset_1",   "total_smem_size",
                         "dynamic_smem_size",          "aggr_smem_size",           "static __shared__ offset",
                         "extern __shared__ offset"};
  auto show = [&](const char* what) {
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("%s:", what);
    for (int i = 0; i < 10; ++i) printf(" %s=%u", names[i], h[i]);
    printf(" (%s)\n", cudaGetErrorString(cudaGetLastError()));
  };
  layout<0><<<1, 32>>>(d);
  show("no shared");
  layout<100><<<1, 32>>>(d);
  show("static 100");
  layout<4096><<<1, 32, 1000>>>(d);
  show("static 4096 + dynamic 1000");
  layout<0><<<1, 32, 40000>>>(d);
  show("dynamic 40000");

  unsigned long long* w;
  cudaMalloc(&w, 8 * sizeof(unsigned long long));
  raw_words<<<1, 32>>>(w);
  unsigned long long hw[8];
  cudaMemcpy(hw, w, sizeof hw, cudaMemcpyDeviceToHost);
  const char* wn[] = {"after init(3)",  "after arrive", "arrive state", "pending_count(state)",
                      "after arrive 2", "arrive 2 state", "after expect_tx 64", "after arrive_drop"};
  for (int i = 0; i < 8; ++i) printf("mbarrier %s: %#018llx\n", wn[i], hw[i]);

  long long* t;
  cudaMalloc(&t, 12 * sizeof(long long));
  for (unsigned hint : {0u, 1000u, 100000u, 1000000u}) {
    suspend_time<<<1, 32>>>(t, hint);
    long long ht[12];
    cudaMemcpy(ht, t, sizeof ht, cudaMemcpyDeviceToHost);
    printf("try_wait hint %u ns: cycles", hint);
    for (int i = 0; i < 5; ++i) printf(" %lld(%lld)", ht[2 * i], ht[2 * i + 1]);
    printf("; test_wait %lld(%lld) (%s)\n", ht[10], ht[11], cudaGetErrorString(cudaGetLastError()));
  }
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  printf("clock rate %d kHz\n", clock_khz);
  return 0;
}
