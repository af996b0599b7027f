// Virtual memory management through the driver API, mixed with the runtime API as programs
// mix them: physical allocations (cuMemCreate), address reservations, mappings end to end,
// access, a copy and kernels over two mappings, one allocation mapped at two addresses,
// handles released while mapped and retained from an address, and the refusals. Prints
// only what does not depend on where the addresses land.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

__global__ void fill(int* p, int n, int v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

__global__ void add_one(int* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

static const char* name_of(CUresult r) {
  const char* n = nullptr;
  cuGetErrorName(r, &n);
  return n ? n : "?";
}

int main() {
  cudaFree(0);  // the primary context, current on this thread
  CUdevice dev;
  cuCtxGetDevice(&dev);
  int vmm = 0;
  cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev);
  std::printf("virtual memory management supported: %d\n", vmm);

  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  size_t g = 0, rec = 0;
  std::printf("granularity: %s", name_of(cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM)));
  cuMemGetAllocationGranularity(&rec, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
  std::printf(" minimum %zu recommended %zu\n", g, rec);
  CUmemAllocationProp bad = prop;
  bad.type = CU_MEM_ALLOCATION_TYPE_INVALID;
  size_t unused = 0;
  std::printf("granularity of an invalid type: %s\n",
              name_of(cuMemGetAllocationGranularity(&unused, &bad, CU_MEM_ALLOC_GRANULARITY_MINIMUM)));
  bad = prop;
  bad.location.id = 7;
  std::printf("granularity on device 7: %s\n",
              name_of(cuMemGetAllocationGranularity(&unused, &bad, CU_MEM_ALLOC_GRANULARITY_MINIMUM)));

  size_t free0 = 0, total = 0;
  cuMemGetInfo(&free0, &total);
  CUmemGenericAllocationHandle h1 = 0, h2 = 0, h3 = 0;
  std::printf("create half a granule: %s\n", name_of(cuMemCreate(&h3, g / 2, &prop, 0)));
  std::printf("create with flags 1: %s\n", name_of(cuMemCreate(&h3, g, &prop, 1)));
  std::printf("create larger than the device: %s\n", name_of(cuMemCreate(&h3, (total / g + 1) * g, &prop, 0)));
  std::printf("create 2 granules: %s\n", name_of(cuMemCreate(&h1, 2 * g, &prop, 0)));
  std::printf("create 1 granule: %s\n", name_of(cuMemCreate(&h2, g, &prop, 0)));
  size_t free1 = 0;
  cuMemGetInfo(&free1, &total);
  std::printf("free memory fell by at least 3 granules: %s\n", free0 - free1 >= 3 * g ? "yes" : "no");
  CUmemAllocationProp got = {};
  std::printf("properties: %s", name_of(cuMemGetAllocationPropertiesFromHandle(&got, h1)));
  std::printf(" type %d location %d/%d handle types %d compression %d\n", int(got.type), int(got.location.type),
              got.location.id, int(got.requestedHandleTypes), int(got.allocFlags.compressionType));

  CUdeviceptr va = 0, va2 = 0, other = 0;
  std::printf("reserve 4 granules: %s", name_of(cuMemAddressReserve(&va, 4 * g, 0, 0, 0)));
  std::printf(", aligned to the granularity: %s\n", va % g == 0 ? "yes" : "no");
  std::printf("reserve with alignment 3: %s\n", name_of(cuMemAddressReserve(&other, 4 * g, 3, 0, 0)));
  std::printf("reserve 2 granules: %s\n", name_of(cuMemAddressReserve(&va2, 2 * g, 0, 0, 0)));
  std::printf("the reservations are apart: %s\n", va2 >= va + 4 * g || va2 + 2 * g <= va ? "yes" : "no");

  std::printf("map 2 granules at the start: %s\n", name_of(cuMemMap(va, 2 * g, 0, h1, 0)));
  std::printf("map 1 granule after them: %s\n", name_of(cuMemMap(va + 2 * g, g, 0, h2, 0)));
  std::printf("map over a mapping: %s\n", name_of(cuMemMap(va + g, g, 0, h2, 0)));
  std::printf("map more than the allocation: %s\n", name_of(cuMemMap(va2, 2 * g, 0, h2, 0)));
  std::printf("map half a granule: %s\n", name_of(cuMemMap(va + 3 * g, g / 2, 0, h2, 0)));

  CUmemLocation here = {CU_MEM_LOCATION_TYPE_DEVICE, dev};
  unsigned long long flags = 99;
  std::printf("access before cuMemSetAccess: %s", name_of(cuMemGetAccess(&flags, &here, va)));
  std::printf(" flags %llu\n", flags);
  CUmemAccessDesc rw = {};
  rw.location = here;
  rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  std::printf("set access past the mappings: %s\n", name_of(cuMemSetAccess(va, 4 * g, &rw, 1)));
  CUmemAccessDesc elsewhere = rw;
  elsewhere.location.id = 7;
  std::printf("set access for device 7: %s\n", name_of(cuMemSetAccess(va, 3 * g, &elsewhere, 1)));
  std::printf("set access over both mappings: %s\n", name_of(cuMemSetAccess(va, 3 * g, &rw, 1)));
  flags = 99;
  std::printf("access after: %s", name_of(cuMemGetAccess(&flags, &here, va + 2 * g + 8)));
  std::printf(" flags %llu\n", flags);

  // One copy and one kernel across the boundary between the two mappings.
  const int n = int(3 * g / sizeof(int));
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = -i;
  int* p = reinterpret_cast<int*>(va);
  std::printf("copy 3 granules in: %s\n", cudaGetErrorName(cudaMemcpy(p, host.data(), 3 * g, cudaMemcpyHostToDevice)));
  fill<<<(n + 255) / 256, 256>>>(p, n, 5);
  std::printf("fill: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  std::vector<int> back(n);
  std::printf("copy out: %s", cudaGetErrorName(cudaMemcpy(back.data(), p, 3 * g, cudaMemcpyDeviceToHost)));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += back[i] != 5 + i;
  std::printf(", %d of %d ints wrong\n", wrong, n);

  // h1 mapped a second time: its bytes have two addresses.
  std::printf("map the first allocation again: %s\n", name_of(cuMemMap(va2, 2 * g, 0, h1, 0)));
  std::printf("set its access: %s\n", name_of(cuMemSetAccess(va2, 2 * g, &rw, 1)));
  int* q = reinterpret_cast<int*>(va2);
  add_one<<<(n * 2 / 3 + 255) / 256, 256>>>(q, n * 2 / 3);
  std::printf("add one through the second address: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaMemcpy(back.data(), p, 3 * g, cudaMemcpyDeviceToHost);
  wrong = 0;
  for (int i = 0; i < n; ++i) wrong += back[i] != 5 + i + (i < n * 2 / 3 ? 1 : 0);
  std::printf("seen through the first: %d ints wrong\n", wrong);
  std::printf("cudaFree of a mapping: %s\n", cudaGetErrorName(cudaFree(p)));
  cudaGetLastError();

  // Handles released while mapped: the memory stays until its last mapping goes.
  std::printf("release both handles: %s %s\n", name_of(cuMemRelease(h1)), name_of(cuMemRelease(h2)));
  cudaMemcpy(back.data(), p + n - 4, 16, cudaMemcpyDeviceToHost);
  std::printf("still mapped, last int %d\n", back[3]);
  CUmemGenericAllocationHandle again = 0;
  std::printf("retain from an address: %s", name_of(cuMemRetainAllocationHandle(&again, p + n - 1)));
  got = {};
  cuMemGetAllocationPropertiesFromHandle(&got, again);
  std::printf(", type %d, released: %s\n", int(got.type), name_of(cuMemRelease(again)));

  std::printf("unmap part of a mapping: %s\n", name_of(cuMemUnmap(va, g)));
  std::printf("unmap the second address: %s\n", name_of(cuMemUnmap(va2, 2 * g)));
  std::printf("free a reservation with memory mapped: %s\n", name_of(cuMemAddressFree(va, 4 * g)));
  std::printf("unmap both mappings at once: %s\n", name_of(cuMemUnmap(va, 3 * g)));
  std::printf("access after unmapping: %s\n", name_of(cuMemGetAccess(&flags, &here, va)));
  size_t free2 = 0;
  cuMemGetInfo(&free2, &total);
  std::printf("free memory back: %s\n", free2 >= free0 ? "yes" : "no");
  std::printf("free the reservations: %s %s\n", name_of(cuMemAddressFree(va, 4 * g)),
              name_of(cuMemAddressFree(va2, 2 * g)));
  std::printf("free one again: %s\n", name_of(cuMemAddressFree(va, 4 * g)));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
