// CUDA C Best Practices Guide (section "Coalesced Access to Global Memory"), also the
// lecture's "Example: Copy with stride": a misaligned copy (offsetCopy) and a strided copy
// (strideCopy). No bounds check, as printed: the buffers must hold
// gridDim.x * blockDim.x + offset elements, or (gridDim.x * blockDim.x - 1) * stride + 1.
__global__ void offsetCopy(float* odata, float* idata, int offset) {
  int xid = blockIdx.x * blockDim.x + threadIdx.x + offset;
  odata[xid] = idata[xid];
}

__global__ void strideCopy(float* odata, float* idata, int stride) {
  int xid = (blockIdx.x * blockDim.x + threadIdx.x) * stride;
  odata[xid] = idata[xid];
}
