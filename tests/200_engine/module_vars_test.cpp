// Module-scope .global/.const variables (__device__ / __constant__): parsed with their
// initialisers, placed in the device's global memory at load (one allocation each, named
// after the variable), found through Device::symbol, read by ld.const/ld.global/generic
// loads, and kept apart between two modules on one device.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "ptx_fixture.hpp"

using ptxtest::DevPtr;
using ptxtest::integer;
using ptxtest::ptr;

namespace {

const warpsim::isa::Module& module_vars(ptxtest::Sim& sim) {
  return sim.dev.load_ptx_file(ptxtest::source_path("tests/200_engine/nvcc/module_vars.ptx"));
}

}  // namespace

TEST_CASE("module variables: nvcc's declarations parse with sizes, spaces and initialisers", "[engine][globals]") {
  using warpsim::isa::Space;
  auto m = warpsim::isa::load_ptx_file(ptxtest::source_path("tests/200_engine/nvcc/module_vars.ptx"));
  REQUIRE(m->globals.size() == 7);
  REQUIRE(m->global_addresses.size() == 7);
  const auto& g = m->globals;
  CHECK(g[0].name == "coef");
  CHECK(g[0].space == Space::Const);
  CHECK(g[0].size == 16);
  CHECK(g[0].align == 4);
  CHECK(g[0].init.empty());
  CHECK(g[0].decl_line == 14);
  CHECK(g[1].name == "lut");
  CHECK(g[1].init == std::vector<uint8_t>{7, 0, 0, 0, 254, 255, 255, 255, 9});
  CHECK(g[2].name == "table");
  CHECK(g[2].space == Space::Global);
  CHECK(g[3].name == "counter");
  CHECK(g[3].size == 8);
  CHECK(g[3].align == 8);
  CHECK(g[4].name == "scale");
  CHECK(g[4].init == std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0x04, 0x40});
  // Without a device: deterministic placeholders, in declaration order, aligned.
  CHECK(m->global_addresses[0] == warpsim::isa::kPlaceholderVarBase);
  CHECK(m->global_addresses[1] == warpsim::isa::kPlaceholderVarBase + 16);
  CHECK(m->global_addresses[2] == warpsim::isa::kPlaceholderVarBase + 28);
  CHECK(m->global_addresses[3] == warpsim::isa::kPlaceholderVarBase + 48);
  // picks = {generic(table), generic(table)+8}: the addresses of table[0] and table[2].
  uint64_t p[2];
  REQUIRE(g[5].init.size() == 16);
  std::memcpy(p, g[5].init.data(), 16);
  CHECK(p[0] == m->global_addresses[2]);
  CHECK(p[1] == m->global_addresses[2] + 8);
  CHECK(g[6].name == "greeting");
  CHECK(g[6].init == std::vector<uint8_t>{104, 105, 33});
  CHECK(g[6].size == 4);
}

TEST_CASE("module variables: __constant__ filled through Device::symbol, initialised tables read", "[engine][globals]") {
  ptxtest::Sim sim;
  const auto& m = module_vars(sim);
  auto coef = sim.dev.symbol(m, "coef");
  REQUIRE(coef);
  CHECK(coef->size == 16);
  CHECK(coef->address % 256 == 0);
  CHECK_FALSE(sim.dev.symbol(m, "nothing"));
  CHECK(sim.dev.symbol(m, "greeting")->size == 4);
  const float c[4] = {0.5f, 1.25f, -2.0f, 3.0f};
  sim.dev.copy_to_device(coef->address, c, sizeof c);  // cudaMemcpyToSymbol

  const int n = 40;
  DevPtr out = sim.zeros<float>(n);
  sim.run(m.kernel("use_vars"), {2, 1, 1}, {32, 1, 1}, {ptr(out), integer(n)});
  auto got = sim.download<float>(out, n);
  const int lut[3] = {7, -2, 9}, table[5] = {1, 2, 3, 4, 5}, picks[2] = {1, 3};
  const char greeting[4] = {'h', 'i', '!', 0};
  for (int i = 0; i < n; ++i) {
    float f = std::fma(c[i & 3], float(lut[i % 3]), float(table[i % 5])) + float(picks[i & 1]);
    float want = float(double(f) + 2.5 + double(greeting[i & 3]));
    INFO("i = " << i);
    CHECK(got[i] == want);
  }
  uint64_t counter = 0;
  sim.dev.copy_from_device(&counter, sim.dev.symbol(m, "counter")->address, 8);
  CHECK(counter == 64);
  // A second launch keeps counting: the variable lives as long as the module.
  sim.run(m.kernel("use_vars"), {1, 1, 1}, {32, 1, 1}, {ptr(out), integer(n)});
  sim.dev.copy_from_device(&counter, sim.dev.symbol(m, "counter")->address, 8);
  CHECK(counter == 96);
}

