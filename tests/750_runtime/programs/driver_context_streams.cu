// Streams, events and functions belong to the context that made them: what the driver API
// answers when a program uses one of A's with context B current, or A's and B's together.
// driver_context_streams.expected is an H200's output.
// nvcc flags: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "process_helpers.h"

#define SHOW(call) std::printf("%s: %s\n", #call, cu_name(call))

static const char* kPtx =
    ".version 7.0\n"
    ".target sm_50\n"
    ".address_size 64\n"
    ".visible .entry put(.param .u64 p, .param .u32 v)\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.param.u32 %r1, [v];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  st.global.u32 [%rd2], %r1;\n"
    "  ret;\n"
    "}\n";

struct Owned {
  CUcontext ctx = nullptr;
  CUstream stream = nullptr;
  CUevent event = nullptr;
  CUmodule module = nullptr;
  CUfunction put = nullptr;
  CUdeviceptr word = 0;
};

static void make(Owned& o, CUdevice dev, const char* name) {
  std::printf("-- context %s\n", name);
  SHOW(cuCtxCreate(&o.ctx, nullptr, 0, dev));
  SHOW(cuStreamCreate(&o.stream, CU_STREAM_NON_BLOCKING));
  SHOW(cuEventCreate(&o.event, CU_EVENT_DEFAULT));
  SHOW(cuModuleLoadData(&o.module, kPtx));
  SHOW(cuModuleGetFunction(&o.put, o.module, "put"));
  SHOW(cuMemAlloc(&o.word, 4));
  SHOW(cuMemsetD32(o.word, 0, 1));
}

static unsigned read_word(CUdeviceptr p) {
  unsigned v = 0;
  cuMemcpyDtoH(&v, p, 4);
  return v;
}

int main() {
  CUdevice dev;
  SHOW(cuInit(0));
  SHOW(cuDeviceGet(&dev, 0));
  Owned a, b;
  make(a, dev, "A");
  make(b, dev, "B");  // B is current from here on

  std::printf("-- A's stream and event with B current\n");
  CUcontext of = nullptr;
  SHOW(cuStreamGetCtx(a.stream, &of));
  std::printf("A's stream reports A: %d\n", of == a.ctx);
  SHOW(cuStreamQuery(a.stream));
  SHOW(cuStreamSynchronize(a.stream));
  SHOW(cuEventRecord(a.event, a.stream));
  SHOW(cuEventSynchronize(a.event));
  SHOW(cuEventQuery(a.event));  // after the synchronisation: done on any GPU
  SHOW(cuStreamWaitEvent(b.stream, a.event, 0));
  SHOW(cuStreamWaitEvent(a.stream, b.event, 0));

  std::printf("-- an event recorded on another context's stream\n");
  SHOW(cuEventRecord(a.event, b.stream));
  SHOW(cuEventRecord(b.event, a.stream));
  SHOW(cuEventRecord(b.event, b.stream));
  SHOW(cuEventSynchronize(b.event));
  float ms = -1;
  CUresult r = cuEventElapsedTime(&ms, a.event, b.event);
  std::printf("cuEventElapsedTime(A's event, B's event): %s\n", cu_name(r));

  std::printf("-- launches that mix contexts (B current)\n");
  unsigned v = 5;
  void* args_b[] = {&b.word, &v};
  SHOW(cuLaunchKernel(b.put, 1, 1, 1, 1, 1, 1, 0, a.stream, args_b, nullptr));
  SHOW(cuCtxSynchronize());
  std::printf("B's word after B's kernel on A's stream: %u\n", read_word(b.word));
  v = 6;
  void* args_a[] = {&a.word, &v};
  SHOW(cuLaunchKernel(a.put, 1, 1, 1, 1, 1, 1, 0, b.stream, args_a, nullptr));
  SHOW(cuCtxSynchronize());
  v = 7;
  SHOW(cuLaunchKernel(a.put, 1, 1, 1, 1, 1, 1, 0, a.stream, args_a, nullptr));
  SHOW(cuCtxSynchronize());
  v = 8;
  SHOW(cuLaunchKernel(a.put, 1, 1, 1, 1, 1, 1, 0, nullptr, args_a, nullptr));
  SHOW(cuCtxSynchronize());
  SHOW(cuCtxPushCurrent(a.ctx));
  SHOW(cuCtxSynchronize());
  std::printf("A's word: %u\n", read_word(a.word));
  CUcontext popped = nullptr;
  SHOW(cuCtxPopCurrent(&popped));

  std::printf("-- copies and memsets on another context's stream (B current)\n");
  unsigned host = 9;
  SHOW(cuMemcpyHtoDAsync(b.word, &host, 4, a.stream));
  SHOW(cuMemsetD32Async(b.word, 10, 1, a.stream));
  SHOW(cuStreamSynchronize(a.stream));
  std::printf("B's word: %u\n", read_word(b.word));

  CUcontext null_of = nullptr;
  SHOW(cuStreamGetCtx(nullptr, &null_of));
  std::printf("the null stream reports B: %d\n", null_of == b.ctx);

  std::printf("-- a stream and an event the runtime makes while B is current\n");
  cudaStream_t rs = nullptr;
  cudaEvent_t re = nullptr;
  std::printf("cudaStreamCreate: %s\n", cudaGetErrorName(cudaStreamCreate(&rs)));
  std::printf("cudaEventCreate: %s\n", cudaGetErrorName(cudaEventCreate(&re)));
  CUcontext rs_of = nullptr;
  SHOW(cuStreamGetCtx(reinterpret_cast<CUstream>(rs), &rs_of));
  std::printf("the runtime's stream reports B: %d\n", rs_of == b.ctx);
  v = 11;
  SHOW(cuLaunchKernel(a.put, 1, 1, 1, 1, 1, 1, 0, reinterpret_cast<CUstream>(rs), args_a, nullptr));
  v = 12;
  SHOW(cuLaunchKernel(b.put, 1, 1, 1, 1, 1, 1, 0, reinterpret_cast<CUstream>(rs), args_b, nullptr));
  SHOW(cuEventRecord(reinterpret_cast<CUevent>(re), a.stream));
  SHOW(cuEventRecord(reinterpret_cast<CUevent>(re), reinterpret_cast<CUstream>(rs)));
  std::printf("cudaStreamSynchronize: %s\n", cudaGetErrorName(cudaStreamSynchronize(rs)));
  std::printf("B's word: %u\n", read_word(b.word));
  std::printf("cudaEventDestroy: %s\n", cudaGetErrorName(cudaEventDestroy(re)));
  std::printf("cudaStreamDestroy: %s\n", cudaGetErrorName(cudaStreamDestroy(rs)));

  std::printf("-- destroying A's stream and event with B current\n");
  SHOW(cuStreamDestroy(a.stream));
  SHOW(cuEventDestroy(a.event));
  SHOW(cuStreamDestroy(b.stream));
  SHOW(cuEventDestroy(b.event));
  SHOW(cuCtxDestroy(a.ctx));
  SHOW(cuCtxDestroy(b.ctx));

  std::printf("-- the runtime: a pool on a device that is not there\n");
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 99;
  cudaMemPool_t pool = nullptr;
  cudaError_t e = cudaMemPoolCreate(&pool, &props);
  std::printf("cudaMemPoolCreate(device 99): %s\n", cudaGetErrorName(e));
  props.location.id = -1;
  e = cudaMemPoolCreate(&pool, &props);
  std::printf("cudaMemPoolCreate(device -1): %s\n", cudaGetErrorName(e));
  return 0;
}
