// The device runtime's queries in a kernel (dynamic parallelism's API): cudaDeviceGetAttribute,
// cudaDeviceGetLimit, cudaDeviceGetCacheConfig/SharedMemConfig, cudaGetDeviceCount,
// cudaFuncGetAttributes and cudaOccupancyMaxActiveBlocksPerMultiprocessor(WithFlags), each
// compared with what the host's call answers, so the output does not depend on the device.
// device_queries.expected is an H200's output (tools/runtime/ground_truth.sh).
// nvcc flags: -rdc=true -lcudadevrt -diag-suppress 1215
#include <cstddef>
#include <cstdio>
#include <cstring>

__global__ void child(float* p, int n) {
  extern __shared__ float tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    tile[threadIdx.x] = p[i];
    __syncthreads();
    p[i] = tile[blockDim.x - 1 - threadIdx.x] * 2.0f;
  }
}

__global__ void heavy(double* p) {
  __shared__ double big[4096];
  big[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = big[(threadIdx.x * 7) % 4096];
}

__constant__ int kDeviceAttrs[] = {cudaDevAttrMaxThreadsPerBlock,
                          cudaDevAttrWarpSize,
                          cudaDevAttrMultiProcessorCount,
                          cudaDevAttrComputeCapabilityMajor,
                          cudaDevAttrComputeCapabilityMinor,
                          cudaDevAttrMaxSharedMemoryPerBlockOptin,
                          cudaDevAttrMaxRegistersPerMultiprocessor,
                          cudaDevAttrMaxThreadsPerMultiProcessor,
                          cudaDevAttrL2CacheSize,
                          cudaDevAttrGlobalMemoryBusWidth};
constexpr int kNumAttrs = 10;
constexpr int kNumLimits = 7;

struct Answers {
  int attr[kNumAttrs], attr_code[kNumAttrs];
  int bad_attr_code[2];
  size_t limit[kNumLimits];
  int limit_code[kNumLimits];
  int cache_config, cache_code;
  int bank_config, bank_code;
  int count, count_code;
  cudaFuncAttributes child_attr, heavy_attr;
  int child_code, heavy_code;
  int occ[4], occ_code[4];
  int occ_flags, occ_flags_code, occ_zero, occ_zero_code;
  int zero_attr, zero_attr_code, other_device, other_device_code;
  int last_error;
};

__global__ void ask(Answers* a) {
  for (int i = 0; i < kNumAttrs; ++i) a->attr_code[i] = cudaDeviceGetAttribute(&a->attr[i], (cudaDeviceAttr)kDeviceAttrs[i], 0);
  a->zero_attr = a->other_device = -7;
  a->zero_attr_code = cudaDeviceGetAttribute(&a->zero_attr, (cudaDeviceAttr)0, 0);
  a->bad_attr_code[0] = cudaDeviceGetAttribute(&a->bad_attr_code[1], (cudaDeviceAttr)9999, 0);
  a->other_device_code = cudaDeviceGetAttribute(&a->other_device, cudaDevAttrWarpSize, 1);
  for (int i = 0; i < kNumLimits; ++i) a->limit_code[i] = cudaDeviceGetLimit(&a->limit[i], (cudaLimit)i);
  cudaFuncCache cache;
  a->cache_code = cudaDeviceGetCacheConfig(&cache);
  a->cache_config = cache;
  cudaSharedMemConfig bank;
  a->bank_code = cudaDeviceGetSharedMemConfig(&bank);
  a->bank_config = bank;
  a->count_code = cudaGetDeviceCount(&a->count);
  a->child_code = cudaFuncGetAttributes(&a->child_attr, (const void*)child);
  a->heavy_code = cudaFuncGetAttributes(&a->heavy_attr, (const void*)heavy);
  const int sizes[4] = {32, 256, 1024, 1024};
  const size_t smem[4] = {0, 1024, 4096, 200000};
  for (int i = 0; i < 4; ++i)
    a->occ_code[i] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&a->occ[i], child, sizes[i], smem[i]);
  a->occ_flags_code = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&a->occ_flags, heavy, 128, 0, 0);
  a->occ_zero = -7;
  a->occ_zero_code = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&a->occ_zero, child, 0, 0);
  a->last_error = cudaGetLastError();
}

__global__ void bad_query(const void* f) {
  cudaFuncAttributes fa;
  if (cudaFuncGetAttributes(&fa, f) == cudaSuccess) printf("no fault: %d registers\n", fa.numRegs);
}

// A kernel's cudaFuncGetAttributes fills the struct's first seven fields only (an H200
// leaves cacheModeCA and everything after it as it was).
static int same_attr(const cudaFuncAttributes& d, const cudaFuncAttributes& h) {
  return d.sharedSizeBytes == h.sharedSizeBytes && d.constSizeBytes == h.constSizeBytes &&
         d.localSizeBytes == h.localSizeBytes && d.maxThreadsPerBlock == h.maxThreadsPerBlock &&
         d.numRegs == h.numRegs && d.ptxVersion == h.ptxVersion && d.binaryVersion == h.binaryVersion;
}

