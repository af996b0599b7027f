// CUDA graphs with child graph nodes and event record/wait nodes: a child graph embedded
// (a copy: later changes to the original do not reach it), read back, run inside its
// parent, its parameters replaced in an executable graph; events recorded by graph nodes
// and timed, their events read, changed in the graph and in an executable graph; a clone
// of the parent; and the errors of misuse. Every call's result and every value is printed;
// graph_child_event.expected is what an H200 prints.
#include <cstdio>
#include <vector>

#define SHOW(x) std::printf("%-72s %s\n", #x, cudaGetErrorName(x))

__global__ void add(float* v, float x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += x;
}

void CUDART_CB mark(void* p) { ++*static_cast<int*>(p); }

size_t count_nodes(cudaGraph_t g) {
  size_t n = 0;
  cudaGraphGetNodes(g, nullptr, &n);
  return n;
}

int main() {
  const int n = 128;
  float* d = nullptr;
  std::vector<float> h(n, -1.0f);
  SHOW(cudaMalloc(&d, n * sizeof(float)));
  cudaStream_t s;
  SHOW(cudaStreamCreate(&s));
  cudaEvent_t start, end, other, third;
  SHOW(cudaEventCreate(&start));
  SHOW(cudaEventCreate(&end));
  SHOW(cudaEventCreate(&other));
  SHOW(cudaEventCreate(&third));
  int calls = 0;
  int count = n;

  // The child: add x -> copy out.
  auto make_child = [&](float* x, cudaGraph_t* out) {
    SHOW(cudaGraphCreate(out, 0));
    void* args[] = {&d, x, &count};
    cudaKernelNodeParams kp = {};
    kp.func = (void*)add;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(n);
    kp.kernelParams = args;
    cudaGraphNode_t k, copy;
    SHOW(cudaGraphAddKernelNode(&k, *out, nullptr, 0, &kp));
    SHOW(cudaGraphAddMemcpyNode1D(&copy, *out, &k, 1, h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  };
  float one = 1.0f, five = 5.0f;
  cudaGraph_t child, child5;
  make_child(&one, &child);
  make_child(&five, &child5);

  // The parent: record start -> memset -> child -> host -> record end; a wait node on `other`.
  cudaGraph_t g;
  SHOW(cudaGraphCreate(&g, 0));
  cudaGraphNode_t rec0, set, sub, host, rec1, wait;
  SHOW(cudaGraphAddEventRecordNode(&rec0, g, nullptr, 0, start));
  cudaMemsetParams mp = {};
  mp.dst = d;
  mp.value = 0;
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  SHOW(cudaGraphAddMemsetNode(&set, g, &rec0, 1, &mp));
  SHOW(cudaGraphAddChildGraphNode(&sub, g, &set, 1, child));
  cudaHostNodeParams hp = {mark, &calls};
  SHOW(cudaGraphAddHostNode(&host, g, &sub, 1, &hp));
  SHOW(cudaGraphAddEventRecordNode(&rec1, g, &host, 1, end));
  SHOW(cudaEventRecord(other, s));
  SHOW(cudaGraphAddEventWaitNode(&wait, g, nullptr, 0, other));
  cudaGraphNodeType t;
  std::printf("types:");
  for (cudaGraphNode_t x : {rec0, set, sub, host, rec1, wait}) {
    cudaGraphNodeGetType(x, &t);
    std::printf(" %d", int(t));
  }
  std::printf("\n");

  // The embedded graph is a copy.
  cudaGraph_t embedded = nullptr;
  SHOW(cudaGraphChildGraphNodeGetGraph(sub, &embedded));
  std::printf("embedded: a different graph %d, %zu nodes\n", embedded != child && embedded != nullptr,
              count_nodes(embedded));
  cudaGraphNode_t extra;
  SHOW(cudaGraphAddEmptyNode(&extra, child, nullptr, 0));
  std::printf("after adding to the original: %zu and %zu nodes\n", count_nodes(child), count_nodes(embedded));
  SHOW(cudaGraphChildGraphNodeGetGraph(host, &embedded));

  // Events of the record and wait nodes.
  cudaEvent_t ev = nullptr;
  SHOW(cudaGraphEventRecordNodeGetEvent(rec1, &ev));
  std::printf("rec1 records end: %d\n", ev == end);
  SHOW(cudaGraphEventWaitNodeGetEvent(wait, &ev));
  std::printf("wait waits for other: %d\n", ev == other);
  SHOW(cudaGraphEventRecordNodeGetEvent(wait, &ev));
  SHOW(cudaGraphEventWaitNodeGetEvent(set, &ev));
  SHOW(cudaGraphEventWaitNodeSetEvent(wait, third));
  SHOW(cudaGraphEventWaitNodeGetEvent(wait, &ev));
  std::printf("wait now waits for third: %d\n", ev == third);

  // Instantiated and launched twice.
  cudaGraphExec_t e;
  SHOW(cudaGraphInstantiate(&e, g, 0));
  for (int round = 0; round < 2; ++round) {
    SHOW(cudaGraphLaunch(e, s));
    SHOW(cudaStreamSynchronize(s));
    float ms = -1;
    SHOW(cudaEventElapsedTime(&ms, start, end));
    std::printf("launch %d: h[0] %.1f h[%d] %.1f, host calls %d, elapsed > 0: %d\n", round, h[0], n - 1, h[n - 1],
                calls, ms > 0);
  }

  // The child's parameters replaced in the executable graph (same shape), then a wrong shape.
  SHOW(cudaGraphExecChildGraphNodeSetParams(e, sub, child5));
  SHOW(cudaGraphExecChildGraphNodeSetParams(e, sub, child));
  SHOW(cudaGraphExecChildGraphNodeSetParams(e, host, child5));
  SHOW(cudaGraphExecEventRecordNodeSetEvent(e, rec1, third));
  SHOW(cudaGraphExecEventRecordNodeSetEvent(e, set, third));
  SHOW(cudaGraphExecEventWaitNodeSetEvent(e, wait, other));
  SHOW(cudaEventRecord(end, s));
  SHOW(cudaStreamSynchronize(s));
  SHOW(cudaGraphLaunch(e, s));
  SHOW(cudaStreamSynchronize(s));
  float ms = -1;
  SHOW(cudaEventElapsedTime(&ms, start, third));
  std::printf("after the updates: h[0] %.1f, host calls %d, third after start: %d\n", h[0], calls, ms > 0);
  SHOW(cudaGraphEventRecordNodeGetEvent(rec1, &ev));
  std::printf("the graph's rec1 still records end: %d\n", ev == end);
  SHOW(cudaGraphEventRecordNodeSetEvent(rec1, other));

  // A clone of the parent has its own copy of the child.
  cudaGraph_t c;
  SHOW(cudaGraphClone(&c, g));
  cudaGraphNode_t sub_clone = nullptr;
  SHOW(cudaGraphNodeFindInClone(&sub_clone, sub, c));
  cudaGraph_t embedded_clone = nullptr;
  SHOW(cudaGraphChildGraphNodeGetGraph(sub_clone, &embedded_clone));
  SHOW(cudaGraphChildGraphNodeGetGraph(sub, &embedded));
  std::printf("the clone's child: its own graph %d, %zu nodes\n", embedded_clone != embedded,
              count_nodes(embedded_clone));
  cudaGraphExec_t ce;
  SHOW(cudaGraphInstantiate(&ce, c, 0));
  SHOW(cudaGraphLaunch(ce, s));
  SHOW(cudaStreamSynchronize(s));
  std::printf("the clone ran: h[0] %.1f, host calls %d\n", h[0], calls);

  SHOW(cudaGraphExecDestroy(ce));
  SHOW(cudaGraphExecDestroy(e));
  SHOW(cudaGraphDestroy(c));
  SHOW(cudaGraphDestroy(g));
  SHOW(cudaGraphDestroy(child5));
  SHOW(cudaGraphDestroy(child));
  for (cudaEvent_t x : {start, end, other, third}) SHOW(cudaEventDestroy(x));
  SHOW(cudaStreamDestroy(s));
  SHOW(cudaFree(d));
  return 0;
}
