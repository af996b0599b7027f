// NVRTC at run time, as cuda-samples' *_nvrtc programs, CuPy and Jitify use it: kernels
// compiled for the device's own architecture (sm_XY from its compute capability) into a
// cubin, loaded with cuModuleLoadData and launched with cuLaunchKernel; the option's two
// spellings; a program compiled for compute_XY (PTX, and NVRTC's refusal of a cubin); a
// compile error and its log. Built with -cudart shared -lcuda -lnvrtc. What it prints on a
// real GPU is nvrtc_cubin.expected.
#include <cuda.h>
#include <nvrtc.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

static const char* kSaxpy = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

static const char* kSquares = R"(
template <typename T> __device__ T square(T v) { return v * v; }
extern "C" __global__ void squares(int* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = square(i - n / 2);
}
)";

static const char* kBroken = R"(
extern "C" __global__ void broken(int* out) {
  out[threadIdx.x] = undefined_thing;
}
)";

#define DRV(call)                                                                        \
  do {                                                                                   \
    CUresult r_ = (call);                                                                \
    if (r_ != CUDA_SUCCESS) {                                                            \
      const char* name_ = nullptr;                                                       \
      cuGetErrorName(r_, &name_);                                                        \
      std::printf("%s: %s\n", #call, name_ ? name_ : "?");                              \
      return 1;                                                                          \
    }                                                                                    \
  } while (0)

// Compiles SOURCE with OPTIONS and prints NVRTC's answer; the program, or null on failure
// (its log's error lines printed).
static nvrtcProgram compile(const char* label, const char* source, std::vector<const char*> options) {
  nvrtcProgram prog = nullptr;
  nvrtcResult r = nvrtcCreateProgram(&prog, source, label, 0, nullptr, nullptr);
  if (r != NVRTC_SUCCESS) {
    std::printf("%s: nvrtcCreateProgram: %s\n", label, nvrtcGetErrorString(r));
    return nullptr;
  }
  r = nvrtcCompileProgram(prog, static_cast<int>(options.size()), options.data());
  std::printf("%s: nvrtcCompileProgram: %s\n", label, nvrtcGetErrorString(r));
  if (r != NVRTC_SUCCESS) {
    size_t size = 0;
    nvrtcGetProgramLogSize(prog, &size);
    std::string log(size, '\0');
    nvrtcGetProgramLog(prog, &log[0]);
    size_t start = 0;
    while (start < log.size()) {
      size_t end = log.find('\n', start);
      if (end == std::string::npos) end = log.size();
      const std::string line = log.substr(start, end - start);
      if (line.find("error") != std::string::npos) std::printf("%s: log: %s\n", label, line.c_str());
      start = end + 1;
    }
    nvrtcDestroyProgram(&prog);
    return nullptr;
  }
  return prog;
}

// The cubin NVRTC made (empty, with NVRTC's answer printed, when it has none).
static std::vector<char> cubin(const char* label, nvrtcProgram prog) {
  size_t size = 0;
  nvrtcResult r = nvrtcGetCUBINSize(prog, &size);
  if (r != NVRTC_SUCCESS) {
    std::printf("%s: nvrtcGetCUBINSize: %s\n", label, nvrtcGetErrorString(r));
    return {};
  }
  std::vector<char> image(size);
  r = nvrtcGetCUBIN(prog, image.data());
  std::printf("%s: nvrtcGetCUBIN: %s\n", label, nvrtcGetErrorString(r));
  return r == NVRTC_SUCCESS ? image : std::vector<char>{};
}

static int run_saxpy(const char* label, const std::vector<char>& image) {
  CUmodule module;
  DRV(cuModuleLoadData(&module, image.data()));
  CUfunction saxpy;
  DRV(cuModuleGetFunction(&saxpy, module, "saxpy"));
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = 0.5f * i, y[i] = 1.0f + i;
  CUdeviceptr dx, dy;
  DRV(cuMemAlloc(&dx, n * sizeof(float)));
  DRV(cuMemAlloc(&dy, n * sizeof(float)));
  DRV(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));
  DRV(cuMemcpyHtoD(dy, y.data(), n * sizeof(float)));
  float a = 3.0f;
  int count = n;
  void* args[] = {&a, &dx, &dy, &count};
  DRV(cuLaunchKernel(saxpy, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  DRV(cuCtxSynchronize());
  DRV(cuMemcpyDtoH(y.data(), dy, n * sizeof(float)));
  int right = 0;
  for (int i = 0; i < n; ++i) right += y[i] == 3.0f * 0.5f * i + 1.0f + i;
  std::printf("%s: saxpy %d of %d right, y[999] = %.1f\n", label, right, n, y[n - 1]);
  DRV(cuMemFree(dx));
  DRV(cuMemFree(dy));
  DRV(cuModuleUnload(module));
  return 0;
}

int main() {
  DRV(cuInit(0));
  CUdevice dev;
  DRV(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  DRV(cuDevicePrimaryCtxRetain(&ctx, dev));
  DRV(cuCtxSetCurrent(ctx));
  int major = 0, minor = 0;
  DRV(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  DRV(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  const std::string sm = "sm_" + std::to_string(major) + std::to_string(minor);
  const std::string compute = "compute_" + std::to_string(major) + std::to_string(minor);
  std::printf("device: compute capability %d.%d\n", major, minor);

  // 1. --gpu-architecture=sm_XY, the cubin loaded and run.
  const std::string arch = "--gpu-architecture=" + sm;
  if (nvrtcProgram p = compile("saxpy.cu", kSaxpy, {arch.c_str(), "--use_fast_math"})) {
    std::vector<char> image = cubin("saxpy.cu", p);
    nvrtcDestroyProgram(&p);
    if (!image.empty() && run_saxpy("saxpy.cu", image)) return 1;
  }

  // 2. -arch and the architecture as the next option; a template instantiated inside.
  if (nvrtcProgram p = compile("squares.cu", kSquares, {"-arch", sm.c_str(), "-std=c++17"})) {
    std::vector<char> image = cubin("squares.cu", p);
    nvrtcDestroyProgram(&p);
    if (!image.empty()) {
      CUmodule module;
      DRV(cuModuleLoadData(&module, image.data()));
      CUfunction squares;
      DRV(cuModuleGetFunction(&squares, module, "squares"));
      const int n = 777;
      CUdeviceptr dout;
      DRV(cuMemAlloc(&dout, n * sizeof(int)));
      int count = n;
      void* args[] = {&dout, &count};
      DRV(cuLaunchKernel(squares, 2, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
      std::vector<int> out(n);
      DRV(cuMemcpyDtoH(out.data(), dout, n * sizeof(int)));
      long long sum = 0;
      for (int v : out) sum += v;
      std::printf("squares.cu: sum of squares %lld, out[0] = %d\n", sum, out[0]);
      DRV(cuMemFree(dout));
      DRV(cuModuleUnload(module));
    }
  }

  // 3. A virtual architecture: PTX, which the driver compiles; NVRTC has no cubin for it.
  const std::string virt = "-arch=" + compute;
  if (nvrtcProgram p = compile("saxpy_ptx.cu", kSaxpy, {virt.c_str()})) {
    std::vector<char> none = cubin("saxpy_ptx.cu", p);
    size_t size = 0;
    nvrtcGetPTXSize(p, &size);
    std::vector<char> ptx(size);
    nvrtcResult r = nvrtcGetPTX(p, ptx.data());
    std::printf("saxpy_ptx.cu: nvrtcGetPTX: %s\n", nvrtcGetErrorString(r));
    nvrtcDestroyProgram(&p);
    if (r == NVRTC_SUCCESS && run_saxpy("saxpy_ptx.cu", ptx)) return 1;
  }

  // 4. A compile error: NVRTC's answer and the log's error line.
  compile("broken.cu", kBroken, {arch.c_str()});

  DRV(cuDevicePrimaryCtxRelease(dev));
  std::printf("done\n");
  return 0;
}
