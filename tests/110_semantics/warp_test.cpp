// Cross-lane instructions: shfl.sync in all four modes with clamp values and segment
// masks and the |p predicate; vote.sync all/any/uni/ballot with !p, under divergence,
// guards and partial warps. Expected values follow CUDA's __shfl*_sync(width) rules,
// written independently of PTX's formula.
#include <catch2/catch.hpp>

#include <sstream>

#include "eval.hpp"

namespace {

struct Lane {
  uint32_t value;
  uint32_t pred;
};

// Each lane offers v = lane * 10 + 1 and shuffles with operands b and c (from parameters).
std::vector<Lane> run_shfl(const std::string& mode, uint32_t b, uint32_t c, const std::string& form = "") {
  std::string instr = form.empty() ? "shfl.sync." + mode + ".b32 %r5|%p1, %r4, %r1, %r2, -1;" : form;
  std::string text = ptxtest::module(R"(
.visible .entry shfl_k(.param .u64 out, .param .u32 b, .param .u32 c)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [b];
  ld.param.u32 %r2, [c];
  mov.u32 %r3, %laneid;
  mad.lo.u32 %r4, %r3, 10, 1;
  setp.ne.u32 %p1, %r3, %r3;
  )" + instr + R"(
  selp.u32 %r6, 1, 0, %p1;
  mul.wide.u32 %rd2, %r3, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v2.u32 [%rd3], {%r5, %r6};
  ret;
}
)");
  auto& s = semtest::sim();
  const auto& k = s.kernel(text, "shfl_k", "shfl.ptx");
  auto out = s.zeros<uint32_t>(64);
  s.run(k, {1, 1, 1}, {32, 1, 1}, {ptxtest::ptr(out), ptxtest::integer(b), ptxtest::integer(c)});
  auto raw = s.download<uint32_t>(out, 64);
  std::vector<Lane> lanes(32);
  for (int l = 0; l < 32; ++l) lanes[l] = {raw[2 * l], raw[2 * l + 1]};
  return lanes;
}

uint32_t v(int lane) { return uint32_t(lane) * 10 + 1; }

}  // namespace

TEST_CASE("shfl.sync with CUDA's width argument: idx, up, down, bfly in segments of 32, 16, 8, 4, 2, 1",
          "[semantics][warp][shfl]") {
  for (int w : {32, 16, 8, 4, 2, 1}) {
    const uint32_t seg = uint32_t(32 - w) << 8;  // what __shfl*_sync(mask, v, x, w) passes in c
    for (uint32_t b : {0u, 1u, 2u, 3u, 5u, 15u, 16u, 31u}) {
      INFO("width " << w << ", b = " << b);
      auto idx = run_shfl("idx", b, seg | 0x1F);
      auto down = run_shfl("down", b, seg | 0x1F);
      auto bfly = run_shfl("bfly", b, seg | 0x1F);
      auto up = run_shfl("up", b, seg);
      for (int l = 0; l < 32; ++l) {
        INFO("lane " << l);
        int base = l & ~(w - 1);
        int src = base + int(b % uint32_t(w));
        CHECK(idx[l].value == v(src));
        CHECK(idx[l].pred == 1);
        bool ok_down = (l - base) + int(b) < w;
        CHECK(down[l].value == v(ok_down ? l + int(b) : l));
        CHECK(down[l].pred == uint32_t(ok_down));
        bool ok_up = (l - base) >= int(b);
        CHECK(up[l].value == v(ok_up ? l - int(b) : l));
        CHECK(up[l].pred == uint32_t(ok_up));
        int x = l ^ int(b);
        bool ok_bfly = x < base + w;  // partners in a higher segment are out of range
        CHECK(bfly[l].value == v(ok_bfly ? x : l));
        CHECK(bfly[l].pred == uint32_t(ok_bfly));
      }
    }
  }
}

