// An executable graph launched into a capturing stream: what the capture records (node
// types and count), the captured graph run twice, and the executable graph still usable on
// its own. Every call's result and every value is printed; capture_graph_launch.expected
// is what an H200 prints.
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

void print_types(cudaGraph_t g, const char* what) {
  size_t n = 0;
  cudaGraphGetNodes(g, nullptr, &n);
  std::vector<cudaGraphNode_t> nodes(n);
  cudaGraphGetNodes(g, nodes.data(), &n);
  std::printf("%s: %zu nodes, types", what, n);
  for (cudaGraphNode_t x : nodes) {
    cudaGraphNodeType t;
    cudaGraphNodeGetType(x, &t);
    size_t deps = 0;
    cudaGraphNodeGetDependencies(x, nullptr, nullptr, &deps);
    std::printf(" %d(%zu deps)", int(t), deps);
    if (t == cudaGraphNodeTypeGraph) {
      cudaGraph_t child;
      cudaGraphChildGraphNodeGetGraph(x, &child);
      size_t m = 0;
      cudaGraphGetNodes(child, nullptr, &m);
      std::printf("[child of %zu nodes]", m);
    }
  }
  std::printf("\n");
}

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  const int n = 256;
  float* d = nullptr;
  float h[4];
  SHOW(cudaMalloc(&d, n * sizeof(float)));
  cudaStream_t s;
  SHOW(cudaStreamCreate(&s));

  // The inner graph: add 1, then add 2.
  cudaGraph_t inner;
  SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  add<<<1, n, 0, s>>>(d, 1.0f, n);
  add<<<1, n, 0, s>>>(d, 2.0f, n);
  SHOW(cudaStreamEndCapture(s, &inner));
  cudaGraphExec_t inner_exec;
  SHOW(cudaGraphInstantiate(&inner_exec, inner, 0));

  // The outer capture: memset 0 -> the inner graph's launch -> scale by 10.
  SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  SHOW(cudaMemsetAsync(d, 0, n * sizeof(float), s));
  SHOW(cudaGraphLaunch(inner_exec, s));
  scale<<<1, n, 0, s>>>(d, 10.0f, n);
  SHOW(cudaGetLastError());
  cudaGraph_t outer = nullptr;
  SHOW(cudaStreamEndCapture(s, &outer));
  if (!outer) return 0;
  print_types(outer, "outer");

  cudaGraphExec_t outer_exec;
  SHOW(cudaGraphInstantiate(&outer_exec, outer, 0));
  for (int round = 0; round < 2; ++round) {
    SHOW(cudaGraphLaunch(outer_exec, s));
    SHOW(cudaStreamSynchronize(s));
    SHOW(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("outer launch %d: %.1f %.1f %.1f %.1f\n", round, h[0], h[1], h[2], h[3]);
  }
  // The inner executable graph on its own, after: adds 3 again.
  SHOW(cudaGraphLaunch(inner_exec, s));
  SHOW(cudaStreamSynchronize(s));
  SHOW(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  std::printf("inner alone: %.1f %.1f %.1f %.1f\n", h[0], h[1], h[2], h[3]);

  SHOW(cudaGraphExecDestroy(outer_exec));
  SHOW(cudaGraphExecDestroy(inner_exec));
  SHOW(cudaGraphDestroy(outer));
  SHOW(cudaGraphDestroy(inner));
  SHOW(cudaStreamDestroy(s));
  SHOW(cudaFree(d));
  return 0;
}
