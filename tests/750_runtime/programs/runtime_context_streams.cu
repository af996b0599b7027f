// The runtime API with streams and events of two contexts: the primary context and one the
// driver API made (B). What launches, records, elapsed times and waits answer when they mix
// the two. runtime_context_streams.expected is an H200's output.
// nvcc flags: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "process_helpers.h"

__global__ void put(int* p, int v) { *p = v; }

#define SHOW(call) std::printf("%s: %s\n", #call, cudaGetErrorName(call))

int main() {
  int* word = nullptr;
  SHOW(cudaMalloc(&word, sizeof(int)));  // the primary context, current from here
  cudaStream_t sp, sb;
  cudaEvent_t ep, eb;
  SHOW(cudaStreamCreate(&sp));
  SHOW(cudaEventCreate(&ep));

  CUdevice dev;
  CHECK_CU(cuDeviceGet(&dev, 0));
  CUcontext b = nullptr;
  CHECK_CU(cuCtxCreate(&b, nullptr, 0, dev));  // B current
  std::printf("-- made while B is current\n");
  SHOW(cudaStreamCreate(&sb));
  SHOW(cudaEventCreate(&eb));
  int* word_b = nullptr;
  SHOW(cudaMalloc(&word_b, sizeof(int)));

  std::printf("-- B current\n");
  put<<<1, 1, 0, sb>>>(word_b, 1);
  std::printf("launch on B's stream: %s\n", cudaGetErrorName(cudaGetLastError()));
  put<<<1, 1, 0, sp>>>(word, 2);
  std::printf("launch on the primary's stream: %s\n", cudaGetErrorName(cudaGetLastError()));
  SHOW(cudaEventRecord(eb, sb));
  SHOW(cudaEventRecord(ep, sb));
  SHOW(cudaEventRecord(eb, sp));
  SHOW(cudaEventRecord(ep, sp));
  SHOW(cudaStreamSynchronize(sp));
  SHOW(cudaStreamSynchronize(sb));
  float ms = -1;
  std::printf("elapsed time between the primary's and B's events: %s\n",
              cudaGetErrorName(cudaEventElapsedTime(&ms, ep, eb)));
  SHOW(cudaStreamWaitEvent(sb, ep, 0));
  SHOW(cudaDeviceSynchronize());
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));

  CUcontext popped = nullptr;
  CHECK_CU(cuCtxPopCurrent(&popped));
  std::printf("-- B popped (the primary is used again)\n");
  put<<<1, 1, 0, sb>>>(word_b, 3);
  std::printf("launch on B's stream: %s\n", cudaGetErrorName(cudaGetLastError()));
  put<<<1, 1, 0, sp>>>(word, 4);
  std::printf("launch on the primary's stream: %s\n", cudaGetErrorName(cudaGetLastError()));
  SHOW(cudaEventRecord(ep, sb));
  SHOW(cudaEventRecord(eb, sp));
  SHOW(cudaDeviceSynchronize());
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  int v = 0;
  SHOW(cudaMemcpy(&v, word, sizeof v, cudaMemcpyDeviceToHost));
  std::printf("the primary's word: %d\n", v);
  SHOW(cudaMemcpy(&v, word_b, sizeof v, cudaMemcpyDeviceToHost));
  std::printf("B's word: %d\n", v);

  SHOW(cudaStreamDestroy(sb));
  SHOW(cudaEventDestroy(eb));
  SHOW(cudaStreamDestroy(sp));
  SHOW(cudaEventDestroy(ep));
  CHECK_CU(cuCtxDestroy(b));
  SHOW(cudaFree(word));
  return 0;
}