static int rest_untouched(const cudaFuncAttributes& d) {
  const unsigned char* b = reinterpret_cast<const unsigned char*>(&d.cacheModeCA);
  for (size_t i = 0; i < sizeof(d) - offsetof(cudaFuncAttributes, cacheModeCA); ++i)
    if (b[i] != 0) return 0;
  return 1;
}

static void run(const char* title) {
  Answers* a = nullptr;
  cudaMallocManaged(&a, sizeof(Answers));
  memset(a, 0, sizeof(Answers));
  ask<<<1, 1>>>(a);
  printf("%s: %s\n", title, cudaGetErrorName(cudaDeviceSynchronize()));
  int attrs[kNumAttrs];
  cudaMemcpyFromSymbol(attrs, kDeviceAttrs, sizeof(attrs));
  for (int i = 0; i < kNumAttrs; ++i) {
    int h = -1;
    cudaDeviceGetAttribute(&h, (cudaDeviceAttr)attrs[i], 0);
    printf("  attribute %d: %s, as the host's %d\n", attrs[i], cudaGetErrorName((cudaError_t)a->attr_code[i]),
           a->attr[i] == h);
  }
  printf("  attribute 0: %s %d; 9999: %s (value left %d); warp size of device 1: %s %d\n",
         cudaGetErrorName((cudaError_t)a->zero_attr_code), a->zero_attr, cudaGetErrorName((cudaError_t)a->bad_attr_code[0]),
         a->bad_attr_code[1], cudaGetErrorName((cudaError_t)a->other_device_code), a->other_device);
  for (int i = 0; i < kNumLimits; ++i) {
    size_t h = 0;
    cudaError_t hc = cudaDeviceGetLimit(&h, (cudaLimit)i);
    cudaGetLastError();
    printf("  limit %d: %s (host %s), as the host's %d\n", i, cudaGetErrorName((cudaError_t)a->limit_code[i]),
           cudaGetErrorName(hc), a->limit[i] == h);
  }
  cudaFuncCache hc;
  cudaDeviceGetCacheConfig(&hc);
  printf("  cache config: %s %d, as the host's %d\n", cudaGetErrorName((cudaError_t)a->cache_code), a->cache_config,
         a->cache_config == hc);
  printf("  shared memory config: %s %d\n", cudaGetErrorName((cudaError_t)a->bank_code), a->bank_config);
  printf("  device count: %s %d\n", cudaGetErrorName((cudaError_t)a->count_code), a->count);
  cudaFuncAttributes hchild, hheavy;
  cudaFuncGetAttributes(&hchild, child);
  cudaFuncGetAttributes(&hheavy, heavy);
  printf("  child attributes: %s, as the host's %d, the rest untouched %d (static shared %zu)\n",
         cudaGetErrorName((cudaError_t)a->child_code), same_attr(a->child_attr, hchild), rest_untouched(a->child_attr),
         a->child_attr.sharedSizeBytes);
  printf("  heavy attributes: %s, as the host's %d, the rest untouched %d (static shared %zu)\n",
         cudaGetErrorName((cudaError_t)a->heavy_code), same_attr(a->heavy_attr, hheavy), rest_untouched(a->heavy_attr),
         a->heavy_attr.sharedSizeBytes);
  const int sizes[4] = {32, 256, 1024, 1024};
  const size_t smem[4] = {0, 1024, 4096, 200000};
  for (int i = 0; i < 4; ++i) {
    int h = -1;
    cudaError_t c = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&h, child, sizes[i], smem[i]);
    cudaGetLastError();
    printf("  occupancy %d threads %zu bytes: %s (host %s), as the host's %d\n", sizes[i], smem[i],
           cudaGetErrorName((cudaError_t)a->occ_code[i]), cudaGetErrorName(c), a->occ[i] == h);
  }
  int h = -1;
  cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&h, heavy, 128, 0, 0);
  printf("  occupancy with flags: %s, as the host's %d\n", cudaGetErrorName((cudaError_t)a->occ_flags_code),
         a->occ_flags == h);
  printf("  occupancy of 0 threads: %s %d\n", cudaGetErrorName((cudaError_t)a->occ_zero_code), a->occ_zero);
  printf("  last error: %s\n", cudaGetErrorName((cudaError_t)a->last_error));
  cudaFree(a);
}

int main() {
  run("defaults");
  // What the host sets, kernels see.
  cudaDeviceSetCacheConfig(cudaFuncCachePreferShared);
  cudaFuncSetAttribute(child, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);
  cudaDeviceSetLimit(cudaLimitStackSize, 4096);
  cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20);
  run("after the host's settings");
  // A kernel's query about an address that is no kernel faults it, as a bad pointer does.
  bad_query<<<1, 1>>>((const void*)0x1234);
  printf("a query about 0x1234: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
