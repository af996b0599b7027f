// The two kernels of the IPC test programs (ipc, drv_ipc, pool_ipc, drv_pool_ipc, vmm_ipc):
// the maker fills a shared buffer with v + (i & mask), the other process adds 1 to it.
#pragma once

__global__ void fill(int* p, int n, int v, int mask) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + (i & mask);
}

__global__ void add_one(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}
