// __managed__ variables: module-scope data that the host and kernels both use by name,
// initialised and uninitialised, scalars, arrays and a struct; the symbol calls on them,
// their pointer attributes, cudaFree refusing one, and what a cudaDeviceReset leaves.
// managed_vars.expected is an H200's output (tools/runtime/ground_truth.sh).
#include <cstdio>

struct Tally {
  int hits;
  float sum;
};

__managed__ int counter = 5;
__managed__ float vals[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__managed__ Tally tally;
__managed__ unsigned long long big[3] = {1, 2};
__device__ int plain = 7;

__global__ void count(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&counter, 1);
    atomicAdd(&tally.hits, 1);
    atomicAdd(&tally.sum, 0.5f);
  }
}

__global__ void scale(float k) {
  int i = threadIdx.x;
  if (i < 8) vals[i] = vals[i] * k + plain;
  if (i < 3) big[i] += 1000ull * i;
}

__global__ void read_back(int* out) {
  out[0] = counter;
  out[1] = tally.hits;
  out[2] = static_cast<int>(vals[7]);
}

static void say(const char* what, cudaError_t e) {
  printf("%s: %s\n", what, cudaGetErrorName(e));
  cudaGetLastError();
}

int main() {
  // The host sees the initial values before any launch.
  printf("before: counter %d vals[0] %g vals[7] %g tally %d %g big %llu %llu %llu\n", counter, vals[0], vals[7],
         tally.hits, tally.sum, big[0], big[1], big[2]);
  counter += 10;
  vals[0] = 100;
  count<<<4, 64>>>(250);
  say("count", cudaDeviceSynchronize());
  printf("after count: counter %d tally %d %g\n", counter, tally.hits, tally.sum);
  scale<<<1, 32>>>(2.0f);
  say("scale", cudaDeviceSynchronize());
  printf("after scale: vals");
  for (int i = 0; i < 8; ++i) printf(" %g", vals[i]);
  printf(" big %llu %llu %llu\n", big[0], big[1], big[2]);

  // The symbol calls work on managed variables as on __device__ ones.
  void* addr = nullptr;
  size_t size = 0;
  say("cudaGetSymbolAddress(counter)", cudaGetSymbolAddress(&addr, counter));
  say("cudaGetSymbolSize(vals)", cudaGetSymbolSize(&size, vals));
  printf("symbol address is the variable: %d, size %zu\n", addr == (void*)&counter, size);
  int seven = 7;
  say("cudaMemcpyToSymbol(counter)", cudaMemcpyToSymbol(counter, &seven, sizeof(int)));
  printf("counter after cudaMemcpyToSymbol: %d\n", counter);
  float two[2] = {-1, -2};
  say("cudaMemcpyToSymbol(vals, offset 8)", cudaMemcpyToSymbol(vals, two, sizeof(two), 2 * sizeof(float)));
  float back[8] = {};
  say("cudaMemcpyFromSymbol(vals)", cudaMemcpyFromSymbol(back, vals, sizeof(back)));
  printf("vals via FromSymbol: %g %g %g %g\n", back[0], back[1], back[2], back[3]);
  say("cudaMemcpyToSymbol(vals, too long)", cudaMemcpyToSymbol(vals, back, sizeof(back), 4));

  // Plain copies and memsets reach them through their addresses.
  float from[8] = {};
  say("cudaMemcpy(from vals, Default)", cudaMemcpy(from, vals, sizeof(from), cudaMemcpyDefault));
  printf("copied: %g %g\n", from[2], from[7]);
  say("cudaMemset(&tally)", cudaMemset(&tally, 0, sizeof(tally)));
  printf("tally after memset: %d %g\n", tally.hits, tally.sum);

  cudaPointerAttributes attr{};
  say("cudaPointerGetAttributes(&counter)", cudaPointerGetAttributes(&attr, &counter));
  printf("type %d devicePointer==hostPointer==&counter: %d %d\n", static_cast<int>(attr.type),
         attr.devicePointer == (void*)&counter, attr.hostPointer == (void*)&counter);

  // A kernel sees what the host wrote since the last launch.
  int* out = nullptr;
  cudaMalloc(&out, 3 * sizeof(int));
  counter = 41;
  tally.hits = 9;
  vals[7] = 77;
  read_back<<<1, 1>>>(out);
  int got[3] = {};
  say("read_back", cudaMemcpy(got, out, sizeof(got), cudaMemcpyDeviceToHost));
  printf("kernel read: %d %d %d\n", got[0], got[1], got[2]);
  cudaFree(out);

  say("cudaFree(&counter)", cudaFree(&counter));
  say("cudaDeviceSynchronize", cudaDeviceSynchronize());
  printf("counter %d\n", counter);
  return 0;
}
