// CUDA graph memcpy nodes to and from __device__ and __constant__ variables: made, read
// back, run, changed in the graph and in an executable graph, and the errors of copies past
// a variable's end, in the wrong direction or of something that is not a variable. Every
// call's result and every value is printed; graph_symbol_copies.expected is what an H200
// prints.
#include <cstdio>

#define SHOW(x) std::printf("%-72s %s\n", #x, cudaGetErrorName(x))

__device__ float table[64];
__constant__ int coef[4];

__global__ void apply(float* out) {
  int i = threadIdx.x;
  out[i] = table[i] * float(coef[i % 4]);
  table[i] += 1.0f;
}

void print(const char* what, const float* v) {
  double sum = 0;
  for (int i = 0; i < 64; ++i) sum += v[i];
  std::printf("%s: %.1f %.1f %.1f %.1f ... %.1f, sum %.1f\n", what, v[0], v[1], v[2], v[3], v[63], sum);
}

int main() {
  float host_table[64], from_table[64], result[64];
  int host_coef[4] = {1, 2, 3, 4}, other_coef[4] = {10, 20, 30, 40};
  for (int i = 0; i < 64; ++i) host_table[i] = float(i), from_table[i] = -1.0f, result[i] = -1.0f;
  float* out = nullptr;
  SHOW(cudaMalloc(&out, sizeof result));
  void* table_addr = nullptr;
  SHOW(cudaGetSymbolAddress(&table_addr, table));
  cudaStream_t s;
  SHOW(cudaStreamCreate(&s));

  // table <- host, coef <- host -> apply -> result <- out, from_table <- table
  cudaGraph_t g;
  SHOW(cudaGraphCreate(&g, 0));
  cudaGraphNode_t to_table, to_coef, k, back, from;
  SHOW(cudaGraphAddMemcpyNodeToSymbol(&to_table, g, nullptr, 0, table, host_table, sizeof host_table, 0,
                                      cudaMemcpyHostToDevice));
  SHOW(cudaGraphAddMemcpyNodeToSymbol(&to_coef, g, nullptr, 0, coef, host_coef, sizeof host_coef, 0,
                                      cudaMemcpyDefault));
  cudaGraphNode_t roots[] = {to_table, to_coef};
  void* args[] = {&out};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)apply;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(64);
  kp.kernelParams = args;
  SHOW(cudaGraphAddKernelNode(&k, g, roots, 2, &kp));
  SHOW(cudaGraphAddMemcpyNode1D(&back, g, &k, 1, result, out, sizeof result, cudaMemcpyDeviceToHost));
  SHOW(cudaGraphAddMemcpyNodeFromSymbol(&from, g, &k, 1, from_table, table, sizeof from_table, 0,
                                        cudaMemcpyDeviceToHost));

  // Misuse.
  cudaGraphNode_t bad;
  SHOW(cudaGraphAddMemcpyNodeToSymbol(&bad, g, nullptr, 0, table, host_table, sizeof host_table, 4,
                                      cudaMemcpyHostToDevice));
  SHOW(cudaGraphAddMemcpyNodeToSymbol(&bad, g, nullptr, 0, coef, host_coef, sizeof host_coef, 0,
                                      cudaMemcpyDeviceToHost));
  SHOW(cudaGraphAddMemcpyNodeFromSymbol(&bad, g, nullptr, 0, from_table, table, sizeof from_table, 0,
                                        cudaMemcpyHostToDevice));
  SHOW(cudaGraphAddMemcpyNodeToSymbol(&bad, g, nullptr, 0, host_coef, host_table, 16, 0, cudaMemcpyHostToDevice));
  size_t count = 0;
  SHOW(cudaGraphGetNodes(g, nullptr, &count));
  std::printf("%zu nodes\n", count);

  // Read back: a copy to a variable is a copy to its address.
  cudaMemcpy3DParms p = {};
  SHOW(cudaGraphMemcpyNodeGetParams(to_table, &p));
  std::printf("to_table: src %d dst is table %d, pitches %zu %zu, extent %zu %zu %zu, kind %d\n",
              p.srcPtr.ptr == host_table, p.dstPtr.ptr == table_addr, p.srcPtr.pitch, p.dstPtr.pitch, p.extent.width,
              p.extent.height, p.extent.depth, int(p.kind));
  p = {};
  SHOW(cudaGraphMemcpyNodeGetParams(from, &p));
  std::printf("from: src is table %d dst %d, extent %zu, kind %d\n", p.srcPtr.ptr == table_addr,
              p.dstPtr.ptr == from_table, p.extent.width, int(p.kind));

  cudaGraphExec_t e;
  SHOW(cudaGraphInstantiate(&e, g, 0));
  SHOW(cudaGraphLaunch(e, s));
  SHOW(cudaStreamSynchronize(s));
  print("result", result);
  print("table after", from_table);

  // In the graph: coef from other_coef, and only half of table copied back.
  SHOW(cudaGraphMemcpyNodeSetParamsToSymbol(to_coef, coef, other_coef, sizeof other_coef, 0, cudaMemcpyHostToDevice));
  SHOW(cudaGraphMemcpyNodeSetParamsFromSymbol(from, from_table, table, 32 * sizeof(float), 32 * sizeof(float),
                                              cudaMemcpyDeviceToHost));
  p = {};
  SHOW(cudaGraphMemcpyNodeGetParams(from, &p));
  std::printf("from: src is table + 128 %d, extent %zu\n", p.srcPtr.ptr == (char*)table_addr + 128, p.extent.width);
  SHOW(cudaGraphMemcpyNodeSetParamsToSymbol(to_coef, coef, other_coef, sizeof other_coef, 8, cudaMemcpyHostToDevice));
  SHOW(cudaGraphMemcpyNodeSetParamsFromSymbol(k, from_table, table, 4, 0, cudaMemcpyDeviceToHost));

  // In the executable graph only: table restarts from host_table's second half.
  SHOW(cudaGraphExecMemcpyNodeSetParamsToSymbol(e, to_table, table, host_table + 32, 32 * sizeof(float),
                                                32 * sizeof(float), cudaMemcpyHostToDevice));
  SHOW(cudaGraphExecMemcpyNodeSetParamsFromSymbol(e, from, from_table, table, sizeof from_table, 0,
                                                  cudaMemcpyDeviceToHost));
  SHOW(cudaGraphExecMemcpyNodeSetParamsToSymbol(e, k, table, host_table, 4, 0, cudaMemcpyHostToDevice));
  SHOW(cudaGraphLaunch(e, s));
  SHOW(cudaStreamSynchronize(s));
  print("result", result);
  print("table after", from_table);

  SHOW(cudaGraphExecDestroy(e));
  SHOW(cudaGraphDestroy(g));
  SHOW(cudaStreamDestroy(s));
  SHOW(cudaFree(out));
  return 0;
}
