// Which matrix element does each lane hold in each element of a wmma fragment? CUDA calls
// the mapping unspecified; code that scales, masks or adds a bias to a fragment element by
// element depends on it all the same. For every fragment kind nvcc offers (shape, matrix,
// element type, memory layout) the program loads a matrix whose elements hold their row,
// then one whose elements hold their column, and prints where each fragment element came
// from. It then stores an accumulator fragment filled with its element index, to show where
// store_matrix_sync puts each element. Run on an H100 and under warpsim (built for sm_90),
// the output must be equal: wmma_layout.expected is the H100's.
//   ./wmma_layout        one line per fragment kind: a hash of the mapping and lane 0's and lane 31's elements
//   ./wmma_layout full   every lane's elements (docs/measurements/h100_wmma_layout.txt)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdio>
#include <cstring>
#include <vector>

using namespace nvcuda;

__device__ float as_float(float v) { return v; }
__device__ float as_float(double v) { return float(v); }
__device__ float as_float(__half v) { return __half2float(v); }
__device__ float as_float(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ float as_float(signed char v) { return float(v); }
__device__ float as_float(unsigned char v) { return float(v); }
__device__ float as_float(int v) { return float(v); }

// A matrix_a / matrix_b fragment: its memory layout is part of its type.
template <class Frag, class T>
__global__ void load_ab(const T* m, unsigned ldm, float* out) {
  Frag f;
  wmma::load_matrix_sync(f, m, ldm);
  for (int i = 0; i < f.num_elements; ++i) out[threadIdx.x * f.num_elements + i] = as_float(f.x[i]);
}

// An accumulator fragment: the memory layout is an argument.
template <class Frag, class T>
__global__ void load_acc(const T* m, unsigned ldm, bool col, float* out) {
  Frag f;
  wmma::load_matrix_sync(f, m, ldm, col ? wmma::mem_col_major : wmma::mem_row_major);
  for (int i = 0; i < f.num_elements; ++i) out[threadIdx.x * f.num_elements + i] = as_float(f.x[i]);
}

// Fills an accumulator with lane * 64 + element and stores it.
template <class Frag, class T>
__global__ void store_acc(T* m, unsigned ldm, bool col) {
  Frag f;
  for (int i = 0; i < f.num_elements; ++i) f.x[i] = T(threadIdx.x * 64 + i);
  wmma::store_matrix_sync(m, f, ldm, col ? wmma::mem_col_major : wmma::mem_row_major);
}

template <class T> T from_int(int v) { return T(v); }
template <> __half from_int<__half>(int v) { return __float2half(float(v)); }
template <> __nv_bfloat16 from_int<__nv_bfloat16>(int v) { return __float2bfloat16(float(v)); }
template <class T> double to_double(T v) { return double(v); }
template <> double to_double<__half>(__half v) { return double(__half2float(v)); }

bool full = false;

// Prints one fragment kind's mapping from the per-element row and column the device saw.
void report(const char* name, int lanes_elems, const std::vector<float>& rows, const std::vector<float>& cols) {
  unsigned long long h = 1469598103934665603ull;
  for (int k = 0; k < 32 * lanes_elems; ++k) {
    h = (h ^ (unsigned long long)(int)rows[k]) * 1099511628211ull;
    h = (h ^ (unsigned long long)(int)cols[k]) * 1099511628211ull;
  }
  std::printf("%-30s elements %2d  hash %016llx\n", name, lanes_elems, h);
  for (int lane = 0; lane < 32; ++lane) {
    if (!full && lane != 0 && lane != 31) continue;
    std::printf("  lane %2d:", lane);
    for (int i = 0; i < lanes_elems; ++i)
      std::printf(" %d,%d", (int)rows[lane * lanes_elems + i], (int)cols[lane * lanes_elems + i]);
    std::printf("\n");
  }
}

// A matrix of R x C elements of T holding their row (which = 0) or column (which = 1), laid
// out row-major (ldm = C) or column-major (ldm = R).
template <class T>
std::vector<T> coordinate_matrix(int R, int C, bool col_major, int which) {
  std::vector<T> m(R * C);
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) m[col_major ? c * R + r : r * C + c] = from_int<T>(which == 0 ? r : c);
  return m;
}

