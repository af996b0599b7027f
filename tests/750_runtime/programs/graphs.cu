// CUDA graphs: built node by node (memset, memcpy, kernel, host and empty nodes with
// dependencies), cloned, instantiated and launched repeatedly, a kernel node's arguments
// changed in the executable graph; and captured from two streams joined by events, then
// updated in place. Every call's result and every value is printed; graphs.expected is what
// an H100 prints.
#include <cstdio>
#include <vector>

#define SHOW(x) std::printf("%-44s %s\n", #x, cudaGetErrorName(x))

__global__ void add(float* v, float x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += x;
}

__global__ void scale(float* v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= s;
}

// Host nodes run when the stream reaches them (on a GPU, on a driver thread): they only
// record the sum, which main prints after synchronising.
struct Tally {
  const float* host;
  int n;
  int calls;
  double sums[16];
};

void CUDART_CB report(void* p) {
  Tally* t = static_cast<Tally*>(p);
  double sum = 0;
  for (int i = 0; i < t->n; ++i) sum += t->host[i];
  if (t->calls < 16) t->sums[t->calls] = sum;
  ++t->calls;
}

void print_sums(const Tally& t) {
  std::printf("host node calls: %d, sums:", t.calls);
  for (int i = 0; i < t.calls && i < 16; ++i) std::printf(" %.1f", t.sums[i]);
  std::printf("\n");
}

