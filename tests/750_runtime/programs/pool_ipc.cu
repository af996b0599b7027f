// Memory pools shared between processes (cudaMemPoolExportToShareableHandle with a POSIX
// file descriptor, cudaMemPoolExportPointer/ImportPointer), as cuda-samples'
// streamOrderedAllocationIPC uses them. The parent makes an exportable pool, allocates two
// buffers from it and fills them, exports the pool's descriptor and the buffers' pointers,
// and runs itself again as a child (fork + exec; the descriptor stays open across exec).
// The child imports the pool and the pointers, sets its access, adds 1 to each buffer and
// frees its imports; the parent then reads the child's results. Also the calls' error
// cases on either side.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ipc_kernels.h"
#include "process_helpers.h"

#define CHECK(x) CHECK_CUDA(x)
#define SHOW(x) printf("%-58s %s\n", #x, cudaGetErrorName(x))

static const int kN = 1 << 15;

static int child(int fd, const char* hex_a, const char* hex_b) {
  cudaMemPoolPtrExportData ea, eb;
  from_hex(hex_a, &ea, sizeof ea);
  from_hex(hex_b, &eb, sizeof eb);
  cudaMemPool_t pool;
  CHECK(cudaMemPoolImportFromShareableHandle(&pool, (void*)(uintptr_t)fd, cudaMemHandleTypePosixFileDescriptor, 0));
  cudaMemLocation loc = {cudaMemLocationTypeDevice, 0};
  cudaMemAccessFlags flags;
  CHECK(cudaMemPoolGetAccess(&flags, pool, &loc));
  printf("child: access to the imported pool: %d\n", (int)flags);
  cudaMemAccessDesc desc = {loc, cudaMemAccessFlagsProtReadWrite};
  CHECK(cudaMemPoolSetAccess(pool, &desc, 1));
  CHECK(cudaMemPoolGetAccess(&flags, pool, &loc));
  printf("child: after cudaMemPoolSetAccess: %d\n", (int)flags);
  int *a = nullptr, *b = nullptr, *a2 = nullptr;
  CHECK(cudaMemPoolImportPointer((void**)&a, pool, &ea));
  CHECK(cudaMemPoolImportPointer((void**)&b, pool, &eb));
  printf("child: the two buffers are %ld bytes apart\n", (long)((char*)b - (char*)a));
  SHOW(cudaMemPoolImportPointer((void**)&a2, pool, &ea));
  cudaGetLastError();
  int* c = nullptr;
  SHOW(cudaMallocAsync((void**)&c, 1024, pool, 0));
  cudaGetLastError();
  int head[4];
  CHECK(cudaMemcpy(head, b, sizeof head, cudaMemcpyDeviceToHost));
  printf("child: the parent's second buffer starts %d %d %d %d\n", head[0], head[1], head[2], head[3]);
  add_one<<<kN / 256, 256>>>(a, kN);
  add_one<<<kN / 256, 256>>>(b, kN);
  CHECK(cudaGetLastError());
  CHECK(cudaFreeAsync(a, 0));
  CHECK(cudaFreeAsync(b, 0));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemPoolDestroy(pool));
  printf("child: done\n");
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 5 && strcmp(argv[1], "child") == 0) return child(atoi(argv[2]), argv[3], argv[4]);

  int types = 0;
  CHECK(cudaDeviceGetAttribute(&types, cudaDevAttrMemoryPoolSupportedHandleTypes, 0));
  printf("parent: POSIX descriptors supported: %s\n", (types & cudaMemHandleTypePosixFileDescriptor) ? "yes" : "no");
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  CHECK(cudaMemPoolCreate(&pool, &props));
  int *a = nullptr, *b = nullptr;
  CHECK(cudaMallocAsync((void**)&a, kN * sizeof(int), pool, 0));
  CHECK(cudaMallocAsync((void**)&b, kN * sizeof(int), pool, 0));
  fill<<<kN / 256, 256>>>(a, kN, 100, 7);
  fill<<<kN / 256, 256>>>(b, kN, 200, 7);
  CHECK(cudaDeviceSynchronize());

  int fd = -1;
  CHECK(cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0));
  cudaMemPoolPtrExportData ea, eb, junk;
  CHECK(cudaMemPoolExportPointer(&ea, a));
  CHECK(cudaMemPoolExportPointer(&eb, b));

  // The error cases in the exporting process.
  cudaMemPool_t plain_pool, dflt;
  props.handleTypes = cudaMemHandleTypeNone;
  CHECK(cudaMemPoolCreate(&plain_pool, &props));
  int fd2 = -1;
  SHOW(cudaMemPoolExportToShareableHandle(&fd2, plain_pool, cudaMemHandleTypePosixFileDescriptor, 0));
  cudaGetLastError();
  CHECK(cudaDeviceGetDefaultMemPool(&dflt, 0));
  SHOW(cudaMemPoolExportToShareableHandle(&fd2, dflt, cudaMemHandleTypePosixFileDescriptor, 0));
  cudaGetLastError();
  int* d = nullptr;
  CHECK(cudaMalloc(&d, 1024));
  SHOW(cudaMemPoolExportPointer(&junk, d));
  cudaGetLastError();
  SHOW(cudaMemPoolExportPointer(&junk, a + 1));
  cudaGetLastError();
  int* x = nullptr;
  SHOW(cudaMemPoolImportPointer((void**)&x, pool, &ea));
  cudaGetLastError();
  CHECK(cudaFree(d));
  CHECK(cudaMemPoolDestroy(plain_pool));

  // The child: the descriptor, a copy without close-on-exec, and the pointers as arguments.
  char fd_text[16], hex_a[2 * sizeof ea + 1], hex_b[2 * sizeof eb + 1];
  snprintf(fd_text, sizeof fd_text, "%d", dup(fd));
  to_hex(&ea, sizeof ea, hex_a);
  to_hex(&eb, sizeof eb, hex_b);
  const char* args[] = {fd_text, hex_a, hex_b};
  const int status = run_child(argv[0], args, 3);
  static int ha[kN], hb[kN];
  CHECK(cudaMemcpy(ha, a, sizeof ha, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost));
  int right = 0;
  for (int i = 0; i < kN; ++i) right += (ha[i] == 101 + (i & 7)) + (hb[i] == 201 + (i & 7));
  printf("parent: %d of %d elements carry the child's +1, child exit status %d\n", right, 2 * kN, status);
  close(fd);
  CHECK(cudaFreeAsync(a, 0));
  CHECK(cudaFreeAsync(b, 0));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemPoolDestroy(pool));
  printf("parent: done\n");
  return 0;
}