template <class Use, int M, int N, int K, class T, class Layout, class Stored = T>
void probe_ab(const char* name) {
  using Frag = wmma::fragment<Use, M, N, K, T, Layout>;
  constexpr bool is_a = std::is_same<Use, wmma::matrix_a>::value;
  constexpr bool col = std::is_same<Layout, wmma::col_major>::value;
  const int R = is_a ? M : K, C = is_a ? K : N;
  const int E = Frag::num_elements;
  std::vector<float> got[2];
  for (int which = 0; which < 2; ++which) {
    auto h = coordinate_matrix<Stored>(R, C, col, which);
    Stored* dm;
    float* dout;
    cudaMalloc(&dm, h.size() * sizeof(Stored));
    cudaMalloc(&dout, 32 * E * sizeof(float));
    cudaMemcpy(dm, h.data(), h.size() * sizeof(Stored), cudaMemcpyHostToDevice);
    load_ab<Frag, Stored><<<1, 32>>>(dm, col ? R : C, dout);
    got[which].resize(32 * E);
    cudaMemcpy(got[which].data(), dout, 32 * E * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(dm);
    cudaFree(dout);
  }
  report(name, E, got[0], got[1]);
}

template <int M, int N, int K, class T>
void probe_acc(const char* name, bool col) {
  using Frag = wmma::fragment<wmma::accumulator, M, N, K, T>;
  const int E = Frag::num_elements;
  std::vector<float> got[2];
  for (int which = 0; which < 2; ++which) {
    auto h = coordinate_matrix<T>(M, N, col, which);
    T* dm;
    float* dout;
    cudaMalloc(&dm, h.size() * sizeof(T));
    cudaMalloc(&dout, 32 * E * sizeof(float));
    cudaMemcpy(dm, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
    load_acc<Frag, T><<<1, 32>>>(dm, col ? M : N, col, dout);
    got[which].resize(32 * E);
    cudaMemcpy(got[which].data(), dout, 32 * E * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(dm);
    cudaFree(dout);
  }
  report(name, E, got[0], got[1]);
  // The store: where does (lane, element) land? Printed as the element each matrix cell got.
  T* dm;
  cudaMalloc(&dm, M * N * sizeof(T));
  cudaMemset(dm, 0xff, M * N * sizeof(T));
  store_acc<Frag, T><<<1, 32>>>(dm, col ? M : N, col);
  std::vector<T> h(M * N);
  cudaMemcpy(h.data(), dm, M * N * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(dm);
  // Consistent with the load if each cell (r, c) got the (lane, element) whose load saw (r, c).
  int agree = 0;
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < E; ++i) {
      int r = (int)got[0][lane * E + i], c = (int)got[1][lane * E + i];
      double v = to_double(h[col ? c * M + r : r * N + c]);
      agree += v == double(lane * 64 + i);
    }
  std::printf("  store: %d of %d elements land where the load found them\n", agree, 32 * E);
}

int main(int argc, char** argv) {
  full = argc > 1 && std::strcmp(argv[1], "full") == 0;
  using wmma::col_major;
  using wmma::matrix_a;
  using wmma::matrix_b;
  using wmma::row_major;
  probe_ab<matrix_a, 16, 16, 16, __half, row_major>("a m16n16k16 f16 row");
  probe_ab<matrix_a, 16, 16, 16, __half, col_major>("a m16n16k16 f16 col");
  probe_ab<matrix_b, 16, 16, 16, __half, row_major>("b m16n16k16 f16 row");
  probe_ab<matrix_b, 16, 16, 16, __half, col_major>("b m16n16k16 f16 col");
  probe_ab<matrix_a, 32, 8, 16, __half, row_major>("a m32n8k16 f16 row");
  probe_ab<matrix_a, 32, 8, 16, __half, col_major>("a m32n8k16 f16 col");
  probe_ab<matrix_b, 32, 8, 16, __half, row_major>("b m32n8k16 f16 row");
  probe_ab<matrix_b, 32, 8, 16, __half, col_major>("b m32n8k16 f16 col");
  probe_ab<matrix_a, 8, 32, 16, __half, row_major>("a m8n32k16 f16 row");
  probe_ab<matrix_a, 8, 32, 16, __half, col_major>("a m8n32k16 f16 col");
  probe_ab<matrix_b, 8, 32, 16, __half, row_major>("b m8n32k16 f16 row");
  probe_ab<matrix_b, 8, 32, 16, __half, col_major>("b m8n32k16 f16 col");
  probe_acc<16, 16, 16, float>("c m16n16k16 f32 row", false);
  probe_acc<16, 16, 16, float>("c m16n16k16 f32 col", true);
  probe_acc<16, 16, 16, __half>("c m16n16k16 f16 row", false);
  probe_acc<16, 16, 16, __half>("c m16n16k16 f16 col", true);
  probe_acc<32, 8, 16, float>("c m32n8k16 f32 row", false);
  probe_acc<32, 8, 16, float>("c m32n8k16 f32 col", true);
  probe_acc<32, 8, 16, __half>("c m32n8k16 f16 row", false);
  probe_acc<8, 32, 16, float>("c m8n32k16 f32 row", false);
  probe_acc<8, 32, 16, float>("c m8n32k16 f32 col", true);
  probe_acc<8, 32, 16, __half>("c m8n32k16 f16 col", true);

  probe_ab<matrix_a, 16, 16, 16, signed char, row_major>("a m16n16k16 s8 row");
  probe_ab<matrix_a, 16, 16, 16, signed char, col_major>("a m16n16k16 s8 col");
  probe_ab<matrix_b, 16, 16, 16, signed char, row_major>("b m16n16k16 s8 row");
  probe_ab<matrix_b, 16, 16, 16, signed char, col_major>("b m16n16k16 s8 col");
  probe_ab<matrix_a, 16, 16, 16, unsigned char, row_major>("a m16n16k16 u8 row");
  probe_ab<matrix_b, 16, 16, 16, unsigned char, col_major>("b m16n16k16 u8 col");
  probe_ab<matrix_a, 32, 8, 16, signed char, row_major>("a m32n8k16 s8 row");
  probe_ab<matrix_b, 32, 8, 16, signed char, col_major>("b m32n8k16 s8 col");
  probe_ab<matrix_a, 8, 32, 16, signed char, row_major>("a m8n32k16 s8 row");
  probe_ab<matrix_b, 8, 32, 16, signed char, col_major>("b m8n32k16 s8 col");
  probe_acc<16, 16, 16, int>("c m16n16k16 s32 row", false);
  probe_acc<16, 16, 16, int>("c m16n16k16 s32 col", true);
  probe_acc<32, 8, 16, int>("c m32n8k16 s32 row", false);
  probe_acc<8, 32, 16, int>("c m8n32k16 s32 row", false);

  probe_ab<matrix_a, 16, 16, 16, __nv_bfloat16, row_major>("a m16n16k16 bf16 row");
  probe_ab<matrix_a, 16, 16, 16, __nv_bfloat16, col_major>("a m16n16k16 bf16 col");
  probe_ab<matrix_b, 16, 16, 16, __nv_bfloat16, row_major>("b m16n16k16 bf16 row");
  probe_ab<matrix_b, 16, 16, 16, __nv_bfloat16, col_major>("b m16n16k16 bf16 col");
  probe_ab<matrix_a, 32, 8, 16, __nv_bfloat16, row_major>("a m32n8k16 bf16 row");
  probe_ab<matrix_b, 8, 32, 16, __nv_bfloat16, col_major>("b m8n32k16 bf16 col");

  probe_ab<matrix_a, 16, 16, 8, wmma::precision::tf32, row_major, float>("a m16n16k8 tf32 row");
  probe_ab<matrix_a, 16, 16, 8, wmma::precision::tf32, col_major, float>("a m16n16k8 tf32 col");
  probe_ab<matrix_b, 16, 16, 8, wmma::precision::tf32, row_major, float>("b m16n16k8 tf32 row");
  probe_ab<matrix_b, 16, 16, 8, wmma::precision::tf32, col_major, float>("b m16n16k8 tf32 col");
  probe_acc<16, 16, 8, float>("c m16n16k8 f32 row", false);
  probe_acc<16, 16, 8, float>("c m16n16k8 f32 col", true);

  probe_ab<matrix_a, 8, 8, 4, double, row_major>("a m8n8k4 f64 row");
  probe_ab<matrix_a, 8, 8, 4, double, col_major>("a m8n8k4 f64 col");
  probe_ab<matrix_b, 8, 8, 4, double, row_major>("b m8n8k4 f64 row");
  probe_ab<matrix_b, 8, 8, 4, double, col_major>("b m8n8k4 f64 col");
  probe_acc<8, 8, 4, double>("c m8n8k4 f64 row", false);
  probe_acc<8, 8, 4, double>("c m8n8k4 f64 col", true);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