int main() {
  const int n = 1000;
  float* d = nullptr;
  std::vector<float> h(n, 0.0f), init(n);
  for (int i = 0; i < n; ++i) init[i] = float(i % 7);
  SHOW(cudaMalloc(&d, n * sizeof(float)));
  Tally tally{h.data(), n, 0, {}};

  // A graph by hand: memset -> (copy in) -> add -> copy out -> host; an empty node joins.
  cudaGraph_t g;
  SHOW(cudaGraphCreate(&g, 0));
  cudaGraphNode_t set, in, k, out, host, join;
  cudaMemsetParams mp = {};
  mp.dst = d;
  mp.value = 0;
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  SHOW(cudaGraphAddMemsetNode(&set, g, nullptr, 0, &mp));
  cudaMemcpy3DParms cp = {};
  cp.srcPtr = make_cudaPitchedPtr(init.data(), n * sizeof(float), n, 1);
  cp.dstPtr = make_cudaPitchedPtr(d, n * sizeof(float), n, 1);
  cp.extent = make_cudaExtent(n * sizeof(float), 1, 1);
  cp.kind = cudaMemcpyHostToDevice;
  SHOW(cudaGraphAddMemcpyNode(&in, g, &set, 1, &cp));
  float x = 1.5f;
  int count = n;
  void* args[] = {&d, &x, &count};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)add;
  kp.gridDim = dim3((n + 255) / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  SHOW(cudaGraphAddKernelNode(&k, g, &in, 1, &kp));
  x = 100.0f;  // the node keeps the value it was given: 1.5
  cudaMemcpy3DParms back = {};
  back.srcPtr = make_cudaPitchedPtr(d, n * sizeof(float), n, 1);
  back.dstPtr = make_cudaPitchedPtr(h.data(), n * sizeof(float), n, 1);
  back.extent = make_cudaExtent(n * sizeof(float), 1, 1);
  back.kind = cudaMemcpyDeviceToHost;
  SHOW(cudaGraphAddMemcpyNode(&out, g, &k, 1, &back));
  cudaHostNodeParams hp = {report, &tally};
  SHOW(cudaGraphAddHostNode(&host, g, &out, 1, &hp));
  cudaGraphNode_t both[] = {host, set};
  SHOW(cudaGraphAddEmptyNode(&join, g, both, 2));
  size_t count_nodes = 0;
  SHOW(cudaGraphGetNodes(g, nullptr, &count_nodes));
  std::printf("nodes: %zu\n", count_nodes);

  cudaGraphExec_t e;
  SHOW(cudaGraphInstantiate(&e, g, 0));
  cudaStream_t s;
  SHOW(cudaStreamCreate(&s));
  for (int r = 0; r < 2; ++r) SHOW(cudaGraphLaunch(e, s));
  SHOW(cudaStreamSynchronize(s));
  std::printf("h[0..3] = %.1f %.1f %.1f %.1f\n", h[0], h[1], h[2], h[3]);
  print_sums(tally);
  // New arguments for the kernel node of the executable graph only.
  x = -2.0f;
  SHOW(cudaGraphExecKernelNodeSetParams(e, k, &kp));
  SHOW(cudaGraphLaunch(e, s));
  SHOW(cudaStreamSynchronize(s));
  std::printf("h[0..3] = %.1f %.1f %.1f %.1f\n", h[0], h[1], h[2], h[3]);
  print_sums(tally);
  // A clone runs like the original (the original's kernel node still adds 1.5).
  cudaGraph_t c;
  SHOW(cudaGraphClone(&c, g));
  cudaGraphExec_t ce;
  SHOW(cudaGraphInstantiate(&ce, c, 0));
  SHOW(cudaGraphLaunch(ce, s));
  SHOW(cudaStreamSynchronize(s));
  print_sums(tally);

  // Capture: stream s forks to t through an event, both add work, t joins back.
  cudaStream_t t;
  SHOW(cudaStreamCreate(&t));
  cudaEvent_t fork, joined;
  SHOW(cudaEventCreate(&fork));
  SHOW(cudaEventCreate(&joined));
  cudaStreamCaptureStatus st;
  cudaGraph_t cg = nullptr;
  cudaGraphExec_t cge = nullptr;
  for (int round = 0; round < 2; ++round) {
    const float f = round == 0 ? 2.0f : 3.0f;
    SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    SHOW(cudaStreamIsCapturing(s, &st));
    std::printf("capturing: %d\n", int(st));
    SHOW(cudaMemcpyAsync(d, init.data(), n * sizeof(float), cudaMemcpyHostToDevice, s));
    SHOW(cudaEventRecord(fork, s));
    SHOW(cudaStreamWaitEvent(t, fork, 0));
    scale<<<(n + 255) / 256, 256, 0, t>>>(d, f, n);
    SHOW(cudaEventRecord(joined, t));
    SHOW(cudaStreamWaitEvent(s, joined, 0));
    add<<<(n + 255) / 256, 256, 0, s>>>(d, 0.25f, n);
    SHOW(cudaMemcpyAsync(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
    SHOW(cudaLaunchHostFunc(s, report, &tally));
    cudaGraph_t fresh;
    SHOW(cudaStreamEndCapture(s, &fresh));
    SHOW(cudaStreamIsCapturing(s, &st));
    std::printf("capturing: %d, host calls so far: %d\n", int(st), tally.calls);
    if (round == 0) {
      cg = fresh;
      SHOW(cudaGraphInstantiate(&cge, cg, 0));
    } else {
      cudaGraphExecUpdateResultInfo info;
      SHOW(cudaGraphExecUpdate(cge, fresh, &info));
      std::printf("update result: %d\n", int(info.result));
      SHOW(cudaGraphDestroy(fresh));
    }
    SHOW(cudaGraphLaunch(cge, s));
    SHOW(cudaStreamSynchronize(s));
    std::printf("h[0..3] = %.2f %.2f %.2f %.2f\n", h[0], h[1], h[2], h[3]);
    print_sums(tally);
  }
  // A graph of another shape cannot update it.
  cudaGraphExecUpdateResultInfo info;
  SHOW(cudaGraphExecUpdate(cge, g, &info));
  std::printf("update result: %d\n", int(info.result));
  SHOW(cudaGetLastError());
  // Ending a capture that never began.
  cudaGraph_t none;
  SHOW(cudaStreamEndCapture(t, &none));
  SHOW(cudaGetLastError());

  SHOW(cudaGraphExecDestroy(e));
  SHOW(cudaGraphExecDestroy(ce));
  SHOW(cudaGraphExecDestroy(cge));
  SHOW(cudaGraphDestroy(g));
  SHOW(cudaGraphDestroy(c));
  SHOW(cudaGraphDestroy(cg));
  SHOW(cudaFree(d));
  return 0;
}
