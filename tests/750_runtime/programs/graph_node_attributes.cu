// Launch attributes on graph kernel nodes and streams, and user objects: a kernel node made
// cooperative (grid.sync()) or given a cluster shape by cudaGraphKernelNodeSetAttribute runs
// so in its executable graph; an access policy window, a priority and the attributes copied
// between nodes and between streams read back as set; user objects' references held by the
// program, a graph, its clone and its instantiation, with the destructor run when the last
// goes; and each call's refusals. Built with -arch=sm_90 (clusters). What it prints on a
// real GPU is graph_node_attributes.expected.
// nvcc flags: -cudart shared
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>

namespace cg = cooperative_groups;

#define SHOW(expr) std::printf("%-64s %s\n", #expr, cudaGetErrorName(expr))

// Each block adds its slice into out[blockIdx.x]; after the grid-wide barrier block 0 sums them.
__global__ void grid_sum(const int* in, int* partial, int* total, int n) {
  cg::grid_group grid = cg::this_grid();
  int s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += in[blockIdx.x * n + i];
  atomicAdd(&partial[blockIdx.x], s);
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    *total = t;
  }
}

__global__ void cluster_shape(int* out) {
  if (threadIdx.x == 0) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cg::cluster_group c = cg::this_cluster();
    out[blockIdx.x] = int(c.block_rank()) + 100 * int(c.num_blocks());
#else
    out[blockIdx.x] = -1;
#endif
  }
}

__global__ void add(int* p, int v) { p[threadIdx.x] += v; }

static std::atomic<int> destroyed{0};
static void bump(void* p) { static_cast<std::atomic<int>*>(p)->fetch_add(1); }

// The destructor runs on one of CUDA's threads once the last reference is gone: wait up to a
// second for it.
static int destroyed_after_wait(int want) {
  for (int i = 0; i < 100 && destroyed.load() < want; ++i) usleep(10000);
  return destroyed.load();
}