TEST_CASE("module variables: two modules on one device have separate storage", "[engine][globals]") {
  ptxtest::Sim sim;
  const auto& a = module_vars(sim);
  const auto& b = module_vars(sim);
  CHECK(sim.dev.symbol(a, "table")->address != sim.dev.symbol(b, "table")->address);
  sim.run(a.kernel("bump_table"), {1, 1, 1}, {32, 1, 1}, {integer(10)});
  auto ta = sim.download<int>(sim.dev.symbol(a, "table")->address, 5);
  auto tb = sim.download<int>(sim.dev.symbol(b, "table")->address, 5);
  CHECK(ta == std::vector<int>{11, 12, 13, 14, 15});
  CHECK(tb == std::vector<int>{1, 2, 3, 4, 5});
  // A module parsed without this device is not one of its modules.
  auto other = warpsim::isa::parse_ptx(ptxtest::module(".global .u32 g;\n.entry k()\n{\nret;\n}\n"), "o.ptx");
  CHECK_FALSE(sim.dev.symbol(*other, "g"));
}

TEST_CASE("module variables: hand-written accesses, const loads outside the global counts", "[engine][globals]") {
  ptxtest::Sim sim;
  const std::string text = ptxtest::module(R"(.const .align 4 .u32 cv[4] = {10, 20, 30, 40};
.global .align 4 .u32 gv[4] = {1, 2, 3};
.global .align 8 .f32 fv[2] = {0f3FC00000, -2.5};
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.const.u32 %r1, [cv+8];
  ld.global.u32 %r2, [gv+4];
  mov.u64 %rd2, cv;
  cvta.const.u64 %rd3, %rd2;
  ld.u32 %r3, [%rd3+12];
  ld.global.u32 %r4, [gv+12];
  ld.global.f32 %f1, [fv+4];
  cvt.rzi.s32.f32 %r5, %f1;
  st.global.u32 [%rd1], %r1;
  st.global.u32 [%rd1+4], %r2;
  st.global.u32 [%rd1+8], %r3;
  st.global.u32 [%rd1+12], %r4;
  st.global.u32 [%rd1+16], %r5;
  ret;
}
)");
  const auto& k = sim.kernel(text);
  DevPtr out = sim.zeros<int>(5);
  auto stats = sim.run(k, {1, 1, 1}, {1, 1, 1}, {ptr(out)});
  CHECK(sim.download<int>(out, 5) == std::vector<int>{30, 2, 40, 0, -2});
  // ld.const is not global traffic; the generic load of the constant (through cvta) is.
  CHECK(stats.exec.gld_requests == 4);
  CHECK(sim.dev.symbol(*k.module, "fv")->size == 8);

  const std::string oob = ptxtest::module(R"(.global .align 4 .u32 tbl[4];
.visible .entry k()
{
  .reg .b32 %r<2>;
  ld.global.u32 %r1, [tbl+16];
  ret;
}
)");
  auto t = ptxtest::catch_error([&] { sim.run(sim.kernel(oob), {1, 1, 1}, {1, 1, 1}, {}); });
  CHECK(t.type == "KernelFault");
  INFO(t.what);
  CHECK(t.what.find("'tbl'") != std::string::npos);
}

TEST_CASE("module variables: malformed declarations and uses are file:line errors", "[engine][globals]") {
  using ptxtest::module;
  using ptxtest::ptx_error;
  CHECK(ptx_error(module(".global .u32 g;\n.global .u32 g;\n")) == "t.ptx:5:1: parse error: duplicate declaration of 'g'");
  CHECK(ptx_error(module(".global .u8 g[2] = {1, 2, 3};\n")) ==
        "t.ptx:4:13: parse error: initialiser of 'g' has 3 bytes, the variable 2");
  CHECK(ptx_error(module(".global .u32 g = 0f3F800000;\n")) ==
        "t.ptx:4:18: parse error: floating-point initialiser for a .u32 variable");
  CHECK(ptx_error(module(".global .u32 g;\n.entry k()\n{\n.reg .b32 %r1;\nld.shared.u32 %r1, [g];\nret;\n}\n")) ==
        "t.ptx:8:20: parse error: 'g' is a module global variable, used with a shared access");
}
