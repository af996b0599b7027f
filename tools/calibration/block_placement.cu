// Which SM runs which block, and when it starts: thread 0 of every block records %smid and
// %globaltimer; every thread then spins for SPIN_NS (so that the blocks of a wave are
// resident together, as a real kernel's are) before the block ends.
//   ./block_placement BLOCKS THREADS SHARED_BYTES SPIN_NS
// prints "block,sm,start_ns" (start relative to the earliest block), one row per block.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "sm_clock.cuh"


__global__ void place(unsigned* sm, unsigned long long* start, unsigned long long spin_ns) {
  extern __shared__ float scratch[];
  const unsigned long long t0 = now_ns();
  if (threadIdx.x == 0) {
    sm[blockIdx.x] = smid();
    start[blockIdx.x] = t0;
  }
  scratch[threadIdx.x] = float(t0 & 1);  // touch the shared memory the block asked for
  while (now_ns() - t0 < spin_ns) {
  }
}

int main(int argc, char** argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s BLOCKS THREADS SHARED_BYTES SPIN_NS\n", argv[0]);
    return 2;
  }
  const unsigned blocks = unsigned(atoi(argv[1])), threads = unsigned(atoi(argv[2]));
  const unsigned shared = unsigned(atoi(argv[3]));
  const unsigned long long spin = strtoull(argv[4], nullptr, 10);
  if (shared < threads * sizeof(float)) {
    fprintf(stderr, "SHARED_BYTES must be at least THREADS x 4\n");
    return 2;
  }
  unsigned* sm;
  unsigned long long* start;
  if (cudaMalloc(&sm, blocks * sizeof(unsigned)) != cudaSuccess ||
      cudaMalloc(&start, blocks * sizeof(unsigned long long)) != cudaSuccess) {
    fprintf(stderr, "cudaMalloc failed\n");
    return 1;
  }
  place<<<blocks, threads, shared>>>(sm, start, spin);  // warm-up: module load, clocks
  place<<<blocks, threads, shared>>>(sm, start, spin);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    fprintf(stderr, "launch: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<unsigned> h_sm(blocks);
  std::vector<unsigned long long> h_start(blocks);
  cudaMemcpy(h_sm.data(), sm, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_start.data(), start, blocks * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  unsigned long long first = ~0ull;
  for (unsigned long long t : h_start) first = t < first ? t : first;
  printf("block,sm,start_ns\n");
  for (unsigned b = 0; b < blocks; ++b) printf("%u,%u,%llu\n", b, h_sm[b], h_start[b] - first);
  return 0;
}
