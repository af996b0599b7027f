// When launched work runs relative to the host code around it. A kernel may start after
// the host code that follows its launch: one that waits for a flag the host sets after
// launching it (cuda-samples' UnifiedMemoryPerf holds a stream this way) finishes, and a
// device printf appears after host output printed before the next synchronising call.
// Modes (argv[1]):
//   all       (default) the latch, copies and events queued behind it, printf order
//   printf    printf order alone (with CUDA_LAUNCH_BLOCKING=1 the kernel's line comes first)
//   unsynced  a kernel that prints, and the program returns without waiting for it
// stream_order.expected is an H200's output of `all`.
#include <cstdio>
#include <cstring>

__global__ void wait_for_host(volatile unsigned* latch, unsigned* seen) {
  while (latch[0] < 1) {
  }
  *seen = latch[0];
}

__global__ void fill(int* out, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * k;
}

__global__ void hello(int tag) { printf("device: hello %d from thread %d\n", tag, threadIdx.x); }

static int check(const char* what, cudaError_t e) {
  printf("%s: %s\n", what, cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}

static int printf_order() {
  hello<<<1, 2>>>(1);
  printf("host: after the launch\n");
  fflush(stdout);
  int bad = check("cudaDeviceSynchronize", cudaDeviceSynchronize());
  printf("host: after cudaDeviceSynchronize\n");
  return bad;
}

static int latch_and_queue() {
  const int n = 1000;
  unsigned *latch = nullptr, *seen = nullptr;
  int *d = nullptr, *pinned = nullptr;
  int bad = 0;
  bad |= check("cudaMallocHost(latch)", cudaMallocHost(&latch, sizeof(unsigned)));
  bad |= check("cudaMalloc(seen)", cudaMalloc(&seen, sizeof(unsigned)));
  bad |= check("cudaMalloc(d)", cudaMalloc(&d, n * sizeof(int)));
  bad |= check("cudaMallocHost(pinned)", cudaMallocHost(&pinned, n * sizeof(int)));
  memset(pinned, 0xff, n * sizeof(int));
  cudaStream_t s;
  cudaEvent_t start, stop;
  bad |= check("cudaStreamCreate", cudaStreamCreate(&s));
  bad |= check("cudaEventCreate(start)", cudaEventCreate(&start));
  bad |= check("cudaEventCreate(stop)", cudaEventCreate(&stop));
  *latch = 0;
  // Everything below, up to the latch, is stream work: none of it may wait for the kernel.
  wait_for_host<<<1, 1, 0, s>>>(latch, seen);
  bad |= check("wait_for_host launch", cudaGetLastError());
  bad |= check("cudaEventRecord(start)", cudaEventRecord(start, s));
  fill<<<(n + 255) / 256, 256, 0, s>>>(d, n, 3);
  bad |= check("cudaMemcpyAsync(pinned <- d)", cudaMemcpyAsync(pinned, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  bad |= check("cudaEventRecord(stop)", cudaEventRecord(stop, s));
  bad |= check("cudaStreamWaitEvent", cudaStreamWaitEvent(s, stop, 0));
  printf("host: queued, pinned[999] before the latch %d\n", pinned[n - 1]);
  *latch = 1;
  bad |= check("cudaStreamSynchronize", cudaStreamSynchronize(s));
  unsigned got = 0;
  bad |= check("cudaMemcpy(seen)", cudaMemcpy(&got, seen, sizeof got, cudaMemcpyDeviceToHost));
  printf("wait_for_host saw latch %u\n", got);
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += pinned[i];
  printf("pinned[999] %d sum %ld\n", pinned[n - 1], sum);
  float ms = -1;
  bad |= check("cudaEventElapsedTime", cudaEventElapsedTime(&ms, start, stop));
  printf("fill and copy took simulated time > 0: %d\n", ms > 0);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(s);
  cudaFreeHost(latch);
  cudaFreeHost(pinned);
  cudaFree(seen);
  cudaFree(d);
  return bad;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "all";
  if (!strcmp(mode, "printf")) return printf_order();
  if (!strcmp(mode, "unsynced")) {
    hello<<<1, 1>>>(3);
    printf("host: returning without waiting\n");
    return 0;
  }
  int bad = latch_and_queue();
  bad |= printf_order();
  printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad;
}
