// nvcc's own PTX for textbook idioms (nvcc/textbook_idioms.cu, compiled by nvcc 13):
// shared-memory histograms, warp shuffles and ballots, local arrays, by-value structs,
// dynamic shared memory, 2D indexing, 64-bit division, fast-math intrinsics, conversions,
// float atomics and votes - loaded and run, results checked against the host.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "ptx_fixture.hpp"

using ptxtest::ptr;

namespace {

const warpsim::isa::Module& idioms(ptxtest::Sim& sim) {
  return sim.dev.load_ptx_file(ptxtest::source_path("tests/200_engine/nvcc/textbook_idioms.ptx"));
}

uint32_t lcg(uint32_t& s) {
  s = s * 1664525u + 1013904223u;
  return s >> 8;
}

}  // namespace

TEST_CASE("nvcc idioms: every kernel loads, with its source lines", "[engine][nvcc]") {
  ptxtest::Sim sim;
  const auto& m = idioms(sim);
  CHECK(m.kernels.size() == 13);
  CHECK(m.files.at(1) == "textbook_idioms.cu");
  for (const char* name : {"histogram", "warp_sum", "local_lookup", "struct_param", "dyn_reverse", "grid2d",
                           "int64_ops", "math_approx", "conversions", "float_atomic", "vote_shfl",
                           "filter_positive", "bit_tricks"})
    CHECK_NOTHROW(m.kernel(name));
  CHECK(m.kernel("local_lookup").local_bytes == 64);
  CHECK(m.kernel("histogram").static_shared_bytes == 1024);
  CHECK(m.kernel("dyn_reverse").has_dynamic_shared);
}

TEST_CASE("nvcc idioms: shared-memory histogram with atomics", "[engine][nvcc]") {
  ptxtest::Sim sim;
  const auto& k = idioms(sim).kernel("histogram");
  const int n = 10000;
  std::vector<uint8_t> in(n);
  uint32_t s = 1;
  for (auto& b : in) b = uint8_t(lcg(s) % 200 + (lcg(s) % 2) * 50);
  std::vector<uint32_t> want(256, 0);
  for (uint8_t b : in) ++want[b];
  auto din = sim.upload(in);
  auto dh = sim.zeros<uint32_t>(256);
  auto st = sim.run(k, {4, 1, 1}, {128, 1, 1}, {ptr(din), ptr(dh), ptxtest::integer(n)});
  CHECK(sim.download<uint32_t>(dh, 256) == want);
  CHECK(st.exec.atomic_requests > 0);
  CHECK(st.exec.barriers == 2 * 4 * 4);
}

TEST_CASE("nvcc idioms: warp sum with __shfl_down_sync and __ballot_sync", "[engine][nvcc]") {
  ptxtest::Sim sim;
  const auto& k = idioms(sim).kernel("warp_sum");
  std::vector<float> in(128);
  uint32_t s = 7;
  for (auto& x : in) x = float(int(lcg(s) % 2001) - 1000) / 7.0f;
  auto din = sim.upload(in);
  auto dsum = sim.zeros<float>(4);
  auto dpos = sim.zeros<uint32_t>(4);
  sim.run(k, {2, 1, 1}, {64, 1, 1}, {ptr(din), ptr(dsum), ptr(dpos)});
  auto sums = sim.download<float>(dsum, 4);
  auto pos = sim.download<uint32_t>(dpos, 4);
  for (int w = 0; w < 4; ++w) {
    // The shuffle tree in its exact order: lanes past the end add their own value.
    float v[32];
    uint32_t ballot = 0;
    for (int l = 0; l < 32; ++l) {
      v[l] = in[w * 32 + l];
      ballot |= uint32_t(v[l] > 0.0f) << l;
    }
    for (int o = 16; o > 0; o >>= 1) {
      float nv[32];
      for (int l = 0; l < 32; ++l) nv[l] = v[l] + (l + o < 32 ? v[l + o] : v[l]);
      std::memcpy(v, nv, sizeof v);
    }
    INFO("warp " << w);
    CHECK(sums[w] == v[0]);
    CHECK(pos[w] == ballot);
  }
}

