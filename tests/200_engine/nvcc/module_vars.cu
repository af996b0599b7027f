// Module-scope variables as CUDA programs declare them: a __constant__ table the host
// fills (cudaMemcpyToSymbol), initialised __constant__ and __device__ arrays and scalars,
// a pointer table initialised with addresses, and a __device__ counter kernels update.
__constant__ float coef[4];
__constant__ int lut[3] = {7, -2, 9};
__device__ int table[5] = {1, 2, 3, 4, 5};
__device__ unsigned long long counter;
__device__ double scale = 2.5;
__device__ int* picks[2] = {table, table + 2};
__device__ char greeting[] = "hi!";

extern "C" __global__ void use_vars(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = coef[i & 3] * lut[i % 3] + table[i % 5] + *picks[i & 1] + scale + greeting[i & 3];
  atomicAdd(&counter, 1ull);
}

// Writes into a __device__ array through its address taken in a register (generic store).
extern "C" __global__ void bump_table(int by) {
  int* t = table;
  if (threadIdx.x < 5) t[threadIdx.x] += by;
}
