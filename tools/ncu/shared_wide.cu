// One warp's shared-memory access at 4, 8 or 16 bytes per lane, each pattern of
// tools/ncu/shared_wide_cases.txt as one load launch and one store launch, so that Nsight
// Compute's wavefront and bank-conflict counts of a single ld/st.shared instruction can be
// read per pattern (tools/ncu/shared_wide.sh). The access is inline PTX, so the compiler
// neither splits, merges nor removes it.
//   shared_wide CASES_FILE    prints "name,kind,launched" before each launch
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

__global__ void load_kernel(const int* offsets, int width, float* out) {
  __shared__ __align__(16) char buf[16384];
  const int off = offsets[threadIdx.x];
  float a = 0, b = 0, c = 0, d = 0;
  if (off >= 0) {
    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(buf + off));
    if (width == 4) asm volatile("ld.shared.f32 %0, [%1];" : "=f"(a) : "r"(addr));
    else if (width == 8) asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];" : "=f"(a), "=f"(b) : "r"(addr));
    else asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "r"(addr));
  }
  out[threadIdx.x] = a + b + c + d;
}

__global__ void store_kernel(const int* offsets, int width, float* out) {
  __shared__ __align__(16) char buf[16384];
  const int off = offsets[threadIdx.x];
  const float v = threadIdx.x;
  if (off >= 0) {
    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(buf + off));
    if (width == 4) asm volatile("st.shared.f32 [%0], %1;" ::"r"(addr), "f"(v) : "memory");
    else if (width == 8) asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(addr), "f"(v), "f"(v) : "memory");
    else asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "f"(v), "f"(v), "f"(v), "f"(v) : "memory");
  }
  out[threadIdx.x] = v;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: shared_wide CASES_FILE\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  int* d_off = nullptr;
  float* d_out = nullptr;
  cudaMalloc(&d_off, 32 * sizeof(int));
  cudaMalloc(&d_out, 32 * sizeof(float));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream ss(line);
    std::string name, bar;
    int width = 0;
    ss >> name >> bar >> width >> bar;
    std::vector<int> off(32);
    for (int& o : off) ss >> o;
    if (!ss) {
      std::fprintf(stderr, "bad line: %s\n", line.c_str());
      return 2;
    }
    cudaMemcpy(d_off, off.data(), 32 * sizeof(int), cudaMemcpyHostToDevice);
    std::printf("%s,ld,launched\n", name.c_str());
    std::fflush(stdout);
    load_kernel<<<1, 32>>>(d_off, width, d_out);
    cudaDeviceSynchronize();
    std::printf("%s,st,launched\n", name.c_str());
    std::fflush(stdout);
    store_kernel<<<1, 32>>>(d_off, width, d_out);
    if (cudaDeviceSynchronize() != cudaSuccess) {
      std::fprintf(stderr, "%s: launch failed\n", name.c_str());
      return 1;
    }
  }
  return 0;
}
