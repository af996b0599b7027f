// Programmatic dependent launch, built for sm_90 so that the PTX has griddepcontrol: a
// producer and a consumer that waits for it (cudaGridDependencySynchronize), launched with
// cudaLaunchKernelEx and the programmatic-stream-serialization attribute.
#include <cstdio>
__global__ void producer(int* p) { p[threadIdx.x] = threadIdx.x * 2; cudaTriggerProgrammaticLaunchCompletion(); }
__global__ void consumer(const int* p, int* q) { cudaGridDependencySynchronize(); q[threadIdx.x] = p[threadIdx.x] + 1; }
int main() {
  int *p, *q; cudaMalloc(&p, 1024); cudaMalloc(&q, 1024);
  cudaLaunchAttribute a[1]; a[0].id = cudaLaunchAttributeProgrammaticStreamSerialization; a[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t c = {}; c.gridDim = dim3(1); c.blockDim = dim3(256); c.attrs = a; c.numAttrs = 1;
  printf("%s\n", cudaGetErrorName(cudaLaunchKernelEx(&c, producer, p)));
  printf("%s\n", cudaGetErrorName(cudaLaunchKernelEx(&c, consumer, (const int*)p, q)));
  int h[256]; cudaMemcpy(h, q, 1024, cudaMemcpyDeviceToHost);
  printf("q[10]=%d q[255]=%d\n", h[10], h[255]);
}
