// Zero-copy: pinned host memory that kernels read and write in place. Allocated mapped
// (cudaHostAlloc), allocated plain (cudaMallocHost, mapped anyway under unified addressing),
// and registered (cudaHostRegister on the program's own memory); the device pointers,
// flags, pointer attributes and the errors of misuse. zero_copy.expected is an H100's output.
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void scale_add(const float* in, float* out, float k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * k + 1.0f;
}

__global__ void bump(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += i;
}

__global__ void histogram(const unsigned char* in, unsigned* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[in[i] % 16], 1u);
}

static void say(const char* what, cudaError_t e) {
  printf("%s: %s\n", what, cudaGetErrorName(e));
  cudaGetLastError();
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int can_use = -1, reg = -1;
  cudaDeviceGetAttribute(&can_use, cudaDevAttrCanUseHostPointerForRegisteredMem, 0);
  cudaDeviceGetAttribute(&reg, cudaDevAttrHostRegisterSupported, 0);
  printf("canMapHostMemory %d unifiedAddressing %d canUseHostPointerForRegisteredMem %d hostRegisterSupported %d\n",
         prop.canMapHostMemory, prop.unifiedAddressing, can_use, reg);
  say("cudaSetDeviceFlags(MapHost)", cudaSetDeviceFlags(cudaDeviceMapHost));

  // 1. cudaHostAlloc(Mapped): the kernel reads in and writes out in host memory.
  const int n = 1000;
  float *in = nullptr, *out = nullptr, *d_in = nullptr, *d_out = nullptr;
  say("cudaHostAlloc(in, Mapped)", cudaHostAlloc((void**)&in, n * sizeof(float), cudaHostAllocMapped));
  say("cudaHostAlloc(out, Mapped|Portable)",
      cudaHostAlloc((void**)&out, n * sizeof(float), cudaHostAllocMapped | cudaHostAllocPortable));
  for (int i = 0; i < n; ++i) in[i] = 0.5f * i;
  say("cudaHostGetDevicePointer(in)", cudaHostGetDevicePointer((void**)&d_in, in, 0));
  say("cudaHostGetDevicePointer(out)", cudaHostGetDevicePointer((void**)&d_out, out, 0));
  printf("device pointer == host pointer: %d %d\n", d_in == in, d_out == out);
  float* d_mid = nullptr;
  say("cudaHostGetDevicePointer(in + 10)", cudaHostGetDevicePointer((void**)&d_mid, in + 10, 0));
  printf("interior device pointer == host pointer: %d\n", d_mid == in + 10);
  scale_add<<<(n + 127) / 128, 128>>>(d_in, d_out, 3.0f, n);
  say("scale_add", cudaDeviceSynchronize());
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += out[i];
  printf("out[0] %.1f out[999] %.1f sum %.1f\n", out[0], out[n - 1], sum);
  unsigned flags = 12345;
  say("cudaHostGetFlags(in)", cudaHostGetFlags(&flags, in));
  printf("flags(in) %u\n", flags);
  say("cudaHostGetFlags(out)", cudaHostGetFlags(&flags, out));
  printf("flags(out) %u\n", flags);
  // What cudaHostGetFlags says for each way of allocating.
  const unsigned ask[] = {cudaHostAllocDefault, cudaHostAllocPortable, cudaHostAllocWriteCombined,
                          cudaHostAllocPortable | cudaHostAllocWriteCombined,
                          cudaHostAllocMapped | cudaHostAllocWriteCombined};
  for (unsigned a : ask) {
    void* h = nullptr;
    cudaHostAlloc(&h, 64, a);
    flags = 12345;
    cudaError_t e = cudaHostGetFlags(&flags, h);
    printf("cudaHostAlloc flags %u: cudaHostGetFlags %s %u\n", a, cudaGetErrorName(e), flags);
    cudaFreeHost(h);
  }

  // 2. cudaMallocHost: with unified addressing the pointer works in a kernel as it is.
  int* pinned = nullptr;
  say("cudaMallocHost", cudaMallocHost((void**)&pinned, 256 * sizeof(int)));
  flags = 12345;
  say("cudaHostGetFlags(pinned)", cudaHostGetFlags(&flags, pinned));
  printf("flags(pinned) %u\n", flags);
  for (int i = 0; i < 256; ++i) pinned[i] = 1000;
  bump<<<2, 128>>>(pinned, 256);
  say("bump(cudaMallocHost memory)", cudaDeviceSynchronize());
  printf("pinned[0] %d pinned[255] %d\n", pinned[0], pinned[255]);
  cudaPointerAttributes attr;
  say("cudaPointerGetAttributes(pinned + 3)", cudaPointerGetAttributes(&attr, pinned + 3));
  printf("type %d device %d devicePointer == hostPointer == ptr: %d\n", (int)attr.type, attr.device,
         attr.devicePointer == (void*)(pinned + 3) && attr.hostPointer == (void*)(pinned + 3));

  // Copies with cudaMemcpyDefault between pinned and device memory, both ways.
  int* dev = nullptr;
  cudaMalloc(&dev, 256 * sizeof(int));
  say("cudaMemcpy(dev, pinned, Default)", cudaMemcpy(dev, pinned, 256 * sizeof(int), cudaMemcpyDefault));
  bump<<<2, 128>>>(dev, 256);
  say("cudaMemcpy(pinned, dev, Default)", cudaMemcpy(pinned, dev, 256 * sizeof(int), cudaMemcpyDefault));
  printf("pinned[0] %d pinned[255] %d\n", pinned[0], pinned[255]);

  // 3. cudaHostRegister on the program's own (page-aligned) memory.
  const int m = 4096;
  unsigned char* bytes = static_cast<unsigned char*>(aligned_alloc(4096, m));
  for (int i = 0; i < m; ++i) bytes[i] = (unsigned char)(i * 7 + 3);
  unsigned* bins = static_cast<unsigned*>(aligned_alloc(4096, 4096));
  memset(bins, 0, 4096);
  say("cudaHostRegister(bytes, Mapped)", cudaHostRegister(bytes, m, cudaHostRegisterMapped));
  say("cudaHostRegister(bins, Default)", cudaHostRegister(bins, 4096, cudaHostRegisterDefault));
  unsigned char* d_bytes = nullptr;
  say("cudaHostGetDevicePointer(bytes)", cudaHostGetDevicePointer((void**)&d_bytes, bytes, 0));
  flags = 12345;
  say("cudaHostGetFlags(registered)", cudaHostGetFlags(&flags, bytes));
  printf("flags(registered) %u\n", flags);
  histogram<<<m / 256, 256>>>(d_bytes, bins, m);
  say("histogram(registered memory)", cudaDeviceSynchronize());
  unsigned total = 0;
  printf("bins:");
  for (int b = 0; b < 16; ++b) {
    printf(" %u", bins[b]);
    total += bins[b];
  }
  printf(" (total %u)\n", total);
  say("cudaHostRegister(bytes) again", cudaHostRegister(bytes, m, cudaHostRegisterMapped));
  say("cudaHostRegister(bytes + 100, 10)", cudaHostRegister(bytes + 100, 10, cudaHostRegisterMapped));
  say("cudaHostUnregister(bytes)", cudaHostUnregister(bytes));
  say("cudaHostUnregister(bytes) again", cudaHostUnregister(bytes));
  say("cudaHostUnregister(bins)", cudaHostUnregister(bins));

  // 4. Misuse.
  int local = 0;
  void* d = nullptr;
  say("cudaHostGetDevicePointer(stack variable)", cudaHostGetDevicePointer(&d, &local, 0));
  say("cudaHostGetDevicePointer(in, flags 1)", cudaHostGetDevicePointer(&d, in, 1));
  say("cudaHostGetDevicePointer(device memory)", cudaHostGetDevicePointer(&d, dev, 0));
  say("cudaHostAlloc(flags 0x100)", cudaHostAlloc(&d, 64, 0x100));
  say("cudaHostRegister(NULL)", cudaHostRegister(nullptr, 64, 0));
  say("cudaFreeHost(device memory)", cudaFreeHost(dev));

  say("cudaFreeHost(in)", cudaFreeHost(in));
  say("cudaFreeHost(out)", cudaFreeHost(out));
  say("cudaFreeHost(pinned)", cudaFreeHost(pinned));
  say("cudaFree(dev)", cudaFree(dev));
  free(bytes);
  free(bins);
  return 0;
}