static void show_window(const char* what, const cudaLaunchAttributeValue& v) {
  std::printf("%s: base %s, %zu bytes, hitRatio %.2f, hitProp %d, missProp %d\n", what,
              v.accessPolicyWindow.base_ptr ? "set" : "null", v.accessPolicyWindow.num_bytes,
              v.accessPolicyWindow.hitRatio, int(v.accessPolicyWindow.hitProp), int(v.accessPolicyWindow.missProp));
}

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const int blocks = 8, n = 256;
  int *in = nullptr, *partial = nullptr, *total = nullptr, *shape = nullptr;
  cudaMalloc(&in, blocks * n * sizeof(int));
  cudaMalloc(&partial, blocks * sizeof(int));
  cudaMalloc(&total, sizeof(int));
  cudaMalloc(&shape, blocks * sizeof(int));
  int host_in[blocks * n];
  for (int i = 0; i < blocks * n; ++i) host_in[i] = i % 7;
  cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
  cudaMemset(partial, 0, blocks * sizeof(int));
  cudaMemset(shape, 0, blocks * sizeof(int));

  std::printf("-- kernel node attributes\n");
  cudaGraph_t g = nullptr;
  cudaGraphCreate(&g, 0);
  int nn = n;
  void* sum_args[] = {&in, &partial, &total, &nn};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void*>(grid_sum);
  kp.gridDim = dim3(blocks);
  kp.blockDim = dim3(128);
  kp.kernelParams = sum_args;
  cudaGraphNode_t sum_node = nullptr, shape_node = nullptr, set_node = nullptr;
  cudaMemsetParams mp = {};
  mp.dst = total;
  mp.elementSize = 4;
  mp.width = 1;
  mp.height = 1;
  SHOW(cudaGraphAddMemsetNode(&set_node, g, nullptr, 0, &mp));
  SHOW(cudaGraphAddKernelNode(&sum_node, g, &set_node, 1, &kp));
  void* shape_args[] = {&shape};
  kp.func = reinterpret_cast<void*>(cluster_shape);
  kp.blockDim = dim3(32);
  kp.kernelParams = shape_args;
  SHOW(cudaGraphAddKernelNode(&shape_node, g, &sum_node, 1, &kp));

  cudaLaunchAttributeValue v = {};
  SHOW(cudaGraphKernelNodeGetAttribute(sum_node, cudaLaunchAttributeCooperative, &v));
  std::printf("cooperative before: %d\n", v.cooperative);
  SHOW(cudaGraphKernelNodeGetAttribute(sum_node, cudaLaunchAttributeAccessPolicyWindow, &v));
  show_window("window before", v);
  SHOW(cudaGraphKernelNodeGetAttribute(sum_node, cudaLaunchAttributePriority, &v));
  std::printf("priority before: %d\n", v.priority);
  SHOW(cudaGraphKernelNodeGetAttribute(shape_node, cudaLaunchAttributeClusterDimension, &v));
  std::printf("cluster before: %u %u %u\n", v.clusterDim.x, v.clusterDim.y, v.clusterDim.z);

  v = {};
  v.cooperative = 1;
  SHOW(cudaGraphKernelNodeSetAttribute(sum_node, cudaLaunchAttributeCooperative, &v));
  v = {};
  v.accessPolicyWindow.base_ptr = in;
  v.accessPolicyWindow.num_bytes = blocks * n * sizeof(int);
  v.accessPolicyWindow.hitRatio = 0.5f;
  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  SHOW(cudaGraphKernelNodeSetAttribute(sum_node, cudaLaunchAttributeAccessPolicyWindow, &v));
  v = {};
  v.priority = 3;
  SHOW(cudaGraphKernelNodeSetAttribute(sum_node, cudaLaunchAttributePriority, &v));
  v = {};
  v.clusterDim.x = 2;
  v.clusterDim.y = 1;
  v.clusterDim.z = 1;
  SHOW(cudaGraphKernelNodeSetAttribute(shape_node, cudaLaunchAttributeClusterDimension, &v));

  v = {};
  SHOW(cudaGraphKernelNodeGetAttribute(sum_node, cudaLaunchAttributeCooperative, &v));
  std::printf("cooperative after: %d\n", v.cooperative);
  SHOW(cudaGraphKernelNodeGetAttribute(sum_node, cudaLaunchAttributeAccessPolicyWindow, &v));
  show_window("window after", v);
  SHOW(cudaGraphKernelNodeGetAttribute(sum_node, cudaLaunchAttributePriority, &v));
  std::printf("priority after: %d\n", v.priority);
  SHOW(cudaGraphKernelNodeGetAttribute(shape_node, cudaLaunchAttributeClusterDimension, &v));
  std::printf("cluster after: %u %u %u\n", v.clusterDim.x, v.clusterDim.y, v.clusterDim.z);

  cudaGraphExec_t e = nullptr;
  SHOW(cudaGraphInstantiate(&e, g, 0));
  SHOW(cudaGraphLaunch(e, 0));
  SHOW(cudaDeviceSynchronize());
  int t = 0, shapes[blocks];
  cudaMemcpy(&t, total, sizeof t, cudaMemcpyDeviceToHost);
  cudaMemcpy(shapes, shape, sizeof shapes, cudaMemcpyDeviceToHost);
  int want = 0;
  for (int i = 0; i < blocks * n; ++i) want += host_in[i];
  std::printf("grid_sum through grid.sync(): %d (want %d)\n", t, want);
  std::printf("cluster_shape ranks and sizes:");
  for (int s : shapes) std::printf(" %d", s);
  std::printf("\n");
  SHOW(cudaGraphExecDestroy(e));

  // Copies: every attribute of one kernel node onto another.
  cudaGraphNode_t copy_node = nullptr;
  int* small = nullptr;
  cudaMalloc(&small, 32 * sizeof(int));
  cudaMemset(small, 0, 32 * sizeof(int));
  int one = 1;
  void* add_args[] = {&small, &one};
  kp.func = reinterpret_cast<void*>(add);
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(32);
  kp.kernelParams = add_args;
  SHOW(cudaGraphAddKernelNode(&copy_node, g, nullptr, 0, &kp));
  SHOW(cudaGraphKernelNodeCopyAttributes(copy_node, sum_node));
  SHOW(cudaGraphKernelNodeGetAttribute(copy_node, cudaLaunchAttributePriority, &v));
  std::printf("copied priority: %d\n", v.priority);
  SHOW(cudaGraphKernelNodeGetAttribute(copy_node, cudaLaunchAttributeAccessPolicyWindow, &v));
  show_window("copied window", v);
  SHOW(cudaGraphKernelNodeGetAttribute(copy_node, cudaLaunchAttributeCooperative, &v));
  std::printf("copied cooperative: %d\n", v.cooperative);

  // Refusals.
  SHOW(cudaGraphKernelNodeGetAttribute(set_node, cudaLaunchAttributePriority, &v));
  SHOW(cudaGraphKernelNodeSetAttribute(set_node, cudaLaunchAttributePriority, &v));
  SHOW(cudaGraphKernelNodeGetAttribute(sum_node, static_cast<cudaLaunchAttributeID>(99), &v));
  SHOW(cudaGraphKernelNodeCopyAttributes(set_node, sum_node));
  SHOW(cudaGraphKernelNodeCopyAttributes(copy_node, set_node));
  v = {};
  v.accessPolicyWindow.num_bytes = size_t(1) << 40;
  v.accessPolicyWindow.hitRatio = 0.5f;
  SHOW(cudaGraphKernelNodeSetAttribute(copy_node, cudaLaunchAttributeAccessPolicyWindow, &v));
  v = {};
  v.accessPolicyWindow.num_bytes = 4096;
  v.accessPolicyWindow.hitRatio = 2.0f;
  SHOW(cudaGraphKernelNodeSetAttribute(copy_node, cudaLaunchAttributeAccessPolicyWindow, &v));
  SHOW(cudaGetLastError());

  std::printf("-- stream attributes\n");
  cudaStream_t a = nullptr, b = nullptr;
  cudaStreamCreate(&a);
  cudaStreamCreateWithPriority(&b, cudaStreamNonBlocking, -2);
  v = {};
  v.accessPolicyWindow.base_ptr = in;
  v.accessPolicyWindow.num_bytes = 4096;
  v.accessPolicyWindow.hitRatio = 1.0f;
  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  SHOW(cudaStreamSetAttribute(a, cudaLaunchAttributeAccessPolicyWindow, &v));
  v = {};
  v.syncPolicy = cudaSyncPolicyBlockingSync;
  SHOW(cudaStreamSetAttribute(a, cudaLaunchAttributeSynchronizationPolicy, &v));
  v = {};
  SHOW(cudaStreamGetAttribute(b, cudaLaunchAttributeSynchronizationPolicy, &v));
  std::printf("b's sync policy before: %d\n", int(v.syncPolicy));
  SHOW(cudaStreamGetAttribute(b, cudaLaunchAttributePriority, &v));
  std::printf("b's priority: %d\n", v.priority);
  SHOW(cudaStreamCopyAttributes(b, a));
  SHOW(cudaStreamGetAttribute(b, cudaLaunchAttributeAccessPolicyWindow, &v));
  show_window("b's window after the copy", v);
  SHOW(cudaStreamGetAttribute(b, cudaLaunchAttributeSynchronizationPolicy, &v));
  std::printf("b's sync policy after the copy: %d\n", int(v.syncPolicy));
  SHOW(cudaStreamGetAttribute(b, cudaLaunchAttributePriority, &v));
  std::printf("b's priority after the copy: %d\n", v.priority);
  SHOW(cudaStreamCopyAttributes(b, nullptr));
  SHOW(cudaStreamGetAttribute(b, cudaLaunchAttributeAccessPolicyWindow, &v));
  show_window("b's window after copying the null stream's", v);
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);

  std::printf("-- user objects\n");
  cudaUserObject_t obj = nullptr;
  SHOW(cudaUserObjectCreate(&obj, &destroyed, bump, 2, cudaUserObjectNoDestructorSync));
  SHOW(cudaUserObjectRetain(obj, 3));
  SHOW(cudaUserObjectRelease(obj, 4));
  std::printf("destroyed with one reference left: %d\n", destroyed_after_wait(0));
  SHOW(cudaGraphRetainUserObject(g, obj, 1, cudaGraphUserObjectMove));
  cudaGraph_t clone = nullptr;
  SHOW(cudaGraphClone(&clone, g));
  SHOW(cudaGraphInstantiate(&e, g, 0));
  SHOW(cudaGraphDestroy(g));
  SHOW(cudaGraphDestroy(clone));
  SHOW(cudaDeviceSynchronize());
  std::printf("destroyed while the executable graph holds it: %d\n", destroyed_after_wait(0));
  SHOW(cudaGraphLaunch(e, 0));
  SHOW(cudaGraphExecDestroy(e));
  SHOW(cudaDeviceSynchronize());
  std::printf("destroyed after the executable graph: %d\n", destroyed_after_wait(1));

  cudaUserObject_t obj2 = nullptr;
  cudaGraph_t g2 = nullptr;
  cudaGraphCreate(&g2, 0);
  SHOW(cudaUserObjectCreate(&obj2, &destroyed, bump, 1, cudaUserObjectNoDestructorSync));
  SHOW(cudaGraphRetainUserObject(g2, obj2, 2, 0));
  SHOW(cudaGraphReleaseUserObject(g2, obj2, 1));
  SHOW(cudaUserObjectRelease(obj2, 1));
  std::printf("destroyed while a graph holds one: %d\n", destroyed_after_wait(1));
  SHOW(cudaGraphReleaseUserObject(g2, obj2, 1));
  std::printf("destroyed after the graph released it: %d\n", destroyed_after_wait(2));

  cudaUserObject_t bad = nullptr;
  SHOW(cudaUserObjectCreate(&bad, &destroyed, bump, 1, 0));
  SHOW(cudaUserObjectCreate(&bad, &destroyed, bump, 0, cudaUserObjectNoDestructorSync));
  SHOW(cudaUserObjectCreate(&bad, &destroyed, nullptr, 1, cudaUserObjectNoDestructorSync));
  SHOW(cudaUserObjectCreate(nullptr, &destroyed, bump, 1, cudaUserObjectNoDestructorSync));
  SHOW(cudaUserObjectCreate(&bad, &destroyed, bump, 1, cudaUserObjectNoDestructorSync));
  SHOW(cudaUserObjectRetain(bad, 0));
  SHOW(cudaUserObjectRelease(bad, 0));
  SHOW(cudaGraphRetainUserObject(g2, bad, 1, 2));
  SHOW(cudaGraphRetainUserObject(g2, bad, 0, 0));
  SHOW(cudaGraphRetainUserObject(nullptr, bad, 1, 0));
  SHOW(cudaGraphRetainUserObject(g2, nullptr, 1, 0));
  SHOW(cudaGraphReleaseUserObject(g2, bad, 0));
  SHOW(cudaUserObjectRelease(bad, 1));
  std::printf("destroyed at the end: %d\n", destroyed_after_wait(3));
  SHOW(cudaGraphDestroy(g2));
  SHOW(cudaGetLastError());
  return 0;
}