TEST_CASE("nvcc idioms: a run-time indexed local array", "[engine][nvcc]") {
  ptxtest::Sim sim;
  const auto& k = idioms(sim).kernel("local_lookup");
  std::vector<int32_t> idx(96);
  for (int t = 0; t < 96; ++t) idx[t] = (t * 5 + 3) ^ 0x30;
  auto di = sim.upload(idx);
  auto dout = sim.zeros<int32_t>(96);
  auto st = sim.run(k, {1, 1, 1}, {96, 1, 1}, {ptr(dout), ptr(di)});
  auto r = sim.download<int32_t>(dout, 96);
  for (int t = 0; t < 96; ++t) CHECK(r[t] == (idx[t] & 15) * t + 3);
  CHECK(st.exec.local_store_requests > 0);
  CHECK(st.exec.local_load_requests == 3);
}

TEST_CASE("nvcc idioms: a struct passed by value", "[engine][nvcc]") {
  ptxtest::Sim sim;
  const auto& k = idioms(sim).kernel("struct_param");
  struct Params {
    int scale;
    float offset;
    double bias;
  } p{-3, 0.25f, 1e-3};
  static_assert(sizeof(Params) == 16);
  warpsim::KernelArg arg;
  arg.kind = warpsim::KernelArg::Kind::Bytes;
  arg.bytes.resize(16);
  std::memcpy(arg.bytes.data(), &p, 16);
  auto dout = sim.zeros<float>(40);
  sim.run(k, {1, 1, 1}, {40, 1, 1}, {arg, ptr(dout)});
  auto r = sim.download<float>(dout, 40);
  for (int t = 0; t < 40; ++t) CHECK(r[t] == (float)(p.scale * t + p.offset + p.bias));
}

TEST_CASE("nvcc idioms: extern __shared__ sized at launch", "[engine][nvcc]") {
  ptxtest::Sim sim;
  const auto& k = idioms(sim).kernel("dyn_reverse");
  std::vector<float> d(3 * 100);
  for (size_t i = 0; i < d.size(); ++i) d[i] = float(i);
  auto dd = sim.upload(d);
  sim.run(k, {3, 1, 1}, {100, 1, 1}, {ptr(dd)}, 100 * 4);
  auto r = sim.download<float>(dd, 300);
  for (int b = 0; b < 3; ++b)
    for (int t = 0; t < 100; ++t) CHECK(r[b * 100 + t] == float(b * 100 + 99 - t));
  // Too little dynamic memory is an out-of-bounds shared access.
  auto t = ptxtest::catch_error([&] { sim.run(k, {3, 1, 1}, {100, 1, 1}, {ptr(dd)}, 99 * 4); });
  CHECK(t.fault == warpsim::KernelFault::Kind::MemoryAccess);
  CHECK(t.what.find("out-of-bounds shared store of 4 bytes at offset 396") == 0);
  CHECK(t.what.find("source textbook_idioms.cu:") != std::string::npos);
}

TEST_CASE("nvcc idioms: 2D grid with bounds checks", "[engine][nvcc]") {
  ptxtest::Sim sim;
  const auto& k = idioms(sim).kernel("grid2d");
  const int w = 37, h = 23;
  auto dout = sim.upload(std::vector<float>(w * h, -1.0f));
  sim.run(k, {3, 3, 1}, {16, 8, 1}, {ptr(dout), ptxtest::integer(w), ptxtest::integer(h)});
  auto r = sim.download<float>(dout, w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) CHECK(r[y * w + x] == x + y * 0.5f);
}

TEST_CASE("nvcc idioms: 64-bit division by a run-time value", "[engine][nvcc]") {
  ptxtest::Sim sim;
  const auto& k = idioms(sim).kernel("int64_ops");
  std::vector<int64_t> a = {0, 1, -1, 123456789012345ll, -987654321098765ll, INT64_MAX, INT64_MIN + 1, 77};
  for (int64_t d : {int64_t(3), int64_t(-10), int64_t(1) << 40}) {
    auto da = sim.upload(a);
    auto dout = sim.zeros<int64_t>(a.size());
    sim.run(k, {1, 1, 1}, {uint32_t(a.size()), 1, 1}, {ptr(dout), ptr(da), ptxtest::integer(d)});
    auto r = sim.download<int64_t>(dout, a.size());
    for (size_t i = 0; i < a.size(); ++i) {
      INFO("a = " << a[i] << ", d = " << d);
      CHECK(r[i] == int64_t(uint64_t(a[i] / d) + uint64_t(a[i] % 7) + uint64_t(a[i] >> 3)));
    }
  }
}

