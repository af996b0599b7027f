// nvcc flags: -lcuda
// Stream-ordered allocation through the driver API: cuMemAllocAsync/cuMemFreeAsync from the
// device's default pool and from a pool made with cuMemPoolCreate, the pools' attributes,
// access, trimming and the device's current pool, a pool of one API used with the other's
// calls, and the error codes of bad arguments. drv_mempool.expected is the program's output
// on an H200 (docs/measurements/h200_drv_mempool_2026-11-30.txt).
#include <cuda.h>
#include <cuda_runtime.h>

#include <climits>
#include <cstdio>

#include "process_helpers.h"

#define SHOW(x) printf("%-72s %s\n", #x, cu_name(x))

__global__ void fill(int* p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

static unsigned long long attr(CUmemoryPool pool, CUmemPool_attribute a) {
  unsigned long long v = 0;
  CHECK_CU(cuMemPoolGetAttribute(pool, a, &v));
  return v;
}

static void usage(const char* when, CUmemoryPool pool) {
  printf("%s: used %llu (high %llu) reserved %llu (high %llu)\n", when, attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT),
         attr(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH), attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT),
         attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH));
}

static long long sum_of(CUdeviceptr d, int n) {
  static int h[1 << 20];
  CHECK_CU(cuMemcpyDtoH(h, d, n * sizeof(int)));
  long long s = 0;
  for (int i = 0; i < n; ++i) s += h[i];
  return s;
}

