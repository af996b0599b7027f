// cudaLaunchKernelEx (cudaLaunchKernelExC underneath): launches with no attributes, with
// programmatic stream serialization (what Thrust and CUB ask for), a priority, a carveout
// preference, and the launch errors. launch_ex.expected is the program's output on an H100.
#include <cstdio>

static void say(const char* what, cudaError_t e) {
  printf("%s: %s\n", what, cudaGetErrorName(e));
  cudaGetLastError();
}

__global__ void fill(int* p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

__global__ void scale(int* p, int n, int f) {
  extern __shared__ int tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? p[i] : 0;
  __syncthreads();
  if (i < n) p[i] = tile[threadIdx.x] * f;
}

int main() {
  const int n = 1 << 16;
  int* d;
  cudaMalloc((void**)&d, n * sizeof(int));
  cudaStream_t s;
  cudaStreamCreate(&s);

  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(n / 128);
  cfg.blockDim = dim3(128);
  cfg.stream = s;
  say("no attributes", cudaLaunchKernelEx(&cfg, fill, d, n, 3));

  cudaLaunchAttribute attrs[3];
  attrs[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attrs[0].val.programmaticStreamSerializationAllowed = 1;
  attrs[1].id = cudaLaunchAttributePriority;
  attrs[1].val.priority = 0;
  attrs[2].id = cudaLaunchAttributeIgnore;
  cfg.attrs = attrs;
  cfg.numAttrs = 3;
  cfg.dynamicSmemBytes = 128 * sizeof(int);
  say("serialization, priority, ignore", cudaLaunchKernelEx(&cfg, scale, d, n, 2));

  attrs[0].id = cudaLaunchAttributePreferredSharedMemoryCarveout;
  attrs[0].val.sharedMemCarveout = 50;
  cfg.numAttrs = 1;
  say("carveout 50", cudaLaunchKernelEx(&cfg, scale, d, n, 5));
  say("cudaStreamSynchronize", cudaStreamSynchronize(s));

  static int h[n];
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += h[i];
  printf("h[0] %d h[%d] %d sum %lld\n", h[0], n - 1, h[n - 1], sum);

  // The untyped form, with the arguments as an array of pointers.
  int count = n, value = 11;
  void* args[] = {&d, &count, &value};
  cfg.numAttrs = 0;
  cfg.dynamicSmemBytes = 0;
  say("cudaLaunchKernelExC", cudaLaunchKernelExC(&cfg, (const void*)fill, args));
  cudaMemcpy(h, d, 4 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("h[0..3] %d %d %d %d\n", h[0], h[1], h[2], h[3]);

  // Errors.
  say("not a kernel", cudaLaunchKernelExC(&cfg, (const void*)&main, args));
  cfg.blockDim = dim3(2048);
  say("2048 threads per block", cudaLaunchKernelExC(&cfg, (const void*)fill, args));
  cfg.blockDim = dim3(128);
  cfg.gridDim = dim3(0);
  say("empty grid", cudaLaunchKernelExC(&cfg, (const void*)fill, args));
  cfg.gridDim = dim3(4);
  cfg.dynamicSmemBytes = 1 << 20;
  say("1 MB of dynamic shared memory", cudaLaunchKernelExC(&cfg, (const void*)fill, args));
  say("cudaDeviceSynchronize", cudaDeviceSynchronize());
  cudaStreamDestroy(s);
  cudaFree(d);
  return 0;
}