TEST_CASE("shfl clamp values below the segment end, and lane operands above 31", "[semantics][warp][shfl]") {
  // down with c = 15 (no segment mask): nobody reads past lane 15.
  auto d = run_shfl("down", 4, 15);
  for (int l = 0; l < 32; ++l) {
    bool ok = l + 4 <= 15;
    INFO("lane " << l);
    CHECK(d[l].value == v(ok ? l + 4 : l));
    CHECK(d[l].pred == uint32_t(ok));
  }
  // up with c = 8: lanes below 8 + b... the source lane must be >= 8.
  auto u = run_shfl("up", 3, 8);
  for (int l = 0; l < 32; ++l) {
    bool ok = l - 3 >= 8;
    CHECK(u[l].value == v(ok ? l - 3 : l));
    CHECK(u[l].pred == uint32_t(ok));
  }
  // idx with c = 20: lanes 21.. are out of range.
  auto i = run_shfl("idx", 25, 20);
  for (int l = 0; l < 32; ++l) {
    CHECK(i[l].value == v(l));
    CHECK(i[l].pred == 0);
  }
  auto i2 = run_shfl("idx", 7, 20);
  for (int l = 0; l < 32; ++l) CHECK(i2[l].value == v(7));
  // Only b[4:0] and c[4:0] / c[12:8] count.
  auto big = run_shfl("idx", 32 + 5, 0xFFFFE01F);
  for (int l = 0; l < 32; ++l) CHECK(big[l].value == v(5));
}

TEST_CASE("shfl with immediates, per-lane source lanes, the pre-Volta form and a sink destination",
          "[semantics][warp][shfl]") {
  auto imm = run_shfl("", 0, 0, "shfl.sync.down.b32 %r5|%p1, %r4, 1, 31, -1;");
  for (int l = 0; l < 32; ++l) CHECK(imm[l].value == v(l < 31 ? l + 1 : l));
  // Reverse the warp: each lane reads lane 31 - l.
  auto rev = run_shfl("", 0, 0, "sub.u32 %r7, 31, %r3;\n  shfl.sync.idx.b32 %r5, %r4, %r7, 31, 0xffffffff;");
  for (int l = 0; l < 32; ++l) CHECK(rev[l].value == v(31 - l));
  auto old = run_shfl("", 0, 0, "shfl.bfly.b32 %r5|%p1, %r4, 16, 31;");
  for (int l = 0; l < 32; ++l) {
    CHECK(old[l].value == v(l ^ 16));
    CHECK(old[l].pred == 1);
  }
  auto f32 = run_shfl("", 0, 0, "mov.b32 %r5, 0;\n  shfl.sync.up.b32 _|%p1, %r4, 1, 0, -1;");
  for (int l = 0; l < 32; ++l) {
    CHECK(f32[l].value == 0);
    CHECK(f32[l].pred == uint32_t(l >= 1));
  }
}

TEST_CASE("shfl from a lane that does not execute reads 0, as on Hopper", "[semantics][warp][shfl]") {
  // Odd lanes skip the shuffle (guard), so even lanes read lanes that do not execute it:
  // CUDA leaves the value undefined; an H200 returns 0 whatever the source register holds
  // (tests/750_runtime/programs/shfl_inactive.expected).
  auto g = run_shfl("", 0, 0,
                    "and.b32 %r7, %r3, 1;\n  setp.eq.u32 %p2, %r7, 0;\n  mov.u32 %r5, 999;\n"
                    "  @%p2 shfl.sync.bfly.b32 %r5|%p1, %r4, 1, 31, 0x55555555;");
  for (int l = 0; l < 32; ++l) {
    INFO("lane " << l);
    if (l % 2 == 0) {
      CHECK(g[l].value == 0);  // the odd lane's %r4 holds v(l + 1), but it does not execute
      CHECK(g[l].pred == 1);
    } else {
      CHECK(g[l].value == 999);  // did not execute
      CHECK(g[l].pred == 0);
    }
  }
}

