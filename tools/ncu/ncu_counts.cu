// Host driver for measuring the textbook kernels' memory counts on a real GPU with Nsight
// Compute (tools/ncu/validate_ncu.sh runs it under ncu; tools/ncu/compare_ncu.py compares
// the counts with warpsim's). It includes the very .cu files warpsim's PTX comes from and
// launches one kernel once with the same sizes as the warpsim launch spec it is compared to.
//   ncu_counts offset N OFFSET | stride N STRIDE | transpose KERNEL WIDTH HEIGHT | reduce V N BLOCK
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../../kernels/memory/copy_patterns.cu"
#include "../../kernels/reduction/harris_reduction.cu"
#include "../../kernels/transpose/transpose.cu"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "ncu_counts: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

template <class T>
T* device_buffer(size_t count) {
  T* p = nullptr;
  check(cudaMalloc(&p, count * sizeof(T)), "cudaMalloc");
  std::vector<T> host(count);
  for (size_t i = 0; i < count; ++i) host[i] = static_cast<T>(i % 1000);
  check(cudaMemcpy(p, host.data(), count * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  return p;
}

int usage() {
  std::fprintf(stderr,
               "usage: ncu_counts offset N OFFSET | stride N STRIDE | transpose KERNEL WIDTH HEIGHT | reduce V N BLOCK\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string what = argv[1];
  if (what == "offset" && argc == 4) {
    const int n = std::atoi(argv[2]), offset = std::atoi(argv[3]);
    float* out = device_buffer<float>(n + offset);
    float* in = device_buffer<float>(n + offset);
    offsetCopy<<<n / 256, 256>>>(out, in, offset);
  } else if (what == "stride" && argc == 4) {
    const int n = std::atoi(argv[2]), stride = std::atoi(argv[3]);
    float* out = device_buffer<float>(size_t(n) * stride);
    float* in = device_buffer<float>(size_t(n) * stride);
    strideCopy<<<n / 256, 256>>>(out, in, stride);
  } else if (what == "transpose" && argc == 5) {
    const std::string k = argv[2];
    const int w = std::atoi(argv[3]), h = std::atoi(argv[4]);
    float* out = device_buffer<float>(size_t(w) * h);
    float* in = device_buffer<float>(size_t(w) * h);
    dim3 grid(w / TILE_DIM, h / TILE_DIM), block(TILE_DIM, BLOCK_ROWS);
    if (k == "copy") copy<<<grid, block>>>(out, in, w, h, 1);
    else if (k == "copySharedMem") copySharedMem<<<grid, block>>>(out, in, w, h, 1);
    else if (k == "transposeNaive") transposeNaive<<<grid, block>>>(out, in, w, h, 1);
    else if (k == "transposeCoalesced") transposeCoalesced<<<grid, block>>>(out, in, w, h, 1);
    else if (k == "transposeNoBankConflicts") transposeNoBankConflicts<<<grid, block>>>(out, in, w, h, 1);
    else if (k == "transposeDiagonal") transposeDiagonal<<<grid, block>>>(out, in, w, h, 1);
    else return usage();
  } else if (what == "reduce" && argc == 5) {
    const int v = std::atoi(argv[2]), n = std::atoi(argv[3]), b = std::atoi(argv[4]);
    int* in = device_buffer<int>(n);
    int* out = device_buffer<int>(n / b);
    const size_t shared = size_t(b) * sizeof(int);
    switch (v) {
      case 0: reduce0<<<n / b, b, shared>>>(in, out); break;
      case 1: reduce1<<<n / b, b, shared>>>(in, out); break;
      case 2: reduce2<<<n / b, b, shared>>>(in, out); break;
      case 3: reduce3<<<n / (2 * b), b, shared>>>(in, out); break;
      default: return usage();
    }
  } else {
    return usage();
  }
  check(cudaGetLastError(), "launch");
  check(cudaDeviceSynchronize(), "kernel");
  return 0;
}
