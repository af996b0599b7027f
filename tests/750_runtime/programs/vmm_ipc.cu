// nvcc flags: -lcuda
// Driver-API virtual memory shared between processes through a POSIX file descriptor
// (cuMemCreate with CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, cuMemExportToShareableHandle,
// cuMemImportFromShareableHandle), as cuda-samples' memMapIPCDrv uses it. The parent maps an
// exportable allocation, fills it with a kernel and runs itself again as a child (fork +
// exec; the descriptor stays open across exec). The child imports the allocation, maps it,
// reads the parent's values and adds 1; the parent then reads the child's result. Also the
// error cases and what cuMemGetAllocationPropertiesFromHandle says on either side.
#include <cuda.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ipc_kernels.h"
#include "process_helpers.h"

#define CHECK(x) CHECK_CU(x)
#define SHOW(x) printf("%-64s %s\n", #x, cu_name(x))

static CUmemAllocationProp props(int handle_types) {
  CUmemAllocationProp p = {};
  p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = 0;
  p.requestedHandleTypes = (CUmemAllocationHandleType)handle_types;
  return p;
}

// Maps `h` (`size` bytes) at a fresh reservation with read-write access.
static CUdeviceptr map(CUmemGenericAllocationHandle h, size_t size) {
  CUdeviceptr p = 0;
  CHECK(cuMemAddressReserve(&p, size, 0, 0, 0));
  CHECK(cuMemMap(p, size, 0, h, 0));
  CUmemAccessDesc a = {};
  a.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  a.location.id = 0;
  a.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CHECK(cuMemSetAccess(p, size, &a, 1));
  return p;
}

static int child(int fd, size_t size) {
  use_primary_context();
  CUmemGenericAllocationHandle h;
  CHECK(cuMemImportFromShareableHandle(&h, (void*)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  CUmemAllocationProp got = {};
  CHECK(cuMemGetAllocationPropertiesFromHandle(&got, h));
  printf("child: the imported handle's requestedHandleTypes: %d\n", (int)got.requestedHandleTypes);
  CUdeviceptr p = map(h, size);
  int head[4];
  CHECK(cuMemcpyDtoH(head, p, sizeof head));
  printf("child: the parent's values: %d %d %d %d\n", head[0], head[1], head[2], head[3]);
  const int n = (int)(size / sizeof(int));
  add_one<<<n / 256, 256>>>((int*)p, n);
  CHECK((CUresult)cudaDeviceSynchronize());
  CHECK(cuMemUnmap(p, size));
  CHECK(cuMemAddressFree(p, size));
  CHECK(cuMemRelease(h));
  SHOW(cuMemImportFromShareableHandle(&h, (void*)(uintptr_t)1000, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  printf("child: done\n");
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 4 && strcmp(argv[1], "child") == 0) return child(atoi(argv[2]), strtoull(argv[3], nullptr, 10));

  const CUdevice dev = use_primary_context();
  int posix = 0;
  CHECK(cuDeviceGetAttribute(&posix, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, dev));
  printf("parent: POSIX descriptor handles supported: %d\n", posix);
  CUmemAllocationProp prop = props(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  size_t g = 0;
  CHECK(cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  const size_t size = 2 * g;
  CUmemGenericAllocationHandle h, plain;
  CHECK(cuMemCreate(&h, size, &prop, 0));
  CUmemAllocationProp got = {};
  CHECK(cuMemGetAllocationPropertiesFromHandle(&got, h));
  printf("parent: the exportable handle's requestedHandleTypes: %d\n", (int)got.requestedHandleTypes);
  CUdeviceptr p = map(h, size);
  const int n = (int)(size / sizeof(int));
  fill<<<n / 256, 256>>>((int*)p, n, 500, 7);
  CHECK((CUresult)cudaDeviceSynchronize());

  int fd = -1, fd2 = -1;
  CHECK(cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CUmemAllocationProp plain_prop = props(0);
  CHECK(cuMemCreate(&plain, g, &plain_prop, 0));
  SHOW(cuMemExportToShareableHandle(&fd2, plain, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  SHOW(cuMemExportToShareableHandle(&fd2, h, CU_MEM_HANDLE_TYPE_FABRIC, 0));
  CHECK(cuMemRelease(plain));

  char fd_text[16], size_text[32];
  snprintf(fd_text, sizeof fd_text, "%d", dup(fd));
  snprintf(size_text, sizeof size_text, "%zu", size);
  const char* args[] = {fd_text, size_text};
  const int status = run_child(argv[0], args, 2);
  static int host[1 << 20];
  CHECK(cuMemcpyDtoH(host, p, size));
  int right = 0;
  for (int i = 0; i < n; ++i) right += host[i] == 501 + (i & 7);
  printf("parent: %d of %d elements carry the child's +1, child exit status %d\n", right, n, status);
  close(fd);
  CHECK(cuMemUnmap(p, size));
  CHECK(cuMemAddressFree(p, size));
  CHECK(cuMemRelease(h));
  printf("parent: done\n");
  return 0;
}
