// 2D and 3D copies and sets that kernels ask the device runtime for (cudaMemcpy2DAsync,
// cudaMemset2DAsync, cudaMemcpy3DAsync, cudaMemset3DAsync), in a block's NULL stream and a
// created stream, and the refusals of bad pitches and kinds, printed as bytes.
// device_copies_2d.expected is an H200's output (tools/runtime/ground_truth.sh).
// nvcc flags: -rdc=true -lcudadevrt
#include <cstdio>
#include <cstring>

constexpr int kPitch = 32, kRows = 4, kBytes = kPitch * kRows;

__device__ cudaPitchedPtr pitched(void* p, size_t pitch, size_t xsize, size_t ysize) {
  cudaPitchedPtr r;
  r.ptr = p;
  r.pitch = pitch;
  r.xsize = xsize;
  r.ysize = ysize;
  return r;
}

__device__ cudaExtent extent(size_t w, size_t h, size_t d) {
  cudaExtent e;
  e.width = w;
  e.height = h;
  e.depth = d;
  return e;
}

__global__ void copies(unsigned char* dst, const unsigned char* src, unsigned char* set, unsigned char* cube,
                       unsigned char* cube_src, int* codes) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  // Rows of 12 bytes, from a 16-byte pitch into a 32-byte one.
  codes[0] = cudaMemcpy2DAsync(dst + 2, kPitch, src, 16, 12, 3, cudaMemcpyDeviceToDevice, 0);
  codes[1] = cudaMemset2DAsync(set + 1, kPitch, 0x5B, 10, 3, s);
  // Refused: a width wider than a pitch, a kind that is not device to device.
  codes[2] = cudaMemcpy2DAsync(dst, 8, src, 16, 12, 3, cudaMemcpyDeviceToDevice, 0);
  codes[3] = cudaMemcpy2DAsync(dst, kPitch, src, 16, 12, 3, cudaMemcpyHostToDevice, 0);
  codes[4] = cudaMemset2DAsync(set, 4, 1, 10, 3, 0);
  // 3D: a 2 x 2 x 2 box of 4-byte rows between two pitched volumes (pitch 16, 2 rows a slice).
  cudaMemcpy3DParms p = {};
  p.srcPtr = pitched(cube_src, 16, 16, 2);
  p.dstPtr = pitched(cube, 16, 16, 2);
  p.srcPos.x = 4;
  p.dstPos.x = 8;
  p.dstPos.y = 1;
  p.extent = extent(4, 1, 2);
  p.kind = cudaMemcpyDeviceToDevice;
  codes[5] = cudaMemcpy3DAsync(&p, s);
  codes[6] = cudaMemset3DAsync(pitched(cube, 16, 16, 2), 0x77, extent(3, 1, 2), 0);
  cudaStreamDestroy(s);
}

static void dump(const char* name, const unsigned char* b, int rows, int pitch) {
  printf("%s:\n", name);
  for (int r = 0; r < rows; ++r) {
    printf(" ");
    for (int i = 0; i < pitch; ++i) printf(" %02x", b[r * pitch + i]);
    printf("\n");
  }
}

int main() {
  unsigned char host[kBytes];
  unsigned char *dst, *src, *set, *cube, *cube_src;
  int* codes;
  cudaMalloc(&dst, kBytes);
  cudaMalloc(&src, kBytes);
  cudaMalloc(&set, kBytes);
  cudaMalloc(&cube, 64);
  cudaMalloc(&cube_src, 64);
  cudaMallocManaged(&codes, 8 * sizeof(int));
  for (int i = 0; i < 8; ++i) codes[i] = -1;
  for (int i = 0; i < kBytes; ++i) host[i] = static_cast<unsigned char>(i);
  cudaMemcpy(src, host, kBytes, cudaMemcpyHostToDevice);
  cudaMemcpy(cube_src, host, 64, cudaMemcpyHostToDevice);
  cudaMemset(dst, 0xAA, kBytes);
  cudaMemset(set, 0xAA, kBytes);
  cudaMemset(cube, 0xAA, 64);
  copies<<<1, 1>>>(dst, src, set, cube, cube_src, codes);
  printf("launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  for (int i = 0; i < 7; ++i) printf("code %d: %s\n", i, cudaGetErrorName((cudaError_t)codes[i]));
  cudaMemcpy(host, dst, kBytes, cudaMemcpyDeviceToHost);
  dump("2D copy", host, kRows, kPitch);
  cudaMemcpy(host, set, kBytes, cudaMemcpyDeviceToHost);
  dump("2D set", host, kRows, kPitch);
  cudaMemcpy(host, cube, 64, cudaMemcpyDeviceToHost);
  dump("3D copy then set", host, 4, 16);
  return 0;
}
