// Driver entry points by name and CUDA version: cuGetProcAddress and the runtime's
// cudaGetDriverEntryPointByVersion, printing which symbol each returned (dladdr), or why
// none. Every line is what an H100's driver prints (the first, before cuInit, an H200's).
// nvcc flags: -cudart shared -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstdio>

static const char* name_of(CUresult r) {
  const char* n = nullptr;
  cuGetErrorName(r, &n);
  return n ? n : "?";
}

static const char* symbol_of(void* fn) {
  Dl_info info{};
  return fn && dladdr(fn, &info) && info.dli_sname ? info.dli_sname : "(null)";
}

static void driver(const char* name, int version, cuuint64_t flags) {
  void* fn = nullptr;
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
  CUresult rc = cuGetProcAddress(name, &fn, version, flags, &status);
  std::printf("cuGetProcAddress(%s, %d, %llu): %s, status %d, %s\n", name, version, (unsigned long long)flags,
              name_of(rc), int(status), symbol_of(fn));
}

static void runtime(const char* name, unsigned version, unsigned long long flags) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSuccess;
  cudaError_t rc = cudaGetDriverEntryPointByVersion(name, &fn, version, flags, &status);
  std::printf("cudaGetDriverEntryPointByVersion(%s, %u, %llu): %s, status %d, %s\n", name, version, flags,
              cudaGetErrorName(rc), int(status), symbol_of(fn));
}

int main() {
  // Before cuInit the lookup works; what it finds answers CUDA_ERROR_NOT_INITIALIZED until then.
  void* early = nullptr;
  CUdriverProcAddressQueryResult early_status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  const CUresult early_rc = cuGetProcAddress("cuDeviceGetCount", &early, 13000, 0, &early_status);
  int early_count = -1;
  std::printf("before cuInit: cuGetProcAddress %s, status %d; cuDeviceGetCount through it: %s\n", name_of(early_rc),
              int(early_status), early ? name_of(reinterpret_cast<CUresult (*)(int*)>(early)(&early_count)) : "-");
  cuInit(0);
  driver("cuMemAlloc", 13000, CU_GET_PROC_ADDRESS_DEFAULT);
  driver("cuMemAlloc", 2000, CU_GET_PROC_ADDRESS_DEFAULT);
  driver("cuCtxCreate", 11040, CU_GET_PROC_ADDRESS_DEFAULT);
  driver("cuCtxCreate", 13000, CU_GET_PROC_ADDRESS_DEFAULT);
  driver("cuMemcpyHtoD", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
  driver("cuLaunchKernel", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
  driver("cuLaunchKernel", 13000, CU_GET_PROC_ADDRESS_LEGACY_STREAM);
  driver("cuGetProcAddress", 11000, CU_GET_PROC_ADDRESS_DEFAULT);
  driver("cuNoSuchCall", 13000, CU_GET_PROC_ADDRESS_DEFAULT);
  runtime("cuMemAlloc", 12000, cudaEnableDefault);
  runtime("cuStreamSynchronize", 12000, cudaEnablePerThreadDefaultStream);
  runtime("cuNoSuchCall", 12000, cudaEnableDefault);
  // The address is the driver's own function: calling it works.
  void* fn = nullptr;
  cuGetProcAddress("cuDeviceGetCount", &fn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, nullptr);
  int count = 0;
  CUresult rc = reinterpret_cast<CUresult (*)(int*)>(fn)(&count);
  std::printf("cuDeviceGetCount through its address: %s, %d device(s)\n", name_of(rc), count);
  return 0;
}
