// Block launch rate (docs/calibration.md): blocks that do next to nothing, so a launch's
// time is what it takes the GPU to start and retire `blocks` blocks of `block_size` threads.
// Thread 0 of each block writes its block index to out[blockIdx.x].
__global__ void block_launch(int* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = blockIdx.x;
}