int main() {
  CUmemoryPool pool = nullptr, current = nullptr;
  SHOW(cuDeviceGetDefaultMemPool(&pool, 0));  // before cuInit
  CHECK_CU(cuInit(0));
  CUdevice dev;
  CHECK_CU(cuDeviceGet(&dev, 0));
  int supported = -1;
  CHECK_CU(cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, dev));
  printf("memory pools supported %d\n", supported);
  CUdeviceptr early = 0;
  SHOW(cuMemAllocAsync(&early, 16, nullptr));  // no context yet
  CUcontext ctx;
  CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK_CU(cuCtxSetCurrent(ctx));

  SHOW(cuDeviceGetDefaultMemPool(&pool, dev));
  SHOW(cuDeviceGetMemPool(&current, dev));
  printf("current pool is the default: %d\n", pool == current);
  SHOW(cuDeviceGetDefaultMemPool(&pool, 7));
  SHOW(cuDeviceGetDefaultMemPool(nullptr, dev));
  unsigned long long threshold = 1;
  int reuse = -1;
  SHOW(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold));
  SHOW(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, &reuse));
  printf("release threshold %llu, follow event dependencies %d\n", threshold, reuse);
  usage("start", pool);

  CUstream s;
  CHECK_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  const int n = 1 << 20;
  CUdeviceptr a = 0, b = 0, c = 0;
  SHOW(cuMemAllocAsync(&a, n * sizeof(int), s));
  SHOW(cuMemAllocAsync(&b, 1000, s));
  SHOW(cuMemAllocAsync(&c, 3 << 20, s));
  usage("after three allocations", pool);
  fill<<<n / 256, 256, 0, (cudaStream_t)s>>>((int*)a, n, 7);
  SHOW(cuStreamSynchronize(s));
  printf("sum of a %lld\n", sum_of(a, n));
  SHOW(cuMemFreeAsync(c, s));
  usage("after freeing c", pool);
  SHOW(cuStreamSynchronize(s));
  usage("after the synchronize (threshold 0)", pool);

  // A freed block is reused by the next allocation of its size on the same stream.
  CUdeviceptr old_a = a;
  SHOW(cuMemFreeAsync(a, s));
  SHOW(cuMemAllocAsync(&a, n * sizeof(int), s));
  printf("same address after free and alloc on one stream: %d\n", a == old_a);
  SHOW(cuMemFreeAsync(a, s));
  SHOW(cuMemFreeAsync(b, s));
  SHOW(cuStreamSynchronize(s));
  usage("all freed, synchronized", pool);

  // With a high threshold, freed memory stays reserved until trimmed.
  threshold = ULLONG_MAX;
  SHOW(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold));
  SHOW(cuMemAllocAsync(&a, n * sizeof(int), s));
  SHOW(cuMemFreeAsync(a, s));
  SHOW(cuStreamSynchronize(s));
  usage("threshold max, freed, synchronized", pool);
  SHOW(cuMemPoolTrimTo(pool, 0));
  usage("trimmed", pool);
  unsigned long long zero = 0, one = 1;
  SHOW(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &zero));
  SHOW(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &zero));
  usage("high marks reset", pool);
  SHOW(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &one));
  SHOW(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &zero));
  SHOW(cuMemPoolGetAttribute(pool, (CUmemPool_attribute)99, &zero));
  threshold = 0;
  CHECK_CU(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold));

  // Errors.
  int x;
  SHOW(cuMemFreeAsync((CUdeviceptr)&x, s));
  CUdeviceptr huge = 0;
  SHOW(cuMemAllocAsync(&huge, 1ull << 50, s));
  printf("huge is 0: %d\n", huge == 0);
  SHOW(cuMemAllocAsync(nullptr, 16, s));
  huge = 1;
  SHOW(cuMemAllocAsync(&huge, 0, s));
  printf("0 bytes gives 0: %d\n", huge == 0);
  SHOW(cuMemFreeAsync(0, s));
  SHOW(cuMemAllocAsync(&a, 4096, s));
  SHOW(cuMemFreeAsync(a, s));
  SHOW(cuMemFreeAsync(a, s));  // twice
  SHOW(cuStreamSynchronize(s));

  // A pool the program creates.
  CUmemPoolProps props = {};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = 0;
  CUmemoryPool mine = nullptr, bad = nullptr;
  SHOW(cuMemPoolCreate(&bad, nullptr));
  props.allocType = CU_MEM_ALLOCATION_TYPE_INVALID;
  SHOW(cuMemPoolCreate(&bad, &props));
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.location.id = 7;
  SHOW(cuMemPoolCreate(&bad, &props));
  props.location.id = 0;
  SHOW(cuMemPoolCreate(&mine, &props));
  CUmemAccessDesc desc = {};
  desc.location = props.location;
  desc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  SHOW(cuMemPoolSetAccess(mine, &desc, 1));
  desc.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
  SHOW(cuMemPoolSetAccess(mine, &desc, 1));
  cudaMemAccessDesc rdesc = {};
  rdesc.location.type = cudaMemLocationTypeDevice;
  rdesc.location.id = 0;
  rdesc.flags = cudaMemAccessFlagsProtRead;
  printf("cudaMemPoolSetAccess(read only): %s\n",
         cudaGetErrorName(cudaMemPoolSetAccess((cudaMemPool_t)mine, &rdesc, 1)));
  CUmemAccess_flags flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
  CUmemLocation loc = props.location;
  SHOW(cuMemPoolGetAccess(&flags, mine, &loc));
  printf("access flags %d\n", int(flags));
  SHOW(cuMemAllocFromPoolAsync(&c, 2 << 20, mine, s));
  CUdeviceptr none = 1;
  SHOW(cuMemAllocFromPoolAsync(&none, 16, nullptr, s));
  printf("a failed allocation gives 0: %d\n", none == 0);
  fill<<<(n / 2) / 256, 256, 0, (cudaStream_t)s>>>((int*)c, n / 2, 1);
  printf("sum of c %lld\n", sum_of(c, n / 2));
  usage("own pool, one allocation", mine);
  usage("default pool meanwhile", pool);
  SHOW(cuMemFreeAsync(c, s));
  SHOW(cuStreamSynchronize(s));
  usage("own pool, freed", mine);

  // The device's current pool, and the runtime's calls on the driver's pools.
  SHOW(cuDeviceSetMemPool(dev, mine));
  CHECK_CU(cuDeviceGetMemPool(&current, dev));
  printf("current pool is mine: %d\n", current == mine);
  SHOW(cuMemAllocAsync(&a, 1 << 20, s));
  usage("own pool after cuMemAllocAsync", mine);
  void* r = nullptr;
  printf("cudaMallocFromPoolAsync(own pool): %s\n",
         cudaGetErrorName(cudaMallocFromPoolAsync(&r, 1 << 16, (cudaMemPool_t)mine, (cudaStream_t)s)));
  usage("own pool after the runtime's allocation", mine);
  SHOW(cuMemFreeAsync((CUdeviceptr)r, s));
  printf("cudaFreeAsync(driver allocation): %s\n", cudaGetErrorName(cudaFreeAsync((void*)a, (cudaStream_t)s)));
  SHOW(cuStreamSynchronize(s));
  usage("own pool, both freed", mine);
  cudaMemPool_t runtime_current = nullptr;
  cudaDeviceGetMemPool(&runtime_current, 0);
  printf("the runtime's current pool is mine: %d\n", (CUmemoryPool)runtime_current == mine);
  SHOW(cuDeviceSetMemPool(dev, pool));
  SHOW(cuMemPoolDestroy(pool));  // the default pool
  SHOW(cuMemPoolTrimTo(mine, 0));
  SHOW(cuMemPoolDestroy(mine));
  CHECK_CU(cuDeviceGetMemPool(&current, dev));
  printf("current pool is the default again: %d\n", current == pool);

  CHECK_CU(cuStreamDestroy(s));
  CHECK_CU(cuDevicePrimaryCtxRelease(dev));
  printf("done\n");
  return 0;
}
