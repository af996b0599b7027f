// nvcc flags: -lcuda
// Interprocess memory and events through the driver API (cuIpc*), as programs written
// against the driver use them. The program runs itself again as a child process (fork +
// exec of argv[0], the handles passed as hex arguments). The child opens the parent's
// buffer and event, adds 1 to every element with a kernel, records the event and tells the
// parent through a pipe; the parent's cuEventSynchronize then waits for the child's kernel.
// Also the error cases: a handle opened in the process that made it, unknown flags, a
// handle of zeros, an event made without CU_EVENT_INTERPROCESS, an interprocess event with
// timing, elapsed time on one, and closes of memory that is not (or no longer) open.
#include <cuda.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ipc_kernels.h"
#include "process_helpers.h"

#define CHECK(x) CHECK_CU(x)
#define SHOW(who, x) printf("%s: %-70s %s\n", who, #x, cu_name(x))

static const int kN = 1 << 16;

static int child(const char* mem_hex, const char* inner_hex, const char* event_hex, int fd) {
  use_primary_context();
  CUipcMemHandle mh, inner, zeros;
  CUipcEventHandle eh;
  from_hex(mem_hex, &mh, sizeof mh);
  from_hex(inner_hex, &inner, sizeof inner);
  from_hex(event_hex, &eh, sizeof eh);
  memset(&zeros, 0, sizeof zeros);
  CUdeviceptr a = 0, b = 0, in = 0, x = 0;
  SHOW("child", cuIpcOpenMemHandle(&x, mh, 2));
  SHOW("child", cuIpcOpenMemHandle(&x, zeros, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
  CHECK(cuIpcOpenMemHandle(&a, mh, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
  CHECK(cuIpcOpenMemHandle(&b, mh, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
  printf("child: opened the handle twice, same pointer: %s\n", a == b ? "yes" : "no");
  CHECK(cuIpcOpenMemHandle(&in, inner, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
  printf("child: the interior pointer's handle opens %ld bytes after the buffer's\n", (long)(in - a));
  CHECK(cuIpcCloseMemHandle(in));
  CUevent ev;
  CHECK(cuIpcOpenEventHandle(&ev, eh));
  printf("child: query of the opened event before any record: %s\n", cu_name(cuEventQuery(ev)));
  int head[4];
  CHECK(cuMemcpyDtoH(head, a, sizeof head));
  printf("child: the parent's first elements: %d %d %d %d\n", head[0], head[1], head[2], head[3]);
  add_one<<<kN / 256, 256>>>((int*)a, kN);
  CHECK((CUresult)cudaGetLastError());
  CHECK(cuEventRecord(ev, 0));
  if (!tell_parent(fd)) return 2;  // the record is made: the parent may wait on it now
  CHECK(cuCtxSynchronize());
  float ms = 0;
  SHOW("child", cuEventElapsedTime(&ms, ev, ev));
  CHECK(cuIpcCloseMemHandle(a));
  CHECK(cuIpcCloseMemHandle(b));
  SHOW("child", cuIpcCloseMemHandle(a));
  CHECK(cuEventDestroy(ev));
  printf("child: done\n");
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 6 && strcmp(argv[1], "child") == 0) return child(argv[2], argv[3], argv[4], atoi(argv[5]));

  use_primary_context();
  CUdeviceptr d = 0;
  CHECK(cuMemAlloc(&d, kN * sizeof(int)));
  fill<<<kN / 256, 256>>>((int*)d, kN, 7, 3);
  CHECK(cuCtxSynchronize());
  CUipcMemHandle mh, inner;
  CHECK(cuIpcGetMemHandle(&mh, d));
  SHOW("parent", cuIpcGetMemHandle(&inner, d + 4096));
  CUdeviceptr self = 0;
  SHOW("parent", cuIpcOpenMemHandle(&self, mh, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
  SHOW("parent", cuIpcCloseMemHandle(d));

  CUevent plain, timed, ev;
  CUipcEventHandle eh;
  CHECK(cuEventCreate(&plain, CU_EVENT_DEFAULT));
  SHOW("parent", cuIpcGetEventHandle(&eh, plain));
  SHOW("parent", cuEventCreate(&timed, CU_EVENT_INTERPROCESS));
  CHECK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS));
  CHECK(cuIpcGetEventHandle(&eh, ev));
  SHOW("parent", cuEventQuery(ev));

  char mem_hex[2 * sizeof mh + 1], inner_hex[2 * sizeof inner + 1], event_hex[2 * sizeof eh + 1];
  to_hex(&mh, sizeof mh, mem_hex);
  to_hex(&inner, sizeof inner, inner_hex);
  to_hex(&eh, sizeof eh, event_hex);
  const char* args[] = {mem_hex, inner_hex, event_hex};
  int ready = -1;
  const pid_t pid = spawn_child(argv[0], args, 3, &ready);
  if (pid < 0) return 3;
  if (!heard_from_child(ready)) {
    printf("parent: the child ended before recording the event\n");
    return 4;
  }
  CHECK(cuEventSynchronize(ev));  // the child's kernel is done after this
  static int h[kN];
  CHECK(cuMemcpyDtoH(h, d, sizeof h));
  const int status = wait_child(pid);
  int right = 0;
  for (int i = 0; i < kN; ++i) right += h[i] == 8 + (i & 3);
  printf("parent: after the child's event: %d of %d elements are the child's (first %d), child exit status %d\n", right,
         kN, h[0], status);
  SHOW("parent", cuEventQuery(ev));
  CHECK(cuEventDestroy(ev));
  CHECK(cuEventDestroy(plain));
  CHECK(cuMemFree(d));
  printf("parent: done\n");
  return 0;
}
