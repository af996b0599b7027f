// CUDA 13's pool calls by memory location (cudaMemGetDefaultMemPool, cudaMemGetMemPool,
// cudaMemSetMemPool) for a device location and pinned memory: the same pools as
// cudaDeviceGetDefaultMemPool / cudaDeviceGetMemPool / cudaDeviceSetMemPool, an allocation
// from the current one, and the errors of bad locations, types and pools. With "host" as
// its argument it asks for the host location's pools instead (printed by the test alone:
// warpsim does not model host or managed memory pools).
// mem_pool_locations.expected is an H200's output (tools/runtime/ground_truth.sh).
#include <cstdio>
#include <cstring>

static void show(const char* what, cudaError_t e) { printf("%-62s %s\n", what, cudaGetErrorName(e)); }
#define SHOW(x) show(#x, x)

int main(int argc, char** argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);
  cudaMemLocation dev{};
  dev.type = cudaMemLocationTypeDevice;
  dev.id = 0;
  if (argc > 1 && std::strcmp(argv[1], "host") == 0) {
    cudaMemLocation host{};
    host.type = cudaMemLocationTypeHost;
    cudaMemPool_t h = nullptr;
    SHOW(cudaMemGetDefaultMemPool(&h, &host, cudaMemAllocationTypePinned));
    SHOW(cudaMemGetMemPool(&h, &host, cudaMemAllocationTypePinned));
    SHOW(cudaMemGetDefaultMemPool(&h, &dev, cudaMemAllocationTypeManaged));
    return 0;
  }

  cudaMemPool_t by_device = nullptr, by_location = nullptr, current = nullptr;
  SHOW(cudaDeviceGetDefaultMemPool(&by_device, 0));
  SHOW(cudaMemGetDefaultMemPool(&by_location, &dev, cudaMemAllocationTypePinned));
  printf("default pool by location is the device's: %d\n", int(by_location == by_device));
  SHOW(cudaMemGetMemPool(&current, &dev, cudaMemAllocationTypePinned));
  printf("current pool is the default: %d\n", int(current == by_device));

  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location = dev;
  cudaMemPool_t mine = nullptr;
  SHOW(cudaMemPoolCreate(&mine, &props));
  SHOW(cudaMemSetMemPool(&dev, cudaMemAllocationTypePinned, mine));
  SHOW(cudaMemGetMemPool(&current, &dev, cudaMemAllocationTypePinned));
  printf("current pool is the created one: %d\n", int(current == mine));
  cudaMemPool_t through_device = nullptr;
  SHOW(cudaDeviceGetMemPool(&through_device, 0));
  printf("cudaDeviceGetMemPool agrees: %d\n", int(through_device == mine));
  SHOW(cudaMemGetDefaultMemPool(&by_location, &dev, cudaMemAllocationTypePinned));
  printf("the default pool stays the device's: %d\n", int(by_location == by_device));

  cudaStream_t s;
  cudaStreamCreate(&s);
  void* p = nullptr;
  SHOW(cudaMallocAsync(&p, 1 << 20, s));
  SHOW(cudaFreeAsync(p, s));
  SHOW(cudaStreamSynchronize(s));
  size_t reserved = 0;
  SHOW(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrReservedMemCurrent, &reserved));
  printf("the created pool reserved memory for the allocation: %d\n", int(reserved >= (1 << 20)));

  SHOW(cudaDeviceSetMemPool(0, by_device));
  SHOW(cudaMemGetMemPool(&current, &dev, cudaMemAllocationTypePinned));
  printf("back to the default: %d\n", int(current == by_device));

  // errors
  cudaMemLocation other = dev;
  other.id = 1;
  SHOW(cudaMemGetDefaultMemPool(&current, &other, cudaMemAllocationTypePinned));
  cudaGetLastError();
  SHOW(cudaMemGetMemPool(&current, &other, cudaMemAllocationTypePinned));
  cudaGetLastError();
  SHOW(cudaMemSetMemPool(&other, cudaMemAllocationTypePinned, mine));
  cudaGetLastError();
  cudaMemLocation invalid{};
  SHOW(cudaMemGetDefaultMemPool(&current, &invalid, cudaMemAllocationTypePinned));
  cudaGetLastError();
  SHOW(cudaMemGetDefaultMemPool(&current, &dev, cudaMemAllocationTypeInvalid));
  cudaGetLastError();
  SHOW(cudaMemGetDefaultMemPool(&current, &dev, static_cast<cudaMemAllocationType>(9)));
  cudaGetLastError();
  SHOW(cudaMemSetMemPool(&dev, cudaMemAllocationTypeManaged, mine));
  cudaGetLastError();
  SHOW(cudaMemGetDefaultMemPool(nullptr, &dev, cudaMemAllocationTypePinned));
  cudaGetLastError();
  SHOW(cudaMemGetDefaultMemPool(&current, nullptr, cudaMemAllocationTypePinned));
  cudaGetLastError();
  SHOW(cudaMemSetMemPool(&dev, cudaMemAllocationTypePinned, nullptr));
  cudaGetLastError();

  SHOW(cudaMemPoolDestroy(mine));
  SHOW(cudaStreamDestroy(s));
  SHOW(cudaGetLastError());
  return 0;
}
