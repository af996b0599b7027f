// Managed memory's advice and what cudaMemRangeGetAttribute(s) reads back of it (read
// mostly, preferred location, accessed-by, last prefetch; whole ranges, parts of them and
// the page granularity), batched copies (cudaMemcpyBatchAsync) and prefetches
// (cudaMemPrefetchBatchAsync), cudaMemcpyArrayToArray, the linear texture width limit and
// peer access on a one-GPU machine, each with its refusals. What it prints on a real GPU is
// memory_advice_batches.expected.
// nvcc flags: -cudart shared
#include <cuda_runtime.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // cudaMemcpyArrayToArray

#include <cstdio>
#include <cstring>
#include <vector>

#define SHOW(expr) std::printf("%-72s %s\n", #expr, cudaGetErrorName(expr))

static cudaMemLocation device0() {
  cudaMemLocation l = {};
  l.type = cudaMemLocationTypeDevice;
  l.id = 0;
  return l;
}

static cudaMemLocation host() {
  cudaMemLocation l = {};
  l.type = cudaMemLocationTypeHost;
  l.id = 0;
  return l;
}

static void show_int(const char* what, cudaMemRangeAttribute a, const void* p, size_t n) {
  int v = -99;
  cudaError_t e = cudaMemRangeGetAttribute(&v, sizeof v, a, p, n);
  std::printf("  %-44s %s %d\n", what, cudaGetErrorName(e), v);
}

