// Prints every cudaDeviceGetAttribute answer of device 0, "attribute<TAB>value" (or the error
// name), to compare warpsim's simulated H100 with a real one:
//   nvcc -cudart shared -o da tests/750_runtime/programs/device_attributes.cu
//   ./da > gpu.tsv                                            # on the GPU machine
//   build/tools/warpsim exec --config h100 --no-summary -- ./da > warpsim.tsv
#include <cuda_runtime.h>

#include <cstdio>

int main() {
  for (int attr = 1; attr <= 160; ++attr) {
    int value = 0;
    cudaError_t rc = cudaDeviceGetAttribute(&value, static_cast<cudaDeviceAttr>(attr), 0);
    if (rc == cudaSuccess)
      std::printf("%d\t%d\n", attr, value);
    else
      std::printf("%d\t%s\n", attr, cudaGetErrorName(rc));
    cudaGetLastError();
  }
  return 0;
}
