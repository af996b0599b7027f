// How threads form warps (row-major, x fastest; a partial last warp), and the special
// registers each thread sees in 1D/2D/3D blocks and grids.
#include <catch2/catch.hpp>

#include "ptx_fixture.hpp"

using ptxtest::ptr;

namespace {

constexpr int kFields = 16;

// Every thread writes its special registers to out[global linear thread][0..15].
const std::string kSpecials = ptxtest::module(R"(
.visible .entry specials(.param .u64 out)
{
  .reg .b32 %r<24>;
  .reg .b64 %rd<4>;
  .reg .pred %p1;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %tid.y;
  mov.u32 %r3, %tid.z;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %ntid.y;
  mov.u32 %r6, %ntid.z;
  mov.u32 %r7, %ctaid.x;
  mov.u32 %r8, %ctaid.y;
  mov.u32 %r9, %ctaid.z;
  mov.u32 %r10, %nctaid.x;
  mov.u32 %r11, %nctaid.y;
  mov.u32 %r12, %nctaid.z;
  mov.u32 %r13, %laneid;
  mov.u32 %r14, %warpid;
  setp.eq.u32 %p1, %r1, %r1;
  vote.sync.ballot.b32 %r15, %p1, -1;
  mov.u32 %r16, %lanemask_lt;
  // linear thread in block = (z * ny + y) * nx + x; linear block = (cz * gy + cy) * gx + cx
  mad.lo.u32 %r17, %r3, %r5, %r2;
  mad.lo.u32 %r17, %r17, %r4, %r1;
  mad.lo.u32 %r18, %r9, %r11, %r8;
  mad.lo.u32 %r18, %r18, %r10, %r7;
  mul.lo.u32 %r19, %r4, %r5;
  mul.lo.u32 %r19, %r19, %r6;
  mad.lo.u32 %r20, %r18, %r19, %r17;
  mul.wide.u32 %rd2, %r20, 64;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd3+16], {%r5, %r6, %r7, %r8};
  st.global.v4.u32 [%rd3+32], {%r9, %r10, %r11, %r12};
  st.global.v4.u32 [%rd3+48], {%r13, %r14, %r15, %r16};
  ret;
}
)");

struct Seen {
  uint32_t tid[3], ntid[3], ctaid[3], nctaid[3], lane, warp, ballot, lanemask_lt;
};

std::vector<Seen> run_specials(ptxtest::Sim& sim, warpsim::Dim3 grid, warpsim::Dim3 block,
                               warpsim::LaunchStats* stats = nullptr) {
  const auto& k = sim.kernel(kSpecials);
  size_t n = grid.count() * block.count();
  auto out = sim.upload(std::vector<uint32_t>(n * kFields, 0xDEADu));
  auto st = sim.run(k, grid, block, {ptr(out)});
  if (stats) *stats = st;
  auto raw = sim.download<uint32_t>(out, n * kFields);
  std::vector<Seen> seen(n);
  for (size_t i = 0; i < n; ++i) std::memcpy(&seen[i], &raw[i * kFields], sizeof(Seen));
  return seen;
}

void check_layout(warpsim::Dim3 grid, warpsim::Dim3 block) {
  INFO("grid " << grid.x << "x" << grid.y << "x" << grid.z << ", block " << block.x << "x" << block.y << "x"
               << block.z);
  ptxtest::Sim sim;
  warpsim::LaunchStats st;
  auto seen = run_specials(sim, grid, block, &st);
  const uint32_t per_block = static_cast<uint32_t>(block.count());
  const uint32_t warps = (per_block + 31) / 32;
  CHECK(st.exec.blocks == grid.count());
  CHECK(st.exec.warps == grid.count() * warps);
  CHECK(st.exec.threads == grid.count() * per_block);
  for (uint32_t bz = 0; bz < grid.z; ++bz)
    for (uint32_t by = 0; by < grid.y; ++by)
      for (uint32_t bx = 0; bx < grid.x; ++bx)
        for (uint32_t t = 0; t < per_block; ++t) {
          uint32_t blin = (bz * grid.y + by) * grid.x + bx;
          const Seen& s = seen[size_t(blin) * per_block + t];
          INFO("block " << blin << " thread " << t);
          // x varies fastest, then y, then z.
          CHECK(s.tid[0] == t % block.x);
          CHECK(s.tid[1] == (t / block.x) % block.y);
          CHECK(s.tid[2] == t / (block.x * block.y));
          CHECK(s.ntid[0] == block.x);
          CHECK(s.ntid[1] == block.y);
          CHECK(s.ntid[2] == block.z);
          CHECK(s.ctaid[0] == bx);
          CHECK(s.ctaid[1] == by);
          CHECK(s.ctaid[2] == bz);
          CHECK(s.nctaid[0] == grid.x);
          CHECK(s.nctaid[1] == grid.y);
          CHECK(s.nctaid[2] == grid.z);
          // Consecutive linear threads share a warp; the last warp may be partial.
          CHECK(s.warp == t / 32);
          CHECK(s.lane == t % 32);
          uint32_t in_warp = std::min(32u, per_block - (t / 32) * 32);
          CHECK(s.ballot == (in_warp == 32 ? 0xFFFFFFFFu : (1u << in_warp) - 1));
          CHECK(s.lanemask_lt == (1u << (t % 32)) - 1);
        }
}

}  // namespace

