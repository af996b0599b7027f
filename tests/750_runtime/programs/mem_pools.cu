// Stream-ordered allocation: cudaMallocAsync/cudaFreeAsync from the default pool and from a
// pool the program creates, the pool's attributes (release threshold, used and reserved
// memory and their high-water marks), trimming, reuse of freed blocks, the errors, and the
// same allocations made by graph memory nodes (built by hand and by stream capture).
// mem_pools.expected is the program's output on an H100.
#include <climits>
#include <cstdint>
#include <cstdio>

static void say(const char* what, cudaError_t e) {
  printf("%s: %s\n", what, cudaGetErrorName(e));
  cudaGetLastError();
}

__global__ void fill(int* p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

__global__ void add_one(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

static unsigned long long attr(cudaMemPool_t pool, cudaMemPoolAttr a) {
  unsigned long long v = 0;
  cudaMemPoolGetAttribute(pool, a, &v);
  return v;
}

static void usage(const char* when, cudaMemPool_t pool) {
  printf("%s: used %llu (high %llu) reserved %llu (high %llu)\n", when, attr(pool, cudaMemPoolAttrUsedMemCurrent),
         attr(pool, cudaMemPoolAttrUsedMemHigh), attr(pool, cudaMemPoolAttrReservedMemCurrent),
         attr(pool, cudaMemPoolAttrReservedMemHigh));
}

static void graph_usage(const char* when) {
  unsigned long long used = 0, used_high = 0, reserved = 0, reserved_high = 0;
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &used_high);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &reserved_high);
  printf("%s: graph used %llu (high %llu) reserved %llu (high %llu)\n", when, used, used_high, reserved,
         reserved_high);
}

static long long sum_of(const int* d, int n) {
  static int h[1 << 20];
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  long long s = 0;
  for (int i = 0; i < n; ++i) s += h[i];
  return s;
}

