// CUDA 12's context-independent loading, as NVRTC users and JIT libraries use it: kernels
// compiled at run time (NVRTC, compute_75 PTX) loaded with cudaLibraryLoadData and
// cudaLibraryLoadFromFile, their cudaKernel_t handles found by name and enumerated, launched
// with cudaLaunchKernel and cudaLaunchKernelExC, a library's __device__ and __managed__
// variables, cudaKernelSetAttributeForDevice; the driver's side of the same handles
// (cuLibrary*, cuKernel*: the CUfunction and module behind a kernel, its name, parameters and
// attributes, a launch through cuLaunchKernel); and the errors of each call. Built with
// -cudart shared -lcuda -lnvrtc. What it prints on a real GPU is library_api.expected.
// nvcc flags: -cudart shared -lcuda -lnvrtc
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

static const char* kSource = R"(
__device__ float factor = 3.0f;
__managed__ unsigned launches;

extern "C" __global__ void clear(float* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 0;
}

extern "C" __global__ void scale(float* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= factor;
  if (i == 0) atomicAdd(&launches, 1u);
}

// Reverses each block's slice through dynamic shared memory.
extern "C" __global__ void reverse(int* p) {
  extern __shared__ int tile[];
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  tile[t] = p[base + t];
  __syncthreads();
  p[base + t] = tile[blockDim.x - 1 - t];
}

template <typename T> __global__ void add_one(T* p) { p[threadIdx.x] += T(1); }
template __global__ void add_one<double>(double*);
)";

