// What the test programs that run themselves again as a child process share: handles
// written on the child's command line as hex, starting the child, and the checks that stop
// a program on an unexpected error code (runtime API: CHECK_CUDA; driver API, with
// <cuda.h>: CHECK_CU, cu_name, and use_primary_context). A program's own SHOW line format
// stays in the program (its .expected has it).
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

static void to_hex(const void* p, size_t n, char* out) {
  const unsigned char* b = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < n; ++i) sprintf(out + 2 * i, "%02x", b[i]);
}

static void from_hex(const char* s, void* p, size_t n) {
  unsigned char* b = static_cast<unsigned char*>(p);
  for (size_t i = 0; i < n; ++i) {
    unsigned v = 0;
    sscanf(s + 2 * i, "%2x", &v);
    b[i] = static_cast<unsigned char>(v);
  }
}

// In a forked child: replaces it with this program run again as `argv0 child ARGS... [LAST]`
// (LAST left out when null). Returns only if exec failed, by ending the child (127).
static void exec_as_child(const char* argv0, const char* const* args, int nargs, const char* last) {
  const char* argv[16] = {argv0, "child"};
  int n = 2;
  for (int i = 0; i < nargs && n < 14; ++i) argv[n++] = args[i];
  if (last) argv[n++] = last;
  argv[n] = nullptr;
  execv(argv0, const_cast<char* const*>(argv));
  _exit(127);
}

// Runs this program again (fork + exec of argv0) as `argv0 child ARGS... FD`, FD the write
// end of a pipe whose read end goes to *ready (the child says it got somewhere by writing
// one byte: tell_parent); returns the child's pid, or -1.
static pid_t spawn_child(const char* argv0, const char* const* args, int nargs, int* ready) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  char fd_text[16];
  snprintf(fd_text, sizeof fd_text, "%d", fds[1]);
  fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    exec_as_child(argv0, args, nargs, fd_text);
  }
  close(fds[1]);
  *ready = fds[0];
  return pid;
}

// Waits for a child: its exit status, or -1 if it did not exit (a signal) or is unknown.
static int wait_child(pid_t pid) {
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Runs this program again as `argv0 child ARGS...` and waits for it (wait_child).
static int run_child(const char* argv0, const char* const* args, int nargs) {
  fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) exec_as_child(argv0, args, nargs, nullptr);
  return wait_child(pid);
}

// In the child: one byte to the parent waiting on spawn_child's pipe; false if it failed.
static bool tell_parent(int fd) {
  const char c = 'r';
  const bool ok = write(fd, &c, 1) == 1;
  close(fd);
  return ok;
}

// In the parent: waits for the child's byte; false if the child ended without one.
static bool heard_from_child(int fd) {
  char c = 0;
  const bool ok = read(fd, &c, 1) == 1;
  close(fd);
  return ok;
}

#define CHECK_CUDA(x)                                                  \
  do {                                                                 \
    cudaError_t e_ = (x);                                              \
    if (e_ != cudaSuccess) {                                           \
      printf("line %d: %s: %s\n", __LINE__, #x, cudaGetErrorName(e_)); \
      exit(1);                                                         \
    }                                                                  \
  } while (0)

#ifdef __cuda_cuda_h__
static const char* cu_name(CUresult r) {
  const char* n = nullptr;
  cuGetErrorName(r, &n);
  return n ? n : "?";
}

#define CHECK_CU(x)                                               \
  do {                                                            \
    CUresult r_ = (x);                                            \
    if (r_ != CUDA_SUCCESS) {                                     \
      printf("line %d: %s: %s\n", __LINE__, #x, cu_name(r_));     \
      exit(1);                                                    \
    }                                                             \
  } while (0)

// cuInit, then device 0's primary context made current on this thread; returns the device.
static CUdevice use_primary_context() {
  CHECK_CU(cuInit(0));
  CUdevice dev;
  CHECK_CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK_CU(cuCtxSetCurrent(ctx));
  return dev;
}
#endif
