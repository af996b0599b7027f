// Block barriers: ordering of shared-memory exchanges, barriers in loops, barriers after
// some threads exited, and barrier deadlock (bar.sync in divergent code) reported as
// KernelFault::Deadlock naming the kernel, block, warps, lanes and PTX lines.
#include <catch2/catch.hpp>

#include <numeric>

#include "ptx_fixture.hpp"

using ptxtest::ptr;

namespace {

size_t line_of(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return 1 + std::count(text.begin(), text.begin() + at, '\n');
}

}  // namespace

TEST_CASE("bar.sync orders a shared-memory exchange between warps", "[engine][barrier]") {
  // Each thread writes s[tid], waits, then reads s[(tid + 33) % n]: a value of another warp.
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry xchg(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 s[1024];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, s;
  shl.b32 %r4, %r1, 2;
  add.u32 %r5, %r3, %r4;
  mad.lo.u32 %r6, %r1, 3, 1;
  st.shared.u32 [%r5], %r6;
  barrier.sync.aligned 0;
  add.u32 %r7, %r1, 33;
  rem.u32 %r7, %r7, %r2;
  shl.b32 %r7, %r7, 2;
  add.u32 %r7, %r3, %r7;
  ld.shared.u32 %r6, [%r7];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r6;
  ret;
}
)"));
  for (uint32_t n : {64u, 96u, 200u, 256u}) {
    auto out = sim.zeros<uint32_t>(n);
    auto st = sim.run(k, {2, 1, 1}, {n, 1, 1}, {ptr(out)});
    auto r = sim.download<uint32_t>(out, n);
    for (uint32_t t = 0; t < n; ++t) CHECK(r[t] == ((t + 33) % n) * 3 + 1);
    CHECK(st.exec.barriers == 2 * ((n + 31) / 32));  // one arrival per warp per block
  }
}

TEST_CASE("barriers in a loop: a shared-memory tree reduction", "[engine][barrier]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry reduce(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  .reg .pred %p<3>;
  .shared .align 4 .b8 s[1024];
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r5, [%rd4];
  mov.u32 %r6, s;
  shl.b32 %r7, %r1, 2;
  add.u32 %r7, %r6, %r7;
  st.shared.u32 [%r7], %r5;
  bar.sync 0;
  shr.u32 %r8, %r3, 1;
LOOP:
  setp.ge.u32 %p1, %r1, %r8;
  @%p1 bra SKIP;
  shl.b32 %r9, %r8, 2;
  add.u32 %r9, %r7, %r9;
  ld.shared.u32 %r10, [%r9];
  ld.shared.u32 %r11, [%r7];
  add.u32 %r11, %r11, %r10;
  st.shared.u32 [%r7], %r11;
SKIP:
  bar.sync 0;
  shr.u32 %r8, %r8, 1;
  setp.ne.u32 %p2, %r8, 0;
  @%p2 bra LOOP;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  ld.shared.u32 %r10, [%r6];
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r10;
DONE:
  ret;
}
)"));
  const uint32_t blocks = 5, n = 256;
  std::vector<uint32_t> in(blocks * n);
  std::iota(in.begin(), in.end(), 1u);
  auto din = sim.upload(in);
  auto dout = sim.zeros<uint32_t>(blocks);
  auto st = sim.run(k, {blocks, 1, 1}, {n, 1, 1}, {ptr(din), ptr(dout)});
  auto r = sim.download<uint32_t>(dout, blocks);
  for (uint32_t b = 0; b < blocks; ++b) {
    uint64_t want = 0;
    for (uint32_t i = 0; i < n; ++i) want += in[b * n + i];
    CHECK(r[b] == want);
  }
  // 1 + log2(256) = 9 barrier executions per warp.
  CHECK(st.exec.barriers == uint64_t(blocks) * (n / 32) * 9);
}

