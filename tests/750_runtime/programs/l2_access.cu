// L2 access control through the runtime: the persisting set-aside limit, a stream's access
// policy window (set, read back, refused when malformed), cudaCtxResetPersistingL2Cache and
// a launch's own window (cudaLaunchKernelEx). Each case reads a 4 MB hot buffer, streams
// 128 MB through the L2 and reads the hot buffer again; the test reads the L2 hit rates of
// the second read from warpsim's --json.
//   l2_access CASE   (none, persist, streaming, reset, launch)
#include <cstdio>
#include <cstring>

// Reads p[0..n) across the grid (three kernels of their own names share it, so the test
// finds each launch in the JSON).
__device__ void sum_all(const float4* p, size_t n, float* out) {
  float s = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    float4 v = p[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 12345.0f) out[0] = s;
}

__global__ void read_hot(const float4* p, size_t n, float* out) { sum_all(p, n, out); }
__global__ void stream_big(const float4* p, size_t n, float* out) { sum_all(p, n, out); }
__global__ void reread_hot(const float4* p, size_t n, float* out) { sum_all(p, n, out); }

static void report(const char* what, cudaError_t e) { std::printf("%s: %s\n", what, cudaGetErrorName(e)); }

int main(int argc, char** argv) {
  const char* c = argc > 1 ? argv[1] : "none";
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int attr_max = 0, attr_window = 0;
  cudaDeviceGetAttribute(&attr_max, cudaDevAttrMaxPersistingL2CacheSize, 0);
  cudaDeviceGetAttribute(&attr_window, cudaDevAttrMaxAccessPolicyWindowSize, 0);
  std::printf("persistingL2CacheMaxSize %d (attribute %d), accessPolicyMaxWindowSize %d (attribute %d)\n",
              prop.persistingL2CacheMaxSize, attr_max, prop.accessPolicyMaxWindowSize, attr_window);
  report("set limit twice the maximum", cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 2 * size_t(prop.persistingL2CacheMaxSize)));
  size_t limit = 0;
  cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize);
  std::printf("limit %zu\n", limit);

  const size_t hot_bytes = size_t(4) << 20, big_bytes = size_t(128) << 20;
  float4 *hot, *big;
  float* out;
  cudaMalloc(&hot, hot_bytes);
  cudaMalloc(&big, big_bytes);
  cudaMalloc(&out, 4);
  cudaMemset(hot, 0, hot_bytes);
  cudaMemset(big, 0, big_bytes);
  cudaStream_t s;
  cudaStreamCreate(&s);

  cudaStreamAttrValue v;
  std::memset(&v, 0, sizeof v);
  v.accessPolicyWindow.base_ptr = hot;
  v.accessPolicyWindow.num_bytes = size_t(prop.accessPolicyMaxWindowSize) + 1;
  v.accessPolicyWindow.hitRatio = 1.0f;
  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  report("window past the maximum", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  v.accessPolicyWindow.num_bytes = hot_bytes;
  v.accessPolicyWindow.hitRatio = 1.5f;
  report("hitRatio 1.5", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  v.accessPolicyWindow.hitRatio = 1.0f;
  v.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
  report("missProp persisting", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;

  const bool launch_window = !std::strcmp(c, "launch");
  if (!std::strcmp(c, "persist") || !std::strcmp(c, "reset")) {
    report("persisting window", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  } else if (!std::strcmp(c, "streaming")) {
    v.accessPolicyWindow.base_ptr = big;
    v.accessPolicyWindow.num_bytes = big_bytes;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyStreaming;
    report("streaming window", cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  }
  cudaStreamAttrValue back;
  std::memset(&back, 0, sizeof back);
  report("get window", cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &back));
  std::printf("window %zu bytes, hitRatio %.2f, hitProp %d, missProp %d\n", back.accessPolicyWindow.num_bytes,
              back.accessPolicyWindow.hitRatio, int(back.accessPolicyWindow.hitProp), int(back.accessPolicyWindow.missProp));

  const int blocks = prop.multiProcessorCount, threads = 256;
  if (launch_window) {  // the first read alone carries the window, as a launch attribute
    cudaLaunchAttribute a;
    std::memset(&a, 0, sizeof a);
    a.id = cudaLaunchAttributeAccessPolicyWindow;
    a.val.accessPolicyWindow = v.accessPolicyWindow;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(threads);
    cfg.stream = s;
    cfg.attrs = &a;
    cfg.numAttrs = 1;
    report("read_hot with its own window", cudaLaunchKernelEx(&cfg, read_hot, (const float4*)hot, hot_bytes / 16, out));
  } else {
    read_hot<<<blocks, threads, 0, s>>>(hot, hot_bytes / 16, out);
  }
  if (!std::strcmp(c, "reset")) report("reset persisting lines", cudaCtxResetPersistingL2Cache());
  stream_big<<<blocks, threads, 0, s>>>(big, big_bytes / 16, out);
  reread_hot<<<blocks, threads, 0, s>>>(hot, hot_bytes / 16, out);
  report("synchronize", cudaStreamSynchronize(s));
  return 0;
}
