// A program built with nvcc --default-stream per-thread: cuda_runtime_api.h then names the
// stream-ordered calls *_ptds (synchronous ones) and *_ptsz (asynchronous ones), and the
// program calls those names. Each is used once here and its result checked.
// per_thread_stream.expected is an H200's output.
// nvcc flags: --default-stream per-thread
#include <cstdio>
#include <cstring>

#define CHECK(x)                                                       \
  do {                                                                 \
    cudaError_t e_ = (x);                                              \
    if (e_ != cudaSuccess) {                                           \
      printf("line %d: %s: %s\n", __LINE__, #x, cudaGetErrorName(e_)); \
      return 1;                                                        \
    }                                                                  \
  } while (0)

__device__ int table[4];

__global__ void scale(int* p, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * k + table[i & 3];
}

static int host_calls = 0;
static void host_fn(void*) { ++host_calls; }
static void callback(cudaStream_t, cudaError_t status, void*) { host_calls += status == cudaSuccess ? 10 : 100; }

int main() {
  const int n = 1024;
  static int h[n], back[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  int* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMemset(d, 0, n * sizeof(int)));                            // cudaMemset_ptds
  CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));    // cudaMemcpy_ptds
  const int t[4] = {1, 2, 3, 4};
  CHECK(cudaMemcpyToSymbol(table, t, sizeof t));                       // cudaMemcpyToSymbol_ptds
  scale<<<n / 256, 256>>>(d, n, 3);                                    // __cudaLaunchKernel_ptsz
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(back, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  int right = 0;
  for (int i = 0; i < n; ++i) right += back[i] == 3 * i + 1 + (i & 3);
  printf("kernel on the per-thread stream: %d of %d right\n", right, n);

  cudaStream_t s;
  cudaEvent_t e;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaEventCreate(&e));
  CHECK(cudaMemsetAsync(d, 1, n * sizeof(int), s));                    // cudaMemsetAsync_ptsz
  CHECK(cudaEventRecord(e, s));                                        // cudaEventRecord_ptsz
  CHECK(cudaStreamWaitEvent(cudaStreamPerThread, e, 0));               // cudaStreamWaitEvent_ptsz
  CHECK(cudaMemcpyAsync(back, d, n * sizeof(int), cudaMemcpyDeviceToHost, 0));  // cudaMemcpyAsync_ptsz
  CHECK(cudaStreamSynchronize(0));                                     // cudaStreamSynchronize_ptsz
  printf("after the memset on another stream: 0x%08x\n", (unsigned)back[n - 1]);
  printf("query of the per-thread stream: %s\n", cudaGetErrorName(cudaStreamQuery(0)));  // cudaStreamQuery_ptsz
  CHECK(cudaEventRecordWithFlags(e, 0, cudaEventRecordDefault));      // cudaEventRecordWithFlags_ptsz
  CHECK(cudaEventSynchronize(e));

  int got[4] = {0, 0, 0, 0};
  CHECK(cudaMemcpyFromSymbol(got, table, sizeof got));                 // cudaMemcpyFromSymbol_ptds
  const int t2[4] = {5, 6, 7, 8};
  CHECK(cudaMemcpyToSymbolAsync(table, t2, sizeof t2, 0, cudaMemcpyHostToDevice, 0));    // _ptsz
  int got2[4] = {0, 0, 0, 0};
  CHECK(cudaMemcpyFromSymbolAsync(got2, table, sizeof got2, 0, cudaMemcpyDeviceToHost, 0));  // _ptsz
  CHECK(cudaStreamSynchronize(0));
  printf("symbol: %d %d %d %d, then %d %d %d %d\n", got[0], got[1], got[2], got[3], got2[0], got2[1], got2[2], got2[3]);

  // 2D: a 16 x 8 block of ints in a pitched allocation.
  int* p2 = nullptr;
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&p2, &pitch, 16 * sizeof(int), 8));
  CHECK(cudaMemset2D(p2, pitch, 0, 16 * sizeof(int), 8));             // cudaMemset2D_ptds
  CHECK(cudaMemset2DAsync(p2, pitch, 2, 8 * sizeof(int), 4, 0));       // cudaMemset2DAsync_ptsz
  static int grid[8][16];
  CHECK(cudaMemcpy2DAsync(grid, 16 * sizeof(int), p2, pitch, 16 * sizeof(int), 8, cudaMemcpyDeviceToHost, 0));  // _ptsz
  CHECK(cudaStreamSynchronize(0));
  int set = 0;
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 16; ++c) set += grid[r][c] == 0x02020202;
  printf("2D memset: %d of 128 ints set\n", set);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 16; ++c) grid[r][c] = r * 16 + c;
  CHECK(cudaMemcpy2D(p2, pitch, grid, 16 * sizeof(int), 16 * sizeof(int), 8, cudaMemcpyHostToDevice));  // _ptds

  // A CUDA array: copied in and out.
  cudaChannelFormatDesc f = cudaCreateChannelDesc<int>();
  cudaArray_t a = nullptr;
  CHECK(cudaMallocArray(&a, &f, 16, 8));
  CHECK(cudaMemcpy2DToArray(a, 0, 0, p2, pitch, 16 * sizeof(int), 8, cudaMemcpyDeviceToDevice));  // _ptds
  static int grid2[8][16];
  CHECK(cudaMemcpy2DFromArrayAsync(grid2, 16 * sizeof(int), a, 0, 0, 16 * sizeof(int), 8, cudaMemcpyDeviceToHost,
                                   0));  // _ptsz
  CHECK(cudaStreamSynchronize(0));
  printf("through an array: %s\n", memcmp(grid, grid2, sizeof grid) == 0 ? "equal" : "different");

  // 3D copy of the pitched block back to the host.
  static int grid3[8][16];
  cudaMemcpy3DParms m = {};
  m.srcPtr = make_cudaPitchedPtr(p2, pitch, 16 * sizeof(int), 8);
  m.dstPtr = make_cudaPitchedPtr(grid3, 16 * sizeof(int), 16 * sizeof(int), 8);
  m.extent = make_cudaExtent(16 * sizeof(int), 8, 1);
  m.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&m));                                             // cudaMemcpy3D_ptds
  printf("3D copy: %s\n", memcmp(grid, grid3, sizeof grid) == 0 ? "equal" : "different");

  // Host work in stream order.
  CHECK(cudaLaunchHostFunc(0, host_fn, nullptr));                      // cudaLaunchHostFunc_ptsz
  CHECK(cudaStreamAddCallback(0, callback, nullptr, 0));               // cudaStreamAddCallback_ptsz
  CHECK(cudaStreamSynchronize(0));
  printf("host functions ran: %d\n", host_calls);

  CHECK(cudaFreeArray(a));
  CHECK(cudaFree(p2));
  CHECK(cudaEventDestroy(e));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d));
  printf("done\n");
  return 0;
}
