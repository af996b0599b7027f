// Texture fetches through the device's texture objects, checked against what an NVIDIA H100
// printed for the same texture and coordinates (tests/750_runtime/programs/textures.expected,
// recorded by tools/runtime/texture_ground_truth.sh). These need no nvcc: the kernels are
// PTX written here and the objects are made directly in the device's table.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <fstream>
#include <map>
#include <sstream>

#include "200_engine/ptx_fixture.hpp"
#include "sim/sm/texture_objects.hpp"

using namespace ptxtest;
using warpsim::sm::TexAddressMode;
using warpsim::sm::TextureObject;

namespace {

// tex.2d (or tld4.r with gather) of the coordinate pairs at xy into float4s at out.
std::string fetch_kernel(const std::string& fetch) {
  return module(R"(
.visible .entry fetch(.param .u64 tex, .param .u64 xy, .param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [tex];
  ld.param.u64 %rd2, [xy];
  ld.param.u64 %rd3, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 bra DONE;
  mul.wide.u32 %rd4, %r2, 8;
  add.s64 %rd5, %rd2, %rd4;
  ld.global.v2.f32 {%f1, %f2}, [%rd5];
  )" + fetch + R"( {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];
  mul.wide.u32 %rd6, %r2, 16;
  add.s64 %rd7, %rd3, %rd6;
  st.global.v4.f32 [%rd7], {%f3, %f4, %f5, %f6};
DONE:
  ret;
}
)");
}

// The H100's lines, by their label (the text before ':' or the first space).
std::map<std::string, std::string> h100() {
  std::ifstream f(WARPSIM_SOURCE_DIR "/tests/750_runtime/programs/textures.expected");
  REQUIRE(f);
  std::map<std::string, std::string> m;
  for (std::string l; std::getline(f, l);) {
    const size_t colon = l.find(':');
    if (colon != std::string::npos) m[l.substr(0, colon)] = l.substr(colon + 1);
    else m[l.substr(0, l.find(' '))] = l.substr(l.find(' ') + 1);
  }
  return m;
}

const float kPts[16][2] = {{0.5f, 0.5f},   {1.5f, 2.5f},     {0.f, 0.f},     {3.99f, 2.99f}, {-1.f, 1.5f}, {5.f, 1.5f},
                           {1.25f, 1.75f}, {2.f, 1.f},       {0.7f, 0.3f},   {3.6f, 2.8f},   {1.1f, -0.6f}, {2.5f, 9.f},
                           {0.51f, 0.49f}, {1.999f, 1.001f}, {-0.3f, -0.3f}, {4.4f, 3.3f}};

struct Fixture {
  Sim sim;
  DevPtr image = 0;  // a 4x3 float array: 10 y + x
  Fixture() {
    std::vector<float> img(12);
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x) img[y * 4 + x] = 10.0f * y + x;
    image = sim.upload(img);
  }
  TextureObject array_texture() const {
    TextureObject o;
    o.res.kind = warpsim::sm::TexResource::Kind::Array;
    o.res.base = image;
    o.res.width = 4;
    o.res.height = 3;
    o.res.dims = 2;
    o.res.pitch = 16;
    o.res.slice = 48;
    return o;
  }
  std::vector<float> fetch(const TextureObject& o, const std::string& op, bool normalized, int n = 16,
                           warpsim::SimMode mode = warpsim::SimMode::Functional) {
    std::vector<float> xy;
    for (int i = 0; i < n; ++i) {
      xy.push_back(kPts[i][0] / (normalized ? 4.0f : 1.0f));
      xy.push_back(kPts[i][1] / (normalized ? 3.0f : 1.0f));
    }
    const uint64_t h = sim.dev.textures().add(o);
    DevPtr in = sim.upload(xy), out = sim.zeros<float>(4 * n);
    const auto& k = sim.kernel(fetch_kernel(op));
    warpsim::LaunchOptions opt;
    opt.mode = mode;
    stats = sim.dev.launch(k, Dim3{1, 1, 1}, Dim3{uint32_t(n), 1, 1}, 0,
                           std::vector<KernelArg>{KernelArg::integer(int64_t(h)), ptr(in), ptr(out), integer(n)}, opt);
    return sim.download<float>(out, 4 * n);
  }
  warpsim::LaunchStats stats;
};

std::string join(const std::vector<float>& v, int stride) {
  std::string s;
  for (size_t i = 0; i < v.size(); i += stride) s += fmt::format(" {}", fmt::format("{:.9g}", v[i]));
  return s;
}

}  // namespace