TEST_CASE("a barrier completes when the threads that will never arrive have exited", "[engine][barrier]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry partial(.param .u64 out, .param .u32 live)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p1;
  .shared .align 4 .b8 s[1024];
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r2, [live];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, %r2;
  @%p1 ret;
  mov.u32 %r3, s;
  shl.b32 %r4, %r1, 2;
  add.u32 %r4, %r3, %r4;
  add.u32 %r5, %r1, 1000;
  st.shared.u32 [%r4], %r5;
  bar.sync 0;
  add.u32 %r6, %r1, 1;
  rem.u32 %r6, %r6, %r2;
  shl.b32 %r6, %r6, 2;
  add.u32 %r6, %r3, %r6;
  ld.shared.u32 %r7, [%r6];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}
)"));
  // Threads from `live` up return first: within a warp (40), a whole warp (32), most of the block (1).
  for (uint32_t live : {40u, 32u, 1u, 63u, 96u}) {
    INFO(live << " of 96 threads stay");
    auto out = sim.upload(std::vector<uint32_t>(96, 7));
    sim.run(k, {1, 1, 1}, {96, 1, 1}, {ptr(out), ptxtest::integer(live)});
    auto r = sim.download<uint32_t>(out, 96);
    for (uint32_t t = 0; t < 96; ++t) CHECK(r[t] == (t < live ? 1000 + (t + 1) % live : 7u));
  }
}

TEST_CASE("bar.sync in divergent code is a deadlock naming the block, the warps, the lanes and the lines",
          "[engine][barrier]") {
  const std::string text = ptxtest::module(R"(
.visible .entry dead(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  .reg .pred %p<3>;
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, %ctaid.x;
  setp.eq.u32 %p1, %r1, 1;
  setp.lt.and.u32 %p2, %r0, 16, %p1;
  @!%p2 bra SKIP;
  bar.sync 0;
SKIP:
  bar.sync 0;
  ret;
}
)");
  ptxtest::Sim sim;
  const auto& k = sim.kernel(text, "", "dead.ptx");
  auto t = ptxtest::catch_error([&] { sim.run(k, {3, 1, 1}, {64, 1, 1}, {ptxtest::integer(0)}); });
  REQUIRE(t.type == "KernelFault");
  CHECK(t.fault == warpsim::KernelFault::Kind::Deadlock);
  size_t inner = line_of(text, "  bar.sync 0;\nSKIP");
  size_t outer = line_of(text, "SKIP:\n") + 1;
  std::string want =
      "barrier deadlock in kernel 'dead', block (1,0,0): 48 of 64 live threads reached bar.sync and the rest can "
      "never arrive (a barrier inside divergent code?)\n"
      "  warp 0: 16 thread(s) (lanes 0-15) wait at PTX line " +
      std::to_string(inner) +
      " `bar.sync 0`; lanes 16-31 are on another path of a divergent branch (next: PTX line " +
      std::to_string(outer) +
      ")\n"
      "  warp 1: 32 thread(s) (lanes 0-31) wait at PTX line " +
      std::to_string(outer) + " `bar.sync 0`";
  CHECK(t.what == want);
}

TEST_CASE("the device stays usable after a deadlock", "[engine][barrier]") {
  ptxtest::Sim sim;
  const auto& dead = sim.kernel(ptxtest::module(R"(
.visible .entry dead()
{
  .reg .b32 %r1;
  .reg .pred %p1;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 5;
  @%p1 bra DONE;
  bar.sync 0;
DONE:
  ret;
}
)"));
  auto t = ptxtest::catch_error([&] { sim.run(dead, {1, 1, 1}, {32, 1, 1}, {}); });
  CHECK(t.fault == warpsim::KernelFault::Kind::Deadlock);
  CHECK(t.what.find("27 of 32 live threads reached bar.sync") != std::string::npos);
  // A correct kernel on the same device afterwards.
  const auto& ok = sim.kernel(ptxtest::module(R"(
.visible .entry fine(.param .u64 out)
{
  .reg .b32 %r1;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  bar.sync 0;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd2, %rd1, %rd2;
  st.global.u32 [%rd2], %r1;
  ret;
}
)"));
  auto out = sim.zeros<uint32_t>(64);
  sim.run(ok, {1, 1, 1}, {64, 1, 1}, {ptr(out)});
  auto r = sim.download<uint32_t>(out, 64);
  for (uint32_t i = 0; i < 64; ++i) CHECK(r[i] == i);
}
