// Smaller engine rules: guarded-off lanes never touch memory, %clock/%clock64, and the
// instructions that have no functional effect (membar/fence, bar.warp.sync).
#include <catch2/catch.hpp>

#include "ptx_fixture.hpp"

using ptxtest::ptr;

TEST_CASE("lanes whose guard is false do not access memory, so their bad addresses do not fault", "[engine][misc]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry g(.param .u64 buf)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<5>;
  .reg .pred %p1;
  ld.param.u64 %rd1, [buf];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 8;
  mul.wide.u32 %rd2, %r1, 4096;
  add.s64 %rd3, %rd1, %rd2;
  @%p1 ld.global.u32 %r2, [%rd3];
  add.u32 %r2, %r2, 1;
  @%p1 st.global.u32 [%rd3], %r2;
  @%p1 atom.global.add.u32 %r3, [%rd3], 10;
  @!%p1 bra DONE;
  mov.u64 %rd4, 0;
  @!%p1 ld.global.u32 %r2, [%rd4];
DONE:
  ret;
}
)"));
  // Only 8 * 4096 bytes: threads 8..63 would be far out of bounds.
  auto buf = sim.zeros<uint32_t>(8 * 1024);
  auto st = sim.run(k, {1, 1, 1}, {64, 1, 1}, {ptr(buf)});
  auto r = sim.download<uint32_t>(buf, 8 * 1024);
  for (int t = 0; t < 8; ++t) CHECK(r[t * 1024] == 11);
  // The guarded instructions still issue for the whole warp (counted), with fewer threads enabled.
  CHECK(st.exec.gld_requests == 1);
  CHECK(st.exec.gst_requests == 1);
  CHECK(st.exec.atomic_requests == 1);
  CHECK(st.per_pc[ptxtest::pc_of(k, "@%p1 ld.global.u32")].executed == 2);
  CHECK(st.exec.not_predicated_off_thread_inst_executed < st.exec.thread_inst_executed);
}

TEST_CASE("%clock and %clock64 count up within a thread and repeat across runs", "[engine][misc]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry c(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, %clock64;
  mov.u32 %r1, %clock;
  add.u32 %r2, %r1, 1;
  mov.u64 %rd3, %clock64;
  mov.u32 %r3, %tid.x;
  mul.wide.u32 %rd4, %r3, 24;
  add.s64 %rd5, %rd1, %rd4;
  st.global.u64 [%rd5], %rd2;
  st.global.u64 [%rd5+8], %rd3;
  st.global.u32 [%rd5+16], %r1;
  ret;
}
)"));
  std::vector<std::vector<uint64_t>> runs;
  for (int rep = 0; rep < 2; ++rep) {
    auto out = sim.zeros<uint64_t>(3 * 64);
    sim.run(k, {2, 1, 1}, {64, 1, 1}, {ptr(out)});
    runs.push_back(sim.download<uint64_t>(out, 3 * 64));
  }
  CHECK(runs[0] == runs[1]);
  for (int t = 0; t < 64; ++t) {
    uint64_t c0 = runs[0][t * 3], c1 = runs[0][t * 3 + 1], c32 = runs[0][t * 3 + 2];
    CHECK(c1 > c0);
    CHECK(c32 >= c0);
    CHECK(c32 <= c1);
  }
}

TEST_CASE("membar, fence and bar.warp.sync have no functional effect", "[engine][misc]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry f(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  membar.gl;
  membar.cta;
  fence.acq_rel.gpu;
  bar.warp.sync -1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
)"));
  auto out = sim.zeros<uint32_t>(40);
  auto st = sim.run(k, {1, 1, 1}, {40, 1, 1}, {ptr(out)});
  auto r = sim.download<uint32_t>(out, 40);
  for (uint32_t i = 0; i < 40; ++i) CHECK(r[i] == i);
  CHECK(st.exec.inst_executed == 2 * k.code.size());
  CHECK(st.exec.barriers == 0);
}
