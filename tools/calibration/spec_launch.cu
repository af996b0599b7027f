// Launches warpsim launch specs on a real GPU through the driver API, from the plans that
// spec_plan.py writes: the very PTX warpsim runs, with the spec's grid, block, dynamic
// shared memory, buffers and arguments. Data come from a SplitMix64 stream (uniform in the
// spec's range); timings do not depend on the exact values.
//   spec_launch PLAN once      each launch once (run under ncu; caches flushed by ncu)
//   spec_launch PLAN events    each launch: one warm-up, then the best of 5 timed by events
#include <cuda.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s_; cuGetErrorString(r_, &s_); \
  std::fprintf(stderr, "%s: %s (%s)\n", #x, s_, name.c_str()); std::exit(1); } } while (0)

static std::string name;

struct Buffer { std::string type; size_t count; std::string init; double a, b, c; CUdeviceptr ptr = 0; };

static uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

template <class T> static void fill(std::vector<char>& bytes, const Buffer& b) {
  T* p = reinterpret_cast<T*>(bytes.data());
  uint64_t s = uint64_t(b.a);
  long long acc = 0;
  for (size_t i = 0; i < b.count; ++i) {
    double u = double(splitmix(s) >> 11) / double(1ull << 53);
    if (b.init == "iota") p[i] = T(b.a + b.b * double(i));
    else if (b.init == "value") p[i] = T(b.a);
    else if (b.init == "random") p[i] = (T(0.5) == 0) ? T(b.b + std::floor(u * (b.c - b.b + 1))) : T(b.b + u * (b.c - b.b));
    else if (b.init == "offsets") { p[i] = T(acc); acc += (long long)(b.b + std::floor(u * (b.c - b.b + 1))); }
  }
}

int main(int argc, char** argv) {
  if (argc < 3) { std::fprintf(stderr, "usage: spec_launch PLAN once|events\n"); return 2; }
  const bool events = !std::strcmp(argv[2], "events");
  CK(cuInit(0));
  CUdevice dev; CK(cuDeviceGet(&dev, 0));
  CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  std::map<std::string, CUmodule> modules;
  std::ifstream in(argv[1]);
  std::string line, ptx, kernel;
  unsigned grid[3], block[3], smem = 0;
  std::vector<Buffer> bufs;
  std::vector<std::string> params;
  std::vector<size_t> readback;  // s64 buffers printed after the launch (the kernels' clock64 counts)
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string key; ls >> key;
    if (key == "launch") { ls >> name; bufs.clear(); params.clear(); readback.clear(); }
    else if (key == "ptx") ls >> ptx;
    else if (key == "kernel") ls >> kernel;
    else if (key == "grid") ls >> grid[0] >> grid[1] >> grid[2];
    else if (key == "block") ls >> block[0] >> block[1] >> block[2];
    else if (key == "smem") ls >> smem;
    else if (key == "buffer") { Buffer b; ls >> b.type >> b.count >> b.init >> b.a >> b.b >> b.c; bufs.push_back(b); }
    else if (key == "param") params.push_back(line);
    else if (key == "readback") { size_t i; ls >> i; readback.push_back(i); }
    else if (key == "end") {
      if (!modules.count(ptx)) {
        std::ifstream f(ptx); std::stringstream ss; ss << f.rdbuf();
        CUmodule m; CK(cuModuleLoadData(&m, ss.str().c_str())); modules[ptx] = m;
      }
      CUfunction fn; CK(cuModuleGetFunction(&fn, modules[ptx], kernel.c_str()));
      if (smem > 48 * 1024) CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem));
      for (auto& b : bufs) {
        size_t elem = (b.type == "u8" || b.type == "s8") ? 1 : (b.type == "u64" || b.type == "s64" || b.type == "f64") ? 8
                    : (b.type == "u16" || b.type == "s16") ? 2 : 4;
        std::vector<char> host(b.count * elem, 0);
        if (b.type == "f32") fill<float>(host, b); else if (b.type == "f64") fill<double>(host, b);
        else if (b.type == "s32") fill<int32_t>(host, b); else if (b.type == "u32") fill<uint32_t>(host, b);
        else if (b.type == "s64") fill<int64_t>(host, b); else if (b.type == "u64") fill<uint64_t>(host, b);
        else if (b.type == "u8") fill<uint8_t>(host, b); else if (b.type == "s8") fill<int8_t>(host, b);
        CK(cuMemAlloc(&b.ptr, host.size() ? host.size() : 1));
        if (host.size()) CK(cuMemcpyHtoD(b.ptr, host.data(), host.size()));
      }
      // Each parameter: "param SIZE type:value@offset ..."; ptr values index the buffers.
      std::vector<std::vector<char>> blobs;
      for (const auto& p : params) {
        std::istringstream ps(p);
        std::string w, item;
        size_t size;
        ps >> w >> size;
        std::vector<char> blob(size, 0);
        while (ps >> item) {
          auto colon = item.find(':'), at = item.find('@');
          std::string t = item.substr(0, colon), v = item.substr(colon + 1, at - colon - 1);
          size_t off = std::stoul(item.substr(at + 1));
          if (t == "ptr") { uint64_t x = bufs[std::stoul(v)].ptr; std::memcpy(&blob[off], &x, 8); }
          else if (t == "u32" || t == "s32") { int32_t x = int32_t(std::stoll(v)); std::memcpy(&blob[off], &x, 4); }
          else if (t == "u64" || t == "s64") { int64_t x = std::stoll(v); std::memcpy(&blob[off], &x, 8); }
          else if (t == "f32") { float x = std::stof(v); std::memcpy(&blob[off], &x, 4); }
          else if (t == "f64") { double x = std::stod(v); std::memcpy(&blob[off], &x, 8); }
        }
        blobs.push_back(blob);
      }
      std::vector<void*> args;
      for (auto& b : blobs) args.push_back(b.data());
      auto launch = [&] {
        CK(cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], smem, 0, args.data(), nullptr));
      };
      if (!events) {
        launch(); CK(cuCtxSynchronize());
        std::printf("%s,launched", name.c_str());
        for (size_t i : readback) { int64_t v; CK(cuMemcpyDtoH(&v, bufs[i].ptr, 8)); std::printf(",%lld", (long long)v); }
        std::printf("\n");
      }
      else {
        CUevent e0, e1; CK(cuEventCreate(&e0, 0)); CK(cuEventCreate(&e1, 0));
        launch(); CK(cuCtxSynchronize());
        float best = 1e30f;
        for (int r = 0; r < 5; ++r) {
          CK(cuEventRecord(e0, 0)); launch(); CK(cuEventRecord(e1, 0)); CK(cuEventSynchronize(e1));
          float ms; CK(cuEventElapsedTime(&ms, e0, e1)); if (ms < best) best = ms;
        }
        std::printf("%s,%.3f\n", name.c_str(), best * 1000.0);
        cuEventDestroy(e0); cuEventDestroy(e1);
      }
      for (auto& b : bufs) cuMemFree(b.ptr);
    }
  }
  return 0;
}
