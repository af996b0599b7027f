// CUDA graphs inspected and edited after they are built: node types, root nodes, edges and
// dependencies (printed by creation index, sorted: CUDA does not promise an order), edges
// added and removed, a node destroyed, each node kind's parameters read back and changed in
// the graph and in an executable graph, nodes disabled and enabled again, a clone's nodes
// found, instantiation with parameters (and with a cycle), its flags, and upload. Every
// call's result and every value is printed; graph_editing.expected is what an H200 prints.
#include <algorithm>
#include <cstdio>
#include <vector>

#define SHOW(x) std::printf("%-72s %s\n", #x, cudaGetErrorName(x))

__global__ void add(float* v, float x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += x;
}

__global__ void scale(float* v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= s;
}

void CUDART_CB mark(void* p) { ++*static_cast<int*>(p); }

// Nodes by creation index; -1 for NULL, -2 for a node of another graph.
std::vector<cudaGraphNode_t> known;
int id(cudaGraphNode_t n) {
  if (!n) return -1;
  auto it = std::find(known.begin(), known.end(), n);
  return it == known.end() ? -2 : int(it - known.begin());
}

void print_ids(const char* what, const cudaGraphNode_t* v, size_t count) {
  std::vector<int> ids;
  for (size_t i = 0; i < count; ++i) ids.push_back(id(v[i]));
  std::sort(ids.begin(), ids.end());
  std::printf("%s (%zu):", what, count);
  for (int i : ids) std::printf(" %d", i);
  std::printf("\n");
}

void print_edges(cudaGraph_t g) {
  size_t count = 0;
  SHOW(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &count));
  std::vector<cudaGraphNode_t> from(count + 2), to(count + 2);
  std::vector<cudaGraphEdgeData> data(count + 2);
  size_t room = count + 2;  // more room than edges: the rest comes back NULL
  SHOW(cudaGraphGetEdges(g, from.data(), to.data(), data.data(), &room));
  std::vector<std::pair<int, int>> edges;
  for (size_t i = 0; i < room; ++i) edges.push_back({id(from[i]), id(to[i])});
  std::sort(edges.begin(), edges.end());
  std::printf("edges (%zu of %zu):", room, count);
  for (auto [a, b] : edges) std::printf(" %d->%d", a, b);
  int nonzero = 0;
  for (size_t i = 0; i < room; ++i)
    nonzero += data[i].from_port != 0 || data[i].to_port != 0 || data[i].type != 0;
  std::printf("; non-default edge data: %d; entries past the edges: %d %d\n", nonzero, id(from[room]), id(to[room]));
}

