// How many bytes the H100's L2 reads from DRAM for one missed sector: every thread loads one
// 4-byte word from its own 128-byte line (at byte OFFSET of the line, so sector OFFSET/32),
// from a buffer no launch before has touched since a 256 MB sweep. Run under ncu with
// application replay, so every pass runs the sweep first (l2_fetch.sh):
// dram__bytes_read.sum / lines is the fetch size.
//   l2_fetch LINES OFFSET
#include <cstdio>
#include <cstdlib>

__global__ void touch_one_word(const float* __restrict__ buf, unsigned lines, unsigned offset_words, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < lines) {
    float v = __ldcg(buf + size_t(i) * 32 + offset_words);
    if (v == 12345.0f) out[0] = v;  // never true: keeps the load
  }
}

__global__ void sweep(float* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) p[i] += 1.0f;
}

int main(int argc, char** argv) {
  if (argc < 3) { std::fprintf(stderr, "usage: l2_fetch LINES OFFSET_BYTES\n"); return 2; }
  const unsigned lines = unsigned(std::atoi(argv[1]));
  const unsigned offset = unsigned(std::atoi(argv[2]));
  float *buf, *big, *out;
  cudaMalloc(&buf, size_t(lines) * 128);
  cudaMalloc(&big, size_t(256) << 20);
  cudaMalloc(&out, 4);
  cudaMemset(buf, 0, size_t(lines) * 128);
  sweep<<<1024, 256>>>(big, (size_t(256) << 20) / 4);
  touch_one_word<<<(lines + 255) / 256, 256>>>(buf, lines, offset / 4, out);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("lines,%u,offset,%u,%s\n", lines, offset, cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
