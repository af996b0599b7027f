// The CUDA driver API as a program uses it: initialisation, contexts, modules loaded from
// PTX, a fatbinary and the JIT linker, launches with argument pointers and a packed buffer,
// memory, memsets, 2D copies to an array and a texture object, streams and events,
// occupancy, errors (codes and strings, a refused cubin, bad PTX with its log, a sticky
// kernel fault), and at the end the runtime API on the same device.
// Usage: driver_api KERNELS.ptx KERNELS.fatbin KERNELS.cubin
// Every line it prints is the same on an H100 and under warpsim with --config h100.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static std::string slurp(const char* path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

static const char* name_of(CUresult r) {
  const char* n = nullptr;
  cuGetErrorName(r, &n);
  return n ? n : "?";
}

#define SHOW(call) std::printf("%-44s %s\n", #call, name_of(call))

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: driver_api KERNELS.ptx KERNELS.fatbin KERNELS.cubin\n");
    return 2;
  }
  int count = -1;
  std::printf("before cuInit: %s\n", name_of(cuDeviceGetCount(&count)));
  SHOW(cuInit(0));
  int version = 0;
  cuDriverGetVersion(&version);
  std::printf("driver version >= 13000: %d\n", version >= 13000);
  cuDeviceGetCount(&count);
  std::printf("devices: %d\n", count);
  CUdevice dev = -1;
  SHOW(cuDeviceGet(&dev, 1));
  SHOW(cuDeviceGet(&dev, 0));
  int major = 0, minor = 0, sms = 0, warp = 0, max_threads = 0;
  cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev);
  cuDeviceGetAttribute(&max_threads, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, dev);
  std::printf("cc %d.%d, %d SMs, warp %d, %d threads per SM\n", major, minor, sms, warp, max_threads);
  char name[256] = {};
  size_t total = 0;
  cuDeviceGetName(name, sizeof name, dev);
  cuDeviceTotalMem(&total, dev);
  std::printf("name is H100: %d, memory over 64 GB: %d\n", std::strstr(name, "H100") != nullptr,
              total > (64ull << 30));

  CUdeviceptr d = 0;
  std::printf("cuMemAlloc without a context: %s\n", name_of(cuMemAlloc(&d, 16)));
  CUcontext ctx = nullptr, current = nullptr;
  CUctxCreateParams params = {};
  SHOW(cuCtxCreate(&ctx, &params, 0, dev));
  cuCtxGetCurrent(&current);
  std::printf("created context is current: %d\n", current == ctx);

  // A module from a PTX file; its kernels by (extern "C") name; a module variable.
  CUmodule ptx_module = nullptr;
  SHOW(cuModuleLoad(&ptx_module, argv[1]));
  CUfunction saxpy = nullptr, again = nullptr, missing = nullptr;
  SHOW(cuModuleGetFunction(&saxpy, ptx_module, "saxpy"));
  cuModuleGetFunction(&again, ptx_module, "saxpy");
  std::printf("the same function twice: %d\n", saxpy == again);
  SHOW(cuModuleGetFunction(&missing, ptx_module, "no_such_kernel"));
  CUdeviceptr scale = 0;
  size_t scale_bytes = 0;
  SHOW(cuModuleGetGlobal(&scale, &scale_bytes, ptx_module, "scale"));
  float scale_value = 0;
  cuMemcpyDtoH(&scale_value, scale, sizeof scale_value);
  std::printf("scale: %zu bytes, initial value %g\n", scale_bytes, scale_value);

  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = float(i), y[i] = 1.0f;
  CUdeviceptr dx = 0, dy = 0;
  SHOW(cuMemAlloc(&dx, n * sizeof(float)));
  cuMemAlloc(&dy, n * sizeof(float));
  cuMemcpyHtoD(dx, x.data(), n * sizeof(float));
  cuMemcpyHtoD(dy, y.data(), n * sizeof(float));
  int nn = n;
  void* args[] = {&dy, &dx, &nn};
  SHOW(cuLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
  SHOW(cuCtxSynchronize());
  cuMemcpyDtoH(y.data(), dy, n * sizeof(float));
  std::printf("saxpy: y[0]=%g y[999]=%g\n", y[0], y[999]);
  // The module variable written by the program, then a second launch.
  const float three = 3.0f;
  cuMemcpyHtoD(scale, &three, sizeof three);
  cuLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr);
  cuMemcpyDtoH(y.data(), dy, n * sizeof(float));
  std::printf("saxpy with scale 3: y[0]=%g y[999]=%g\n", y[0], y[999]);

  // Arguments packed in one buffer at their ABI offsets.
  CUfunction mixed = nullptr;
  cuModuleGetFunction(&mixed, ptx_module, "mixed");
  CUdeviceptr dout = 0;
  cuMemAlloc(&dout, 8);
  struct {
    CUdeviceptr out;  // 0
    char c;           // 8
    double d;         // 16
    short s;          // 24
    int i;            // 28
  } packed = {dout, 5, 2.5, 300, 70000};
  size_t packed_size = sizeof packed;
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &packed_size,
                   CU_LAUNCH_PARAM_END};
  SHOW(cuLaunchKernel(mixed, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, extra));
  long long mixed_out = 0;
  cuMemcpyDtoH(&mixed_out, dout, 8);
  std::printf("packed arguments: %lld\n", mixed_out);
  size_t short_size = 20;
  void* short_extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &short_size,
                         CU_LAUNCH_PARAM_END};
  std::printf("a buffer too short: %s\n", name_of(cuLaunchKernel(mixed, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr,
                                                                  short_extra)));
  std::printf("a block too large: %s\n", name_of(cuLaunchKernel(saxpy, 1, 1, 1, 2048, 1, 1, 0, nullptr, args, nullptr)));

  // The same kernels from a fatbinary in memory, and through the JIT linker.
  const std::string fatbin = slurp(argv[2]);
  CUmodule fat_module = nullptr;
  SHOW(cuModuleLoadData(&fat_module, fatbin.data()));
  CUfunction fat_saxpy = nullptr;
  cuModuleGetFunction(&fat_saxpy, fat_module, "saxpy");
  std::printf("a second module's function is another: %d\n", fat_saxpy != saxpy);
  const std::string ptx = slurp(argv[1]);
  CUlinkState link = nullptr;
  char info[256] = {}, error[256] = {};
  CUjit_option options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {info, (void*)sizeof info, error, (void*)sizeof error};
  SHOW(cuLinkCreate(4, options, values, &link));
  SHOW(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void*)ptx.c_str(), ptx.size() + 1, "driver_kernels.ptx", 0, nullptr,
                     nullptr));
  void* image = nullptr;
  size_t image_size = 0;
  SHOW(cuLinkComplete(link, &image, &image_size));
  CUmodule linked = nullptr;
  SHOW(cuModuleLoadData(&linked, image));
  SHOW(cuLinkDestroy(link));
  CUfunction linked_saxpy = nullptr;
  cuModuleGetFunction(&linked_saxpy, linked, "saxpy");
  cuMemcpyHtoD(dy, y.data(), n * sizeof(float));
  SHOW(cuLaunchKernel(linked_saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
  float y999 = 0;
  cuMemcpyDtoH(&y999, dy + 999 * sizeof(float), sizeof y999);
  std::printf("linked module's saxpy (its own scale 2): y[999]=%g\n", y999);
  SHOW(cuModuleUnload(linked));
  SHOW(cuModuleUnload(linked));

  // A cubin has no PTX; PTX that does not compile fails with its log.
  const std::string cubin = slurp(argv[3]);
  CUmodule bad = nullptr;
  std::printf("a cubin: %s\n", name_of(cuModuleLoadData(&bad, cubin.data())));
  const char* broken = ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k() { frobnicate; }\n";
  char log[512] = {};
  CUjit_option log_options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* log_values[] = {log, (void*)sizeof log};
  std::printf("broken PTX: %s\n", name_of(cuModuleLoadDataEx(&bad, broken, 2, log_options, log_values)));
  std::printf("its error log is not empty: %d\n", log[0] != 0);

  // Memsets of 1, 2 and 4 bytes, a 2D memset, device-to-device copies, memory info.
  CUdeviceptr dm = 0;
  cuMemAlloc(&dm, 64);
  cuMemsetD32(dm, 0x11223344u, 16);
  cuMemsetD16(dm + 8, 0xabcd, 2);
  cuMemsetD8(dm + 14, 0x7f, 1);
  CUdeviceptr dm2 = 0;
  cuMemAlloc(&dm2, 64);
  SHOW(cuMemcpyDtoD(dm2, dm, 64));
  unsigned char bytes[16] = {};
  cuMemcpyDtoH(bytes, dm2, 16);
  std::printf("memsets:");
  for (unsigned char b : bytes) std::printf(" %02x", b);
  std::printf("\n");
  SHOW(cuMemsetD2D8(dm, 16, 0x5a, 4, 3));
  cuMemcpyDtoH(bytes, dm + 16, 16);
  std::printf("2D memset, second row: %02x %02x %02x %02x %02x\n", bytes[0], bytes[1], bytes[3], bytes[4], bytes[15]);
  std::printf("a misaligned D32 memset: %s\n", name_of(cuMemsetD32(dm + 2, 0, 4)));
  size_t free_bytes = 0, total_bytes = 0;
  SHOW(cuMemGetInfo(&free_bytes, &total_bytes));
  std::printf("free <= total: %d\n", free_bytes <= total_bytes);
  CUdeviceptr huge = 0;
  std::printf("1 TB: %s\n", name_of(cuMemAlloc(&huge, 1ull << 40)));

  // A 2D float array, filled with cuMemcpy2D from pitched host rows, read through a texture object.
  const int w = 8, h = 4;
  float host_rows[h][w + 2];  // a pitch of 10 floats
  for (int r = 0; r < h; ++r)
    for (int c = 0; c < w; ++c) host_rows[r][c] = float(10 * r + c);
  CUDA_ARRAY_DESCRIPTOR ad = {};
  ad.Width = w;
  ad.Height = h;
  ad.Format = CU_AD_FORMAT_FLOAT;
  ad.NumChannels = 1;
  CUarray array = nullptr;
  SHOW(cuArrayCreate(&array, &ad));
  CUDA_MEMCPY2D copy = {};
  copy.srcMemoryType = CU_MEMORYTYPE_HOST;
  copy.srcHost = host_rows;
  copy.srcPitch = sizeof host_rows[0];
  copy.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  copy.dstArray = array;
  copy.WidthInBytes = w * sizeof(float);
  copy.Height = h;
  SHOW(cuMemcpy2D(&copy));
  CUDA_ARRAY_DESCRIPTOR back = {};
  cuArrayGetDescriptor(&back, array);
  std::printf("array: %zu x %zu, format %#x, %u channel\n", back.Width, back.Height, unsigned(back.Format),
              back.NumChannels);
  CUDA_RESOURCE_DESC rd = {};
  rd.resType = CU_RESOURCE_TYPE_ARRAY;
  rd.res.array.hArray = array;
  CUDA_TEXTURE_DESC td = {};
  td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
  td.filterMode = CU_TR_FILTER_MODE_POINT;
  CUtexObject tex = 0;
  SHOW(cuTexObjectCreate(&tex, &rd, &td, nullptr));
  CUfunction read_texture = nullptr;
  cuModuleGetFunction(&read_texture, ptx_module, "read_texture");
  CUdeviceptr dtex = 0;
  cuMemAlloc(&dtex, w * h * sizeof(float));
  int ww = w, hh = h;
  void* targs[] = {&dtex, &tex, &ww, &hh};
  SHOW(cuLaunchKernel(read_texture, h, 1, 1, w, 1, 1, 0, nullptr, targs, nullptr));
  float texels[h * w];
  cuMemcpyDtoH(texels, dtex, sizeof texels);
  std::printf("texture sums: %g %g %g %g\n", texels[0], texels[7], texels[8 + 3], texels[31]);
  SHOW(cuTexObjectDestroy(tex));
  SHOW(cuArrayDestroy(array));

  // Streams, events and function attributes.
  CUstream stream = nullptr;
  SHOW(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUevent start = nullptr, stop = nullptr;
  cuEventCreate(&start, CU_EVENT_DEFAULT);
  cuEventCreate(&stop, CU_EVENT_DEFAULT);
  SHOW(cuEventRecord(start, stream));
  cuMemcpyHtoDAsync(dx, x.data(), n * sizeof(float), stream);
  SHOW(cuLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, stream, args, nullptr));
  SHOW(cuEventRecord(stop, stream));
  SHOW(cuStreamSynchronize(stream));
  float ms = -1;
  SHOW(cuEventElapsedTime(&ms, start, stop));
  std::printf("elapsed >= 0: %d\n", ms >= 0);
  SHOW(cuStreamDestroy(stream));
  int max_block = 0, regs = 0, blocks = 0, min_grid = 0, best_block = 0;
  cuFuncGetAttribute(&max_block, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, saxpy);
  cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, saxpy);
  std::printf("saxpy: %d threads per block at most, registers > 0: %d\n", max_block, regs > 0);
  SHOW(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 256, 0));
  std::printf("blocks of 256 per SM: %d\n", blocks);
  SHOW(cuOccupancyMaxPotentialBlockSize(&min_grid, &best_block, saxpy, nullptr, 0, 0));
  std::printf("potential block %d, grid %d\n", best_block, min_grid);

  // Error names and strings.
  const char* text = nullptr;
  cuGetErrorString(CUDA_ERROR_INVALID_CONTEXT, &text);
  std::printf("CUDA_ERROR_INVALID_CONTEXT: %s\n", text);
  std::printf("an unknown code: %s\n", name_of(cuGetErrorName(CUresult(12345), &text)));

  // The runtime API works in the same context: its allocation, this driver's launch.
  float* rx = nullptr;
  std::printf("cudaMalloc: %d\n", int(cudaMalloc(&rx, n * sizeof(float))));
  cudaMemcpy(rx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  void* rargs[] = {&dy, &rx, &nn};
  cuMemcpyHtoD(dy, y.data(), n * sizeof(float));
  SHOW(cuLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, rargs, nullptr));
  cudaMemcpy(&y999, reinterpret_cast<float*>(dy) + 999, sizeof y999, cudaMemcpyDeviceToHost);
  std::printf("runtime memory, driver launch: y[999]=%g\n", y999);

  // A kernel fault: the launch succeeds, the next synchronisation reports it, and it stays.
  CUfunction oob = nullptr;
  cuModuleGetFunction(&oob, ptx_module, "out_of_bounds");
  CUdeviceptr small = 0;
  cuMemAlloc(&small, 16);
  void* oargs[] = {&small};
  SHOW(cuLaunchKernel(oob, 1, 1, 1, 32, 1, 1, 0, nullptr, oargs, nullptr));
  SHOW(cuCtxSynchronize());
  SHOW(cuMemAlloc(&d, 16));
  SHOW(cuCtxDestroy(ctx));
  return 0;
}
