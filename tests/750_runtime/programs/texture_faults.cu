// What goes wrong with textures and surfaces: a refused descriptor, a kernel reading a
// destroyed texture object, and a surface store out of range in trap mode. Each is CUDA's
// error code here and warpsim's message (object, kernel, thread) on stderr.
#include <cstdio>
#include <cstring>

__global__ void ready(cudaTextureObject_t t, float* out) { out[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x); }

__global__ void store(cudaSurfaceObject_t s) { surf2Dwrite(1, s, (threadIdx.x + 1) * 4, 0); }

int main() {
  float* buf;
  cudaMalloc(&buf, 64 * sizeof(float));
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = buf;
  r.res.linear.desc = cudaCreateChannelDesc<int>();
  r.res.linear.sizeInBytes = 64 * sizeof(float);
  cudaTextureDesc d;
  memset(&d, 0, sizeof d);
  d.filterMode = cudaFilterModeLinear;
  cudaTextureObject_t t = 0;
  printf("linear filter on int: %s\n", cudaGetErrorName(cudaCreateTextureObject(&t, &r, &d, nullptr)));
  cudaGetLastError();

  r.res.linear.desc = cudaCreateChannelDesc<float>();
  d.filterMode = cudaFilterModePoint;
  cudaCreateTextureObject(&t, &r, &d, nullptr);
  cudaDestroyTextureObject(t);
  ready<<<1, 32>>>(t, buf);
  printf("destroyed object: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  printf("after reset: %s\n", cudaGetErrorName(cudaDeviceReset()));

  cudaChannelFormatDesc cd = cudaCreateChannelDesc<int>();
  cudaArray_t a;
  cudaMallocArray(&a, &cd, 16, 2, cudaArraySurfaceLoadStore);
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaSurfaceObject_t s;
  cudaCreateSurfaceObject(&s, &r);
  store<<<1, 16>>>(s);
  printf("surface trap: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
