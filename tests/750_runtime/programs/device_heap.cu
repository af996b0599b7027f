// The device heap: malloc/free and new/delete in kernels, cudaLimitMallocHeapSize, blocks
// that outlive their kernel, exhaustion (NULL, not a fault) and reuse after free.
// device_heap.expected is an H100's output; nothing printed depends on where the blocks are.
#include <cstdio>

struct Node {
  int value;
  Node* next;
};

__device__ unsigned counters[8];

__global__ void alloc_blocks(int** ptrs, int* sizes) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int n = (t % 7 + 1) * 3;  // ints
  int* p = (int*)malloc(n * sizeof(int));
  ptrs[t] = p;
  sizes[t] = n;
  if (p)
    for (int i = 0; i < n; ++i) p[i] = t * 1000 + i;
}

// Another launch reads the blocks the first one allocated, checks them, and frees them.
__global__ void check_and_free(int** ptrs, const int* sizes, int count) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int* p = ptrs[t];
  if (!p) return;
  atomicAdd(&counters[0], 1u);
  if (((unsigned long long)p & 15) == 0) atomicAdd(&counters[1], 1u);
  bool ok = true;
  for (int i = 0; i < sizes[t]; ++i) ok = ok && p[i] == t * 1000 + i;
  if (ok) atomicAdd(&counters[2], 1u);
  // No other thread's block overlaps this one.
  bool apart = true;
  const char* lo = (const char*)p;
  const char* hi = lo + sizes[t] * sizeof(int);
  for (int u = 0; u < count; ++u) {
    if (u == t || !ptrs[u]) continue;
    const char* ulo = (const char*)ptrs[u];
    const char* uhi = ulo + sizes[u] * sizeof(int);
    if (ulo < hi && lo < uhi) apart = false;
  }
  if (apart) atomicAdd(&counters[3], 1u);
  free(p);
}

__global__ void edge_cases(unsigned long long heap_bytes) {
  void* zero = malloc(0);
  counters[4] = zero == nullptr;
  free(zero);
  void* huge = malloc(heap_bytes * 2);
  counters[5] = huge == nullptr;
  free(nullptr);  // a no-op
}

// One thread takes 1 MiB blocks until the heap says no, frees them, and does it again.
__global__ void exhaust(int* rounds) {
  void* blocks[128];
  for (int round = 0; round < 2; ++round) {
    int k = 0;
    while (k < 128 && (blocks[k] = malloc(1 << 20)) != nullptr) ++k;
    rounds[round] = k;
    for (int i = 0; i < k; ++i) free(blocks[i]);
  }
}

__global__ void lists(long long* sums) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  Node* head = nullptr;
  for (int i = 0; i < 10; ++i) head = new Node{t + i, head};
  int* arr = new int[t % 5 + 1];
  for (int i = 0; i < t % 5 + 1; ++i) arr[i] = i;
  long long s = 0;
  while (head) {
    s += head->value;
    Node* next = head->next;
    delete head;
    head = next;
  }
  for (int i = 0; i < t % 5 + 1; ++i) s += arr[i];
  delete[] arr;
  sums[t] = s;
}

static void say(const char* what, cudaError_t e) {
  printf("%s: %s\n", what, cudaGetErrorName(e));
  cudaGetLastError();
}

int main() {
  size_t heap = 0;
  say("cudaDeviceGetLimit(MallocHeapSize)", cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  printf("default heap %zu\n", heap);
  say("cudaDeviceSetLimit(MallocHeapSize, 32 MiB)", cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32u << 20));
  cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
  printf("heap %zu\n", heap);

  const int threads = 256;
  int** ptrs;
  int* sizes;
  cudaMalloc(&ptrs, threads * sizeof(int*));
  cudaMalloc(&sizes, threads * sizeof(int));
  alloc_blocks<<<2, 128>>>(ptrs, sizes);
  say("alloc_blocks", cudaDeviceSynchronize());
  check_and_free<<<2, 128>>>(ptrs, sizes, threads);
  say("check_and_free", cudaDeviceSynchronize());
  unsigned c[8];
  cudaMemcpyFromSymbol(c, counters, sizeof(c));
  printf("allocated %u, 16-byte aligned %u, contents kept across launches %u, apart from every other %u\n", c[0],
         c[1], c[2], c[3]);

  edge_cases<<<1, 1>>>(heap);
  say("edge_cases", cudaDeviceSynchronize());
  cudaMemcpyFromSymbol(c, counters, sizeof(c));
  printf("malloc(0) is NULL: %u; malloc(2 x heap) is NULL: %u\n", c[4], c[5]);

  // (Device memory and copies, not managed memory: the sanitizer build cannot map managed
  // memory at its device address.)
  int* d_rounds;
  int rounds[2];
  cudaMalloc(&d_rounds, 2 * sizeof(int));
  exhaust<<<1, 1>>>(d_rounds);
  say("exhaust", cudaDeviceSynchronize());
  cudaMemcpy(rounds, d_rounds, sizeof(rounds), cudaMemcpyDeviceToHost);
  printf("1 MiB blocks from a 32 MiB heap: between 16 and 32: %d; the same again after free: %d\n",
         rounds[0] >= 16 && rounds[0] <= 32, rounds[1] == rounds[0]);

  long long* d_sums;
  long long sums[threads];
  cudaMalloc(&d_sums, threads * sizeof(long long));
  lists<<<2, 128>>>(d_sums);
  say("lists", cudaDeviceSynchronize());
  cudaMemcpy(sums, d_sums, sizeof(sums), cudaMemcpyDeviceToHost);
  long long total = 0;
  for (int t = 0; t < threads; ++t) total += sums[t];
  printf("new/delete lists: total %lld, thread 37: %lld\n", total, sums[37]);

  say("cudaDeviceSetLimit(MallocHeapSize) after use", cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64u << 20));
  cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
  printf("heap %zu\n", heap);
  cudaFree(ptrs);
  cudaFree(sizes);
  cudaFree(d_rounds);
  cudaFree(d_sums);
  return 0;
}
