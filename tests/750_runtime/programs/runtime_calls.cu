// Exercises the runtime API a course program or a public sample calls, printing what
// each returns. tests/750_runtime compares the output line by line.
#include <cstdio>
#include <cstring>

#define SHOW(call) printf("%-40s %s\n", #call, cudaGetErrorName(call))

__global__ void scale(float* x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

__global__ void fill_rows(float* m, size_t pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < height) ((float*)((char*)m + y * pitch))[x] = y * 1000 + x;
}

__global__ void block_sum(const int* in, int* out) {
  extern __shared__ int buf[];
  buf[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}

int main() {
  int count = -1, dev = -1, version = 0;
  SHOW(cudaGetDeviceCount(&count));
  SHOW(cudaGetDevice(&dev));
  printf("devices %d, current %d\n", count, dev);
  SHOW(cudaSetDevice(1));
  SHOW(cudaGetLastError());
  SHOW(cudaRuntimeGetVersion(&version));
  printf("runtime version %d\n", version);

  cudaDeviceProp p;
  SHOW(cudaGetDeviceProperties(&p, 0));
  printf("name %s\ncc %d.%d, %d SMs, warp %d, %d threads/block, %d threads/SM\n", p.name, p.major, p.minor,
         p.multiProcessorCount, p.warpSize, p.maxThreadsPerBlock, p.maxThreadsPerMultiProcessor);
  printf("shared/block %zu, regs/block %d, global %zu MiB, L2 %d KiB\n", p.sharedMemPerBlock, p.regsPerBlock,
         p.totalGlobalMem >> 20, p.l2CacheSize >> 10);
  int clock = 0, sms = 0;
  SHOW(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0));
  SHOW(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  printf("clock %d kHz, %d SMs\n", clock, sms);

  // Memory, 1D.
  const int n = 4096;
  float host[n];
  for (int i = 0; i < n; ++i) host[i] = i;
  float* d = nullptr;
  SHOW(cudaMalloc(&d, n * sizeof(float)));
  SHOW(cudaMemcpy(d, host, n * sizeof(float), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  SHOW(cudaEventCreate(&start));
  SHOW(cudaEventCreate(&stop));
  cudaStream_t stream;
  SHOW(cudaStreamCreate(&stream));
  SHOW(cudaEventRecord(start, stream));
  scale<<<n / 256, 256, 0, stream>>>(d, 0.5f, n);
  SHOW(cudaEventRecord(stop, stream));
  SHOW(cudaEventSynchronize(stop));
  float ms = -1;
  SHOW(cudaEventElapsedTime(&ms, start, stop));
  printf("kernel time positive: %s\n", ms > 0 ? "yes" : "no");
  SHOW(cudaMemcpyAsync(host, d, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
  SHOW(cudaStreamSynchronize(stream));
  printf("scaled: %g %g %g\n", host[0], host[1], host[n - 1]);
  SHOW(cudaMemset(d, 0, n * sizeof(float)));
  SHOW(cudaMemcpy(host, d, n * sizeof(float), cudaMemcpyDefault));
  printf("after memset: %g %g\n", host[0], host[n - 1]);

  // Pitched 2D memory.
  float* m = nullptr;
  size_t pitch = 0;
  SHOW(cudaMallocPitch((void**)&m, &pitch, 100 * sizeof(float), 8));
  printf("pitch %zu\n", pitch);
  fill_rows<<<dim3(1, 8), 128>>>(m, pitch, 100, 8);
  float rows[8][100];
  SHOW(cudaMemcpy2D(rows, sizeof(rows[0]), m, pitch, 100 * sizeof(float), 8, cudaMemcpyDeviceToHost));
  printf("rows: %g %g %g\n", rows[0][0], rows[3][7], rows[7][99]);

  // Dynamic shared memory, attributes and occupancy.
  int in[1024], out[4];
  for (int i = 0; i < 1024; ++i) in[i] = i;
  int *din, *dout;
  SHOW(cudaMalloc(&din, sizeof(in)));
  SHOW(cudaMalloc(&dout, sizeof(out)));
  SHOW(cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice));
  block_sum<<<4, 256, 256 * sizeof(int)>>>(din, dout);
  SHOW(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
  printf("block sums: %d %d %d %d\n", out[0], out[1], out[2], out[3]);
  cudaFuncAttributes attr;
  SHOW(cudaFuncGetAttributes(&attr, block_sum));
  printf("block_sum: %zu static shared bytes, %d max threads, PTX for sm_%d\n", attr.sharedSizeBytes,
         attr.maxThreadsPerBlock, attr.ptxVersion);
  int blocks = 0;
  SHOW(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, block_sum, 256, 256 * sizeof(int)));
  printf("blocks/SM at 256 threads: %d\n", blocks);
  SHOW(cudaFuncSetCacheConfig(block_sum, cudaFuncCachePreferL1));

  // Managed and pinned memory.
  int* managed = nullptr;
  SHOW(cudaMallocManaged(&managed, 256 * sizeof(int)));
  for (int i = 0; i < 256; ++i) managed[i] = 1;
  SHOW(cudaStreamAttachMemAsync(stream, managed, 0, cudaMemAttachGlobal));
  block_sum<<<1, 256, 256 * sizeof(int), stream>>>(managed, managed);
  SHOW(cudaDeviceSynchronize());
  printf("managed sum: %d\n", managed[0]);
  SHOW(cudaFree(managed));
  float* pinned = nullptr;
  SHOW(cudaMallocHost(&pinned, 1024));
  SHOW(cudaFreeHost(pinned));
  size_t free_bytes = 0, total = 0;
  SHOW(cudaMemGetInfo(&free_bytes, &total));
  printf("memory: total %zu MiB, in use %zu KiB\n", total >> 20, (total - free_bytes) >> 10);

  // Errors CUDA returns.
  void* huge = nullptr;
  SHOW(cudaMalloc(&huge, (size_t)1 << 40));
  SHOW(cudaGetLastError());
  SHOW(cudaGetLastError());
  scale<<<1, 4096>>>(d, 1.0f, n);
  SHOW(cudaPeekAtLastError());
  SHOW(cudaGetLastError());
  SHOW(cudaFree((void*)0x1234));
  SHOW(cudaStreamDestroy(stream));
  SHOW(cudaStreamSynchronize(stream));
  cudaMipmappedArray_t mip;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  SHOW(cudaMallocMipmappedArray(&mip, &fd, make_cudaExtent(64, 64, 0), 4));
  SHOW(cudaEventDestroy(start));
  SHOW(cudaEventDestroy(stop));
  SHOW(cudaFree(d));
  SHOW(cudaFree(m));
  printf("error strings: '%s' '%s'\n", cudaGetErrorString(cudaErrorIllegalAddress), cudaGetErrorString(cudaSuccess));
  SHOW(cudaDeviceReset());
  return 0;
}
