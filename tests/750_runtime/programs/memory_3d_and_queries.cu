// Pitched 3D memory from the host (cudaMalloc3D, cudaMemset3D, cudaMemset3DAsync, read back
// with cudaMemcpy3D and cudaMemcpy3DPeer(Async)), and the queries and settings older course
// code calls: the shared-memory bank size (cudaDeviceGetSharedMemConfig,
// cudaDeviceSetSharedMemConfig, cudaFuncSetSharedMemConfig),
// cudaOccupancyAvailableDynamicSMemPerBlock, cudaFuncGetName, cudaFuncGetParamInfo,
// cudaDeviceGetPCIBusId / cudaDeviceGetByPCIBusId and cudaDeviceGetP2PAttribute, each with
// the errors of bad arguments. Prints nothing that differs between GPUs of one SM design.
// memory_3d_and_queries.expected is an H200's output (tools/runtime/ground_truth.sh).
// Some of these calls are deprecated (they still exist, and older code calls them).
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include <cstdint>
#include <cstdio>
#include <cstring>

__global__ void touch(float* p) { p[threadIdx.x] += 1.0f; }

__global__ void dynamic_shared(float* out) {
  extern __shared__ float s[];
  s[threadIdx.x] = float(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

__global__ void static_and_dynamic_shared(float* out) {
  __shared__ float t[4096];  // 16 KB
  extern __shared__ float s[];
  t[threadIdx.x] = s[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = t[blockDim.x - 1 - threadIdx.x];
}

struct Triple {
  double x, y, z;
};
__global__ void params(char c, Triple t, int* out) { out[threadIdx.x] = c + int(t.x + t.y + t.z); }

static void show(const char* what, cudaError_t e) { printf("%-58s %s\n", what, cudaGetErrorName(e)); }
#define SHOW(x) show(#x, x)

static bool bus_id_format(const char* s) {
  // dddd:bb:dd.f in hex digits, as cudaDeviceGetPCIBusId writes it
  if (std::strlen(s) != 12) return false;
  for (int i = 0; i < 12; ++i) {
    const char c = s[i];
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    if (i == 4 || i == 7 ? c != ':' : i == 10 ? c != '.' : !hex) return false;
  }
  return true;
}

int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  // ---- 3D memory
  const cudaExtent e = make_cudaExtent(100, 3, 4);  // 100 bytes x 3 rows x 4 slices
  cudaPitchedPtr p{};
  SHOW(cudaMalloc3D(&p, e));
  printf("pitch %zu xsize %zu ysize %zu ptr aligned to 512: %d\n", p.pitch, p.xsize, p.ysize,
         int(reinterpret_cast<uintptr_t>(p.ptr) % 512 == 0));
  SHOW(cudaMemset3D(p, 0x11, e));
  cudaPitchedPtr box = p;  // slice 0, row 1, byte 10: 5 bytes x 2 rows x 3 slices
  box.ptr = static_cast<char*>(p.ptr) + p.pitch + 10;
  SHOW(cudaMemset3D(box, 0x22, make_cudaExtent(5, 2, 3)));
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaPitchedPtr last = p;  // the last slice, rows 0-1, bytes 90-99
  last.ptr = static_cast<char*>(p.ptr) + 3 * p.pitch * p.ysize + 90;
  SHOW(cudaMemset3DAsync(last, 0x33, make_cudaExtent(10, 2, 1), s));
  SHOW(cudaStreamSynchronize(s));

  static unsigned char host[4][3][100];
  cudaMemcpy3DParms c{};
  c.srcPtr = p;
  c.dstPtr = make_cudaPitchedPtr(host, 100, 100, 3);
  c.extent = e;
  c.kind = cudaMemcpyDeviceToHost;
  SHOW(cudaMemcpy3D(&c));
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 3; ++y) {
      printf("slice %d row %d:", z, y);
      for (int x : {0, 9, 10, 14, 15, 89, 90, 99}) printf(" %02x", host[z][y][x]);
      printf("\n");
    }

  // a host box into the device allocation and back through a second pitched allocation
  static unsigned char src[2][2][16], back[2][2][16];
  for (int i = 0; i < 64; ++i) (&src[0][0][0])[i] = static_cast<unsigned char>(i * 7);
  cudaPitchedPtr q{};
  SHOW(cudaMalloc3D(&q, make_cudaExtent(16, 2, 2)));
  cudaMemcpy3DParms up{};
  up.srcPtr = make_cudaPitchedPtr(src, 16, 16, 2);
  up.dstPtr = q;
  up.extent = make_cudaExtent(16, 2, 2);
  up.kind = cudaMemcpyHostToDevice;
  SHOW(cudaMemcpy3D(&up));
  cudaMemcpy3DParms down = up;
  down.srcPtr = q;
  down.dstPtr = make_cudaPitchedPtr(back, 16, 16, 2);
  down.kind = cudaMemcpyDeviceToHost;
  SHOW(cudaMemcpy3D(&down));
  printf("round trip equal: %d\n", int(std::memcmp(src, back, sizeof src) == 0));

  // the same box through the peer calls, device 0 to device 0 (the one GPU), into a third
  // allocation read back as before; a peer copy takes device memory on both sides
  cudaPitchedPtr q2{};
  SHOW(cudaMalloc3D(&q2, make_cudaExtent(16, 2, 2)));
  cudaMemcpy3DPeerParms peer{};
  peer.srcPtr = q;
  peer.dstPtr = q2;
  peer.extent = make_cudaExtent(16, 2, 2);
  SHOW(cudaMemcpy3DPeer(&peer));
  static unsigned char peer_back[2][2][16];
  down.srcPtr = q2;
  down.dstPtr = make_cudaPitchedPtr(peer_back, 16, 16, 2);
  SHOW(cudaMemcpy3D(&down));
  printf("peer copy equal: %d\n", int(std::memcmp(src, peer_back, sizeof src) == 0));
  SHOW(cudaMemset3D(q2, 0, make_cudaExtent(16, 2, 2)));
  SHOW(cudaMemcpy3DPeerAsync(&peer, s));
  SHOW(cudaStreamSynchronize(s));
  std::memset(peer_back, 0, sizeof peer_back);
  SHOW(cudaMemcpy3D(&down));
  printf("async peer copy equal: %d\n", int(std::memcmp(src, peer_back, sizeof src) == 0));
  cudaMemcpy3DPeerParms to_host = peer;
  to_host.dstPtr = make_cudaPitchedPtr(peer_back, 16, 16, 2);
  SHOW(cudaMemcpy3DPeer(&to_host));
  cudaGetLastError();
  peer.dstDevice = 1;
  SHOW(cudaMemcpy3DPeer(&peer));
  cudaGetLastError();
  SHOW(cudaMemcpy3DPeer(nullptr));
  cudaGetLastError();
  SHOW(cudaFree(q2.ptr));

  SHOW(cudaMalloc3D(nullptr, e));
  cudaGetLastError();
  SHOW(cudaMemset3D(p, 0, make_cudaExtent(p.pitch + 1, 1, 1)));  // one row: no pitch to exceed
  cudaGetLastError();
  SHOW(cudaMemset3D(p, 0, make_cudaExtent(p.pitch + 1, 2, 1)));
  cudaGetLastError();
  SHOW(cudaMemset2D(p.ptr, p.pitch, 0, p.pitch + 1, 1));
  cudaGetLastError();
  SHOW(cudaMemset2D(p.ptr, p.pitch, 0, p.pitch + 1, 2));
  cudaGetLastError();
  cudaPitchedPtr tight = p;  // slices closer than height rows
  tight.ysize = 1;
  SHOW(cudaMemset3D(tight, 0x44, make_cudaExtent(4, 2, 2)));
  cudaGetLastError();
  cudaPitchedPtr none{};
  SHOW(cudaMalloc3D(&none, make_cudaExtent(0, 0, 0)));
  printf("zero extent: ptr is null %d, pitch %zu\n", int(none.ptr == nullptr), none.pitch);
  SHOW(cudaFree(q.ptr));
  SHOW(cudaFree(p.ptr));

  // ---- shared-memory bank size
  cudaSharedMemConfig cfg = cudaSharedMemBankSizeDefault;
  SHOW(cudaDeviceGetSharedMemConfig(&cfg));
  printf("bank size config %d\n", int(cfg));
  SHOW(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
  SHOW(cudaDeviceGetSharedMemConfig(&cfg));
  printf("bank size config after asking for eight bytes %d\n", int(cfg));
  SHOW(cudaDeviceSetSharedMemConfig(static_cast<cudaSharedMemConfig>(7)));
  cudaGetLastError();
  SHOW(cudaFuncSetSharedMemConfig(touch, cudaSharedMemBankSizeFourByte));
  SHOW(cudaFuncSetSharedMemConfig(touch, static_cast<cudaSharedMemConfig>(7)));
  cudaGetLastError();
  SHOW(cudaDeviceGetSharedMemConfig(nullptr));
  cudaGetLastError();

  // ---- dynamic shared memory left for a block at a given occupancy
  size_t dyn = 0;
  for (int blocks : {1, 2, 3, 4, 5, 7, 8, 11, 16, 32})
    for (int threads : {32, 256, 1024}) {
      const cudaError_t r = cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, dynamic_shared, blocks, threads);
      printf("dynamic_shared %2d blocks of %4d threads: %s %zu\n", blocks, threads, cudaGetErrorName(r),
             r == cudaSuccess ? dyn : 0);
      cudaGetLastError();
    }
  for (int blocks : {1, 2, 8})
    if (cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, static_and_dynamic_shared, blocks, 128) == cudaSuccess)
      printf("static_and_dynamic_shared %d blocks of 128 threads: %zu\n", blocks, dyn);
  SHOW(cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, dynamic_shared, 1, 0));
  cudaGetLastError();
  SHOW(cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, dynamic_shared, 1, 2048));
  cudaGetLastError();
  SHOW(cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, dynamic_shared, 0, 128));
  cudaGetLastError();
  // (a null dynamicSmemSize crashes CUDA's own runtime: not asked here)

  // ---- names
  const char* name = nullptr;
  SHOW(cudaFuncGetName(&name, touch));
  printf("name: %s\n", name ? name : "(null)");
  SHOW(cudaFuncGetName(&name, static_and_dynamic_shared));
  printf("name: %s\n", name ? name : "(null)");
  SHOW(cudaFuncGetName(nullptr, touch));
  cudaGetLastError();
  SHOW(cudaFuncGetName(&name, reinterpret_cast<const void*>(&bus_id_format)));
  cudaGetLastError();

  // ---- parameters
  size_t offset = 0, size = 0;
  for (size_t i = 0; i < 2; ++i) {
    const cudaError_t r = cudaFuncGetParamInfo(reinterpret_cast<const void*>(params), i, &offset, &size);
    printf("params parameter %zu: %s offset %zu size %zu\n", i, cudaGetErrorName(r), offset, size);
  }
  SHOW(cudaFuncGetParamInfo(reinterpret_cast<const void*>(params), 3, &offset, &size));
  cudaGetLastError();
  SHOW(cudaFuncGetParamInfo(reinterpret_cast<const void*>(params), 2, &offset, &size));
  printf("parameter 2: offset %zu size %zu\n", offset, size);
  SHOW(cudaFuncGetParamInfo(reinterpret_cast<const void*>(&bus_id_format), 0, &offset, &size));
  cudaGetLastError();

  // ---- PCI bus ids and peer attributes (one GPU)
  char bus[32] = {};
  SHOW(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
  printf("bus id format dddd:bb:dd.f: %d\n", int(bus_id_format(bus)));
  int device = -1;
  SHOW(cudaDeviceGetByPCIBusId(&device, bus));
  printf("device of that bus id: %d\n", device);
  char lower[32];
  for (int i = 0; i < 32; ++i) lower[i] = char(bus[i] >= 'A' && bus[i] <= 'F' ? bus[i] - 'A' + 'a' : bus[i]);
  device = -1;
  SHOW(cudaDeviceGetByPCIBusId(&device, lower));
  printf("device of the lower-case bus id: %d\n", device);
  device = -1;
  SHOW(cudaDeviceGetByPCIBusId(&device, bus + 5));  // bb:dd.f, without the domain
  printf("device without the domain: %d\n", device);
  cudaGetLastError();
  SHOW(cudaDeviceGetByPCIBusId(&device, "not a bus id"));
  cudaGetLastError();
  SHOW(cudaDeviceGetPCIBusId(bus, 5, 0));
  cudaGetLastError();
  SHOW(cudaDeviceGetPCIBusId(bus, sizeof bus, 7));
  cudaGetLastError();
  int value = -1;
  SHOW(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 0));
  cudaGetLastError();
  SHOW(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 1));
  cudaGetLastError();

  SHOW(cudaGetLastError());
  SHOW(cudaDeviceSynchronize());
  return 0;
}
