// Conditional graph nodes: IF with one and two bodies, WHILE counting down on the device,
// SWITCH in and past its range, cloning those graphs (refused), a handle with
// cudaGraphCondAssignDefault over repeated launches, a conditional node added to a stream capture (cudaStreamGetCaptureInfo,
// cudaGraphAddNode, cudaStreamUpdateCaptureDependencies) whose body is captured with
// cudaStreamBeginCaptureToGraph, and the errors of bad parameters. Every call's result and
// every value is printed; graph_conditional.expected is what an H100 prints.
#include <cstdio>

#define SHOW(x) std::printf("%-60s %s\n", #x, cudaGetErrorName(x))

__global__ void set_condition(cudaGraphConditionalHandle h, const int* value) { cudaGraphSetConditional(h, *value); }

__global__ void append(int* log, int tag) {
  int at = log[0]++;
  if (at < 63) log[1 + at] = tag;
}

// WHILE body: one step of a countdown kept in counter[0]; the loop ends at zero.
__global__ void count_down(cudaGraphConditionalHandle h, int* counter, int* log) {
  int c = --counter[0];
  int at = log[0]++;
  if (at < 63) log[1 + at] = 100 + c;
  cudaGraphSetConditional(h, c > 0 ? 1 : 0);
}

int* g_log = nullptr;

void print_log(const char* what) {
  int h[64] = {};
  cudaMemcpy(h, g_log, sizeof(h), cudaMemcpyDeviceToHost);
  std::printf("%s:", what);
  for (int i = 0; i < h[0] && i < 63; ++i) std::printf(" %d", h[1 + i]);
  std::printf("\n");
  cudaMemset(g_log, 0, sizeof(h));
}

cudaGraphNode_t add_kernel(cudaGraph_t g, const cudaGraphNode_t* deps, size_t n, void* fn, void** args) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeKernel;
  p.kernel.func = fn;
  p.kernel.gridDim = dim3(1);
  p.kernel.blockDim = dim3(1);
  p.kernel.kernelParams = args;
  cudaGraphNode_t node = nullptr;
  cudaError_t e = cudaGraphAddNode(&node, g, deps, nullptr, n, &p);
  if (e != cudaSuccess) std::printf("cudaGraphAddNode(kernel): %s\n", cudaGetErrorName(e));
  return node;
}

// A graph: set_condition(h, *value), then a conditional node of `type` with `size` bodies;
// body i appends 10 + i (twice for body 0 of an IF, to see one body of several nodes).
void if_switch(cudaGraphConditionalNodeType type, unsigned size, unsigned flags, int* d_value, const int* values,
               int launches, const char* name) {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphConditionalHandle h;
  SHOW(cudaGraphConditionalHandleCreate(&h, g, 7, flags));
  void* set_args[] = {&h, &d_value};
  cudaGraphNode_t setter = add_kernel(g, nullptr, 0, (void*)set_condition, set_args);
  cudaGraphNodeParams c = {};
  c.type = cudaGraphNodeTypeConditional;
  c.conditional.handle = h;
  c.conditional.type = type;
  c.conditional.size = size;
  cudaGraphNode_t cond;
  SHOW(cudaGraphAddNode(&cond, g, &setter, nullptr, 1, &c));
  int tags[8];
  for (unsigned i = 0; i < size; ++i) {
    tags[i] = 10 + int(i);
    void* args[] = {&g_log, &tags[i]};
    cudaGraphNode_t first = add_kernel(c.conditional.phGraph_out[i], nullptr, 0, (void*)append, args);
    if (i == 0 && type == cudaGraphCondTypeIf) add_kernel(c.conditional.phGraph_out[i], &first, 1, (void*)append, args);
  }
  cudaGraphExec_t e;
  SHOW(cudaGraphInstantiate(&e, g, 0));
  for (int l = 0; l < launches; ++l) {
    cudaMemcpy(d_value, &values[l], sizeof(int), cudaMemcpyHostToDevice);
    SHOW(cudaGraphLaunch(e, 0));
    SHOW(cudaDeviceSynchronize());
    char label[64];
    std::snprintf(label, sizeof(label), "%s, value %d", name, values[l]);
    print_log(label);
  }
  cudaGraphExecDestroy(e);
  // CUDA 13 does not clone a graph with conditional nodes.
  cudaGraph_t clone = nullptr;
  SHOW(cudaGraphClone(&clone, g));
  std::printf("clone: %s\n", clone ? "made" : "none");
  cudaGraphDestroy(g);
}