TEST_CASE("nvcc idioms: fast-math intrinsics are close to the exact functions", "[engine][nvcc]") {
  ptxtest::Sim sim;
  const auto& k = idioms(sim).kernel("math_approx");
  std::vector<float> in;
  for (int i = 0; i < 50; ++i) in.push_back(0.05f + i * 0.37f);
  in.push_back(2.5f);
  in.push_back(3.5f);
  const int n = int(in.size());
  auto din = sim.upload(in);
  auto dout = sim.zeros<float>(n * 8);
  sim.run(k, {1, 1, 1}, {64, 1, 1}, {ptr(dout), ptr(din), ptxtest::integer(n)});
  auto r = sim.download<float>(dout, n * 8);
  for (int i = 0; i < n; ++i) {
    float x = in[i];
    INFO("x = " << x);
    CHECK(r[i * 8 + 0] == std::sqrt(x));  // sqrtf is IEEE (sqrt.rn.f32)
    CHECK(r[i * 8 + 1] == Approx(1.0f / std::sqrt(x)).epsilon(1e-6));
    CHECK(r[i * 8 + 2] == Approx(std::exp(x)).epsilon(2e-6));
    CHECK(r[i * 8 + 3] == Approx(std::log(x)).epsilon(1e-5).margin(1e-6));
    CHECK(r[i * 8 + 4] == Approx(std::sin(x)).margin(2e-6));
    CHECK(r[i * 8 + 5] == Approx(x / 3.0f).epsilon(1e-6));
    CHECK(r[i * 8 + 6] == std::fmin(x, 1.5f) + std::fmax(x, 2.0f) + std::fabs(-x));
    CHECK(r[i * 8 + 7] == std::floor(x) + std::ceil(x) + std::trunc(x) + std::nearbyint(x));
  }
}

TEST_CASE("nvcc idioms: conversion intrinsics", "[engine][nvcc]") {
  ptxtest::Sim sim;
  const auto& k = idioms(sim).kernel("conversions");
  std::vector<float> in = {1.5f, 2.5f, -2.5f, 3.7f, -0.4f, 0.3f, 1e10f, -1e10f, 0.9999f, 4e9f, 1e-3f, 7.0f};
  auto din = sim.upload(in);
  auto dout = sim.zeros<int32_t>(in.size() * 4);
  sim.run(k, {1, 1, 1}, {uint32_t(in.size()), 1, 1}, {ptr(dout), ptr(din)});
  auto r = sim.download<int32_t>(dout, in.size() * 4);
  for (size_t t = 0; t < in.size(); ++t) {
    float x = in[t];
    INFO("x = " << x);
    double rn = std::nearbyint(double(x));
    int32_t want_rn = rn >= 2147483647.0 ? INT32_MAX : rn <= -2147483648.0 ? INT32_MIN : int32_t(rn);
    double rz = std::trunc(double(x));
    uint32_t want_rz = rz <= 0 ? 0u : rz >= 4294967295.0 ? 0xFFFFFFFFu : uint32_t(rz);
    float sat = x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
    uint64_t u64 = x > 0.0f ? uint64_t(x * 3.0f) : 0;
    CHECK(r[t * 4 + 0] == want_rn);
    CHECK(uint32_t(r[t * 4 + 1]) == want_rz);
    CHECK(r[t * 4 + 2] == int32_t(sat * 1000.0f));
    CHECK(r[t * 4 + 3] == int32_t(uint32_t(u64)));
  }
}

TEST_CASE("nvcc idioms: atomicAdd on floats accumulates in thread order", "[engine][nvcc]") {
  ptxtest::Sim sim;
  const auto& k = idioms(sim).kernel("float_atomic");
  const int n = 1000;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = (i % 3 == 0 ? 1e6f : 0.1f) * (i % 2 ? -1.0f : 1.0f);
  auto dx = sim.upload(x);
  auto ds = sim.zeros<float>(1);
  sim.run(k, {8, 1, 1}, {128, 1, 1}, {ptr(ds), ptr(dx), ptxtest::integer(n)});
  float want = 0.0f;
  for (float v : x) want += v;  // blocks, then warps, then lanes: index order
  CHECK(sim.download<float>(ds, 1)[0] == want);
}

