// What a context owns goes with it: memory allocated and modules loaded through the driver
// API while a context is current are freed when it is destroyed (the device's free memory
// comes back), and what another context owns, or what was freed before, is untouched.
// driver_contexts.expected is an H200's output.
// nvcc flags: -lcuda
#include <cuda.h>

#include <cstdio>
#include <cstring>

static const char* name_of(CUresult r) {
  const char* s = nullptr;
  cuGetErrorName(r, &s);
  return s ? s : "?";
}

#define SHOW(call) std::printf("%s: %s\n", #call, name_of(call))

static const char* kPtx =
    ".version 7.0\n"
    ".target sm_50\n"
    ".address_size 64\n"
    ".visible .entry fill(.param .u64 p, .param .u32 v)\n"
    "{\n"
    "  .reg .b32 %r<3>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.param.u32 %r1, [v];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.u32 %rd3, %r2, 4;\n"
    "  add.s64 %rd2, %rd2, %rd3;\n"
    "  st.global.u32 [%rd2], %r1;\n"
    "  ret;\n"
    "}\n";

static size_t free_now() {
  size_t f = 0, t = 0;
  cuMemGetInfo(&f, &t);
  return f;
}

int main() {
  const size_t mb = 1 << 20, big = 512 * mb;
  CUdevice dev;
  SHOW(cuInit(0));
  SHOW(cuDeviceGet(&dev, 0));
  CUcontext a = nullptr, b = nullptr;
  SHOW(cuCtxCreate(&a, nullptr, 0, dev));
  const size_t free0 = free_now();

  // A allocates device memory, pinned host memory and a module.
  CUdeviceptr in_a = 0, freed_early = 0;
  void* host_a = nullptr;
  CUmodule mod_a = nullptr;
  CUfunction fill = nullptr;
  SHOW(cuMemAlloc(&in_a, big));
  SHOW(cuMemAllocHost(&host_a, 4 * mb));
  SHOW(cuModuleLoadData(&mod_a, kPtx));
  SHOW(cuModuleGetFunction(&fill, mod_a, "fill"));
  unsigned v = 7;
  void* args[] = {&in_a, &v};
  SHOW(cuLaunchKernel(fill, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
  SHOW(cuCtxSynchronize());
  unsigned got = 0;
  SHOW(cuMemcpyDtoH(&got, in_a + 31 * 4, 4));
  std::printf("fill wrote %u\n", got);
  SHOW(cuMemAlloc(&freed_early, 64 * mb));
  SHOW(cuMemFree(freed_early));  // freed by the program: A's destroy must not free it again
  const size_t free1 = free_now();
  std::printf("A's 512 MiB taken from the free memory: %d\n", free0 - free1 >= big);

  // B, made while A lives, allocates where A's freed memory was (perhaps at its address).
  SHOW(cuCtxCreate(&b, nullptr, 0, dev));
  CUdeviceptr in_b = 0;
  SHOW(cuMemAlloc(&in_b, 64 * mb));
  SHOW(cuMemsetD32(in_b, 0x01020304u, 16));

  // Destroying A gives its memory back and leaves B's alone.
  SHOW(cuCtxDestroy(a));
  const size_t free2 = free_now();  // B is current
  std::printf("A's 512 MiB back after its destroy: %d\n", free2 >= free1 + big / 2);
  unsigned words[16];
  std::memset(words, 0, sizeof words);
  SHOW(cuMemcpyDtoH(words, in_b, sizeof words));
  std::printf("B's memory kept: %#x %#x\n", words[0], words[15]);
  SHOW(cuMemFree(in_b));
  SHOW(cuCtxDestroy(b));
  return 0;
}
