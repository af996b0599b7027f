// Stream capture modes: which calls a capture in cudaStreamCaptureModeGlobal,
// ThreadLocal or Relaxed lets this thread (and another thread) make while it records, what
// a refused call does to the capture, and cudaThreadExchangeStreamCaptureMode, which
// changes this thread's mode. What it prints on a real GPU is capture_modes.expected.
// nvcc flags: -cudart shared
#include <cuda_runtime.h>

#include <cstdio>
#include <functional>
#include <thread>

__global__ void add(int* p) { p[threadIdx.x] += 1; }

static const char* mode_name(cudaStreamCaptureMode m) {
  return m == cudaStreamCaptureModeGlobal ? "global" : m == cudaStreamCaptureModeThreadLocal ? "thread-local" : "relaxed";
}

static int* dev = nullptr;
static int* pinned = nullptr;
static cudaStream_t other = nullptr;
static cudaEvent_t done = nullptr;
static void* spare_dev[8];
static void* spare_host[8];
static int next_dev = 0, next_host = 0;

// Begins a capture in `mode`, makes `call` on this thread (or another), and prints its
// result, the capture's status after it and what ending the capture gives.
static void probe(cudaStreamCaptureMode mode, const char* what, const std::function<cudaError_t()>& call,
                  bool on_other_thread = false) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaStreamBeginCapture(s, mode);
  add<<<1, 32, 0, s>>>(dev);
  cudaError_t e = cudaSuccess;
  if (on_other_thread) {
    std::thread t([&] { e = call(); });
    t.join();
  } else {
    e = call();
  }
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  cudaError_t q = cudaStreamIsCapturing(s, &st);
  cudaGraph_t g = nullptr;
  cudaError_t end = cudaStreamEndCapture(s, &g);
  std::printf("%-12s %-40s %-36s status %d (%s), end %s, graph %s\n", mode_name(mode), what, cudaGetErrorName(e), int(st),
              cudaGetErrorName(q), cudaGetErrorName(end), g ? "yes" : "no");
  if (g) cudaGraphDestroy(g);
  cudaGetLastError();
  cudaStreamDestroy(s);
}

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  cudaMalloc(&dev, 4096);
  cudaMallocHost(&pinned, 4096);
  cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking);
  cudaEventCreate(&done);
  cudaEventRecord(done, other);
  for (int i = 0; i < 8; ++i) {
    cudaMalloc(&spare_dev[i], 256);
    cudaMallocHost(&spare_host[i], 256);
  }
  cudaDeviceSynchronize();
  for (cudaStreamCaptureMode mode :
       {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeRelaxed}) {
    probe(mode, "cudaMalloc", [] {
      void* p = nullptr;
      cudaError_t e = cudaMalloc(&p, 256);
      if (p) cudaFree(p);
      return e;
    });
    probe(mode, "cudaMalloc on another thread", [] {
      void* p = nullptr;
      cudaError_t e = cudaMalloc(&p, 256);
      if (p) cudaFree(p);
      return e;
    }, true);
    probe(mode, "cudaMallocHost", [] {
      void* p = nullptr;
      cudaError_t e = cudaMallocHost(&p, 256);
      if (p) cudaFreeHost(p);
      return e;
    });
    probe(mode, "cudaMallocPitch", [] {
      void* p = nullptr;
      size_t pitch = 0;
      cudaError_t e = cudaMallocPitch(&p, &pitch, 100, 4);
      if (p) cudaFree(p);
      return e;
    });
    probe(mode, "cudaHostAlloc", [] {
      void* p = nullptr;
      cudaError_t e = cudaHostAlloc(&p, 256, cudaHostAllocDefault);
      if (p) cudaFreeHost(p);
      return e;
    });
    probe(mode, "cudaFree", [] { return cudaFree(spare_dev[next_dev++]); });
    probe(mode, "cudaFreeHost", [] { return cudaFreeHost(spare_host[next_host++]); });
    probe(mode, "cudaMallocManaged", [] {
      void* p = nullptr;
      cudaError_t e = cudaMallocManaged(&p, 256);
      if (p) cudaFree(p);
      return e;
    });
    probe(mode, "cudaMemcpy device to host", [] {
      int h[4];
      return cudaMemcpy(h, dev, sizeof h, cudaMemcpyDeviceToHost);
    });
    probe(mode, "cudaMemset", [] { return cudaMemset(dev + 512, 0, 64); });
    probe(mode, "cudaMemcpyAsync on another stream", [] {
      return cudaMemcpyAsync(pinned, dev, 64, cudaMemcpyDeviceToHost, other);
    });
    probe(mode, "cudaStreamSynchronize(another stream)", [] { return cudaStreamSynchronize(other); });
    probe(mode, "cudaStreamQuery(another stream)", [] { return cudaStreamQuery(other); });
    probe(mode, "cudaEventQuery", [] { return cudaEventQuery(done); });
    probe(mode, "cudaEventSynchronize", [] { return cudaEventSynchronize(done); });
    probe(mode, "cudaDeviceSynchronize", [] { return cudaDeviceSynchronize(); });
    probe(mode, "cudaMemGetInfo", [] {
      size_t f, t;
      return cudaMemGetInfo(&f, &t);
    });
    probe(mode, "cudaFuncGetAttributes", [] {
      cudaFuncAttributes a;
      return cudaFuncGetAttributes(&a, add);
    });
  }

  std::printf("-- cudaThreadExchangeStreamCaptureMode\n");
  for (cudaStreamCaptureMode next : {cudaStreamCaptureModeRelaxed, cudaStreamCaptureModeThreadLocal,
                                     cudaStreamCaptureModeGlobal, static_cast<cudaStreamCaptureMode>(7)}) {
    cudaStreamCaptureMode m = next;
    const cudaError_t e = cudaThreadExchangeStreamCaptureMode(&m);
    std::printf("exchange to %d: %s, was %d\n", int(next), cudaGetErrorName(e), int(m));
  }
  // A global capture, with this thread switched to relaxed for one cudaMalloc.
  probe(cudaStreamCaptureModeGlobal, "cudaMalloc, this thread relaxed", [] {
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    cudaThreadExchangeStreamCaptureMode(&mode);
    void* p = nullptr;
    cudaError_t e = cudaMalloc(&p, 256);
    cudaThreadExchangeStreamCaptureMode(&mode);
    if (p) cudaFree(p);
    return e;
  });
  // The same, another thread relaxed while this one captures globally.
  probe(cudaStreamCaptureModeGlobal, "cudaMalloc, the other thread relaxed", [] {
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    cudaThreadExchangeStreamCaptureMode(&mode);
    void* p = nullptr;
    cudaError_t e = cudaMalloc(&p, 256);
    if (p) cudaFree(p);
    return e;
  }, true);
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