// A condition set only by the IF body, which clears it: with cudaGraphCondAssignDefault
// each launch starts from the default (5: the body runs every time). (Without the flag the
// first launch's value is undefined: on an H100 such a graph sometimes ran and sometimes
// made the next calls fail with cudaErrorLaunchFailure, so it is not tried here.)
__global__ void clear_condition(cudaGraphConditionalHandle h, int* log) {
  int at = log[0]++;
  if (at < 63) log[1 + at] = 50;
  cudaGraphSetConditional(h, 0);
}

void assigned_default(unsigned flags, const char* name) {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphConditionalHandle h;
  SHOW(cudaGraphConditionalHandleCreate(&h, g, 5, flags));
  cudaGraphNodeParams c = {};
  c.type = cudaGraphNodeTypeConditional;
  c.conditional.handle = h;
  c.conditional.type = cudaGraphCondTypeIf;
  c.conditional.size = 1;
  cudaGraphNode_t cond;
  SHOW(cudaGraphAddNode(&cond, g, nullptr, nullptr, 0, &c));
  void* args[] = {&h, &g_log};
  add_kernel(c.conditional.phGraph_out[0], nullptr, 0, (void*)clear_condition, args);
  cudaGraphExec_t e;
  SHOW(cudaGraphInstantiate(&e, g, 0));
  for (int l = 0; l < 3; ++l) SHOW(cudaGraphLaunch(e, 0));
  SHOW(cudaDeviceSynchronize());
  print_log(name);
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
}

