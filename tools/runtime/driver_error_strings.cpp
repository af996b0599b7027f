// Prints what the real CUDA driver says for every CUresult it knows: "code<TAB>name<TAB>string".
// Run on a machine with NVIDIA's libcuda.so.1 (the device machine) to check warpsim's
// driver layer (sim/runtime/driver/drv_error.cpp) against it:
//   g++ -I/usr/local/cuda/include tools/runtime/driver_error_strings.cpp -L/usr/local/cuda/lib64/stubs -lcuda -o des && ./des
#include <cuda.h>
#include <cstdio>

int main() {
  for (int code = 0; code < 1000; ++code) {
    const char* name = nullptr;
    const char* text = nullptr;
    if (cuGetErrorName(static_cast<CUresult>(code), &name) != CUDA_SUCCESS || !name) continue;
    cuGetErrorString(static_cast<CUresult>(code), &text);
    std::printf("%d\t%s\t%s\n", code, name, text ? text : "(null)");
  }
  const char* name = nullptr;
  CUresult rc = cuGetErrorName(static_cast<CUresult>(12345), &name);
  std::printf("unknown code 12345: cuGetErrorName returns %d, name %s\n", int(rc), name ? name : "NULL");
  return 0;
}