namespace {

struct VoteOut {
  uint32_t all, any, uni, ballot, ballot_not, all_not;    // whole warp, p = lane < t
  uint32_t d_all, d_any, d_uni, d_ballot;                  // inside if (lane < 16)
  uint32_t g_ballot;                                       // guarded by lane odd
};

std::vector<VoteOut> run_vote(uint32_t threshold, uint32_t threads) {
  std::string text = ptxtest::module(R"(
.visible .entry vote_k(.param .u64 out, .param .u32 t)
{
  .reg .b32 %r<20>;
  .reg .b64 %rd<4>;
  .reg .pred %p<12>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [t];
  mov.u32 %r3, %laneid;
  setp.lt.u32 %p1, %r3, %r1;
  vote.sync.all.pred %p2, %p1, -1;
  vote.sync.any.pred %p3, %p1, -1;
  vote.sync.uni.pred %p4, %p1, -1;
  vote.sync.ballot.b32 %r5, %p1, -1;
  vote.sync.ballot.b32 %r6, !%p1, -1;
  vote.all.pred %p5, !%p1;
  selp.u32 %r7, 1, 0, %p2;
  selp.u32 %r8, 1, 0, %p3;
  selp.u32 %r9, 1, 0, %p4;
  selp.u32 %r10, 1, 0, %p5;
  mov.u32 %r11, 0xAAAA;
  mov.u32 %r12, 0xAAAA;
  mov.u32 %r13, 0xAAAA;
  mov.u32 %r14, 0xAAAA;
  setp.ge.u32 %p6, %r3, 16;
  @%p6 bra SKIP;
  vote.sync.all.pred %p7, %p1, 0xffff;
  vote.sync.any.pred %p8, %p1, 0xffff;
  vote.sync.uni.pred %p9, %p1, 0xffff;
  vote.sync.ballot.b32 %r14, %p1, 0xffff;
  selp.u32 %r11, 1, 0, %p7;
  selp.u32 %r12, 1, 0, %p8;
  selp.u32 %r13, 1, 0, %p9;
SKIP:
  and.b32 %r15, %r3, 1;
  setp.eq.u32 %p10, %r15, 1;
  mov.u32 %r16, 0xAAAA;
  @%p10 vote.sync.ballot.b32 %r16, %p1, 0xaaaaaaaa;
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd2, %r2, 44;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  st.global.u32 [%rd3+4], %r8;
  st.global.u32 [%rd3+8], %r9;
  st.global.u32 [%rd3+12], %r5;
  st.global.u32 [%rd3+16], %r6;
  st.global.u32 [%rd3+20], %r10;
  st.global.u32 [%rd3+24], %r11;
  st.global.u32 [%rd3+28], %r12;
  st.global.u32 [%rd3+32], %r13;
  st.global.u32 [%rd3+36], %r14;
  st.global.u32 [%rd3+40], %r16;
  ret;
}
)");
  auto& s = semtest::sim();
  const auto& k = s.kernel(text, "vote_k", "vote.ptx");
  auto out = s.zeros<uint32_t>(11 * threads);
  s.run(k, {1, 1, 1}, {threads, 1, 1}, {ptxtest::ptr(out), ptxtest::integer(threshold)});
  auto raw = s.download<uint32_t>(out, 11 * threads);
  std::vector<VoteOut> r(threads);
  for (uint32_t i = 0; i < threads; ++i) std::memcpy(&r[i], &raw[11 * i], 44);
  return r;
}

uint32_t low_bits(uint32_t n) { return n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1; }

}  // namespace

TEST_CASE("vote.sync all/any/uni/ballot with !p, inside divergent code and under a guard", "[semantics][warp][vote]") {
  for (uint32_t t : {0u, 1u, 15u, 16u, 17u, 31u, 32u}) {
    INFO("p = lane < " << t);
    auto r = run_vote(t, 32);
    uint32_t ballot = low_bits(t);
    uint32_t in16 = low_bits(std::min(t, 16u));
    for (uint32_t l = 0; l < 32; ++l) {
      INFO("lane " << l);
      CHECK(r[l].all == uint32_t(t >= 32));
      CHECK(r[l].any == uint32_t(t > 0));
      CHECK(r[l].uni == uint32_t(t == 0 || t >= 32));
      CHECK(r[l].ballot == ballot);
      CHECK(r[l].ballot_not == ~ballot);
      CHECK(r[l].all_not == uint32_t(t == 0));
      if (l < 16) {
        // Only lanes 0..15 take part.
        CHECK(r[l].d_all == uint32_t(t >= 16));
        CHECK(r[l].d_any == uint32_t(t > 0));
        CHECK(r[l].d_uni == uint32_t(t == 0 || t >= 16));
        CHECK(r[l].d_ballot == in16);
      } else {
        CHECK(r[l].d_all == 0xAAAA);
        CHECK(r[l].d_ballot == 0xAAAA);
      }
      // Guarded by "lane is odd": only odd lanes vote and receive the ballot.
      CHECK(r[l].g_ballot == (l % 2 ? ballot & 0xAAAAAAAAu : 0xAAAAu));
    }
  }
}

