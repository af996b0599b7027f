// What a stream says about itself: its flags, priority, id and device, through the runtime
// and the driver API, for streams made with each flag and priority and for the special
// streams (null, cudaStreamLegacy, cudaStreamPerThread). stream_properties.expected is an
// H200's output.
// nvcc flags: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "process_helpers.h"

static const char* rt_name(cudaError_t e) { return cudaGetErrorName(e); }

static void show_stream(const char* what, cudaStream_t s) {
  unsigned flags = 99;
  int priority = 99, device = 99;
  cudaError_t ef = cudaStreamGetFlags(s, &flags);
  cudaError_t ep = cudaStreamGetPriority(s, &priority);
  cudaError_t ed = cudaStreamGetDevice(s, &device);
  std::printf("%s: flags %s %u, priority %s %d, device %s %d\n", what, rt_name(ef), flags, rt_name(ep), priority,
              rt_name(ed), device);
  CUstream cs = reinterpret_cast<CUstream>(s);
  unsigned cflags = 99;
  int cpriority = 99;
  CUdevice cdevice = 99;
  CUresult cf = cuStreamGetFlags(cs, &cflags);
  CUresult cp = cuStreamGetPriority(cs, &cpriority);
  CUresult cd = cuStreamGetDevice(cs, &cdevice);
  std::printf("  driver: flags %s %u, priority %s %d, device %s %d\n", cu_name(cf), cflags, cu_name(cp), cpriority,
              cu_name(cd), int(cdevice));
}

int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);  // what was printed before a crash stays
  CHECK_CUDA(cudaFree(nullptr));  // the primary context, current
  int least = 99, greatest = 99;
  CHECK_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  std::printf("priority range: least %d, greatest %d\n", least, greatest);
  CHECK_CUDA(cudaDeviceGetStreamPriorityRange(nullptr, &greatest));
  CHECK_CUDA(cudaDeviceGetStreamPriorityRange(&least, nullptr));
  int cleast = 99, cgreatest = 99;
  CHECK_CU(cuCtxGetStreamPriorityRange(&cleast, &cgreatest));
  std::printf("driver priority range: least %d, greatest %d\n", cleast, cgreatest);

  show_stream("null", nullptr);
  show_stream("cudaStreamLegacy", cudaStreamLegacy);
  show_stream("cudaStreamPerThread", cudaStreamPerThread);

  cudaStream_t plain, nonblocking, high, low, beyond_high, beyond_low;
  CHECK_CUDA(cudaStreamCreate(&plain));
  CHECK_CUDA(cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking));
  CHECK_CUDA(cudaStreamCreateWithPriority(&high, cudaStreamNonBlocking, greatest));
  CHECK_CUDA(cudaStreamCreateWithPriority(&low, cudaStreamDefault, least));
  CHECK_CUDA(cudaStreamCreateWithPriority(&beyond_high, cudaStreamDefault, greatest - 10));
  CHECK_CUDA(cudaStreamCreateWithPriority(&beyond_low, cudaStreamDefault, least + 10));
  show_stream("cudaStreamCreate", plain);
  show_stream("cudaStreamNonBlocking", nonblocking);
  show_stream("priority greatest, non-blocking", high);
  show_stream("priority least", low);
  show_stream("priority greatest - 10", beyond_high);
  show_stream("priority least + 10", beyond_low);
  cudaStream_t extra = nullptr;  // flags other than 0 and 1
  cudaError_t e2 = cudaStreamCreateWithFlags(&extra, 2);
  std::printf("create with flags 2: %s\n", rt_name(e2));
  if (e2 == cudaSuccess) CHECK_CUDA(cudaStreamDestroy(extra));
  e2 = cudaStreamCreateWithPriority(&extra, 2, 0);
  std::printf("create with priority flags 2: %s\n", rt_name(e2));
  if (e2 == cudaSuccess) CHECK_CUDA(cudaStreamDestroy(extra));

  // Ids: unique per stream and increasing in the order the streams were made.
  unsigned long long id_plain = 0, id_nonblocking = 0, id_high = 0, id_null = 0, id_legacy = 0, id_per_thread = 0;
  CHECK_CUDA(cudaStreamGetId(plain, &id_plain));
  CHECK_CUDA(cudaStreamGetId(nonblocking, &id_nonblocking));
  CHECK_CUDA(cudaStreamGetId(high, &id_high));
  std::printf("ids: nonblocking - plain %lld, high - nonblocking %lld\n", (long long)(id_nonblocking - id_plain),
              (long long)(id_high - id_nonblocking));
  std::printf("null id: %s", rt_name(cudaStreamGetId(nullptr, &id_null)));
  std::printf(", legacy id: %s", rt_name(cudaStreamGetId(cudaStreamLegacy, &id_legacy)));
  std::printf(", per-thread id: %s\n", rt_name(cudaStreamGetId(cudaStreamPerThread, &id_per_thread)));
  std::printf("null id == legacy id: %d, per-thread id == legacy id: %d, plain id > legacy id: %d\n",
              int(id_null == id_legacy), int(id_per_thread == id_legacy), int(id_plain > id_legacy));
  unsigned long long cid = 0;
  CHECK_CU(cuStreamGetId(reinterpret_cast<CUstream>(plain), &cid));
  std::printf("driver id == runtime id: %d\n", int(cid == id_plain));

  // Null result pointers.
  std::printf("flags into null: %s\n", rt_name(cudaStreamGetFlags(plain, nullptr)));
  std::printf("priority into null: %s\n", rt_name(cudaStreamGetPriority(plain, nullptr)));
  std::printf("id into null: %s\n", rt_name(cudaStreamGetId(plain, nullptr)));
  // (cudaStreamGetDevice into null crashes an H200's runtime: not asked.)
  std::printf("driver flags into null: %s\n", cu_name(cuStreamGetFlags(reinterpret_cast<CUstream>(plain), nullptr)));

  // A stream the driver API makes, with its flags and priority.
  CUstream ds;
  CHECK_CU(cuStreamCreateWithPriority(&ds, CU_STREAM_NON_BLOCKING, greatest));
  show_stream("cuStreamCreateWithPriority", reinterpret_cast<cudaStream_t>(ds));
  CHECK_CU(cuStreamDestroy(ds));

  for (cudaStream_t s : {plain, nonblocking, high, low, beyond_high, beyond_low}) CHECK_CUDA(cudaStreamDestroy(s));
  std::printf("done\n");
  return 0;
}
