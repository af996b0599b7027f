// The driver API built with nvcc --default-stream per-thread (cuda.h then calls the *_ptds
// and *_ptsz entry points), host functions and callbacks in stream order, pointer
// attributes and the managed-memory hints. Usage: driver_streams KERNELS.ptx
#include <cuda.h>

#include <cstdio>
#include <vector>

static const char* name_of(CUresult r) {
  const char* n = nullptr;
  cuGetErrorName(r, &n);
  return n ? n : "?";
}

static int order = 0;
static void CUDA_CB host_fn(void* user) { static_cast<int*>(user)[0] = ++order; }
static void CUDA_CB callback(CUstream, CUresult status, void* user) {
  static_cast<int*>(user)[1] = ++order;
  static_cast<int*>(user)[2] = int(status);
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  cuInit(0);
  CUdevice dev;
  cuDeviceGet(&dev, 0);
  CUcontext ctx;
  cuCtxCreate(&ctx, nullptr, 0, dev);
  CUmodule m;
  std::printf("load: %s\n", name_of(cuModuleLoad(&m, argv[1])));
  CUfunction saxpy;
  cuModuleGetFunction(&saxpy, m, "saxpy");

  const int n = 256;
  std::vector<float> x(n, 1.0f), y(n, 0.0f);
  CUdeviceptr dx, dy;
  cuMemAlloc(&dx, n * sizeof(float));
  cuMemAlloc(&dy, n * sizeof(float));
  CUstream s;
  cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
  std::printf("HtoD async: %s\n", name_of(cuMemcpyHtoDAsync(dx, x.data(), n * sizeof(float), s)));
  std::printf("memset: %s\n", name_of(cuMemsetD32Async(dy, 0x40000000u, n, s)));  // 2.0f
  int nn = n;
  void* args[] = {&dy, &dx, &nn};
  std::printf("launch: %s\n", name_of(cuLaunchKernel(saxpy, 2, 1, 1, 128, 1, 1, 0, s, args, nullptr)));
  int seen[3] = {0, 0, -1};
  std::printf("host function: %s\n", name_of(cuLaunchHostFunc(s, host_fn, seen)));
  std::printf("callback: %s\n", name_of(cuStreamAddCallback(s, callback, seen, 0)));
  std::printf("synchronize: %s\n", name_of(cuStreamSynchronize(s)));
  std::printf("in order: host function %d, callback %d with status %d\n", seen[0], seen[1], seen[2]);
  cuMemcpyDtoH(y.data(), dy, n * sizeof(float));
  std::printf("y[0]=%g y[255]=%g\n", y[0], y[255]);
  std::printf("DtoD on the per-thread stream: %s\n", name_of(cuMemcpyDtoD(dx, dy, n * sizeof(float))));

  unsigned type = 0;
  CUdeviceptr back = 0;
  const CUresult rc = cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dx);
  std::printf("memory type of device memory: %s %u\n", name_of(rc), type);
  cuPointerGetAttribute(&back, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, dx);
  std::printf("device pointer is itself: %d\n", back == dx);
  void* pinned = nullptr;
  cuMemAllocHost(&pinned, 4096);
  cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CUdeviceptr(pinned));
  std::printf("memory type of pinned memory: %u\n", type);
  CUdeviceptr managed = 0;
  cuMemAllocManaged(&managed, 4096, CU_MEM_ATTACH_GLOBAL);
  int is_managed = -1;
  cuPointerGetAttribute(&is_managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, managed);
  std::printf("managed: %d\n", is_managed);
  int host_var = 0;
  std::printf("a stack variable: %s\n",
              name_of(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CUdeviceptr(&host_var))));
  CUmemLocation loc = {};
  loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
  loc.id = 0;
  std::printf("prefetch: %s\n", name_of(cuMemPrefetchAsync(managed, 4096, loc, 0, s)));
  std::printf("advise: %s\n", name_of(cuMemAdvise(managed, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc)));
  cuStreamDestroy(s);
  cuMemFreeHost(pinned);
  cuCtxDestroy(ctx);
  return 0;
}