TEST_CASE("1D, 2D and 3D blocks form warps row-major with x fastest, partial last warps", "[engine][warps]") {
  check_layout({1, 1, 1}, {48, 1, 1});  // 32 + 16
  check_layout({2, 1, 1}, {8, 6, 1});   // 48 threads in rows of 8
  check_layout({1, 2, 1}, {16, 16, 1});
  check_layout({3, 2, 2}, {4, 3, 5});   // 60 threads: 32 + 28
  check_layout({1, 1, 1}, {1, 1, 33});  // 33 threads along z: the second warp has one
  check_layout({2, 2, 1}, {7, 1, 1});   // a single partial warp per block
}

TEST_CASE("a 48-thread block: the second warp has 16 lanes and counts 16 threads per instruction", "[engine][warps]") {
  ptxtest::Sim sim;
  warpsim::LaunchStats st;
  run_specials(sim, {1, 1, 1}, {48, 1, 1}, &st);
  const auto& k = sim.kernel(kSpecials);
  const uint64_t n = k.code.size();  // straight-line: every instruction once per warp
  CHECK(st.exec.inst_executed == 2 * n);
  CHECK(st.exec.thread_inst_executed == 48 * n);
  for (const auto& p : st.per_pc) {
    CHECK(p.executed == 2);
    CHECK(p.active_threads == 48);
  }
}

TEST_CASE("the largest blocks the C2070 allows", "[engine][warps]") {
  check_layout({1, 1, 1}, {1024, 1, 1});
  check_layout({1, 1, 1}, {1, 1024, 1});
  check_layout({1, 1, 1}, {2, 8, 64});
}

TEST_CASE("lane masks, %smid and %nsmid", "[engine][warps]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry masks(.param .u64 out)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %lanemask_eq;
  mov.u32 %r2, %lanemask_lt;
  mov.u32 %r3, %lanemask_le;
  mov.u32 %r4, %lanemask_gt;
  mov.u32 %r5, %lanemask_ge;
  mov.u32 %r6, %smid;
  mov.u32 %r7, %nsmid;
  mov.u32 %r8, %tid.x;
  mov.u32 %r9, %ctaid.x;
  mad.lo.u32 %r8, %r9, 32, %r8;
  mul.wide.u32 %rd2, %r8, 32;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd3+16], {%r5, %r6, %r7, %r8};
  ret;
}
)"));
  auto out = sim.zeros<uint32_t>(20 * 32 * 8);
  sim.run(k, {20, 1, 1}, {32, 1, 1}, {ptr(out)});
  auto r = sim.download<uint32_t>(out, 20 * 32 * 8);
  for (uint32_t b = 0; b < 20; ++b)
    for (uint32_t l = 0; l < 32; ++l) {
      const uint32_t* v = &r[(b * 32 + l) * 8];
      INFO("block " << b << " lane " << l);
      uint32_t eq = 1u << l;
      CHECK(v[0] == eq);
      CHECK(v[1] == eq - 1);
      CHECK(v[2] == ((eq - 1) | eq));
      CHECK(v[3] == ~((eq - 1) | eq));
      CHECK(v[4] == ~(eq - 1));
      CHECK(v[5] < 14);  // the block's SM
      CHECK(v[6] == 14);  // C2070: 14 SMs
      CHECK(v[7] == b * 32 + l);
    }
}