void print_types(cudaGraph_t g) {
  size_t count = 0;
  SHOW(cudaGraphGetNodes(g, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  SHOW(cudaGraphGetNodes(g, nodes.data(), &count));
  std::printf("node types:");
  for (cudaGraphNode_t n : nodes) {
    cudaGraphNodeType t;
    cudaError_t e = cudaGraphNodeGetType(n, &t);
    std::printf(" %d:%d%s", id(n), int(t), e == cudaSuccess ? "" : cudaGetErrorName(e));
  }
  std::printf("\n");
}

void print_values(const char* what, const float* h, int n, int calls, int calls2, const unsigned* word) {
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += h[i];
  std::printf("%s: h[0..3] %.1f %.1f %.1f %.1f, sum %.1f, host node calls %d and %d, memset word %u\n", what, h[0],
              h[1], h[2], h[3], sum, calls, calls2, *word);
}

int main() {
  const int n = 256;
  float *d = nullptr;
  unsigned* d2 = nullptr;
  std::vector<float> h(n, -1.0f), init(n);
  for (int i = 0; i < n; ++i) init[i] = float(i % 5);
  SHOW(cudaMalloc(&d, n * sizeof(float)));
  SHOW(cudaMalloc(&d2, 64 * sizeof(unsigned)));
  cudaStream_t s;
  SHOW(cudaStreamCreate(&s));
  int calls = 0, calls2 = 0;
  unsigned word = 0;

  // n0 copy in -> n1 add -> n2 scale -> n3 copy out -> n4 host; n5 empty, n6 memset, n7 empty.
  cudaGraph_t g;
  SHOW(cudaGraphCreate(&g, 0));
  cudaGraphNode_t n0, n1, n2, n3, n4, n5, n6, n7;
  SHOW(cudaGraphAddMemcpyNode1D(&n0, g, nullptr, 0, d, init.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  float one = 1.0f, two = 2.0f;
  int count = n;
  void* add_args[] = {&d, &one, &count};
  void* scale_args[] = {&d, &two, &count};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)add;
  kp.gridDim = dim3(2);
  kp.blockDim = dim3(128);
  kp.kernelParams = add_args;
  SHOW(cudaGraphAddKernelNode(&n1, g, &n0, 1, &kp));
  kp.func = (void*)scale;
  kp.kernelParams = scale_args;
  SHOW(cudaGraphAddKernelNode(&n2, g, &n1, 1, &kp));
  SHOW(cudaGraphAddMemcpyNode1D(&n3, g, &n2, 1, h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  cudaHostNodeParams hp = {mark, &calls};
  SHOW(cudaGraphAddHostNode(&n4, g, &n3, 1, &hp));
  SHOW(cudaGraphAddEmptyNode(&n5, g, nullptr, 0));
  cudaMemsetParams mp = {};
  mp.dst = d2;
  mp.value = 7;
  mp.elementSize = 4;
  mp.width = 64;
  mp.height = 1;
  SHOW(cudaGraphAddMemsetNode(&n6, g, nullptr, 0, &mp));
  SHOW(cudaGraphAddEmptyNode(&n7, g, &n6, 1));
  known = {n0, n1, n2, n3, n4, n5, n6, n7};

  // Inspection.
  print_types(g);
  size_t roots = 0;
  SHOW(cudaGraphGetRootNodes(g, nullptr, &roots));
  std::vector<cudaGraphNode_t> root(roots + 1);
  size_t room = roots + 1;
  SHOW(cudaGraphGetRootNodes(g, root.data(), &room));
  print_ids("roots", root.data(), room);
  std::printf("entry past the roots: %d\n", id(root[room]));
  print_edges(g);
  cudaGraphNode_t deps[4];
  cudaGraphEdgeData edata[4];
  size_t ndeps = 0;
  SHOW(cudaGraphNodeGetDependencies(n2, nullptr, nullptr, &ndeps));
  std::printf("n2 has %zu dependencies\n", ndeps);
  ndeps = 4;
  SHOW(cudaGraphNodeGetDependencies(n2, deps, edata, &ndeps));
  print_ids("n2 depends on", deps, ndeps);
  ndeps = 4;
  SHOW(cudaGraphNodeGetDependentNodes(n1, deps, nullptr, &ndeps));
  print_ids("n1's dependents", deps, ndeps);
  ndeps = 4;
  SHOW(cudaGraphNodeGetDependentNodes(n4, deps, nullptr, &ndeps));
  print_ids("n4's dependents", deps, ndeps);

  // Edges added and removed.
  SHOW(cudaGraphAddDependencies(g, &n5, &n1, nullptr, 1));
  SHOW(cudaGraphAddDependencies(g, &n5, &n1, nullptr, 1));
  SHOW(cudaGraphAddDependencies(g, &n1, &n1, nullptr, 1));
  cudaGraph_t other;
  cudaGraphNode_t stranger;
  SHOW(cudaGraphCreate(&other, 0));
  SHOW(cudaGraphAddEmptyNode(&stranger, other, nullptr, 0));
  SHOW(cudaGraphAddDependencies(g, &stranger, &n1, nullptr, 1));
  SHOW(cudaGraphAddDependencies(g, nullptr, nullptr, nullptr, 0));
  print_edges(g);
  SHOW(cudaGraphRemoveDependencies(g, &n5, &n1, nullptr, 1));
  SHOW(cudaGraphRemoveDependencies(g, &n5, &n1, nullptr, 1));
  SHOW(cudaGraphRemoveDependencies(g, &n0, &n2, nullptr, 1));
  cudaGraphNode_t from2[] = {n6, n5}, to2[] = {n5, n4};
  SHOW(cudaGraphAddDependencies(g, from2, to2, nullptr, 2));
  print_edges(g);
  SHOW(cudaGraphDestroyNode(n7));
  print_types(g);
  print_edges(g);
  size_t left = 0;
  SHOW(cudaGraphGetNodes(other, nullptr, &left));
  std::printf("the other graph has %zu nodes\n", left);

  // Parameters read back and changed in the graph.
  cudaKernelNodeParams got = {};
  SHOW(cudaGraphKernelNodeGetParams(n1, &got));
  std::printf("n1: add %d, grid %u %u %u, block %u %u %u, shared %u, x %.1f, n %d, extra %d\n", got.func == (void*)add,
              got.gridDim.x, got.gridDim.y, got.gridDim.z, got.blockDim.x, got.blockDim.y, got.blockDim.z,
              got.sharedMemBytes, *static_cast<float*>(got.kernelParams[1]), *static_cast<int*>(got.kernelParams[2]),
              got.extra != nullptr);
  float three = 3.0f;
  void* add3[] = {&d, &three, &count};
  got.kernelParams = add3;
  SHOW(cudaGraphKernelNodeSetParams(n1, &got));
  got = {};
  SHOW(cudaGraphKernelNodeGetParams(n1, &got));
  std::printf("n1 after set: x %.1f\n", *static_cast<float*>(got.kernelParams[1]));
  SHOW(cudaGraphKernelNodeGetParams(n0, &got));
  cudaMemcpy3DParms cp = {};
  SHOW(cudaGraphMemcpyNodeGetParams(n0, &cp));
  std::printf("n0: srcArray %d dstArray %d, src %d pitch %zu xsize %zu ysize %zu, dst %d pitch %zu, pos %zu %zu %zu, "
              "extent %zu %zu %zu, kind %d\n",
              cp.srcArray != nullptr, cp.dstArray != nullptr, cp.srcPtr.ptr == init.data(), cp.srcPtr.pitch,
              cp.srcPtr.xsize, cp.srcPtr.ysize, cp.dstPtr.ptr == d, cp.dstPtr.pitch, cp.srcPos.x, cp.dstPos.x,
              cp.srcPos.y, cp.extent.width, cp.extent.height, cp.extent.depth, int(cp.kind));
  SHOW(cudaGraphMemcpyNodeSetParams1D(n3, h.data(), d, 4 * sizeof(float), cudaMemcpyDeviceToHost));
  cp = {};
  SHOW(cudaGraphMemcpyNodeGetParams(n3, &cp));
  std::printf("n3: src %d dst %d, extent %zu %zu %zu, kind %d\n", cp.srcPtr.ptr == d, cp.dstPtr.ptr == h.data(),
              cp.extent.width, cp.extent.height, cp.extent.depth, int(cp.kind));
  SHOW(cudaGraphMemcpyNodeGetParams(n1, &cp));
  cudaMemsetParams ms = {};
  SHOW(cudaGraphMemsetNodeGetParams(n6, &ms));
  std::printf("n6: dst %d pitch %zu value %u elementSize %u width %zu height %zu\n", ms.dst == d2, ms.pitch, ms.value,
              ms.elementSize, ms.width, ms.height);
  ms.value = 9;
  SHOW(cudaGraphMemsetNodeSetParams(n6, &ms));
  ms.elementSize = 3;
  SHOW(cudaGraphMemsetNodeSetParams(n6, &ms));
  cudaHostNodeParams hg = {};
  SHOW(cudaGraphHostNodeGetParams(n4, &hg));
  std::printf("n4: fn %d userData %d\n", hg.fn == mark, hg.userData == &calls);
  hg.userData = &calls2;
  SHOW(cudaGraphHostNodeSetParams(n4, &hg));
  SHOW(cudaGraphHostNodeGetParams(n5, &hg));

  // Instantiated with parameters, uploaded and launched.
  cudaGraphInstantiateParams ip = {};
  ip.flags = cudaGraphInstantiateFlagUpload;
  ip.uploadStream = s;
  cudaGraphExec_t e;
  SHOW(cudaGraphInstantiateWithParams(&e, g, &ip));
  std::printf("result_out %d, errNode_out %d\n", int(ip.result_out), id(ip.errNode_out));
  unsigned long long flags = 99;
  SHOW(cudaGraphExecGetFlags(e, &flags));
  std::printf("flags %llu\n", flags);
  SHOW(cudaGraphUpload(e, s));
  SHOW(cudaGraphLaunch(e, s));
  SHOW(cudaStreamSynchronize(s));
  SHOW(cudaMemcpy(&word, d2 + 5, sizeof word, cudaMemcpyDeviceToHost));
  print_values("first launch", h.data(), n, calls, calls2, &word);

  // Changed in the executable graph only.
  SHOW(cudaGraphExecMemcpyNodeSetParams1D(e, n3, h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  ms.elementSize = 4;
  ms.value = 11;
  SHOW(cudaGraphExecMemsetNodeSetParams(e, n6, &ms));
  cudaHostNodeParams back = {mark, &calls};
  SHOW(cudaGraphExecHostNodeSetParams(e, n4, &back));
  SHOW(cudaGraphExecMemsetNodeSetParams(e, n4, &ms));
  SHOW(cudaGraphLaunch(e, s));
  SHOW(cudaStreamSynchronize(s));
  SHOW(cudaMemcpy(&word, d2 + 5, sizeof word, cudaMemcpyDeviceToHost));
  print_values("second launch", h.data(), n, calls, calls2, &word);
  cp = {};
  SHOW(cudaGraphMemcpyNodeGetParams(n3, &cp));
  std::printf("the graph's n3 still copies %zu bytes\n", cp.extent.width);
  cudaMemcpy3DParms whole = {};
  whole.srcPtr = make_cudaPitchedPtr(d, n * sizeof(float), n * sizeof(float), 1);
  whole.dstPtr = make_cudaPitchedPtr(h.data(), n * sizeof(float), n * sizeof(float), 1);
  whole.extent = make_cudaExtent(n * sizeof(float), 1, 1);
  whole.kind = cudaMemcpyDeviceToHost;
  SHOW(cudaGraphExecMemcpyNodeSetParams(e, n3, &whole));

  // Disabled and enabled again.
  unsigned on = 7;
  SHOW(cudaGraphNodeGetEnabled(e, n2, &on));
  std::printf("n2 enabled: %u\n", on);
  SHOW(cudaGraphNodeSetEnabled(e, n2, 0));
  SHOW(cudaGraphNodeGetEnabled(e, n2, &on));
  std::printf("n2 enabled: %u\n", on);
  SHOW(cudaGraphNodeSetEnabled(e, n6, 0));
  SHOW(cudaGraphNodeSetEnabled(e, n4, 0));
  SHOW(cudaGraphNodeGetEnabled(e, n4, &on));
  SHOW(cudaMemset(d2, 0, 64 * sizeof(unsigned)));
  SHOW(cudaGraphLaunch(e, s));
  SHOW(cudaStreamSynchronize(s));
  SHOW(cudaMemcpy(&word, d2 + 5, sizeof word, cudaMemcpyDeviceToHost));
  print_values("n2 and n6 disabled", h.data(), n, calls, calls2, &word);
  SHOW(cudaGraphNodeSetEnabled(e, n2, 1));
  SHOW(cudaGraphNodeSetEnabled(e, n6, 1));
  SHOW(cudaGraphLaunch(e, s));
  SHOW(cudaStreamSynchronize(s));
  SHOW(cudaMemcpy(&word, d2 + 5, sizeof word, cudaMemcpyDeviceToHost));
  print_values("enabled again", h.data(), n, calls, calls2, &word);

  // A clone's nodes.
  cudaGraph_t c;
  SHOW(cudaGraphClone(&c, g));
  cudaGraphNode_t found = nullptr;
  SHOW(cudaGraphNodeFindInClone(&found, n1, c));
  cudaGraphNodeType t;
  SHOW(cudaGraphNodeGetType(found, &t));
  std::printf("n1's clone: a different handle %d, type %d\n", found != n1 && found != nullptr, int(t));
  SHOW(cudaGraphNodeFindInClone(&found, n1, g));
  SHOW(cudaGraphNodeFindInClone(&found, stranger, c));

  // A cycle: refused at instantiation.
  SHOW(cudaGraphAddDependencies(g, &n3, &n0, nullptr, 1));
  cudaGraphInstantiateParams ip2 = {};
  cudaGraphExec_t e2 = nullptr;
  SHOW(cudaGraphInstantiateWithParams(&e2, g, &ip2));
  std::printf("result_out %d\n", int(ip2.result_out));
  SHOW(cudaGraphRemoveDependencies(g, &n3, &n0, nullptr, 1));
  SHOW(cudaGraphInstantiateWithParams(&e2, g, &ip2));
  std::printf("result_out %d\n", int(ip2.result_out));
  SHOW(cudaGraphExecGetFlags(e2, &flags));
  std::printf("flags %llu\n", flags);

  SHOW(cudaGraphExecDestroy(e2));
  SHOW(cudaGraphExecDestroy(e));
  SHOW(cudaGraphDestroy(c));
  SHOW(cudaGraphDestroy(other));
  SHOW(cudaGraphDestroy(g));
  SHOW(cudaStreamDestroy(s));
  SHOW(cudaFree(d2));
  SHOW(cudaFree(d));
  SHOW(cudaGetLastError());
  return 0;
}
