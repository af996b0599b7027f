// Interprocess memory and events (cudaIpc*), as cuda-samples' simpleIPC uses them. The
// program runs itself again as a child process (fork + exec of argv[0], the handles passed
// as hex arguments). The child opens the parent's buffer and event, adds 1 to every element
// with a kernel, records the event and tells the parent through a pipe; the parent's
// cudaEventSynchronize then waits for the child's kernel, and the parent reads the result.
// Also what an interior pointer's handle opens, and the calls' error cases: a handle opened
// in the process that made it, an event made without cudaEventInterprocess, an
// interprocess event with timing, a handle closed once more than it was opened.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ipc_kernels.h"
#include "process_helpers.h"

#define CHECK(x) CHECK_CUDA(x)

static const int kN = 1 << 16;

static int child(const char* mem_hex, const char* inner_hex, const char* event_hex, int fd) {
  cudaIpcMemHandle_t mh, inner;
  cudaIpcEventHandle_t eh;
  from_hex(mem_hex, &mh, sizeof mh);
  from_hex(inner_hex, &inner, sizeof inner);
  from_hex(event_hex, &eh, sizeof eh);
  int *a = nullptr, *b = nullptr;
  CHECK(cudaIpcOpenMemHandle((void**)&a, mh, cudaIpcMemLazyEnablePeerAccess));
  CHECK(cudaIpcOpenMemHandle((void**)&b, mh, cudaIpcMemLazyEnablePeerAccess));
  printf("child: opened the handle twice, same pointer: %s\n", a == b ? "yes" : "no");
  int* in = nullptr;
  CHECK(cudaIpcOpenMemHandle((void**)&in, inner, cudaIpcMemLazyEnablePeerAccess));
  printf("child: the interior pointer's handle opens %ld elements after the buffer's\n", (long)(in - a));
  CHECK(cudaIpcCloseMemHandle(in));
  cudaEvent_t ev;
  CHECK(cudaIpcOpenEventHandle(&ev, eh));
  int head[4];
  CHECK(cudaMemcpy(head, a, sizeof head, cudaMemcpyDeviceToHost));
  printf("child: the parent's first elements: %d %d %d %d\n", head[0], head[1], head[2], head[3]);
  add_one<<<kN / 256, 256>>>(a, kN);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(ev, 0));
  if (!tell_parent(fd)) return 2;  // the record is made: the parent may wait on it now
  CHECK(cudaDeviceSynchronize());
  float ms = 0;
  printf("child: elapsed time between interprocess events: %s\n", cudaGetErrorName(cudaEventElapsedTime(&ms, ev, ev)));
  CHECK(cudaIpcCloseMemHandle(a));
  CHECK(cudaIpcCloseMemHandle(b));
  printf("child: closing the handle a third time: %s\n", cudaGetErrorName(cudaIpcCloseMemHandle(a)));
  printf("child: last error after that: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaEventDestroy(ev));
  printf("child: done\n");
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 6 && strcmp(argv[1], "child") == 0) return child(argv[2], argv[3], argv[4], atoi(argv[5]));

  int* d = nullptr;
  CHECK(cudaMalloc(&d, kN * sizeof(int)));
  fill<<<kN / 256, 256>>>(d, kN, 7, 3);
  CHECK(cudaDeviceSynchronize());
  cudaIpcMemHandle_t mh, inner;
  CHECK(cudaIpcGetMemHandle(&mh, d));
  printf("parent: handle of an interior pointer: %s\n", cudaGetErrorName(cudaIpcGetMemHandle(&inner, d + 1024)));
  cudaGetLastError();
  int* self = nullptr;
  printf("parent: opening its own handle: %s\n",
         cudaGetErrorName(cudaIpcOpenMemHandle((void**)&self, mh, cudaIpcMemLazyEnablePeerAccess)));
  printf("parent: last error after that: %s\n", cudaGetErrorName(cudaGetLastError()));

  cudaEvent_t plain, timed, ev;
  cudaIpcEventHandle_t eh;
  CHECK(cudaEventCreate(&plain));
  printf("parent: handle of an event without cudaEventInterprocess: %s\n",
         cudaGetErrorName(cudaIpcGetEventHandle(&eh, plain)));
  cudaGetLastError();
  printf("parent: an interprocess event with timing: %s\n",
         cudaGetErrorName(cudaEventCreateWithFlags(&timed, cudaEventInterprocess)));
  cudaGetLastError();
  CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming | cudaEventInterprocess));
  CHECK(cudaIpcGetEventHandle(&eh, ev));
  printf("parent: query of the event before any record: %s\n", cudaGetErrorName(cudaEventQuery(ev)));

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
  CHECK(cudaEventSynchronize(ev));  // the child's kernel is done after this
  static int h[kN];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  const int status = wait_child(pid);
  int right = 0;
  for (int i = 0; i < kN; ++i) right += h[i] == 8 + (i & 3);
  printf("parent: after the child's event: %d of %d elements are the child's (first %d), child exit status %d\n", right,
         kN, h[0], status);
  printf("parent: query of the event now: %s\n", cudaGetErrorName(cudaEventQuery(ev)));
  CHECK(cudaEventDestroy(ev));
  CHECK(cudaEventDestroy(plain));
  CHECK(cudaFree(d));
  printf("parent: done\n");
  return 0;
}
