// Which device-runtime queries with bad arguments fault a kernel on the GPU and which return
// an error: one launch per case, the launch's result and the call's code printed.
//   nvcc -arch=native -rdc=true -lcudadevrt -o device_query_faults device_query_faults.cu
//   for c in 0 1 2 3 4 5 6 7; do ./device_query_faults $c; done
#include <cstdio>
#include <cstdlib>

__global__ void child(float* p) { p[threadIdx.x] += 1; }

__global__ void ask(int which, int* code, int* value) {
  int v = -7;
  size_t lim = 0;
  cudaFuncAttributes fa;
  switch (which) {
    case 0: *code = cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0); break;
    case 1: *code = cudaFuncGetAttributes(&fa, (const void*)0x1234); v = fa.numRegs; break;
    case 2: *code = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, (const void*)0x1234, 32, 0); break;
    case 3: *code = cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1); break;
    case 4: *code = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)0, 0); break;
    case 5: *code = cudaDeviceGetLimit(&lim, (cudaLimit)7); v = (int)lim; break;
    case 6: *code = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, child, 0, 0); break;
    case 7: *code = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)9999, 0); break;
  }
  *value = v;
}

int main(int argc, char** argv) {
  const int which = argc > 1 ? atoi(argv[1]) : 0;
  int *code, *value;
  cudaMallocManaged(&code, 4);
  cudaMallocManaged(&value, 4);
  *code = -1;
  *value = -1;
  ask<<<1, 1>>>(which, code, value);
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) printf("case %d: launch cudaSuccess, call %s, value %d\n", which, cudaGetErrorName((cudaError_t)*code), *value);
  else printf("case %d: launch %s\n", which, cudaGetErrorName(e));
  return 0;
}
