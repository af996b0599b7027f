// An interprocess event seen from the other process while the work before its record is
// still running: cudaEventQuery says cudaErrorNotReady there, and cudaSuccess once the
// work is done. The parent launches a kernel that marks that it started and then waits for
// a flag in the parent's memory, and records the event after it; a child it spawns opens
// the memory and the event, waits until the kernel has started (and 0.2 s more, so that the
// parent's record has been issued on a GPU too), queries the event, sets the flag, waits on
// the event and queries it again. ipc_event_pending.expected is an H200's output.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "process_helpers.h"

#define CHECK(x) CHECK_CUDA(x)

// flags[0]: the kernel has started; flags[1]: it may end.
__global__ void wait_for_flag(volatile int* flags) {
  flags[0] = 1;
  __threadfence_system();
  while (flags[1] == 0) {
  }
  flags[0] = 2;
}

static int child(const char* mem_hex, const char* event_hex, int fd) {
  cudaIpcMemHandle_t mh;
  cudaIpcEventHandle_t eh;
  from_hex(mem_hex, &mh, sizeof mh);
  from_hex(event_hex, &eh, sizeof eh);
  int* flags = nullptr;
  cudaEvent_t ev;
  CHECK(cudaIpcOpenMemHandle((void**)&flags, mh, cudaIpcMemLazyEnablePeerAccess));
  CHECK(cudaIpcOpenEventHandle(&ev, eh));
  if (!tell_parent(fd)) return 2;
  int started = 0;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (started == 0 && std::chrono::steady_clock::now() < give_up) {
    CHECK(cudaMemcpy(&started, flags, sizeof started, cudaMemcpyDeviceToHost));
    if (started == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  printf("child: the parent's kernel has started: %s\n", started == 1 ? "yes" : "no");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  printf("child: query of the event while the kernel waits: %s\n", cudaGetErrorName(cudaEventQuery(ev)));
  const int go = 1;
  CHECK(cudaMemcpy(flags + 1, &go, sizeof go, cudaMemcpyHostToDevice));
  CHECK(cudaEventSynchronize(ev));
  printf("child: query of the event after waiting on it: %s\n", cudaGetErrorName(cudaEventQuery(ev)));
  int end = 0;
  CHECK(cudaMemcpy(&end, flags, sizeof end, cudaMemcpyDeviceToHost));
  printf("child: the kernel's last mark: %d\n", end);
  CHECK(cudaEventDestroy(ev));
  CHECK(cudaIpcCloseMemHandle(flags));
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 5 && strcmp(argv[1], "child") == 0) return child(argv[2], argv[3], atoi(argv[4]));

  int* flags = nullptr;
  CHECK(cudaMalloc(&flags, 2 * sizeof(int)));
  CHECK(cudaMemset(flags, 0, 2 * sizeof(int)));
  cudaIpcMemHandle_t mh;
  cudaIpcEventHandle_t eh;
  cudaEvent_t ev;
  CHECK(cudaIpcGetMemHandle(&mh, flags));
  CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming | cudaEventInterprocess));
  CHECK(cudaIpcGetEventHandle(&eh, ev));
  char mem_hex[2 * sizeof mh + 1], event_hex[2 * sizeof eh + 1];
  to_hex(&mh, sizeof mh, mem_hex);
  to_hex(&eh, sizeof eh, event_hex);
  const char* args[] = {mem_hex, event_hex};
  int ready = -1;
  const pid_t pid = spawn_child(argv[0], args, 2, &ready);
  if (pid < 0) return 3;
  if (!heard_from_child(ready)) {
    printf("parent: the child ended before opening the handles\n");
    return 4;
  }
  wait_for_flag<<<1, 1>>>(flags);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(ev, 0));
  CHECK(cudaEventSynchronize(ev));
  const int status = wait_child(pid);
  fflush(stdout);
  printf("parent: child exit status %d\n", status);
  printf("parent: query of the event: %s\n", cudaGetErrorName(cudaEventQuery(ev)));
  CHECK(cudaEventDestroy(ev));
  CHECK(cudaFree(flags));
  printf("parent: done\n");
  return 0;
}
