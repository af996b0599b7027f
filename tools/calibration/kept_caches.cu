// What a kernel finds in the L2 when the one before it read or wrote the same data: the
// same binary runs natively on the H100 (events, and ncu with --cache-control none) and
// under `warpsim exec --config h100` (tools/calibration/kept_caches.sh).
// For each buffer size, four launches in a row of `read_sum` (reads the buffer once,
// float4 per thread per step, a grid-stride loop), then four of `scale` (reads and
// writes it in place). Prints one line per launch: kernel, MiB, launch index, event us.
// Build: nvcc -O3 -arch=sm_90 -cudart shared -o kept_caches kept_caches.cu
#include <cstdio>
#include <cstdlib>

__global__ void read_sum(const float4* in, size_t n4, float* out) {
  float s = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += size_t(gridDim.x) * blockDim.x) {
    float4 v = in[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 12345.0f) out[blockIdx.x] = s;  // never true for the data below: keeps the loads
}

__global__ void scale(float4* data, size_t n4, float f) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += size_t(gridDim.x) * blockDim.x) {
    float4 v = data[i];
    v.x *= f, v.y *= f, v.z *= f, v.w *= f;
    data[i] = v;
  }
}

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

int main(int argc, char** argv) {
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attribute");
  const int blocks = sms * 4, threads = 256;
  // Sizes in MiB from the command line, else a default set around the H100's 50 MB L2.
  int sizes[8] = {4, 16, 32, 96};
  int nsizes = 4;
  if (argc > 1) {
    nsizes = 0;
    for (int a = 1; a < argc && nsizes < 8; ++a) sizes[nsizes++] = std::atoi(argv[a]);
  }
  float* out;
  check(cudaMalloc(&out, blocks * sizeof(float)), "malloc out");
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  for (int k = 0; k < nsizes; ++k) {
    const size_t bytes = size_t(sizes[k]) << 20, n4 = bytes / sizeof(float4);
    float4* buf;
    check(cudaMalloc(&buf, bytes), "malloc");
    check(cudaMemset(buf, 0, bytes), "memset");
    // An unrelated 256 MiB sweep first, so that the first launch finds none of buf in L2.
    float4* flush;
    const size_t flush_bytes = size_t(256) << 20;
    check(cudaMalloc(&flush, flush_bytes), "malloc flush");
    check(cudaMemset(flush, 0, flush_bytes), "memset flush");
    read_sum<<<blocks, threads>>>(flush, flush_bytes / sizeof(float4), out);
    check(cudaDeviceSynchronize(), "flush");
    check(cudaFree(flush), "free flush");
    for (int kernel = 0; kernel < 2; ++kernel)
      for (int i = 0; i < 4; ++i) {
        cudaEventRecord(t0);
        if (kernel == 0) read_sum<<<blocks, threads>>>(buf, n4, out);
        else scale<<<blocks, threads>>>(buf, n4, 1.0f);
        cudaEventRecord(t1);
        check(cudaEventSynchronize(t1), "launch");
        float ms = 0;
        cudaEventElapsedTime(&ms, t0, t1);
        std::printf("%s,%d,%d,%.2f\n", kernel == 0 ? "read_sum" : "scale", sizes[k], i, ms * 1000.0f);
      }
    check(cudaFree(buf), "free");
  }
  return 0;
}
