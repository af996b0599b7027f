// Host code driving a kernel in a loop, each launch reading what the last wrote: a
// two-pass sum reduction iterated until one value is left, plus a Jacobi relaxation.
#include <cstdio>
#include <vector>

__global__ void partial_sums(const double* in, double* out, int n) {
  __shared__ double s[128];
  int i = blockIdx.x * 128 + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0;
  __syncthreads();
  for (int stride = 64; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

__global__ void jacobi(const float* u, float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0 || i == n - 1) v[i] = u[i];
  else if (i < n) v[i] = 0.5f * (u[i - 1] + u[i + 1]);
}

int main() {
  const int n = 100000;
  std::vector<double> h(n);
  for (int i = 0; i < n; ++i) h[i] = i % 7;
  double expected = 0;
  for (double x : h) expected += x;
  double *a, *b;
  cudaMalloc(&a, n * sizeof(double));
  cudaMalloc(&b, n * sizeof(double));
  cudaMemcpy(a, h.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  int launches = 0;
  for (int m = n; m > 1; m = (m + 127) / 128) {
    partial_sums<<<(m + 127) / 128, 128>>>(a, b, m);
    std::swap(a, b);
    ++launches;
  }
  double sum = 0;
  cudaMemcpy(&sum, a, sizeof(double), cudaMemcpyDeviceToHost);
  printf("sum %.0f expected %.0f in %d launches: %s\n", sum, expected, launches, sum == expected ? "PASS" : "FAIL");

  const int cells = 64;
  std::vector<float> u(cells, 0.0f);
  u[cells - 1] = 1.0f;
  float *du, *dv;
  cudaMalloc(&du, cells * sizeof(float));
  cudaMalloc(&dv, cells * sizeof(float));
  cudaMemcpy(du, u.data(), cells * sizeof(float), cudaMemcpyHostToDevice);
  for (int it = 0; it < 20; ++it) {
    jacobi<<<1, cells>>>(du, dv, cells);
    std::swap(du, dv);
  }
  cudaMemcpy(u.data(), du, cells * sizeof(float), cudaMemcpyDeviceToHost);
  std::vector<float> ref(cells, 0.0f), next(cells);
  ref[cells - 1] = 1.0f;
  for (int it = 0; it < 20; ++it) {
    for (int i = 0; i < cells; ++i)
      next[i] = (i == 0 || i == cells - 1) ? ref[i] : 0.5f * (ref[i - 1] + ref[i + 1]);
    ref.swap(next);
  }
  int wrong = 0;
  for (int i = 0; i < cells; ++i) wrong += u[i] != ref[i];
  printf("jacobi u[62]=%.6f wrong=%d: %s\n", u[cells - 2], wrong, wrong ? "FAIL" : "PASS");
  return sum == expected && !wrong ? 0 : 1;
}