TEST_CASE("vote in a partial warp counts only the threads that exist", "[semantics][warp][vote]") {
  // 20 threads: lanes 20..31 of the only warp do not exist.
  auto r = run_vote(32, 20);
  for (uint32_t l = 0; l < 20; ++l) {
    CHECK(r[l].all == 1);
    CHECK(r[l].uni == 1);
    CHECK(r[l].ballot == 0xFFFFFu);
    CHECK(r[l].ballot_not == 0);
  }
  auto r2 = run_vote(18, 20);
  CHECK(r2[0].all == 0);
  CHECK(r2[0].ballot == 0x3FFFFu);
  CHECK(r2[0].ballot_not == 0xC0000u);
}

namespace {

// Each lane computes %r4 = lane-dependent value, then runs `code` writing %r5 (and %p1).
std::vector<Lane> run_lanes(const std::string& code, uint32_t threads = 32) {
  std::string text = ptxtest::module(R"(
.visible .entry lanes_k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r3, %laneid;
  and.b32 %r4, %r3, 3;
  mov.u32 %r5, 0xAAAA;
  setp.ne.u32 %p1, %r3, %r3;
  )" + code + R"(
  selp.u32 %r6, 1, 0, %p1;
  mul.wide.u32 %rd2, %r3, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v2.u32 [%rd3], {%r5, %r6};
  ret;
}
)");
  auto& s = semtest::sim();
  const auto& k = s.kernel(text, "lanes_k", "lanes.ptx");
  auto out = s.zeros<uint32_t>(64);
  s.run(k, {1, 1, 1}, {threads, 1, 1}, {ptxtest::ptr(out)});
  auto raw = s.download<uint32_t>(out, 64);
  std::vector<Lane> lanes(threads);
  for (uint32_t l = 0; l < threads; ++l) lanes[l] = {raw[2 * l], raw[2 * l + 1]};
  return lanes;
}

}  // namespace

TEST_CASE("activemask is the mask of the threads that execute it", "[semantics][warp]") {
  auto full = run_lanes("activemask.b32 %r5;");
  for (int l = 0; l < 32; ++l) CHECK(full[l].value == 0xFFFFFFFFu);
  auto partial = run_lanes("activemask.b32 %r5;", 20);
  for (int l = 0; l < 20; ++l) CHECK(partial[l].value == 0xFFFFFu);
  // Inside a divergent branch: only the even lanes.
  auto div = run_lanes("and.b32 %r7, %r3, 1;\n  setp.ne.u32 %p2, %r7, 0;\n  @%p2 bra SKIP;\n"
                       "  activemask.b32 %r5;\nSKIP:");
  for (int l = 0; l < 32; ++l) CHECK(div[l].value == (l % 2 ? 0xAAAAu : 0x55555555u));
}

TEST_CASE("match.any and match.all group lanes by value", "[semantics][warp]") {
  // %r4 = lane & 3: four groups of 8 lanes.
  auto any = run_lanes("match.any.sync.b32 %r5, %r4, 0xffffffff;");
  for (int l = 0; l < 32; ++l) CHECK(any[l].value == (0x11111111u << (l & 3)));
  auto all = run_lanes("match.all.sync.b32 %r5|%p1, %r4, 0xffffffff;");
  for (int l = 0; l < 32; ++l) {
    CHECK(all[l].value == 0);
    CHECK(all[l].pred == 0);
  }
  auto same = run_lanes("shr.u32 %r4, %r4, 2;\n  match.all.sync.b32 %r5|%p1, %r4, 0xffffffff;");
  for (int l = 0; l < 32; ++l) {
    CHECK(same[l].value == 0xFFFFFFFFu);
    CHECK(same[l].pred == 1);
  }
  // 64-bit values; only the lanes that execute take part.
  auto wide = run_lanes("cvt.u64.u32 %rd4, %r4;\n  shl.b64 %rd4, %rd4, 40;\n  setp.lt.u32 %p2, %r3, 16;\n"
                        "  @%p2 match.any.sync.b64 %r5, %rd4, 0xffff;");
  for (int l = 0; l < 32; ++l) CHECK(wide[l].value == (l < 16 ? (0x1111u << (l & 3)) : 0xAAAAu));
}
