// Latency microbenchmark: one thread follows a chain of dependent loads through an
// array (next[i] = i + stride, wrapped by `mask`), so every load waits for the previous.
// cycles[0] / steps is the latency of one step: load latency plus one AND.
// With a footprint under the L1 the loads hit in L1, under the L2 in L2, and above it
// they go to DRAM (docs/calibration.md).
__global__ void pointer_chase(const unsigned* next, unsigned mask, int steps, unsigned* out,
                              long long* cycles) {
  unsigned j = 0;
  long long t0 = clock64();
  for (int i = 0; i < steps; ++i) j = next[j] & mask;
  long long t1 = clock64();
  out[0] = j;
  cycles[0] = t1 - t0;
}