TEST_CASE("textures: 2D point and linear fetches in every address mode equal the H100's", "[semantics][texture]") {
  const auto want = h100();
  const TexAddressMode modes[4] = {TexAddressMode::Wrap, TexAddressMode::Clamp, TexAddressMode::Mirror,
                                   TexAddressMode::Border};
  const char* names[4] = {"wrap", "clamp", "mirror", "border"};
  for (int norm = 0; norm < 2; ++norm)
    for (int f = 0; f < 2; ++f)
      for (int m = 0; m < 4; ++m) {
        Fixture fx;
        TextureObject o = fx.array_texture();
        o.address[0] = o.address[1] = o.address[2] = modes[m];
        o.filter = f ? warpsim::sm::TexFilterMode::Linear : warpsim::sm::TexFilterMode::Point;
        o.normalized_coords = norm;
        o.border[0] = 0.5f;
        const std::string label = fmt::format("2d {} {} {}", norm ? "normalized" : "texels", f ? "linear" : "point",
                                              names[m]);
        INFO(label);
        REQUIRE(want.count(label));
        CHECK(join(fx.fetch(o, "tex.2d.v4.f32.f32", norm), 4) == want.at(label));
      }
}

TEST_CASE("textures: tld4 gathers the footprint in the H100's order, missing channels read 0",
          "[semantics][texture]") {
  const auto want = h100();
  Fixture fx;
  TextureObject o = fx.array_texture();
  o.address[0] = o.address[1] = TexAddressMode::Clamp;
  auto g = fx.fetch(o, "tld4.r.2d.v4.f32.f32", false, 4);
  for (int i = 0; i < 4; ++i) {
    std::vector<float> four(g.begin() + 4 * i, g.begin() + 4 * i + 4);
    CHECK(join(four, 1) == " " + want.at(fmt::format("gather_c0[{}]", i)));
  }
  auto p = fx.fetch(o, "tex.2d.v4.f32.f32", false, 1);
  CHECK(join(p, 1) == " " + want.at("missing_channels[0]"));
}

TEST_CASE("textures: a timed fetch goes through the memory system and is counted as texture traffic",
          "[semantics][texture]") {
  Fixture fx;
  TextureObject o = fx.array_texture();
  o.address[0] = o.address[1] = TexAddressMode::Clamp;
  o.filter = warpsim::sm::TexFilterMode::Linear;
  auto functional = fx.fetch(o, "tex.2d.v4.f32.f32", false);
  auto timed = fx.fetch(o, "tex.2d.v4.f32.f32", false, 16, warpsim::SimMode::Timing);
  CHECK(functional == timed);
  CHECK(fx.stats.exec.tex_requests == 1);
  CHECK(fx.stats.mem.tex_transactions >= 1);
  CHECK(fx.stats.exec.gld_requests == 1);  // the coordinates' load, not the fetch
  CHECK(fx.stats.timing.valid);
}

TEST_CASE("textures: a handle that names no object faults naming the thread", "[semantics][texture]") {
  Fixture fx;
  const auto& k = fx.sim.kernel(fetch_kernel("tex.2d.v4.f32.f32"));
  DevPtr in = fx.sim.zeros<float>(2), out = fx.sim.zeros<float>(4);
  Thrown t = catch_error([&] {
    fx.sim.run(k, Dim3{1, 1, 1}, Dim3{1, 1, 1}, {KernelArg::integer(77), ptr(in), ptr(out), integer(1)});
  });
  CHECK(t.type == "KernelFault");
  CHECK_THAT(t.what, Catch::Contains("tex through texture object 77 (no such object was created)") &&
                         Catch::Contains("block (0,0,0), thread (0,0,0)"));
}

TEST_CASE("textures: timed fetches give the same statistics with 1 and 2 simulation threads", "[semantics][texture]") {
  Fixture fx;
  TextureObject o = fx.array_texture();
  o.filter = warpsim::sm::TexFilterMode::Linear;
  const uint64_t h = fx.sim.dev.textures().add(o);
  std::vector<float> xy;
  for (int i = 0; i < 16; ++i) xy.push_back(kPts[i][0]), xy.push_back(kPts[i][1]);
  DevPtr in = fx.sim.upload(xy), out = fx.sim.zeros<float>(64);
  const auto& k = fx.sim.kernel(fetch_kernel("tex.2d.v4.f32.f32"));
  warpsim::LaunchStats s[2];
  for (uint32_t t = 1; t <= 2; ++t) {
    warpsim::LaunchOptions opt;
    opt.mode = warpsim::SimMode::Timing;
    opt.threads = t;
    s[t - 1] = fx.sim.dev.launch(k, Dim3{56, 1, 1}, Dim3{16, 1, 1}, 0,
                                 std::vector<KernelArg>{KernelArg::integer(int64_t(h)), ptr(in), ptr(out), integer(16)},
                                 opt);
  }
  CHECK(s[0].exec.tex_requests == 56);
  CHECK(s[1].exec.tex_requests == s[0].exec.tex_requests);
  CHECK(s[1].mem.tex_transactions == s[0].mem.tex_transactions);
  CHECK(s[1].timing.elapsed_cycles_sm == s[0].timing.elapsed_cycles_sm);
  CHECK(s[1].exec.inst_executed == s[0].exec.inst_executed);
}
