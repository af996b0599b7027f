// What the L2's persisting set-aside keeps of a hot buffer while a larger buffer streams
// through (CUDA Programming Guide, "L2 cache access management"). One case per run:
//   l2_persist CASE HOT_MB STREAM_MB [LIMIT_KB]   (LIMIT_KB: the set-aside; default the maximum)
// CASE: none      no access policy window
//       persist   the hot buffer in the stream's window, hitRatio 1, hitProp persisting
//       half      the same with hitRatio 0.5
//       streaming the stream buffer in the window, hitProp streaming (evict first)
//       reset     persist, then cudaCtxResetPersistingL2Cache before the stream
// Order of launches in the stream: read_hot (warms), stream_big (evicts what it may),
// reread_hot (the measured one: its DRAM bytes are what the L2 did not keep).
// Prints the device's persistingL2CacheMaxSize and accessPolicyMaxWindowSize, the limit
// set, and the reread's time from events. l2_persist.sh runs it under ncu.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

__global__ void read_hot(const float4* __restrict__ p, size_t n, float* out) {
  float s = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    float4 v = p[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 12345.0f) out[0] = s;  // never true: keeps the loads
}

__global__ void reread_hot(const float4* __restrict__ p, size_t n, float* out) {
  float s = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    float4 v = p[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 12345.0f) out[0] = s;
}

__global__ void stream_big(const float4* __restrict__ p, size_t n, float* out) {
  float s = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    float4 v = p[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 12345.0f) out[0] = s;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: l2_persist none|persist|half|streaming|reset HOT_MB STREAM_MB [LIMIT_KB]\n");
    return 2;
  }
  const char* mode = argv[1];
  const size_t hot_bytes = size_t(std::atoi(argv[2])) << 20, big_bytes = size_t(std::atoi(argv[3])) << 20;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s l2CacheSize %d persistingL2CacheMaxSize %d accessPolicyMaxWindowSize %d\n", prop.name,
              prop.l2CacheSize, prop.persistingL2CacheMaxSize, prop.accessPolicyMaxWindowSize);
  float4 *hot, *big;
  float* out;
  CHECK(cudaMalloc(&hot, hot_bytes));
  CHECK(cudaMalloc(&big, big_bytes));
  CHECK(cudaMalloc(&out, 4));
  CHECK(cudaMemset(hot, 0, hot_bytes));
  CHECK(cudaMemset(big, 0, big_bytes));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  const size_t want = argc > 4 ? size_t(std::atoi(argv[4])) << 10 : size_t(prop.persistingL2CacheMaxSize);
  CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, want));
  size_t limit = 0;
  CHECK(cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize));
  std::printf("persisting limit set %zu\n", limit);

  cudaStreamAttrValue attr;
  std::memset(&attr, 0, sizeof attr);
  if (!std::strcmp(mode, "persist") || !std::strcmp(mode, "half") || !std::strcmp(mode, "reset")) {
    attr.accessPolicyWindow.base_ptr = hot;
    attr.accessPolicyWindow.num_bytes = hot_bytes;
    attr.accessPolicyWindow.hitRatio = !std::strcmp(mode, "half") ? 0.5f : 1.0f;
    attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  } else if (!std::strcmp(mode, "streaming")) {
    attr.accessPolicyWindow.base_ptr = big;
    attr.accessPolicyWindow.num_bytes = big_bytes;
    attr.accessPolicyWindow.hitRatio = 1.0f;
    attr.accessPolicyWindow.hitProp = cudaAccessPropertyStreaming;
    attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  } else if (std::strcmp(mode, "none")) {
    std::fprintf(stderr, "l2_persist: unknown case %s\n", mode);
    return 2;
  }
  CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &attr));
  cudaStreamAttrValue back;
  CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &back));
  std::printf("window %zu bytes hitRatio %.2f hitProp %d missProp %d\n", back.accessPolicyWindow.num_bytes,
              back.accessPolicyWindow.hitRatio, int(back.accessPolicyWindow.hitProp),
              int(back.accessPolicyWindow.missProp));
  CHECK(cudaCtxResetPersistingL2Cache());

  const int blocks = prop.multiProcessorCount * 4, threads = 512;
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  read_hot<<<blocks, threads, 0, s>>>(hot, hot_bytes / 16, out);
  if (!std::strcmp(mode, "reset")) {
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaCtxResetPersistingL2Cache());
  }
  stream_big<<<blocks, threads, 0, s>>>(big, big_bytes / 16, out);
  CHECK(cudaEventRecord(a, s));
  reread_hot<<<blocks, threads, 0, s>>>(hot, hot_bytes / 16, out);
  CHECK(cudaEventRecord(b, s));
  CHECK(cudaStreamSynchronize(s));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  std::printf("case %s hot %zu MB stream %zu MB reread %.3f us\n", mode, hot_bytes >> 20, big_bytes >> 20, ms * 1e3);
  CHECK(cudaGetLastError());
  return 0;
}