#define SHOW(expr) std::printf("%-58s %s\n", #expr, cudaGetErrorName(expr))
#define SHOW_CU(expr)                                  \
  do {                                                 \
    const char* n_ = nullptr;                          \
    cuGetErrorName(expr, &n_);                         \
    std::printf("%-58s %s\n", #expr, n_ ? n_ : "?");   \
  } while (0)

static std::string compile_ptx() {
  nvrtcProgram prog;
  nvrtcCreateProgram(&prog, kSource, "library.cu", 0, nullptr, nullptr);
  nvrtcAddNameExpression(prog, "add_one<double>");
  const char* opts[] = {"--gpu-architecture=compute_75"};
  if (nvrtcCompileProgram(prog, 1, opts) != NVRTC_SUCCESS) {
    size_t n = 0;
    nvrtcGetProgramLogSize(prog, &n);
    std::string log(n, '\0');
    nvrtcGetProgramLog(prog, log.data());
    std::fprintf(stderr, "NVRTC: %s\n", log.c_str());
    return "";
  }
  size_t n = 0;
  nvrtcGetPTXSize(prog, &n);
  std::string ptx(n, '\0');
  nvrtcGetPTX(prog, ptx.data());
  const char* lowered = nullptr;
  nvrtcGetLoweredName(prog, "add_one<double>", &lowered);
  std::printf("add_one<double> is %s\n", lowered);
  nvrtcDestroyProgram(&prog);
  return ptx;
}

int main() {
  const std::string ptx = compile_ptx();
  if (ptx.empty()) return 1;

  std::printf("-- runtime API\n");
  cudaLibrary_t lib = nullptr;
  SHOW(cudaLibraryLoadData(&lib, ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  unsigned count = 0;
  SHOW(cudaLibraryGetKernelCount(&count, lib));
  std::printf("kernels: %u\n", count);
  std::vector<cudaKernel_t> all(count);
  SHOW(cudaLibraryEnumerateKernels(all.data(), count, lib));
  cudaKernel_t scale = nullptr, reverse = nullptr, add_one = nullptr, again = nullptr;
  SHOW(cudaLibraryGetKernel(&scale, lib, "scale"));
  SHOW(cudaLibraryGetKernel(&reverse, lib, "reverse"));
  SHOW(cudaLibraryGetKernel(&add_one, lib, "_Z7add_oneIdEvPT_"));
  SHOW(cudaLibraryGetKernel(&again, lib, "scale"));
  std::printf("same handle for the same name: %d\n", scale == again);
  int listed = 0;
  cudaKernel_t clear = nullptr;
  SHOW(cudaLibraryGetKernel(&clear, lib, "clear"));
  for (cudaKernel_t k : all) listed += (k == scale) + (k == reverse) + (k == add_one) + (k == clear);
  std::printf("enumerated handles found by name: %d of %u\n", listed, count);
  for (cudaKernel_t k : all) {
    const char* name = nullptr;
    cuKernelGetName(&name, reinterpret_cast<CUkernel>(k));
    std::printf("  kernel %s\n", name ? name : "(null)");
  }

  // A library's variables: its __device__ float and its __managed__ counter.
  float* factor = nullptr;
  size_t bytes = 0;
  SHOW(cudaLibraryGetGlobal(reinterpret_cast<void**>(&factor), &bytes, lib, "factor"));
  std::printf("factor: %zu bytes\n", bytes);
  float f = 0;
  cudaMemcpy(&f, factor, sizeof f, cudaMemcpyDeviceToHost);
  std::printf("factor's initial value: %g\n", f);
  f = 2.5f;
  SHOW(cudaMemcpy(factor, &f, sizeof f, cudaMemcpyHostToDevice));
  unsigned* launches = nullptr;
  SHOW(cudaLibraryGetManaged(reinterpret_cast<void**>(&launches), &bytes, lib, "launches"));
  std::printf("launches: %zu bytes\n", bytes);

  const int n = 1000;
  float* d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = float(i);
  cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  int nn = n;
  void* args[] = {&d, &nn};
  SHOW(cudaLaunchKernel(reinterpret_cast<const void*>(scale), dim3(4), dim3(256), args, 0, 0));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(8);
  cfg.blockDim = dim3(128);
  SHOW(cudaLaunchKernelExC(&cfg, reinterpret_cast<const void*>(scale), args));
  SHOW(cudaDeviceSynchronize());
  cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("scaled twice by 2.5: h[1] = %g, h[999] = %g, launches = %u\n", h[1], h[999], *launches);

  // Attributes through the kernel handle.
  cudaFuncAttributes fa;
  SHOW(cudaFuncGetAttributes(&fa, reinterpret_cast<const void*>(reverse)));
  std::printf("reverse: maxThreadsPerBlock %d, sharedSizeBytes %zu, maxDynamicSharedSizeBytes %d\n",
              fa.maxThreadsPerBlock, fa.sharedSizeBytes, fa.maxDynamicSharedSizeBytes);
  int* r = nullptr;
  const int threads = 1024;
  cudaMalloc(&r, 2 * threads * sizeof(int));
  std::vector<int> hr(2 * threads);
  for (int i = 0; i < 2 * threads; ++i) hr[i] = i;
  cudaMemcpy(r, hr.data(), hr.size() * sizeof(int), cudaMemcpyHostToDevice);
  void* rargs[] = {&r};
  SHOW(cudaLaunchKernel(reinterpret_cast<const void*>(clear), dim3(4), dim3(256), args, 0, 0));
  SHOW(cudaLaunchKernel(reinterpret_cast<const void*>(scale), dim3(4), dim3(256), args, 0, 0));
  cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("cleared: %g %g\n", h[1], h[999]);
  for (int i = 0; i < n; ++i) h[i] = float(i);
  cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  const size_t big = 64 * 1024;  // past the 48 KB a launch may ask for without opting in
  SHOW(cudaLaunchKernel(reinterpret_cast<const void*>(reverse), dim3(2), dim3(threads), rargs, big, 0));
  SHOW(cudaGetLastError());
  SHOW(cudaKernelSetAttributeForDevice(reverse, cudaFuncAttributeMaxDynamicSharedMemorySize, int(big), 0));
  SHOW(cudaFuncGetAttributes(&fa, reinterpret_cast<const void*>(reverse)));
  std::printf("reverse: maxDynamicSharedSizeBytes %d\n", fa.maxDynamicSharedSizeBytes);
  SHOW(cudaLaunchKernel(reinterpret_cast<const void*>(reverse), dim3(2), dim3(threads), rargs, big, 0));
  SHOW(cudaDeviceSynchronize());
  cudaMemcpy(hr.data(), r, hr.size() * sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("reversed: %d %d %d %d\n", hr[0], hr[threads - 1], hr[threads], hr[2 * threads - 1]);
  SHOW(cudaKernelSetAttributeForDevice(reverse, cudaFuncAttributeMaxDynamicSharedMemorySize, 1 << 20, 0));
  SHOW(cudaKernelSetAttributeForDevice(reverse, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, 7));
  SHOW(cudaKernelSetAttributeForDevice(reverse, cudaFuncAttributePreferredSharedMemoryCarveout, 50, 0));

  double* dd = nullptr;
  cudaMalloc(&dd, 32 * sizeof(double));
  cudaMemset(dd, 0, 32 * sizeof(double));
  void* dargs[] = {&dd};
  SHOW(cudaLaunchKernel(reinterpret_cast<const void*>(add_one), dim3(1), dim3(32), dargs, 0, 0));
  double hd = 0;
  cudaMemcpy(&hd, dd + 31, sizeof hd, cudaMemcpyDeviceToHost);
  std::printf("add_one<double>: %g\n", hd);

  // Errors.
  cudaKernel_t none = nullptr;
  SHOW(cudaLibraryGetKernel(&none, lib, "no_such_kernel"));
  SHOW(cudaLibraryGetKernel(&none, lib, "factor"));
  SHOW(cudaLibraryGetKernel(nullptr, lib, "scale"));
  SHOW(cudaLibraryGetKernel(&none, lib, nullptr));
  SHOW(cudaLibraryGetKernel(&none, nullptr, "scale"));
  SHOW(cudaLibraryGetGlobal(reinterpret_cast<void**>(&factor), &bytes, lib, "nothing"));
  SHOW(cudaLibraryGetGlobal(reinterpret_cast<void**>(&factor), &bytes, lib, "scale"));
  SHOW(cudaLibraryGetManaged(reinterpret_cast<void**>(&launches), &bytes, lib, "factor"));
  SHOW(cudaLibraryGetGlobal(nullptr, nullptr, lib, "factor"));
  SHOW(cudaLibraryGetGlobal(nullptr, &bytes, lib, "factor"));
  std::printf("factor alone: %zu bytes\n", bytes);
  void* fn = nullptr;
  SHOW(cudaLibraryGetUnifiedFunction(&fn, lib, "scale"));
  SHOW(cudaLibraryGetKernelCount(nullptr, lib));
  SHOW(cudaLibraryGetKernelCount(&count, nullptr));
  SHOW(cudaLibraryEnumerateKernels(nullptr, 1, lib));
  cudaKernel_t one[1] = {nullptr};
  SHOW(cudaLibraryEnumerateKernels(one, 1, lib));
  std::printf("one of them: %d\n", one[0] == scale || one[0] == reverse || one[0] == add_one || one[0] == clear);
  cudaLibrary_t bad = nullptr;
  float* factor2_probe = nullptr;
  SHOW(cudaLibraryLoadData(&bad, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0));
  SHOW(cudaLibraryLoadData(nullptr, ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  SHOW(cudaLibraryLoadData(&bad, "this is not PTX", nullptr, nullptr, 0, nullptr, nullptr, 0));
  SHOW(cudaLibraryLoadData(&bad, ".version 7.5\n.target sm_75\n.address_size 64\n.visible .entry k( {\n",
                           nullptr, nullptr, 0, nullptr, nullptr, 0));
  SHOW(cudaLibraryLoadFromFile(&bad, "/nonexistent/library.ptx", nullptr, nullptr, 0, nullptr, nullptr, 0));
  SHOW(cudaGetLastError());
  // Libraries load lazily: what is wrong with the code shows at its first use.
  cudaLibrary_t junk = nullptr, broken = nullptr;
  SHOW(cudaLibraryLoadData(&junk, "this is not PTX", nullptr, nullptr, 0, nullptr, nullptr, 0));
  SHOW(cudaLibraryLoadData(&broken, ".version 7.5\n.target sm_75\n.address_size 64\n.visible .entry k( {\n",
                           nullptr, nullptr, 0, nullptr, nullptr, 0));
  SHOW(cudaLibraryGetKernelCount(&count, junk));
  SHOW(cudaLibraryGetKernel(&none, junk, "k"));
  SHOW(cudaLibraryGetGlobal(reinterpret_cast<void**>(&factor2_probe), &bytes, junk, "factor"));
  SHOW(cudaLibraryGetKernelCount(&count, broken));
  SHOW(cudaLibraryGetKernel(&none, broken, "k"));
  SHOW(cudaGetLastError());
  SHOW(cudaDeviceSynchronize());
  SHOW(cudaLibraryUnload(junk));
  SHOW(cudaLibraryUnload(broken));

  // The same PTX from a file: another library, its own variables.
  char path[] = "/tmp/library_api_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0 || write(fd, ptx.data(), ptx.size()) != ssize_t(ptx.size())) return 1;
  close(fd);
  cudaLibrary_t lib2 = nullptr;
  SHOW(cudaLibraryLoadFromFile(&lib2, path, nullptr, nullptr, 0, nullptr, nullptr, 0));
  unlink(path);
  float* factor2 = nullptr;
  SHOW(cudaLibraryGetGlobal(reinterpret_cast<void**>(&factor2), &bytes, lib2, "factor"));
  cudaMemcpy(&f, factor2, sizeof f, cudaMemcpyDeviceToHost);
  std::printf("second library: its own factor %d, value %g\n", factor2 != factor, f);
  cudaKernel_t scale2 = nullptr;
  SHOW(cudaLibraryGetKernel(&scale2, lib2, "scale"));
  std::printf("its own kernel handle: %d\n", scale2 != scale);

  std::printf("-- driver API\n");
  CUlibrary culib = reinterpret_cast<CUlibrary>(lib);
  CUkernel k = reinterpret_cast<CUkernel>(scale);
  CUlibrary owner = nullptr;
  SHOW_CU(cuKernelGetLibrary(&owner, k));
  std::printf("kernel's library is lib: %d\n", owner == culib);
  CUfunction fun = nullptr, fun2 = nullptr;
  SHOW_CU(cuKernelGetFunction(&fun, k));
  CUmodule mod = nullptr;
  SHOW_CU(cuLibraryGetModule(&mod, culib));
  SHOW_CU(cuModuleGetFunction(&fun2, mod, "scale"));
  std::printf("cuKernelGetFunction is the module's function: %d\n", fun == fun2);
  const char* name = nullptr;
  SHOW_CU(cuKernelGetName(&name, k));
  std::printf("name: %s\n", name);
  size_t off = 0, size = 0;
  SHOW_CU(cuKernelGetParamInfo(k, 1, &off, &size));
  std::printf("parameter 1: offset %zu, size %zu\n", off, size);
  SHOW_CU(cuKernelGetParamInfo(k, 2, &off, &size));
  CUdevice dev = 0;
  cuDeviceGet(&dev, 0);
  int v = -1;
  SHOW_CU(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k, dev));
  std::printf("max threads per block: %d\n", v);
  SHOW_CU(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               reinterpret_cast<CUkernel>(reverse), dev));
  std::printf("reverse's max dynamic shared: %d\n", v);
  SHOW_CU(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 80 * 1024, k, dev));
  SHOW_CU(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, fun));
  std::printf("scale's function after cuKernelSetAttribute: %d\n", v);
  SHOW_CU(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k, dev));
  std::printf("scale's kernel after cuKernelSetAttribute: %d\n", v);
  SHOW_CU(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_NUM_REGS, 32, k, dev));
  SHOW_CU(cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_SHARED, dev));
  SHOW_CU(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k, 5));
  SHOW_CU(cuKernelGetName(&name, nullptr));
  SHOW_CU(cuLibraryGetModule(nullptr, culib));
  unsigned dcount = 0;
  SHOW_CU(cuLibraryGetKernelCount(&dcount, culib));
  std::printf("kernels: %u\n", dcount);
  CUdeviceptr gptr = 0;
  size_t gbytes = 0;
  SHOW_CU(cuLibraryGetGlobal(&gptr, &gbytes, culib, "factor"));
  std::printf("the same factor: %d, %zu bytes\n", gptr == reinterpret_cast<CUdeviceptr>(factor), gbytes);
  SHOW_CU(cuLibraryGetManaged(&gptr, &gbytes, culib, "launches"));
  std::printf("the same launches: %d\n", gptr == reinterpret_cast<CUdeviceptr>(launches));
  void* cargs[] = {&d, &nn};
  SHOW_CU(cuLaunchKernel(reinterpret_cast<CUfunction>(k), 4, 1, 1, 256, 1, 1, 0, nullptr, cargs, nullptr));
  SHOW_CU(cuLaunchKernel(fun, 4, 1, 1, 256, 1, 1, 0, nullptr, cargs, nullptr));
  SHOW_CU(cuCtxSynchronize());
  cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("scaled twice more: h[1] = %g, launches = %u\n", h[1], *launches);
  // The module behind a library, and its functions.
  unsigned fcount = 0;
  SHOW_CU(cuModuleGetFunctionCount(&fcount, mod));
  std::printf("functions: %u\n", fcount);
  std::vector<CUfunction> fns(fcount);
  SHOW_CU(cuModuleEnumerateFunctions(fns.data(), fcount, mod));
  for (CUfunction g : fns) {
    CUfunctionLoadingState state = CU_FUNCTION_LOADING_STATE_MAX;
    cuFuncGetName(&name, g);
    cuFuncIsLoaded(&state, g);
    std::printf("  function %s, loaded %d, the kernel's own: %d\n", name, int(state),
                g == fun || g == reinterpret_cast<CUfunction>(scale) || g == reinterpret_cast<CUfunction>(reverse) ||
                    g == reinterpret_cast<CUfunction>(add_one) || g == reinterpret_cast<CUfunction>(clear));
  }
  CUmodule fmod = nullptr;
  SHOW_CU(cuFuncGetModule(&fmod, fun));
  std::printf("the function's module is the library's: %d\n", fmod == mod);
  SHOW_CU(cuFuncGetParamInfo(fun, 0, &off, &size));
  std::printf("parameter 0: offset %zu, size %zu\n", off, size);
  SHOW_CU(cuFuncGetParamInfo(fun, 5, &off, &size));
  SHOW_CU(cuFuncLoad(fun));
  CUmoduleLoadingMode mode = CUmoduleLoadingMode(0);
  SHOW_CU(cuModuleGetLoadingMode(&mode));
  std::printf("loading mode: %d\n", int(mode));
  SHOW_CU(cuModuleGetFunctionCount(nullptr, mod));
  SHOW_CU(cuModuleEnumerateFunctions(nullptr, 1, mod));
  SHOW_CU(cuFuncGetModule(nullptr, fun));
  SHOW_CU(cuFuncGetName(nullptr, fun));

  CUlibrary dlib = nullptr;
  SHOW_CU(cuLibraryLoadData(&dlib, ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  CUkernel dk = nullptr;
  SHOW_CU(cuLibraryGetKernel(&dk, dlib, "scale"));
  SHOW_CU(cuLibraryGetKernel(&dk, dlib, "missing"));
  SHOW_CU(cuLibraryUnload(dlib));

  SHOW(cudaLibraryUnload(lib2));
  SHOW(cudaLibraryUnload(lib));
  SHOW(cudaLibraryUnload(nullptr));
  SHOW(cudaGetLastError());
  cudaFree(d);
  cudaFree(r);
  cudaFree(dd);
  return 0;
}
