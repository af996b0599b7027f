// CUDA graphs built with cudaGraphAddNode's one parameter struct for every node type
// (memset, kernel, memcpy, host, event record and wait, child graph cloned or moved, memory
// allocation and free, empty), and changed with cudaGraphNodeSetParams and
// cudaGraphExecNodeSetParams. Every call's result and every value is printed;
// graph_add_node.expected is what an H200 prints.
#include <cstdio>
#include <cstring>
#include <vector>

#define SHOW(x) std::printf("%-72s %s\n", #x, cudaGetErrorName(x))

__global__ void add(float* v, float x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += x;
}

void CUDART_CB mark(void* p) { ++*static_cast<int*>(p); }

// cudaGraphNodeParams has a union without a default constructor: zeroed bytes.
struct Params {
  alignas(cudaGraphNodeParams) unsigned char bytes[sizeof(cudaGraphNodeParams)];
  cudaGraphNodeParams* operator->() { return reinterpret_cast<cudaGraphNodeParams*>(bytes); }
  cudaGraphNodeParams* get() { return reinterpret_cast<cudaGraphNodeParams*>(bytes); }
  Params(cudaGraphNodeType t) {
    std::memset(bytes, 0, sizeof bytes);
    get()->type = t;
  }
};

int main() {
  const int n = 64;
  float *d = nullptr, *d2 = nullptr;
  std::vector<float> h(n, -1.0f);
  SHOW(cudaMalloc(&d, n * sizeof(float)));
  SHOW(cudaMalloc(&d2, n * sizeof(float)));
  SHOW(cudaMemset(d2, 0, n * sizeof(float)));
  cudaStream_t s;
  SHOW(cudaStreamCreate(&s));
  cudaEvent_t ev0, ev1, ev2;
  SHOW(cudaEventCreate(&ev0));
  SHOW(cudaEventCreate(&ev1));
  SHOW(cudaEventCreate(&ev2));
  SHOW(cudaEventRecord(ev0, s));
  int calls = 0, calls2 = 0, count = n;
  float two = 2.0f, ten = 10.0f, seven = 7.0f;

  cudaGraph_t g;
  SHOW(cudaGraphCreate(&g, 0));
  cudaGraphNode_t set, k, copy, host, rec, wait, sub, moved, alloc, freed, empty;

  Params ps(cudaGraphNodeTypeMemset);
  ps->memset.dst = d;
  ps->memset.value = 0;
  ps->memset.elementSize = 4;
  ps->memset.width = n;
  ps->memset.height = 1;
  SHOW(cudaGraphAddNode(&set, g, nullptr, nullptr, 0, ps.get()));

  void* kargs[] = {&d, &two, &count};
  Params pk(cudaGraphNodeTypeKernel);
  pk->kernel.func = (void*)add;
  pk->kernel.gridDim = dim3(1);
  pk->kernel.blockDim = dim3(n);
  pk->kernel.kernelParams = kargs;
  SHOW(cudaGraphAddNode(&k, g, &set, nullptr, 1, pk.get()));

  Params pc(cudaGraphNodeTypeMemcpy);
  pc->memcpy.copyParams.srcPtr = make_cudaPitchedPtr(d, n * sizeof(float), n * sizeof(float), 1);
  pc->memcpy.copyParams.dstPtr = make_cudaPitchedPtr(h.data(), n * sizeof(float), n * sizeof(float), 1);
  pc->memcpy.copyParams.extent = make_cudaExtent(n * sizeof(float), 1, 1);
  pc->memcpy.copyParams.kind = cudaMemcpyDeviceToHost;
  SHOW(cudaGraphAddNode(&copy, g, &k, nullptr, 1, pc.get()));

  Params ph(cudaGraphNodeTypeHost);
  ph->host.fn = mark;
  ph->host.userData = &calls;
  SHOW(cudaGraphAddNode(&host, g, &copy, nullptr, 1, ph.get()));

  Params pr(cudaGraphNodeTypeEventRecord);
  pr->eventRecord.event = ev1;
  SHOW(cudaGraphAddNode(&rec, g, &host, nullptr, 1, pr.get()));

  Params pw(cudaGraphNodeTypeWaitEvent);
  pw->eventWait.event = ev0;
  SHOW(cudaGraphAddNode(&wait, g, nullptr, nullptr, 0, pw.get()));

  // A child graph adding 10 to d2, cloned into the node; a second one moved into its node.
  cudaGraph_t child, child2;
  cudaGraphNode_t ck, ck2;
  void* cargs[] = {&d2, &ten, &count};
  pk->kernel.kernelParams = cargs;
  SHOW(cudaGraphCreate(&child, 0));
  SHOW(cudaGraphAddNode(&ck, child, nullptr, nullptr, 0, pk.get()));
  SHOW(cudaGraphCreate(&child2, 0));
  SHOW(cudaGraphAddNode(&ck2, child2, nullptr, nullptr, 0, pk.get()));
  Params pg(cudaGraphNodeTypeGraph);
  pg->graph.graph = child;
  pg->graph.ownership = cudaGraphChildGraphOwnershipClone;
  SHOW(cudaGraphAddNode(&sub, g, &wait, nullptr, 1, pg.get()));
  std::printf("cloned: the parameter still names the original %d\n", pg->graph.graph == child);
  cudaGraph_t embedded = nullptr;
  SHOW(cudaGraphChildGraphNodeGetGraph(sub, &embedded));
  std::printf("the node's graph is a copy %d\n", embedded != child);
  pg->graph.graph = child2;
  pg->graph.ownership = cudaGraphChildGraphOwnershipMove;
  SHOW(cudaGraphAddNode(&moved, g, &sub, nullptr, 1, pg.get()));
  SHOW(cudaGraphChildGraphNodeGetGraph(moved, &embedded));
  std::printf("moved: the node's graph is the one given %d\n", embedded == child2);

  Params pa(cudaGraphNodeTypeMemAlloc);
  pa->alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  pa->alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  pa->alloc.poolProps.location.id = 0;
  pa->alloc.bytesize = 4096;
  SHOW(cudaGraphAddNode(&alloc, g, nullptr, nullptr, 0, pa.get()));
  std::printf("allocation made: %d\n", pa->alloc.dptr != nullptr);
  Params pf(cudaGraphNodeTypeMemFree);
  pf->free.dptr = pa->alloc.dptr;
  SHOW(cudaGraphAddNode(&freed, g, &alloc, nullptr, 1, pf.get()));
  Params pe(cudaGraphNodeTypeEmpty);
  cudaGraphNode_t ends[] = {rec, moved, freed};
  SHOW(cudaGraphAddNode(&empty, g, ends, nullptr, 3, pe.get()));

  std::printf("types:");
  for (cudaGraphNode_t x : {set, k, copy, host, rec, wait, sub, moved, alloc, freed, empty}) {
    cudaGraphNodeType t;
    cudaGraphNodeGetType(x, &t);
    std::printf(" %d", int(t));
  }
  std::printf("\n");

  cudaGraphExec_t e;
  SHOW(cudaGraphInstantiate(&e, g, 0));
  SHOW(cudaGraphLaunch(e, s));
  SHOW(cudaStreamSynchronize(s));
  float first = 0;
  SHOW(cudaMemcpy(&first, d2, sizeof first, cudaMemcpyDeviceToHost));
  std::printf("first launch: h[0] %.1f h[%d] %.1f, host calls %d, d2[0] %.1f, ev1 %s\n", h[0], n - 1, h[n - 1], calls,
              first, cudaGetErrorName(cudaEventQuery(ev1)));

  // cudaGraphNodeSetParams on the graph (reaches the next instantiation, not this one).
  kargs[1] = &seven;
  pk->kernel.kernelParams = kargs;
  SHOW(cudaGraphNodeSetParams(k, pk.get()));
  ps->memset.value = 0x3f800000;  // 1.0f
  SHOW(cudaGraphNodeSetParams(set, ps.get()));
  ph->host.userData = &calls2;
  SHOW(cudaGraphNodeSetParams(host, ph.get()));
  pr->eventRecord.event = ev2;
  SHOW(cudaGraphNodeSetParams(rec, pr.get()));
  SHOW(cudaGraphNodeSetParams(copy, pk.get()));
  SHOW(cudaGraphNodeSetParams(alloc, pa.get()));
  SHOW(cudaGraphLaunch(e, s));
  SHOW(cudaStreamSynchronize(s));
  std::printf("same executable graph: h[0] %.1f, host calls %d and %d\n", h[0], calls, calls2);

  // cudaGraphExecNodeSetParams on the executable graph.
  SHOW(cudaGraphExecNodeSetParams(e, k, pk.get()));
  SHOW(cudaGraphExecNodeSetParams(e, set, ps.get()));
  SHOW(cudaGraphExecNodeSetParams(e, host, ph.get()));
  SHOW(cudaGraphExecNodeSetParams(e, rec, pr.get()));
  SHOW(cudaGraphExecNodeSetParams(e, copy, pk.get()));
  SHOW(cudaGraphLaunch(e, s));
  SHOW(cudaStreamSynchronize(s));
  std::printf("after cudaGraphExecNodeSetParams: h[0] %.1f, host calls %d and %d, ev2 %s\n", h[0], calls, calls2,
              cudaGetErrorName(cudaEventQuery(ev2)));

  cudaGraphExec_t e2;
  SHOW(cudaGraphExecDestroy(e));
  SHOW(cudaGraphInstantiate(&e2, g, 0));
  SHOW(cudaGraphLaunch(e2, s));
  SHOW(cudaStreamSynchronize(s));
  SHOW(cudaMemcpy(&first, d2, sizeof first, cudaMemcpyDeviceToHost));
  std::printf("second instantiation: h[0] %.1f, host calls %d and %d, d2[0] %.1f\n", h[0], calls, calls2, first);

  SHOW(cudaGraphExecDestroy(e2));
  SHOW(cudaGraphDestroy(g));
  SHOW(cudaGraphDestroy(child));
  for (cudaEvent_t x : {ev0, ev1, ev2}) SHOW(cudaEventDestroy(x));
  SHOW(cudaStreamDestroy(s));
  SHOW(cudaFree(d2));
  SHOW(cudaFree(d));
  return 0;
}
