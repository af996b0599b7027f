// Rotates a 512x512 float image through a texture object with normalised coordinates,
// linear filtering and wrap addressing (as cuda-samples' simpleSurfaceWrite does), then
// fetches at the same coordinates from a float4 texture whose texels are one-hot by parity,
// so each fetch returns the four corner weights the filter used. Prints hashes of the
// coordinates, the values and the weights; `rotate_probe ANGLE PREFIX` also writes them raw
// (PREFIXrot.bin: tu, tv, value per pixel; PREFIXweights.bin) for comparison with a GPU.
// Its output on an H100 is rotate_probe.expected (tools/runtime/texture_ground_truth.sh).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(x)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) {                                                       \
      std::printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));      \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

__global__ void rotate(float* out, int width, int height, float theta, cudaTextureObject_t tex) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  float u = x / (float)width - 0.5f;
  float v = y / (float)height - 0.5f;
  float tu = u * cosf(theta) - v * sinf(theta) + 0.5f;
  float tv = v * cosf(theta) + u * sinf(theta) + 0.5f;
  size_t i = 3 * (size_t(y) * width + x);
  out[i] = tu;
  out[i + 1] = tv;
  out[i + 2] = tex2D<float>(tex, tu, tv);
}

// The same coordinates on a float4 texture whose texel (i, j) is one-hot in channel
// (i & 1) + 2 (j & 1): each channel of a fetch is the weight the filter gave that corner.
__global__ void rotate_weights(float* out, const float* coords, int width, cudaTextureObject_t tex) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  size_t p = size_t(y) * width + x;
  float4 r = tex2D<float4>(tex, coords[3 * p], coords[3 * p + 1]);
  out[4 * p] = r.x;
  out[4 * p + 1] = r.y;
  out[4 * p + 2] = r.z;
  out[4 * p + 3] = r.w;
}

namespace {
unsigned fnv1a(const std::vector<float>& v, int first, int stride, int count) {
  unsigned h = 2166136261u;
  for (size_t i = first; i < v.size(); i += stride)
    for (int k = 0; k < count; ++k) {
      unsigned bits;
      std::memcpy(&bits, &v[i + k], 4);
      for (int b = 0; b < 4; ++b) h = (h ^ ((bits >> (8 * b)) & 255u)) * 16777619u;
    }
  return h;
}

bool dump(const char* prefix, const char* what, const std::vector<float>& v) {
  std::string name = std::string(prefix) + what;
  FILE* f = std::fopen(name.c_str(), "wb");
  bool ok = f && std::fwrite(v.data(), sizeof(float), v.size(), f) == v.size();
  if (f) std::fclose(f);
  if (!ok) std::printf("cannot write %s\n", name.c_str());
  return ok;
}
}  // namespace

int main(int argc, char** argv) {
  const float angle = argc > 1 ? std::strtof(argv[1], nullptr) : 0.5f;
  const char* prefix = argc > 2 ? argv[2] : nullptr;
  const int w = 512, h = 512;
  std::vector<float> img(w * h);
  unsigned s = 12345u;
  for (auto& p : img) {  // 8-bit grey levels, as an image read from a PGM file
    s = s * 1664525u + 1013904223u;
    p = float((s >> 24) & 255u) / 255.0f;
  }
  cudaChannelFormatDesc desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &desc, w, h));
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h,
                            cudaMemcpyHostToDevice));
  cudaResourceDesc res;
  std::memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaTextureDesc td;
  std::memset(&td, 0, sizeof td);
  td.normalizedCoords = 1;
  td.filterMode = cudaFilterModeLinear;
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));
  float* d = nullptr;
  CHECK(cudaMalloc(&d, 3 * sizeof(float) * w * h));
  rotate<<<dim3(w / 8, h / 8), dim3(8, 8)>>>(d, w, h, angle, tex);
  CHECK(cudaGetLastError());
  std::vector<float> out(3 * w * h);
  CHECK(cudaMemcpy(out.data(), d, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  double sum = 0;
  for (size_t i = 2; i < out.size(); i += 3) sum += out[i];
  std::printf("angle %g: coordinates %08x, values %08x, sum of values %.3f\n", angle, fnv1a(out, 0, 3, 2),
              fnv1a(out, 2, 3, 1), sum);
  if (prefix && !dump(prefix, "rot.bin", out)) return 1;
  // Corner weights: the one-hot float4 texture at the same coordinates.
  std::vector<float4> hot(w * h);
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i) {
      float c[4] = {0, 0, 0, 0};
      c[(i & 1) + 2 * (j & 1)] = 1.0f;
      hot[j * w + i] = make_float4(c[0], c[1], c[2], c[3]);
    }
  cudaChannelFormatDesc desc4 = cudaCreateChannelDesc<float4>();
  cudaArray_t arr4;
  CHECK(cudaMallocArray(&arr4, &desc4, w, h));
  CHECK(cudaMemcpy2DToArray(arr4, 0, 0, hot.data(), w * sizeof(float4), w * sizeof(float4), h,
                            cudaMemcpyHostToDevice));
  res.res.array.array = arr4;
  cudaTextureObject_t tex4;
  CHECK(cudaCreateTextureObject(&tex4, &res, &td, nullptr));
  float* d4 = nullptr;
  CHECK(cudaMalloc(&d4, 4 * sizeof(float) * w * h));
  rotate_weights<<<dim3(w / 8, h / 8), dim3(8, 8)>>>(d4, d, w, tex4);
  CHECK(cudaGetLastError());
  std::vector<float> out4(4 * w * h);
  CHECK(cudaMemcpy(out4.data(), d4, out4.size() * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("angle %g: corner weights %08x\n", angle, fnv1a(out4, 0, 1, 1));
  if (prefix && !dump(prefix, "weights.bin", out4)) return 1;
  return 0;
}