__global__ void twice(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 2;
}

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const size_t mb = 1 << 20;
  char* m = nullptr;
  SHOW(cudaMallocManaged(&m, 8 * mb));

  std::printf("-- before any advice\n");
  show_int("read mostly, all", cudaMemRangeAttributeReadMostly, m, 8 * mb);
  show_int("preferred location, all", cudaMemRangeAttributePreferredLocation, m, 8 * mb);
  show_int("last prefetch, all", cudaMemRangeAttributeLastPrefetchLocation, m, 8 * mb);
  show_int("preferred location type, all", cudaMemRangeAttributePreferredLocationType, m, 8 * mb);
  show_int("last prefetch type, all", cudaMemRangeAttributeLastPrefetchLocationType, m, 8 * mb);

  std::printf("-- advice on parts\n");
  SHOW(cudaMemAdvise(m, 2 * mb, cudaMemAdviseSetReadMostly, device0()));
  show_int("read mostly, first 2 MB", cudaMemRangeAttributeReadMostly, m, 2 * mb);
  show_int("read mostly, first 3 MB", cudaMemRangeAttributeReadMostly, m, 3 * mb);
  show_int("read mostly, bytes 100-200", cudaMemRangeAttributeReadMostly, m + 100, 100);
  SHOW(cudaMemAdvise(m + 4 * mb + 100, 100, cudaMemAdviseSetReadMostly, device0()));
  show_int("read mostly, 4 MB + 0, 1 byte", cudaMemRangeAttributeReadMostly, m + 4 * mb, 1);
  show_int("read mostly, 4 MB + 4095, 1 byte", cudaMemRangeAttributeReadMostly, m + 4 * mb + 4095, 1);
  show_int("read mostly, 4 MB + 4096, 1 byte", cudaMemRangeAttributeReadMostly, m + 4 * mb + 4096, 1);
  show_int("read mostly, 4 MB + 65535, 1 byte", cudaMemRangeAttributeReadMostly, m + 4 * mb + 65535, 1);
  show_int("read mostly, 4 MB + 65536, 1 byte", cudaMemRangeAttributeReadMostly, m + 4 * mb + 65536, 1);
  SHOW(cudaMemAdvise(m + mb, mb, cudaMemAdviseUnsetReadMostly, device0()));
  show_int("read mostly, first MB after unsetting the second", cudaMemRangeAttributeReadMostly, m, mb);
  show_int("read mostly, second MB", cudaMemRangeAttributeReadMostly, m + mb, mb);

  SHOW(cudaMemAdvise(m, 4 * mb, cudaMemAdviseSetPreferredLocation, device0()));
  SHOW(cudaMemAdvise(m + 4 * mb, 4 * mb, cudaMemAdviseSetPreferredLocation, host()));
  show_int("preferred location, first 4 MB", cudaMemRangeAttributePreferredLocation, m, 4 * mb);
  show_int("preferred location, last 4 MB", cudaMemRangeAttributePreferredLocation, m + 4 * mb, 4 * mb);
  show_int("preferred location, all", cudaMemRangeAttributePreferredLocation, m, 8 * mb);
  show_int("preferred location type, first 4 MB", cudaMemRangeAttributePreferredLocationType, m, 4 * mb);
  show_int("preferred location id, first 4 MB", cudaMemRangeAttributePreferredLocationId, m, 4 * mb);
  show_int("preferred location type, last 4 MB", cudaMemRangeAttributePreferredLocationType, m + 4 * mb, 4 * mb);
  SHOW(cudaMemAdvise(m + 6 * mb, 2 * mb, cudaMemAdviseUnsetPreferredLocation, device0()));
  show_int("preferred location, last 2 MB after unsetting", cudaMemRangeAttributePreferredLocation, m + 6 * mb, 2 * mb);

  SHOW(cudaMemAdvise(m, 8 * mb, cudaMemAdviseSetAccessedBy, device0()));
  int ids[3] = {-99, -99, -99};
  SHOW(cudaMemRangeGetAttribute(ids, sizeof ids, cudaMemRangeAttributeAccessedBy, m, 8 * mb));
  std::printf("  accessed by: %d %d %d\n", ids[0], ids[1], ids[2]);
  SHOW(cudaMemAdvise(m + 2 * mb, mb, cudaMemAdviseUnsetAccessedBy, device0()));
  SHOW(cudaMemRangeGetAttribute(ids, sizeof ids, cudaMemRangeAttributeAccessedBy, m, 8 * mb));
  std::printf("  accessed by, after unsetting a part: %d %d %d\n", ids[0], ids[1], ids[2]);
  SHOW(cudaMemRangeGetAttribute(ids, sizeof ids, cudaMemRangeAttributeAccessedBy, m, 2 * mb));
  std::printf("  accessed by, the first 2 MB: %d %d %d\n", ids[0], ids[1], ids[2]);
  SHOW(cudaMemAdvise(m, 8 * mb, cudaMemAdviseSetAccessedBy, host()));
  SHOW(cudaMemRangeGetAttribute(ids, sizeof ids, cudaMemRangeAttributeAccessedBy, m, 8 * mb));
  std::printf("  accessed by, host too: %d %d %d\n", ids[0], ids[1], ids[2]);

  std::printf("-- prefetches\n");
  SHOW(cudaMemPrefetchAsync(m, 4 * mb, device0(), 0, 0));
  SHOW(cudaMemPrefetchAsync(m + 4 * mb, 2 * mb, host(), 0, 0));
  SHOW(cudaDeviceSynchronize());
  show_int("last prefetch, first 4 MB", cudaMemRangeAttributeLastPrefetchLocation, m, 4 * mb);
  show_int("last prefetch, next 2 MB", cudaMemRangeAttributeLastPrefetchLocation, m + 4 * mb, 2 * mb);
  show_int("last prefetch, all", cudaMemRangeAttributeLastPrefetchLocation, m, 8 * mb);
  show_int("last prefetch type, first 4 MB", cudaMemRangeAttributeLastPrefetchLocationType, m, 4 * mb);
  show_int("last prefetch id, first 4 MB", cudaMemRangeAttributeLastPrefetchLocationId, m, 4 * mb);
  show_int("last prefetch type, next 2 MB", cudaMemRangeAttributeLastPrefetchLocationType, m + 4 * mb, 2 * mb);

  void* pointers[2] = {m, m + 6 * mb};
  size_t sizes[2] = {mb, mb};
  cudaMemLocation locs[2] = {host(), device0()};
  size_t loc_idx[2] = {0, 1};
  cudaStream_t s = nullptr;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  SHOW(cudaMemPrefetchBatchAsync(pointers, sizes, 2, locs, loc_idx, 2, 0, s));
  SHOW(cudaStreamSynchronize(s));
  show_int("last prefetch, first MB after the batch", cudaMemRangeAttributeLastPrefetchLocation, m, mb);
  show_int("last prefetch, 6-7 MB after the batch", cudaMemRangeAttributeLastPrefetchLocation, m + 6 * mb, mb);

  std::printf("-- several attributes at once\n");
  int rm = -99, pl = -99, lp = -99;
  void* data[3] = {&rm, &pl, &lp};
  size_t data_sizes[3] = {4, 4, 4};
  cudaMemRangeAttribute which[3] = {cudaMemRangeAttributeReadMostly, cudaMemRangeAttributePreferredLocation,
                                    cudaMemRangeAttributeLastPrefetchLocation};
  SHOW(cudaMemRangeGetAttributes(data, data_sizes, which, 3, m, mb));
  std::printf("  read mostly %d, preferred %d, last prefetch %d\n", rm, pl, lp);

  std::printf("-- refusals\n");
  int v = 0;
  int* dev = nullptr;
  cudaMalloc(&dev, mb);
  SHOW(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, dev, mb));
  SHOW(cudaMemRangeGetAttribute(&v, 8, cudaMemRangeAttributeReadMostly, m, mb));
  SHOW(cudaMemRangeGetAttribute(&v, 4, static_cast<cudaMemRangeAttribute>(42), m, mb));
  SHOW(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, m, 0));
  SHOW(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, m, 9 * mb));
  SHOW(cudaMemRangeGetAttribute(nullptr, 4, cudaMemRangeAttributeReadMostly, m, mb));
  SHOW(cudaMemRangeGetAttribute(ids, 6, cudaMemRangeAttributeAccessedBy, m, mb));
  SHOW(cudaMemAdvise(m, mb, static_cast<cudaMemoryAdvise>(9), device0()));
  SHOW(cudaMemAdvise(dev, mb, cudaMemAdviseSetReadMostly, device0()));
  SHOW(cudaMemAdvise(m, 9 * mb, cudaMemAdviseSetReadMostly, device0()));
  cudaMemLocation nowhere = device0();
  nowhere.id = 7;
  SHOW(cudaMemAdvise(m, mb, cudaMemAdviseSetPreferredLocation, nowhere));
  SHOW(cudaMemPrefetchAsync(m, mb, nowhere, 0, 0));
  SHOW(cudaMemPrefetchAsync(m, mb, device0(), 5, 0));
  SHOW(cudaGetLastError());

  std::printf("-- batched copies\n");
  const int n = 1024;
  std::vector<int> a(n), b(n, 0), c(n, 0);
  for (int i = 0; i < n; ++i) a[i] = i;
  int *d1 = nullptr, *d2 = nullptr;
  cudaMalloc(&d1, n * sizeof(int));
  cudaMalloc(&d2, n * sizeof(int));
  void* dsts[2] = {d1, d2};
  const void* srcs[2] = {a.data(), a.data() + n / 2};
  size_t bytes[2] = {n * sizeof(int), n / 2 * sizeof(int)};
  cudaMemcpyAttributes attr = {};
  attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  size_t attr_idx = 0;
  SHOW(cudaMemcpyBatchAsync(dsts, srcs, bytes, 2, &attr, &attr_idx, 1, s));
  twice<<<n / 256, 256, 0, s>>>(d1, n);
  void* back_dsts[2] = {b.data(), c.data()};
  const void* back_srcs[2] = {d1, d2};
  cudaMemcpyAttributes back_attrs[2] = {};
  back_attrs[0].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  back_attrs[1].srcAccessOrder = cudaMemcpySrcAccessOrderAny;
  size_t back_idx[2] = {0, 1};
  SHOW(cudaMemcpyBatchAsync(back_dsts, back_srcs, bytes, 2, back_attrs, back_idx, 2, s));
  SHOW(cudaStreamSynchronize(s));
  std::printf("  b[0] %d b[1023] %d, c[0] %d c[511] %d\n", b[0], b[n - 1], c[0], c[n / 2 - 1]);
  SHOW(cudaMemcpyBatchAsync(dsts, srcs, bytes, 2, &attr, &attr_idx, 1, 0));
  SHOW(cudaMemcpyBatchAsync(dsts, srcs, bytes, 2, &attr, &attr_idx, 1, cudaStreamLegacy));
  SHOW(cudaMemcpyBatchAsync(dsts, srcs, bytes, 2, &attr, &attr_idx, 1, cudaStreamPerThread));
  cudaMemcpyAttributes invalid = {};
  SHOW(cudaMemcpyBatchAsync(dsts, srcs, bytes, 2, &invalid, &attr_idx, 1, s));
  size_t bad_idx = 1;
  SHOW(cudaMemcpyBatchAsync(dsts, srcs, bytes, 2, &attr, &bad_idx, 1, s));
  SHOW(cudaMemcpyBatchAsync(dsts, srcs, bytes, 0, &attr, &attr_idx, 1, s));
  SHOW(cudaMemcpyBatchAsync(dsts, srcs, bytes, 2, &attr, &attr_idx, 3, s));
  SHOW(cudaMemcpyBatchAsync(dsts, srcs, bytes, 2, nullptr, &attr_idx, 1, s));
  SHOW(cudaStreamSynchronize(s));
  SHOW(cudaGetLastError());

  std::printf("-- arrays, texture limits, peers\n");
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t x = nullptr, y = nullptr;
  cudaMallocArray(&x, &f, 64, 4);
  cudaMallocArray(&y, &f, 64, 4);
  std::vector<float> rows(64 * 4), out(64 * 4, -1.0f);
  for (int i = 0; i < 64 * 4; ++i) rows[i] = float(i);
  cudaMemcpy2DToArray(x, 0, 0, rows.data(), 64 * sizeof(float), 64 * sizeof(float), 4, cudaMemcpyHostToDevice);
  SHOW(cudaMemcpyArrayToArray(y, 0, 0, x, 0, 0, 64 * 4 * sizeof(float)));
  cudaMemcpy2DFromArray(out.data(), 64 * sizeof(float), y, 0, 0, 64 * sizeof(float), 4, cudaMemcpyDeviceToHost);
  std::printf("  whole copy: %g %g %g\n", out[0], out[64], out[255]);
  SHOW(cudaMemcpyArrayToArray(y, 8 * sizeof(float), 1, x, 0, 2, 16 * sizeof(float)));
  cudaMemcpy2DFromArray(out.data(), 64 * sizeof(float), y, 0, 0, 64 * sizeof(float), 4, cudaMemcpyDeviceToHost);
  std::printf("  row 1 from 8: %g %g %g, row 1 col 7: %g\n", out[64 + 8], out[64 + 23], out[64 + 24], out[64 + 7]);
  SHOW(cudaMemcpyArrayToArray(y, 60 * sizeof(float), 3, x, 0, 0, 8 * sizeof(float)));
  SHOW(cudaMemcpyArrayToArray(y, 0, 0, x, 0, 0, 64 * 5 * sizeof(float)));
  SHOW(cudaMemcpyArrayToArray(y, 0, 0, x, 0, 0, 16, cudaMemcpyHostToDevice));
  SHOW(cudaGetLastError());
  size_t width = 0;
  SHOW(cudaDeviceGetTexture1DLinearMaxWidth(&width, &f, 0));
  std::printf("  float: %zu elements\n", width);
  cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();
  SHOW(cudaDeviceGetTexture1DLinearMaxWidth(&width, &f4, 0));
  std::printf("  float4: %zu elements\n", width);
  cudaChannelFormatDesc c1 = cudaCreateChannelDesc<unsigned char>();
  SHOW(cudaDeviceGetTexture1DLinearMaxWidth(&width, &c1, 0));
  std::printf("  uchar: %zu elements\n", width);
  SHOW(cudaDeviceGetTexture1DLinearMaxWidth(&width, &f, 3));
  SHOW(cudaDeviceGetTexture1DLinearMaxWidth(nullptr, &f, 0));
  SHOW(cudaDeviceEnablePeerAccess(0, 0));
  SHOW(cudaDeviceEnablePeerAccess(1, 0));
  SHOW(cudaDeviceDisablePeerAccess(0));
  SHOW(cudaDeviceDisablePeerAccess(1));
  SHOW(cudaGetLastError());
  int valid[1] = {0};
  SHOW(cudaSetValidDevices(valid, 1));
  int invalid_dev[1] = {4};
  SHOW(cudaSetValidDevices(invalid_dev, 1));
  SHOW(cudaGetLastError());
  return 0;
}
