// Texture and surface objects: every fetch form, address mode, filter, read mode and
// geometry a course or a sample uses, printed with exact float digits. Its expected output
// (textures.expected) was printed by an NVIDIA H100 running this program natively
// (tools/runtime/texture_ground_truth.sh); warpsim must print the same.
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>
#include <vector>

#define CHECK(call)                                                                 \
  do {                                                                              \
    cudaError_t e_ = (call);                                                        \
    if (e_ != cudaSuccess) {                                                        \
      printf("FAILED %s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); \
      return 1;                                                                     \
    }                                                                               \
  } while (0)

constexpr int kMax = 64;  // samples per case

__global__ void fetch1d(cudaTextureObject_t t, const float* xs, int n, float4* out, bool integer) {
  int i = threadIdx.x;
  if (i >= n) return;
  out[i] = integer ? tex1Dfetch<float4>(t, int(xs[i])) : tex1D<float4>(t, xs[i]);
}
__global__ void fetch2d(cudaTextureObject_t t, const float2* xy, int n, float4* out) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, xy[i].x, xy[i].y);
}
__global__ void fetch2d_u8(cudaTextureObject_t t, const float2* xy, int n, uint4* out) {
  int i = threadIdx.x;
  if (i < n) {
    uchar4 v = tex2D<uchar4>(t, xy[i].x, xy[i].y);
    out[i] = make_uint4(v.x, v.y, v.z, v.w);
  }
}
__global__ void fetch1d_int(cudaTextureObject_t t, int n, int4* out) {
  int i = threadIdx.x;
  if (i < n) {
    int2 v = tex1Dfetch<int2>(t, i - 2);
    out[i] = make_int4(v.x, v.y, 0, 0);
  }
}
__global__ void fetch3d(cudaTextureObject_t t, const float4* p, int n, float4* out) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex3D<float4>(t, p[i].x, p[i].y, p[i].z);
}
__global__ void fetch_layered(cudaTextureObject_t t1, cudaTextureObject_t t2, const float4* p, int n, float4* out) {
  int i = threadIdx.x;
  if (i < n) {
    float a = tex1DLayered<float>(t1, p[i].x, int(p[i].w));
    float b = tex2DLayered<float>(t2, p[i].x, p[i].y, int(p[i].w));
    out[i] = make_float4(a, b, 0, 0);
  }
}
__global__ void fetch_cube(cudaTextureObject_t t, const float4* p, int n, float4* out) {
  int i = threadIdx.x;
  if (i < n) out[i] = make_float4(texCubemap<float>(t, p[i].x, p[i].y, p[i].z), 0, 0, 0);
}
__global__ void gather(cudaTextureObject_t t, const float2* xy, int n, float4* out) {
  int i = threadIdx.x;
  if (i >= n) return;
  float4 g0 = tex2Dgather<float4>(t, xy[i].x, xy[i].y, 0);
  float4 g1 = tex2Dgather<float4>(t, xy[i].x, xy[i].y, 1);
  out[2 * i] = g0;
  out[2 * i + 1] = g1;
}
__global__ void fetch_lod(cudaTextureObject_t t, const float2* xy, int n, float4* out) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex2DLod<float4>(t, xy[i].x, xy[i].y, 1.5f);
}
__global__ void surface_kernel(cudaSurfaceObject_t s2, cudaSurfaceObject_t s3, cudaSurfaceObject_t sl, int w, int h,
                               int* reads) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x >= w || y >= h) return;
  int v;
  surf2Dread(&v, s2, x * 4, y);
  surf2Dwrite(v * 10 + 1, s2, x * 4, y);
  surf3Dwrite(make_short2(short(x + 100 * y), short(-x)), s3, x * 4, y, 1);
  surf2DLayeredwrite(float(x) * 0.5f + float(y), sl, x * 4, y, 2);
  if (y == 0) {
    // Out-of-range reads: clamp to the edge and zero mode.
    int c, z;
    surf2Dread(&c, s2, (x + w - 2) * 4, -1, cudaBoundaryModeClamp);
    surf2Dread(&z, s2, (x + w - 2) * 4, 0, cudaBoundaryModeZero);
    reads[2 * x] = c;
    reads[2 * x + 1] = z;
    surf2Dwrite(-7, s2, (x + w) * 4, 0, cudaBoundaryModeZero);  // dropped
  }
}

