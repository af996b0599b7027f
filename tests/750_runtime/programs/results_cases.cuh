// The harness of the programs that print the bits an instruction computes (bf16_results,
// nan_results_half, pairs_and_set_results, relu_fp8_results, bit_ops_results, ...): each case
// is an instruction (its op number in the program's `ops` kernel) with up to three 64-bit
// sources, run one case per thread.
#pragma once
#include <cstdint>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

struct Case {
  int op;
  uint64_t a, b, c;
};

// In main: returns 1, after printing the call and CUDA's error name, if `call` fails.
#define RESULTS_CHECK(call)                                 \
  do {                                                      \
    cudaError_t e_ = (call);                                \
    if (e_ != cudaSuccess) {                                \
      std::printf("%s: %s\n", #call, cudaGetErrorName(e_)); \
      return 1;                                             \
    }                                                       \
  } while (0)

// A program's cases, at most N (the printed count shows if any were dropped).
template <int N>
struct CaseList {
  Case items[N];
  int n = 0;
  void add(int op, uint64_t a, uint64_t b, uint64_t c) {
    if (n < N) items[n++] = {op, a, b, c};
  }
};

// Prints "N cases" and a line per case: its op's name padded to `width`, the three sources
// and the result d[i], each in `digits` hex digits.
inline void print_cases(const char* const* names, const Case* cases, int n, const uint64_t* d, int width,
                        int digits) {
  std::printf("%d cases\n", n);
  for (int i = 0; i < n; ++i)
    std::printf("%-*s %0*llx %0*llx %0*llx -> %0*llx\n", width, names[cases[i].op], digits,
                (unsigned long long)cases[i].a, digits, (unsigned long long)cases[i].b, digits,
                (unsigned long long)cases[i].c, digits, (unsigned long long)d[i]);
}

// The programs' kernel: d[i] = the result of op[i] on a[i], b[i], c[i], for i < n.
using OpsKernel = void (*)(const int*, const uint64_t*, const uint64_t*, const uint64_t*, uint64_t*, int);

// Runs `kernel` on the n cases and copies their results to d (n elements); returns the
// first CUDA error (cudaSuccess if none).
inline cudaError_t run_cases(OpsKernel kernel, const Case* cases, int n, uint64_t* d) {
  std::vector<int> op(n);
  std::vector<uint64_t> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    op[i] = cases[i].op;
    a[i] = cases[i].a;
    b[i] = cases[i].b;
    c[i] = cases[i].c;
  }
  int* dop = nullptr;
  uint64_t *da = nullptr, *db = nullptr, *dc = nullptr, *dd = nullptr;
  const size_t words = sizeof(uint64_t) * n;
  cudaError_t e = cudaMalloc(&dop, sizeof(int) * n);
  if (e == cudaSuccess) e = cudaMalloc(&da, words);
  if (e == cudaSuccess) e = cudaMalloc(&db, words);
  if (e == cudaSuccess) e = cudaMalloc(&dc, words);
  if (e == cudaSuccess) e = cudaMalloc(&dd, words);
  if (e == cudaSuccess) e = cudaMemcpy(dop, op.data(), sizeof(int) * n, cudaMemcpyHostToDevice);
  if (e == cudaSuccess) e = cudaMemcpy(da, a.data(), words, cudaMemcpyHostToDevice);
  if (e == cudaSuccess) e = cudaMemcpy(db, b.data(), words, cudaMemcpyHostToDevice);
  if (e == cudaSuccess) e = cudaMemcpy(dc, c.data(), words, cudaMemcpyHostToDevice);
  if (e == cudaSuccess) {
    kernel<<<(n + 127) / 128, 128>>>(dop, da, db, dc, dd, n);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaMemcpy(d, dd, words, cudaMemcpyDeviceToHost);
  cudaFree(dop);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(dd);
  return e;
}