int main() {
  int supported = -1, handle_types = -1;
  cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0);
  cudaDeviceGetAttribute(&handle_types, cudaDevAttrMemoryPoolSupportedHandleTypes, 0);
  printf("memory pools supported %d\n", supported);

  cudaMemPool_t pool = nullptr, current = nullptr;
  say("cudaDeviceGetDefaultMemPool", cudaDeviceGetDefaultMemPool(&pool, 0));
  say("cudaDeviceGetMemPool", cudaDeviceGetMemPool(&current, 0));
  printf("current pool is the default: %d\n", pool == current);
  unsigned long long threshold = 1;
  say("get release threshold", cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  int reuse = -1;
  cudaMemPoolGetAttribute(pool, cudaMemPoolReuseFollowEventDependencies, &reuse);
  printf("release threshold %llu, follow event dependencies %d\n", threshold, reuse);
  usage("start", pool);

  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  const int n = 1 << 20;
  int *a = nullptr, *b = nullptr, *c = nullptr;
  say("cudaMallocAsync(a, 4 MB)", cudaMallocAsync((void**)&a, n * sizeof(int), s));
  say("cudaMallocAsync(b, 1000 B)", cudaMallocAsync((void**)&b, 1000, s));
  say("cudaMallocAsync(c, 3 MB)", cudaMallocAsync((void**)&c, 3 << 20, s));
  usage("after three allocations", pool);
  fill<<<n / 256, 256, 0, s>>>(a, n, 7);
  add_one<<<n / 256, 256, 0, s>>>(a, n);
  say("cudaStreamSynchronize", cudaStreamSynchronize(s));
  printf("sum of a %lld\n", sum_of(a, n));
  say("cudaFreeAsync(c)", cudaFreeAsync(c, s));
  usage("after freeing c", pool);
  say("cudaStreamSynchronize", cudaStreamSynchronize(s));
  usage("after the synchronize (threshold 0)", pool);

  // A freed block is reused by the next allocation of its size on the same stream.
  int* old_a = a;
  say("cudaFreeAsync(a)", cudaFreeAsync(a, s));
  say("cudaMallocAsync(a again)", cudaMallocAsync((void**)&a, n * sizeof(int), s));
  printf("same address after free and malloc on one stream: %d\n", a == old_a);
  say("cudaFreeAsync(a)", cudaFreeAsync(a, s));
  say("cudaFreeAsync(b)", cudaFreeAsync(b, s));
  say("cudaStreamSynchronize", cudaStreamSynchronize(s));
  usage("all freed, synchronized", pool);

  // With a high threshold, freed memory stays reserved until trimmed.
  threshold = ULLONG_MAX;
  say("set release threshold", cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  say("cudaMallocAsync(a, 4 MB)", cudaMallocAsync((void**)&a, n * sizeof(int), s));
  say("cudaFreeAsync(a)", cudaFreeAsync(a, s));
  say("cudaStreamSynchronize", cudaStreamSynchronize(s));
  usage("threshold max, freed, synchronized", pool);
  say("cudaMemPoolTrimTo(0)", cudaMemPoolTrimTo(pool, 0));
  usage("trimmed", pool);
  unsigned long long zero = 0;
  say("reset used high", cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  say("reset reserved high", cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &zero));
  usage("high marks reset", pool);
  say("set used current (read-only)", cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &zero));
  threshold = 0;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);

  // Errors.
  int x;
  say("cudaFreeAsync(host pointer)", cudaFreeAsync(&x, s));
  void* huge = nullptr;
  say("cudaMallocAsync(1 PB)", cudaMallocAsync(&huge, 1ull << 50, s));
  printf("huge is null: %d\n", huge == nullptr);
  say("cudaMallocAsync(NULL out)", cudaMallocAsync(nullptr, 16, s));
  void* none = (void*)1;
  say("cudaMallocAsync(0 bytes)", cudaMallocAsync(&none, 0, s));
  printf("0 bytes gives null: %d\n", none == nullptr);
  say("cudaFreeAsync(NULL)", cudaFreeAsync(nullptr, s));

  // A pool the program creates.
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t mine = nullptr;
  say("cudaMemPoolCreate", cudaMemPoolCreate(&mine, &props));
  cudaMemAccessDesc desc = {};
  desc.location = props.location;
  desc.flags = cudaMemAccessFlagsProtReadWrite;
  say("cudaMemPoolSetAccess", cudaMemPoolSetAccess(mine, &desc, 1));
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  cudaMemLocation loc = props.location;
  say("cudaMemPoolGetAccess", cudaMemPoolGetAccess(&flags, mine, &loc));
  printf("access flags %d\n", int(flags));
  say("cudaMallocFromPoolAsync(c, 2 MB)", cudaMallocFromPoolAsync((void**)&c, 2 << 20, mine, s));
  fill<<<(n / 2) / 256, 256, 0, s>>>(c, n / 2, 1);
  printf("sum of c %lld\n", sum_of(c, n / 2));
  usage("own pool, one allocation", mine);
  usage("default pool meanwhile", pool);
  say("cudaFreeAsync(c)", cudaFreeAsync(c, s));
  say("cudaStreamSynchronize", cudaStreamSynchronize(s));
  usage("own pool, freed", mine);
  say("cudaDeviceSetMemPool(mine)", cudaDeviceSetMemPool(0, mine));
  cudaDeviceGetMemPool(&current, 0);
  printf("current pool is mine: %d\n", current == mine);
  say("cudaMallocAsync(a) from the current pool", cudaMallocAsync((void**)&a, 1 << 20, s));
  usage("own pool after cudaMallocAsync", mine);
  cudaFreeAsync(a, s);
  cudaStreamSynchronize(s);
  say("cudaDeviceSetMemPool(default)", cudaDeviceSetMemPool(0, pool));
  say("cudaMemPoolDestroy(mine)", cudaMemPoolDestroy(mine));
  say("cudaMemPoolDestroy(default)", cudaMemPoolDestroy(pool));

  // Graph memory nodes, built by hand: allocate, fill, add, free.
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = n * sizeof(int);
  cudaGraphNode_t alloc_node, fill_node, add_node, free_node;
  say("cudaGraphAddMemAllocNode", cudaGraphAddMemAllocNode(&alloc_node, g, nullptr, 0, &ap));
  printf("allocation node gave an address: %d\n", ap.dptr != nullptr);
  int* gp = (int*)ap.dptr;
  int count = n;
  int start = 100;
  void* fill_args[] = {&gp, &count, &start};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)fill;
  kp.gridDim = dim3(n / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = fill_args;
  cudaGraphAddKernelNode(&fill_node, g, &alloc_node, 1, &kp);
  void* add_args[] = {&gp, &count};
  kp.func = (void*)add_one;
  kp.kernelParams = add_args;
  cudaGraphAddKernelNode(&add_node, g, &fill_node, 1, &kp);
  cudaMemAllocNodeParams back = {};
  say("cudaGraphMemAllocNodeGetParams", cudaGraphMemAllocNodeGetParams(alloc_node, &back));
  printf("params: %llu bytes, same address %d\n", (unsigned long long)back.bytesize, back.dptr == ap.dptr);
  graph_usage("before instantiation");
  cudaGraphExec_t ge;
  say("cudaGraphInstantiate (allocation, no free)", cudaGraphInstantiate(&ge, g, 0));
  say("cudaGraphLaunch", cudaGraphLaunch(ge, s));
  say("cudaStreamSynchronize", cudaStreamSynchronize(s));
  printf("graph sum %lld\n", sum_of(gp, n));
  graph_usage("after launch, not freed");
  say("cudaGraphLaunch again (allocation still live)", cudaGraphLaunch(ge, s));
  cudaStreamSynchronize(s);
  say("cudaFree(graph allocation)", cudaFree(gp));
  graph_usage("after cudaFree");
  say("cudaDeviceGraphMemTrim", cudaDeviceGraphMemTrim(0));
  graph_usage("after trim");
  cudaGraphExecDestroy(ge);

  cudaGraphDestroy(g);

  // A graph that frees what it allocates can be launched repeatedly.
  cudaGraphCreate(&g, 0);
  ap.dptr = nullptr;
  say("cudaGraphAddMemAllocNode", cudaGraphAddMemAllocNode(&alloc_node, g, nullptr, 0, &ap));
  gp = (int*)ap.dptr;
  kp.func = (void*)fill;
  kp.kernelParams = fill_args;
  cudaGraphAddKernelNode(&fill_node, g, &alloc_node, 1, &kp);
  cudaMemFreeNodeParams fp = {};
  say("cudaGraphAddMemFreeNode", cudaGraphAddMemFreeNode(&free_node, g, &fill_node, 1, ap.dptr));
  say("cudaGraphMemFreeNodeGetParams", cudaGraphMemFreeNodeGetParams(free_node, &fp.dptr));
  printf("free node frees the allocation: %d\n", fp.dptr == ap.dptr);
  say("cudaGraphAddMemFreeNode (twice)", cudaGraphAddMemFreeNode(&add_node, g, &free_node, 1, ap.dptr));
  say("cudaGraphInstantiate (with free)", cudaGraphInstantiate(&ge, g, 0));
  for (int i = 0; i < 3; ++i) say("cudaGraphLaunch", cudaGraphLaunch(ge, s));
  say("cudaStreamSynchronize", cudaStreamSynchronize(s));
  graph_usage("after three launches with free");
  say("cudaDeviceGraphMemTrim", cudaDeviceGraphMemTrim(0));
  graph_usage("after trim");
  say("reset graph used high", cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
  graph_usage("after reset");
  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(g);

  // Stream capture turns cudaMallocAsync/cudaFreeAsync into memory nodes.
  cudaStream_t cs;
  cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking);
  int* out;
  cudaMalloc((void**)&out, sizeof(long long));
  cudaGraph_t cg;
  say("cudaStreamBeginCapture", cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal));
  int* t = nullptr;
  say("cudaMallocAsync (captured)", cudaMallocAsync((void**)&t, n * sizeof(int), cs));
  fill<<<n / 256, 256, 0, cs>>>(t, n, 5);
  add_one<<<n / 256, 256, 0, cs>>>(t, n);
  cudaMemcpyAsync(out, t + 1000, sizeof(int), cudaMemcpyDeviceToDevice, cs);
  say("cudaFreeAsync (captured)", cudaFreeAsync(t, cs));
  say("cudaStreamEndCapture", cudaStreamEndCapture(cs, &cg));
  size_t nodes = 0;
  cudaGraphGetNodes(cg, nullptr, &nodes);
  printf("captured graph has %zu nodes\n", nodes);
  cudaGraphExec_t cge;
  say("cudaGraphInstantiate (captured)", cudaGraphInstantiate(&cge, cg, 0));
  say("cudaGraphLaunch", cudaGraphLaunch(cge, cs));
  say("cudaStreamSynchronize", cudaStreamSynchronize(cs));
  int value = 0;
  cudaMemcpy(&value, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("captured graph computed %d\n", value);
  cudaGraphExecDestroy(cge);
  cudaGraphDestroy(cg);
  cudaFree(out);
  cudaStreamDestroy(cs);

  // cudaFree of a stream-ordered allocation works too (it synchronizes).
  say("cudaMallocAsync(b)", cudaMallocAsync((void**)&b, 4096, s));
  say("cudaFree(b)", cudaFree(b));
  say("cudaStreamSynchronize", cudaStreamSynchronize(s));
  cudaStreamDestroy(s);
  say("final cudaDeviceSynchronize", cudaDeviceSynchronize());
  return 0;
}
