// NVIDIA's prebuilt libraries (cuBLAS, cuRAND's host API, cuFFT) initialise through the
// driver's private tables (cuGetExportTable), which warpsim's driver does not have: each
// creation call fails with the library's own code, and warpsim says why once on stderr.
// Built with -cudart shared -lcublas -lcurand -lcufft.
#include <cublas_v2.h>
#include <cufft.h>
#include <curand.h>

#include <cstdio>

int main() {
  cublasHandle_t blas;
  std::printf("cublasCreate: %d\n", int(cublasCreate(&blas)));
  curandGenerator_t rng;
  std::printf("curandCreateGenerator: %d\n", int(curandCreateGenerator(&rng, CURAND_RNG_PSEUDO_DEFAULT)));
  cufftHandle plan;
  std::printf("cufftPlan1d: %d\n", int(cufftPlan1d(&plan, 64, CUFFT_C2C, 1)));
  // The runtime itself is unharmed.
  float* p = nullptr;
  std::printf("cudaMalloc afterwards: %s\n", cudaGetErrorName(cudaMalloc(&p, 64)));
  return 0;
}
