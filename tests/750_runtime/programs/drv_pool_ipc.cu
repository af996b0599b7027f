// nvcc flags: -lcuda
// Memory pools shared between processes through the driver API
// (cuMemPoolExportToShareableHandle with a POSIX file descriptor, cuMemPoolExportPointer /
// cuMemPoolImportPointer): pool_ipc.cu's exchange, written against the driver. The parent
// makes an exportable pool with cuMemPoolCreate, allocates two buffers from it with
// cuMemAllocFromPoolAsync and fills them, exports the pool's descriptor and the buffers'
// pointers, and runs itself again as a child (fork + exec; the descriptor stays open across
// exec). The child imports the pool and the pointers, sets its access, adds 1 to each buffer
// and frees its imports; the parent then reads the child's results. Also the error cases
// on either side, and a pointer imported twice: the same pointer, freed once.
// drv_pool_ipc.expected is the program's output on an H200.
#include <cuda.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ipc_kernels.h"
#include "process_helpers.h"

#define CHECK(x) CHECK_CU(x)
#define SHOW(who, x) printf("%s: %-76s %s\n", who, #x, cu_name(x))

static const int kN = 1 << 15;

static int child(int fd, const char* hex_a, const char* hex_b) {
  use_primary_context();
  CUmemPoolPtrExportData ea, eb;
  from_hex(hex_a, &ea, sizeof ea);
  from_hex(hex_b, &eb, sizeof eb);
  CUmemoryPool pool;
  SHOW("child", cuMemPoolImportFromShareableHandle(&pool, (void*)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
  SHOW("child", cuMemPoolImportFromShareableHandle(&pool, (void*)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_NONE, 0));
  CHECK(cuMemPoolImportFromShareableHandle(&pool, (void*)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CUmemLocation loc = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  CUmemAccess_flags flags;
  CHECK(cuMemPoolGetAccess(&flags, pool, &loc));
  printf("child: access to the imported pool: %d\n", (int)flags);
  CUmemAccessDesc desc = {loc, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
  CHECK(cuMemPoolSetAccess(pool, &desc, 1));
  CHECK(cuMemPoolGetAccess(&flags, pool, &loc));
  printf("child: after cuMemPoolSetAccess: %d\n", (int)flags);
  CUdeviceptr a = 0, b = 0, a2 = 0, c = 0;
  CHECK(cuMemPoolImportPointer(&a, pool, &ea));
  CHECK(cuMemPoolImportPointer(&b, pool, &eb));
  printf("child: the two buffers are %ld bytes apart\n", (long)(b - a));
  SHOW("child", cuMemPoolImportPointer(&a2, pool, &ea));
  printf("child: imported twice, same pointer: %s\n", a2 == a ? "yes" : "no");
  SHOW("child", cuMemAllocFromPoolAsync(&c, 1024, pool, 0));
  int head[4];
  CHECK(cuMemcpyDtoH(head, b, sizeof head));
  printf("child: the parent's second buffer starts %d %d %d %d\n", head[0], head[1], head[2], head[3]);
  add_one<<<kN / 256, 256>>>((int*)a, kN);
  add_one<<<kN / 256, 256>>>((int*)b, kN);
  CHECK(cuCtxSynchronize());
  CHECK(cuMemFreeAsync(a2, 0));
  SHOW("child", cuMemFreeAsync(a, 0));  // the same pointer again: imports are not counted
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(head, b, sizeof head));
  printf("child: the second buffer after that now starts %d %d %d %d\n", head[0], head[1], head[2], head[3]);
  CHECK(cuMemFreeAsync(b, 0));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemPoolDestroy(pool));
  printf("child: done\n");
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 5 && strcmp(argv[1], "child") == 0) return child(atoi(argv[2]), argv[3], argv[4]);

  CUdevice dev = use_primary_context();
  int types = 0;
  CHECK(cuDeviceGetAttribute(&types, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES, dev));
  printf("parent: POSIX descriptors supported: %s\n",
         (types & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) ? "yes" : "no");
  CUmemPoolProps props = {};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = 0;
  CUmemoryPool pool;
  CHECK(cuMemPoolCreate(&pool, &props));
  CUdeviceptr a = 0, b = 0;
  CHECK(cuMemAllocFromPoolAsync(&a, kN * sizeof(int), pool, 0));
  CHECK(cuMemAllocFromPoolAsync(&b, kN * sizeof(int), pool, 0));
  fill<<<kN / 256, 256>>>((int*)a, kN, 100, 7);
  fill<<<kN / 256, 256>>>((int*)b, kN, 200, 7);
  CHECK(cuCtxSynchronize());

  int fd = -1;
  SHOW("parent", cuMemPoolExportToShareableHandle(&fd, pool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
  SHOW("parent", cuMemPoolExportToShareableHandle(nullptr, pool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CHECK(cuMemPoolExportToShareableHandle(&fd, pool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CUmemPoolPtrExportData ea, eb, junk;
  CHECK(cuMemPoolExportPointer(&ea, a));
  CHECK(cuMemPoolExportPointer(&eb, b));

  // The error cases in the exporting process.
  CUmemoryPool plain_pool, dflt;
  props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
  CHECK(cuMemPoolCreate(&plain_pool, &props));
  int fd2 = -1;
  SHOW("parent", cuMemPoolExportToShareableHandle(&fd2, plain_pool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CHECK(cuDeviceGetDefaultMemPool(&dflt, dev));
  SHOW("parent", cuMemPoolExportToShareableHandle(&fd2, dflt, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CUdeviceptr d = 0, x = 0;
  CHECK(cuMemAlloc(&d, 1024));
  SHOW("parent", cuMemPoolExportPointer(&junk, d));
  SHOW("parent", cuMemPoolExportPointer(&junk, a + 4));
  SHOW("parent", cuMemPoolExportPointer(nullptr, a));
  SHOW("parent", cuMemPoolImportPointer(&x, pool, &ea));
  CHECK(cuMemFree(d));
  CHECK(cuMemPoolDestroy(plain_pool));

  // The child: the descriptor, a copy without close-on-exec, and the pointers as arguments.
  char fd_text[16], hex_a[2 * sizeof ea + 1], hex_b[2 * sizeof eb + 1];
  snprintf(fd_text, sizeof fd_text, "%d", dup(fd));
  to_hex(&ea, sizeof ea, hex_a);
  to_hex(&eb, sizeof eb, hex_b);
  const char* args[] = {fd_text, hex_a, hex_b};
  const int status = run_child(argv[0], args, 3);
  static int ha[kN], hb[kN];
  CHECK(cuMemcpyDtoH(ha, a, sizeof ha));
  CHECK(cuMemcpyDtoH(hb, b, sizeof hb));
  int right = 0;
  for (int i = 0; i < kN; ++i) right += (ha[i] == 101 + (i & 7)) + (hb[i] == 201 + (i & 7));
  printf("parent: %d of %d elements carry the child's +1, child exit status %d\n", right, 2 * kN, status);
  close(fd);
  CHECK(cuMemFreeAsync(a, 0));
  CHECK(cuMemFreeAsync(b, 0));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemPoolDestroy(pool));
  printf("parent: done\n");
  return 0;
}