TEST_CASE("nvcc idioms: __all_sync, __any_sync and every shuffle", "[engine][nvcc]") {
  ptxtest::Sim sim;
  const auto& k = idioms(sim).kernel("vote_shfl");
  std::vector<int32_t> in(64);
  for (int t = 0; t < 64; ++t) in[t] = t < 32 ? t + 1 : (t % 7) - 2;  // warp 0 all positive
  auto din = sim.upload(in);
  auto dout = sim.zeros<int32_t>(64 * 4);
  sim.run(k, {1, 1, 1}, {64, 1, 1}, {ptr(dout), ptr(din)});
  auto r = sim.download<int32_t>(dout, 64 * 4);
  for (int t = 0; t < 64; ++t) {
    int w = t / 32, l = t % 32;
    bool all = true, any = false;
    for (int j = 0; j < 32; ++j) {
      all &= in[w * 32 + j] > 0;
      any |= in[w * 32 + j] > 5;
    }
    INFO("thread " << t);
    CHECK(r[t * 4 + 0] == int(all) + 2 * int(any));
    CHECK(r[t * 4 + 1] == in[w * 32 + 3]);
    CHECK(r[t * 4 + 2] == (l % 8 >= 1 ? in[t - 1] : in[t]));
    CHECK(r[t * 4 + 3] == in[w * 32 + (l ^ 4)]);
  }
}

TEST_CASE("nvcc idioms: warp-aggregated atomics with __ffs (bfind.shiftamt)", "[engine][nvcc]") {
  ptxtest::Sim sim;
  const auto& k = idioms(sim).kernel("filter_positive");
  std::vector<int32_t> src(256);
  uint32_t s = 3;
  for (auto& v : src) v = int32_t(lcg(s) % 21) - 8;
  std::vector<int32_t> positives;
  for (int32_t v : src)
    if (v > 0) positives.push_back(v);
  auto dsrc = sim.upload(src);
  auto ddst = sim.zeros<int32_t>(256);
  auto dcount = sim.zeros<int32_t>(1);
  auto st = sim.run(k, {2, 1, 1}, {128, 1, 1}, {ptr(ddst), ptr(dcount), ptr(dsrc)});
  CHECK(sim.download<int32_t>(dcount, 1)[0] == int32_t(positives.size()));
  // Warps run in order and each warp's leader reserves a contiguous range: the order is kept.
  auto dst = sim.download<int32_t>(ddst, positives.size());
  CHECK(dst == positives);
  CHECK(st.exec.atomic_requests == 8);  // one per warp
}

TEST_CASE("nvcc idioms: rotate, __byte_perm, __activemask and __match_any_sync", "[engine][nvcc]") {
  ptxtest::Sim sim;
  const auto& k = idioms(sim).kernel("bit_tricks");
  std::vector<uint32_t> in(64);
  uint32_t s = 11;
  for (auto& v : in) v = lcg(s) * 2654435761u;
  auto din = sim.upload(in);
  auto dout = sim.upload(std::vector<uint32_t>(64 * 4, 0xDEADu));
  const int r = 13;
  sim.run(k, {1, 1, 1}, {64, 1, 1}, {ptr(dout), ptr(din), ptxtest::integer(r)});
  auto o = sim.download<uint32_t>(dout, 64 * 4);
  for (int t = 0; t < 64; ++t) {
    uint32_t x = in[t];
    INFO("thread " << t);
    CHECK(o[t * 4 + 0] == ((x << r) | (x >> (32 - r))));
    CHECK(o[t * 4 + 1] == ((x & 0xFF) | (0x44u << 8) | (((x >> 8) & 0xFF) << 16) | (0x55u << 24)));
    uint32_t active = 0, same = 0;
    for (int l = 0; l < 32; ++l) {
      int u = (t / 32) * 32 + l;
      active |= uint32_t(u % 3 != 0) << l;
      same |= uint32_t((in[u] & 7) == (x & 7)) << l;
    }
    CHECK(o[t * 4 + 2] == (t % 3 != 0 ? active : 0xDEADu));  // the threads of the divergent path
    CHECK(o[t * 4 + 3] == same);
  }
}
