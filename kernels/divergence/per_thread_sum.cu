// The lecture's "Control flow - Loop divergence" example (after David Tarjan, NVIDIA):
// thread i sums data[indices[i]] .. data[indices[i+1]-1], so the trip count depends on the
// data and a warp runs as long as its longest thread. The lecture elides the index
// computation ("..."); it is the usual one. No bounds check: the grid has exactly one
// thread per segment, and indices has one more element than there are threads.
__global__ void per_thread_sum(int* indices, float* data, float* sums) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  float sum = 0;
  for (int j = indices[i]; j < indices[i + 1]; j++) {
    sum += data[j];
  }
  sums[i] = sum;
}