int main() {
  SHOW(cudaMalloc(&g_log, 64 * sizeof(int)));
  SHOW(cudaMemset(g_log, 0, 64 * sizeof(int)));
  int* d_value = nullptr;
  SHOW(cudaMalloc(&d_value, sizeof(int)));

  const int if_values[] = {0, 1, 3};
  if_switch(cudaGraphCondTypeIf, 1, 0, d_value, if_values, 3, "IF");
  if_switch(cudaGraphCondTypeIf, 2, 0, d_value, if_values, 3, "IF/ELSE");
  const int switch_values[] = {0, 2, 3, 9};
  if_switch(cudaGraphCondTypeSwitch, 3, 0, d_value, switch_values, 4, "SWITCH");
  assigned_default(cudaGraphCondAssignDefault, "IF, default assigned at each launch");

  // WHILE: the body counts down from 4 and clears the condition at zero.
  {
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    cudaGraphConditionalHandle h;
    SHOW(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams c = {};
    c.type = cudaGraphNodeTypeConditional;
    c.conditional.handle = h;
    c.conditional.type = cudaGraphCondTypeWhile;
    c.conditional.size = 1;
    cudaGraphNode_t cond;
    SHOW(cudaGraphAddNode(&cond, g, nullptr, nullptr, 0, &c));
    int* counter = nullptr;
    cudaMalloc(&counter, sizeof(int));
    void* args[] = {&h, &counter, &g_log};
    add_kernel(c.conditional.phGraph_out[0], nullptr, 0, (void*)count_down, args);
    cudaGraphExec_t e;
    SHOW(cudaGraphInstantiate(&e, g, 0));
    for (int start : {4, 1}) {
      cudaMemcpy(counter, &start, sizeof(int), cudaMemcpyHostToDevice);
      SHOW(cudaGraphLaunch(e, 0));
      SHOW(cudaDeviceSynchronize());
      print_log(start == 4 ? "WHILE from 4" : "WHILE from 1");
    }
    cudaGraphExecDestroy(e);
    cudaGraphDestroy(g);
    cudaFree(counter);
  }

  // Capture: append(1); then an IF node joined to the capture, whose body is captured into
  // (append(2)); then append(3) after the IF node.
  {
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaGraph_t g;
    SHOW(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    int one = 1, two = 2, three = 3;
    append<<<1, 1, 0, s>>>(g_log, one);
    cudaStreamCaptureStatus status;
    const cudaGraphNode_t* deps = nullptr;
    size_t ndeps = 0;
    cudaGraph_t captured = nullptr;
    SHOW(cudaStreamGetCaptureInfo(s, &status, nullptr, &captured, &deps, nullptr, &ndeps));
    std::printf("capture status %d, %zu dependencies\n", int(status), ndeps);
    cudaGraphConditionalHandle h;
    SHOW(cudaGraphConditionalHandleCreate(&h, captured, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams c = {};
    c.type = cudaGraphNodeTypeConditional;
    c.conditional.handle = h;
    c.conditional.type = cudaGraphCondTypeIf;
    c.conditional.size = 1;
    cudaGraphNode_t cond;
    SHOW(cudaGraphAddNode(&cond, captured, deps, nullptr, ndeps, &c));
    SHOW(cudaStreamUpdateCaptureDependencies(s, &cond, nullptr, 1, cudaStreamSetCaptureDependencies));
    cudaStream_t body_stream;
    cudaStreamCreate(&body_stream);
    SHOW(cudaStreamBeginCaptureToGraph(body_stream, c.conditional.phGraph_out[0], nullptr, nullptr, 0,
                                       cudaStreamCaptureModeGlobal));
    append<<<1, 1, 0, body_stream>>>(g_log, two);
    cudaGraph_t body = nullptr;
    SHOW(cudaStreamEndCapture(body_stream, &body));
    std::printf("body graph is the node's: %d\n", int(body == c.conditional.phGraph_out[0]));
    append<<<1, 1, 0, s>>>(g_log, three);
    SHOW(cudaStreamEndCapture(s, &g));
    SHOW(cudaStreamGetCaptureInfo(s, &status, nullptr, nullptr, nullptr, nullptr, nullptr));
    std::printf("capture status after the end %d\n", int(status));
    size_t nodes = 0;
    SHOW(cudaGraphGetNodes(g, nullptr, &nodes));
    std::printf("captured graph has %zu nodes\n", nodes);
    cudaGraphExec_t e;
    SHOW(cudaGraphInstantiate(&e, g, 0));
    SHOW(cudaGraphLaunch(e, s));
    SHOW(cudaStreamSynchronize(s));
    print_log("captured IF");
    cudaGraphExecDestroy(e);
    cudaGraphDestroy(g);
    cudaStreamDestroy(body_stream);
    cudaStreamDestroy(s);
  }

  // Errors.
  {
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    cudaGraphConditionalHandle h;
    SHOW(cudaGraphConditionalHandleCreate(nullptr, g, 0, 0));
    SHOW(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    cudaGraphNodeParams c = {};
    c.type = cudaGraphNodeTypeConditional;
    c.conditional.handle = h;
    c.conditional.type = cudaGraphCondTypeIf;
    c.conditional.size = 3;
    cudaGraphNode_t cond;
    SHOW(cudaGraphAddNode(&cond, g, nullptr, nullptr, 0, &c));
    c.conditional.type = cudaGraphCondTypeWhile;
    c.conditional.size = 2;
    SHOW(cudaGraphAddNode(&cond, g, nullptr, nullptr, 0, &c));
    c.conditional.type = cudaGraphCondTypeSwitch;
    c.conditional.size = 0;
    SHOW(cudaGraphAddNode(&cond, g, nullptr, nullptr, 0, &c));
    SHOW(cudaGraphAddNode(&cond, g, nullptr, nullptr, 0, nullptr));
    cudaGraphDestroy(g);
  }
  SHOW(cudaGetLastError());
  SHOW(cudaFree(d_value));
  SHOW(cudaFree(g_log));
  return 0;
}
