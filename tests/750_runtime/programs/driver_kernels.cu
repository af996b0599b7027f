// Kernels for driver_api.cu, which loads them through the driver API: built by the test
// as PTX (nvcc -ptx), as a fatbinary (nvcc -fatbin) and as a cubin (refused: SASS only).
__device__ float scale = 2.0f;  // cuModuleGetGlobal, then written by the program

extern "C" __global__ void saxpy(float* y, const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = scale * x[i] + y[i];
}

// Parameters of mixed sizes and alignments, for cuLaunchKernel's packed `extra` buffer.
extern "C" __global__ void mixed(long long* out, char c, double d, short s, int i) {
  if (threadIdx.x == 0) out[0] = c + (long long)(d * 4) + s + i;
}

extern "C" __global__ void read_texture(float* out, cudaTextureObject_t t, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f) + tex2D<float>(t, x + 1.5f, y + 0.5f);
}

extern "C" __global__ void out_of_bounds(int* p) { p[threadIdx.x + (1 << 28)] = 1; }