static void print4(const char* tag, int i, float4 v) {
  printf("%s[%d] %.9g %.9g %.9g %.9g\n", tag, i, v.x, v.y, v.z, v.w);
}

static cudaTextureDesc tex_desc(cudaTextureAddressMode m, cudaTextureFilterMode f, cudaTextureReadMode r, bool norm) {
  cudaTextureDesc d;
  memset(&d, 0, sizeof d);
  d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = m;
  d.filterMode = f;
  d.readMode = r;
  d.normalizedCoords = norm;
  return d;
}

static cudaTextureObject_t make_tex(cudaArray_t a, cudaTextureDesc d) {
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureObject_t t = 0;
  if (cudaCreateTextureObject(&t, &r, &d, nullptr) != cudaSuccess) printf("cudaCreateTextureObject failed\n");
  return t;
}

int main() {
  float4* d_out;
  float* d_xs;
  float2* d_xy;
  float4* d_p;
  CHECK(cudaMalloc(&d_out, 2 * kMax * sizeof(float4)));
  CHECK(cudaMalloc(&d_xs, kMax * sizeof(float)));
  CHECK(cudaMalloc(&d_xy, kMax * sizeof(float2)));
  CHECK(cudaMalloc(&d_p, kMax * sizeof(float4)));
  std::vector<float4> out(2 * kMax);
  auto fetch_out = [&](int n) { cudaMemcpy(out.data(), d_out, n * sizeof(float4), cudaMemcpyDeviceToHost); };

  // 1. Linear memory, float2 texels: tex1Dfetch inside and outside the buffer.
  {
    const int n = 8;
    std::vector<float2> host(n);
    for (int i = 0; i < n; ++i) host[i] = make_float2(1.5f * i, -0.25f * i);
    float2* buf;
    CHECK(cudaMalloc(&buf, n * sizeof(float2)));
    CHECK(cudaMemcpy(buf, host.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = buf;
    r.res.linear.desc = cudaCreateChannelDesc<float2>();
    r.res.linear.sizeInBytes = n * sizeof(float2);
    cudaTextureDesc d = tex_desc(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, false);
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr));
    float xs[12] = {-3, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 100};
    CHECK(cudaMemcpy(d_xs, xs, sizeof xs, cudaMemcpyHostToDevice));
    fetch1d<<<1, 12>>>(t, d_xs, 12, d_out, true);
    fetch_out(12);
    for (int i = 0; i < 12; ++i) print4("linear_fetch", int(xs[i]), out[i]);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(buf));
  }

  // A 4x3 float array used by several cases: value 10*y + x.
  const int W = 4, H = 3;
  std::vector<float> img(W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) img[y * W + x] = 10.0f * y + x;
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &fdesc, W, H));
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
  const float2 pts[16] = {{0.5f, 0.5f},   {1.5f, 2.5f}, {0.f, 0.f},    {3.99f, 2.99f}, {-1.f, 1.5f}, {5.f, 1.5f},
                          {1.25f, 1.75f}, {2.f, 1.f},   {0.7f, 0.3f},  {3.6f, 2.8f},   {1.1f, -0.6f}, {2.5f, 9.f},
                          {0.51f, 0.49f}, {1.999f, 1.001f}, {-0.3f, -0.3f}, {4.4f, 3.3f}};
  CHECK(cudaMemcpy(d_xy, pts, sizeof pts, cudaMemcpyHostToDevice));

  // 2. Point and linear filtering with each address mode, unnormalised and normalised.
  {
    const cudaTextureAddressMode modes[4] = {cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror,
                                             cudaAddressModeBorder};
    const char* names[4] = {"wrap", "clamp", "mirror", "border"};
    for (int norm = 0; norm < 2; ++norm)
      for (int f = 0; f < 2; ++f)
        for (int m = 0; m < 4; ++m) {
          cudaTextureDesc d = tex_desc(modes[m], f ? cudaFilterModeLinear : cudaFilterModePoint,
                                       cudaReadModeElementType, norm);
          d.borderColor[0] = 0.5f;
          cudaTextureObject_t t = make_tex(arr, d);
          std::vector<float2> p(pts, pts + 16);
          if (norm)
            for (auto& q : p) q.x /= W, q.y /= H;
          CHECK(cudaMemcpy(d_xy, p.data(), sizeof pts, cudaMemcpyHostToDevice));
          fetch2d<<<1, 16>>>(t, d_xy, 16, d_out);
          fetch_out(16);
          printf("2d %s %s %s:", norm ? "normalized" : "texels", f ? "linear" : "point", names[m]);
          for (int i = 0; i < 16; ++i) printf(" %.9g", out[i].x);
          printf("\n");
          CHECK(cudaDestroyTextureObject(t));
        }
    CHECK(cudaMemcpy(d_xy, pts, sizeof pts, cudaMemcpyHostToDevice));
  }

  // 3. A one-channel float texture read as float4: the missing channels.
  {
    cudaTextureObject_t t = make_tex(arr, tex_desc(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0));
    fetch2d<<<1, 2>>>(t, d_xy, 2, d_out);
    fetch_out(2);
    print4("missing_channels", 0, out[0]);
    // tex2DLod on a texture without mipmaps reads level 0.
    fetch_lod<<<1, 2>>>(t, d_xy, 2, d_out);
    fetch_out(2);
    print4("lod", 1, out[1]);
    // tld4 (tex2Dgather) of components 0 and 1.
    gather<<<1, 4>>>(t, d_xy, 4, d_out);
    fetch_out(8);
    for (int i = 0; i < 4; ++i) print4("gather_c0", i, out[2 * i]), print4("gather_c1", i, out[2 * i + 1]);
    CHECK(cudaDestroyTextureObject(t));
  }

  // 4. uchar4 texels: element type, and normalised float with linear filtering.
  {
    const int w = 3, h = 2;
    std::vector<uchar4> px(w * h);
    for (int i = 0; i < w * h; ++i) px[i] = make_uchar4((unsigned char)(40 * i + 7), (unsigned char)(255 - 30 * i), (unsigned char)i, 255);
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &cd, w, h));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, px.data(), w * sizeof(uchar4), w * sizeof(uchar4), h, cudaMemcpyHostToDevice));
    cudaTextureObject_t te = make_tex(a, tex_desc(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0));
    uint4* d_u;
    CHECK(cudaMalloc(&d_u, 16 * sizeof(uint4)));
    fetch2d_u8<<<1, 8>>>(te, d_xy, 8, d_u);
    std::vector<uint4> u(8);
    CHECK(cudaMemcpy(u.data(), d_u, 8 * sizeof(uint4), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 8; ++i) printf("uchar4_element[%d] %u %u %u %u\n", i, u[i].x, u[i].y, u[i].z, u[i].w);
    cudaTextureObject_t tn =
        make_tex(a, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 0));
    fetch2d<<<1, 16>>>(tn, d_xy, 16, d_out);
    fetch_out(16);
    for (int i = 0; i < 16; ++i) print4("uchar4_normalized_linear", i, out[i]);
    CHECK(cudaDestroyTextureObject(te));
    CHECK(cudaDestroyTextureObject(tn));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d_u));
  }

  // 5. Signed 16-bit normalised, and half floats with linear filtering (1D, fractional x).
  {
    const int n = 5;
    short2 s[n] = {{-32768, 32767}, {-16384, 1}, {0, -1}, {100, -100}, {32767, -32767}};
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<short2>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &cd, n, 0));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, s, sizeof s, sizeof s, 1, cudaMemcpyHostToDevice));
    cudaTextureObject_t t =
        make_tex(a, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 0));
    float xs[8] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 1.0f, 2.2f, 3.9f};
    CHECK(cudaMemcpy(d_xs, xs, sizeof xs, cudaMemcpyHostToDevice));
    fetch1d<<<1, 8>>>(t, d_xs, 8, d_out, false);
    fetch_out(8);
    for (int i = 0; i < 8; ++i) print4("short2_normalized", i, out[i]);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));

    __half hv[4] = {__float2half(0.1f), __float2half(-2.5f), __float2half(65504.f), __float2half(1.0f / 3)};
    cudaChannelFormatDesc hd = cudaCreateChannelDescHalf();
    cudaArray_t ha;
    CHECK(cudaMallocArray(&ha, &hd, 4, 0));
    CHECK(cudaMemcpyToArray(ha, 0, 0, hv, sizeof hv, cudaMemcpyHostToDevice));
    cudaTextureObject_t ht =
        make_tex(ha, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0));
    fetch1d<<<1, 8>>>(ht, d_xs, 8, d_out, false);
    fetch_out(8);
    for (int i = 0; i < 8; ++i) print4("half_linear", i, out[i]);
    CHECK(cudaDestroyTextureObject(ht));
    CHECK(cudaFreeArray(ha));
  }

  // 6. int2 texels in linear memory (tex1Dfetch<int2>), from index -2 on.
  {
    int2 v[6] = {{1, -1}, {2, -2}, {3, -3}, {4, -4}, {5, -5}, {6, -6}};
    int2* buf;
    CHECK(cudaMalloc(&buf, sizeof v));
    CHECK(cudaMemcpy(buf, v, sizeof v, cudaMemcpyHostToDevice));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = buf;
    r.res.linear.desc = cudaCreateChannelDesc<int2>();
    r.res.linear.sizeInBytes = sizeof v;
    cudaTextureDesc d = tex_desc(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, false);
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr));
    int4* d_i;
    CHECK(cudaMalloc(&d_i, 10 * sizeof(int4)));
    fetch1d_int<<<1, 10>>>(t, 10, d_i);
    int4 hi[10];
    CHECK(cudaMemcpy(hi, d_i, sizeof hi, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 10; ++i) printf("int2_fetch[%d] %d %d\n", i - 2, hi[i].x, hi[i].y);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(buf));
    CHECK(cudaFree(d_i));
  }

  // 7. Pitched 2D memory from cudaMallocPitch, linear filtering.
  {
    float* pm;
    size_t pitch;
    CHECK(cudaMallocPitch(&pm, &pitch, W * sizeof(float), H));
    CHECK(cudaMemcpy2D(pm, pitch, img.data(), W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypePitch2D;
    r.res.pitch2D.devPtr = pm;
    r.res.pitch2D.desc = fdesc;
    r.res.pitch2D.width = W;
    r.res.pitch2D.height = H;
    r.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc d = tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, false);
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr));
    fetch2d<<<1, 16>>>(t, d_xy, 16, d_out);
    fetch_out(16);
    printf("pitch2d linear:");
    for (int i = 0; i < 16; ++i) printf(" %.9g", out[i].x);
    printf("\n");
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(pm));
  }

  // 8. 3D, layered and cube-map arrays.
  const float4 p3[8] = {{0.5f, 0.5f, 0.5f, 0}, {1.25f, 0.75f, 1.5f, 1}, {2.f, 1.f, 1.f, 2},  {3.9f, 2.9f, 1.9f, 0},
                        {-1.f, 0.3f, 0.6f, 3}, {1.5f, 2.5f, 0.2f, 1},   {0.9f, 1.9f, 1.1f, 2}, {2.6f, 0.1f, 1.7f, -1}};
  CHECK(cudaMemcpy(d_p, p3, sizeof p3, cudaMemcpyHostToDevice));
  {
    const int D = 2;
    std::vector<float> vol(W * H * D);
    for (int i = 0; i < W * H * D; ++i) vol[i] = float(i) * 0.5f - 3.0f;
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &fdesc, make_cudaExtent(W, H, D)));
    cudaMemcpy3DParms cp;
    memset(&cp, 0, sizeof cp);
    cp.srcPtr = make_cudaPitchedPtr(vol.data(), W * sizeof(float), W, H);
    cp.dstArray = a;
    cp.extent = make_cudaExtent(W, H, D);
    cp.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&cp));
    cudaTextureObject_t t = make_tex(a, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0));
    fetch3d<<<1, 8>>>(t, d_p, 8, d_out);
    fetch_out(8);
    for (int i = 0; i < 8; ++i) print4("3d_linear", i, out[i]);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));

    const int L = 3;
    std::vector<float> lay(W * H * L), lay1(W * L);
    for (int i = 0; i < W * H * L; ++i) lay[i] = float(i % 7) + 0.25f * float(i / 7);
    for (int i = 0; i < W * L; ++i) lay1[i] = 100.0f + float(i);
    cudaArray_t a2, a1;
    CHECK(cudaMalloc3DArray(&a2, &fdesc, make_cudaExtent(W, H, L), cudaArrayLayered));
    CHECK(cudaMalloc3DArray(&a1, &fdesc, make_cudaExtent(W, 0, L), cudaArrayLayered));
    cp.srcPtr = make_cudaPitchedPtr(lay.data(), W * sizeof(float), W, H);
    cp.dstArray = a2;
    cp.extent = make_cudaExtent(W, H, L);
    CHECK(cudaMemcpy3D(&cp));
    cp.srcPtr = make_cudaPitchedPtr(lay1.data(), W * sizeof(float), W, 1);
    cp.dstArray = a1;
    cp.extent = make_cudaExtent(W, 1, L);
    CHECK(cudaMemcpy3D(&cp));
    cudaTextureObject_t t1 = make_tex(a1, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0));
    cudaTextureObject_t t2 = make_tex(a2, tex_desc(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0));
    fetch_layered<<<1, 8>>>(t1, t2, d_p, 8, d_out);
    fetch_out(8);
    for (int i = 0; i < 8; ++i) print4("layered", i, out[i]);
    CHECK(cudaDestroyTextureObject(t1));
    CHECK(cudaDestroyTextureObject(t2));
    CHECK(cudaFreeArray(a1));
    CHECK(cudaFreeArray(a2));

    const int F = 2;  // 2x2 faces
    std::vector<float> faces(F * F * 6);
    for (int i = 0; i < F * F * 6; ++i) faces[i] = float(i);
    cudaArray_t ca;
    CHECK(cudaMalloc3DArray(&ca, &fdesc, make_cudaExtent(F, F, 6), cudaArrayCubemap));
    cp.srcPtr = make_cudaPitchedPtr(faces.data(), F * sizeof(float), F, F);
    cp.dstArray = ca;
    cp.extent = make_cudaExtent(F, F, 6);
    CHECK(cudaMemcpy3D(&cp));
    cudaTextureObject_t tc = make_tex(ca, tex_desc(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 1));
    const float4 dirs[12] = {{1, 0.2f, 0.3f, 0},   {-1, 0.2f, 0.3f, 0}, {0.2f, 1, 0.3f, 0},  {0.2f, -1, 0.3f, 0},
                             {0.2f, 0.3f, 1, 0},   {0.2f, 0.3f, -1, 0}, {1, -0.6f, -0.6f, 0}, {-0.5f, 0.9f, -0.4f, 0},
                             {0.3f, -0.2f, -0.9f, 0}, {-0.7f, -0.1f, 0.8f, 0}, {0.1f, 0.1f, 0.1f, 0}, {-2, 1.5f, 1.8f, 0}};
    CHECK(cudaMemcpy(d_p, dirs, sizeof dirs, cudaMemcpyHostToDevice));
    fetch_cube<<<1, 12>>>(tc, d_p, 12, d_out);
    fetch_out(12);
    printf("cube:");
    for (int i = 0; i < 12; ++i) printf(" %.9g", out[i].x);
    printf("\n");
    CHECK(cudaDestroyTextureObject(tc));
    CHECK(cudaFreeArray(ca));
  }

  // 9. Surfaces: read-modify-write of a 2D int array, a 3D short2 array and a layered float
  //    array written by the kernel, clamp/zero reads, and the arrays copied back.
  {
    const int w = 6, h = 3, d = 2, L = 3;
    std::vector<int> host(w * h);
    for (int i = 0; i < w * h; ++i) host[i] = i;
    cudaChannelFormatDesc id = cudaCreateChannelDesc<int>(), sd = cudaCreateChannelDesc<short2>();
    cudaArray_t a2, a3, al;
    CHECK(cudaMallocArray(&a2, &id, w, h, cudaArraySurfaceLoadStore));
    CHECK(cudaMalloc3DArray(&a3, &sd, make_cudaExtent(w, h, d), cudaArraySurfaceLoadStore));
    CHECK(cudaMalloc3DArray(&al, &fdesc, make_cudaExtent(w, h, L), cudaArraySurfaceLoadStore | cudaArrayLayered));
    CHECK(cudaMemcpy2DToArray(a2, 0, 0, host.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    cudaSurfaceObject_t s2, s3, sl;
    r.res.array.array = a2;
    CHECK(cudaCreateSurfaceObject(&s2, &r));
    r.res.array.array = a3;
    CHECK(cudaCreateSurfaceObject(&s3, &r));
    r.res.array.array = al;
    CHECK(cudaCreateSurfaceObject(&sl, &r));
    int* d_reads;
    CHECK(cudaMalloc(&d_reads, 2 * w * sizeof(int)));
    surface_kernel<<<h, w>>>(s2, s3, sl, w, h, d_reads);
    CHECK(cudaGetLastError());
    std::vector<int> reads(2 * w), back(w * h);
    CHECK(cudaMemcpy(reads.data(), d_reads, reads.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy2DFromArray(back.data(), w * 4, a2, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
    printf("surface2d:");
    for (int v : back) printf(" %d", v);
    printf("\nsurface_edge_reads:");
    for (int v : reads) printf(" %d", v);
    printf("\n");
    std::vector<short2> s3h(w * h * d);
    cudaMemcpy3DParms cp;
    memset(&cp, 0, sizeof cp);
    cp.srcArray = a3;
    cp.dstPtr = make_cudaPitchedPtr(s3h.data(), w * sizeof(short2), w, h);
    cp.extent = make_cudaExtent(w, h, d);
    cp.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&cp));
    printf("surface3d slice1:");
    for (int i = w * h; i < 2 * w * h; i += 5) printf(" (%d,%d)", s3h[i].x, s3h[i].y);
    printf("\n");
    std::vector<float> lh(w * h * L);
    cp.srcArray = al;
    cp.dstPtr = make_cudaPitchedPtr(lh.data(), w * sizeof(float), w, h);
    cp.extent = make_cudaExtent(w, h, L);
    CHECK(cudaMemcpy3D(&cp));
    printf("surface_layer2:");
    for (int i = 2 * w * h; i < 3 * w * h; i += 4) printf(" %.9g", lh[i]);
    printf("\n");
    CHECK(cudaDestroySurfaceObject(s2));
    CHECK(cudaDestroySurfaceObject(s3));
    CHECK(cudaDestroySurfaceObject(sl));
    CHECK(cudaFreeArray(a2));
    CHECK(cudaFreeArray(a3));
    CHECK(cudaFreeArray(al));
    CHECK(cudaFree(d_reads));
  }

  // 10. Queries and refusals.
  {
    cudaChannelFormatDesc got;
    cudaExtent ext;
    unsigned flags;
    CHECK(cudaArrayGetInfo(&got, &ext, &flags, arr));
    printf("array_info %d %d %d %d kind %d extent %zu %zu %zu flags %u\n", got.x, got.y, got.z, got.w, int(got.f),
           ext.width, ext.height, ext.depth, flags);
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = arr;
    cudaSurfaceObject_t s;
    printf("surface_without_flag %s\n", cudaGetErrorName(cudaCreateSurfaceObject(&s, &r)));
    cudaGetLastError();
    cudaChannelFormatDesc bad = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t b;
    printf("three_channel_array %s\n", cudaGetErrorName(cudaMallocArray(&b, &bad, 4, 4)));
    cudaGetLastError();
    cudaTextureDesc d = tex_desc(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeNormalizedFloat, 0);
    cudaTextureObject_t t;
    printf("normalized_float_texture %s\n", cudaGetErrorName(cudaCreateTextureObject(&t, &r, &d, nullptr)));
    cudaGetLastError();
  }
  CHECK(cudaFreeArray(arr));
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
