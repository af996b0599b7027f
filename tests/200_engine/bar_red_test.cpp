// bar.red (__syncthreads_count/_and/_or): a block-wide barrier whose popc/and/or over the
// arriving threads' predicates reaches every thread, exactly and identically in functional
// and timing mode; threads that exited before it are not counted; in divergent code it
// deadlocks like bar.sync.
#include <catch2/catch.hpp>

#include "ptx_fixture.hpp"

using ptxtest::ptr;

namespace {

// Thread t of block b reads v = in[b * ntid + t] and writes, at out[3 * (b * ntid + t)]:
// count(v > 3), and(v > 0) and or(v > 5) over its block, the way nvcc writes them
// (barrier.red spellings, a nested scope, a negated operand for the count of v <= 3).
const char* kReduce = R"(
.visible .entry reduce(.param .u64 in_p, .param .u64 out_p)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [in_p];
  ld.param.u64 %rd2, [out_p];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r5, [%rd4];
  setp.gt.s32 %p1, %r5, 3;
  bar.red.popc.u32 %r6, 0, %p1;
  {
  .reg .pred %p1;
  setp.gt.s32 %p1, %r5, 0;
  bar.red.and.pred %p2, 0, %p1;
  }
  selp.u32 %r7, 1, 0, %p2;
  setp.gt.s32 %p3, %r5, 5;
  barrier.red.or.aligned.pred %p2, 0, %p3;
  selp.u32 %r8, 1, 0, %p2;
  barrier.red.popc.aligned.u32 %r9, 0, !%p1;
  mul.wide.u32 %rd3, %r4, 16;
  add.s64 %rd5, %rd2, %rd3;
  st.global.v4.u32 [%rd5], {%r6, %r7, %r8, %r9};
  ret;
}
)";

struct Want {
  uint32_t count, all, any, not_count;
};

std::vector<Want> reference(const std::vector<int32_t>& in, uint32_t blocks, uint32_t n) {
  std::vector<Want> w(size_t(blocks) * n);
  for (uint32_t b = 0; b < blocks; ++b) {
    Want r{0, 1, 0, 0};
    for (uint32_t t = 0; t < n; ++t) {
      const int32_t v = in[size_t(b) * n + t];
      r.count += v > 3;
      r.all &= v > 0;
      r.any |= v > 5;
      r.not_count += !(v > 3);
    }
    for (uint32_t t = 0; t < n; ++t) w[size_t(b) * n + t] = r;
  }
  return w;
}

std::vector<uint32_t> run_reduce(ptxtest::Sim& sim, const warpsim::isa::Kernel& k, const std::vector<int32_t>& in,
                                 uint32_t blocks, uint32_t n, warpsim::SimMode mode) {
  auto din = sim.upload(in);
  auto dout = sim.zeros<uint32_t>(size_t(blocks) * n * 4);
  warpsim::LaunchOptions o;
  o.mode = mode;
  warpsim::KernelArg args[] = {ptr(din), ptr(dout)};
  sim.dev.launch(k, {blocks, 1, 1}, {n, 1, 1}, 0, args, o);
  auto r = sim.download<uint32_t>(dout, size_t(blocks) * n * 4);
  sim.dev.free(din);
  sim.dev.free(dout);
  return r;
}

}  // namespace

TEST_CASE("bar.red: popc, and, or over the block, the same in both modes", "[engine][barrier][bar_red]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(kReduce));
  uint32_t seed = 12345;
  auto rnd = [&] {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) & 0x7FFF;
  };
  for (uint32_t n : {1u, 32u, 33u, 200u, 256u, 1024u}) {
    const uint32_t blocks = 5;
    std::vector<int32_t> in(size_t(blocks) * n);
    for (size_t i = 0; i < in.size(); ++i) in[i] = int32_t(rnd() % 9);  // 0..8: every outcome occurs
    // Block 1: all positive (and = 1); block 2: none above 5 (or = 0); block 3: all above 3.
    for (uint32_t t = 0; t < n; ++t) {
      in[n + t] = 1 + int32_t(rnd() % 8);
      in[2 * n + t] = int32_t(rnd() % 6);
      in[3 * n + t] = 4 + int32_t(rnd() % 5);
    }
    const auto want = reference(in, blocks, n);
    for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
      INFO("block of " << n << (mode == warpsim::SimMode::Timing ? ", timing" : ", functional"));
      auto got = run_reduce(sim, k, in, blocks, n, mode);
      for (size_t i = 0; i < want.size(); ++i) {
        INFO("thread " << i % n << " of block " << i / n);
        CHECK(got[4 * i] == want[i].count);
        CHECK(got[4 * i + 1] == want[i].all);
        CHECK(got[4 * i + 2] == want[i].any);
        CHECK(got[4 * i + 3] == want[i].not_count);
      }
    }
  }
}

TEST_CASE("bar.red: threads that exited before the barrier are not counted", "[engine][barrier][bar_red]") {
  // Threads with tid % 3 == 0 exit; the rest count how many of them have an odd tid.
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry partial(.param .u64 out_p)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out_p];
  mov.u32 %r1, %tid.x;
  rem.u32 %r2, %r1, 3;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 exit;
  and.b32 %r3, %r1, 1;
  setp.eq.u32 %p2, %r3, 1;
  bar.red.popc.u32 %r4, 0, %p2;
  bar.red.and.pred %p3, 0, 1;
  selp.u32 %r5, 1, 0, %p3;
  add.u32 %r4, %r4, %r5;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
}
)"));
  const uint32_t n = 100;
  uint32_t odd = 0;
  for (uint32_t t = 0; t < n; ++t) odd += t % 3 != 0 && t % 2 == 1;
  for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
    auto out = sim.zeros<uint32_t>(n);
    warpsim::LaunchOptions o;
    o.mode = mode;
    warpsim::KernelArg args[] = {ptr(out)};
    sim.dev.launch(k, {2, 1, 1}, {n, 1, 1}, 0, args, o);
    auto r = sim.download<uint32_t>(out, n);
    for (uint32_t t = 0; t < n; ++t) {
      INFO("thread " << t);
      CHECK(r[t] == (t % 3 == 0 ? 0u : odd + 1));
    }
  }
}

TEST_CASE("bar.red in divergent code is a barrier deadlock in both modes", "[engine][barrier][bar_red]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry dead()
{
  .reg .b32 %r<3>;
  .reg .pred %p<3>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 40;
  @%p1 bra SKIP;
  bar.red.or.pred %p2, 0, %p1;
SKIP:
  ret;
}
)"));
  for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
    warpsim::LaunchOptions o;
    o.mode = mode;
    auto t = ptxtest::catch_error([&] { sim.dev.launch(k, {1, 1, 1}, {64, 1, 1}, 0, {}, o); });
    INFO(t.what);
    REQUIRE(t.type == "KernelFault");
    CHECK(t.fault == warpsim::KernelFault::Kind::Deadlock);
    CHECK(t.what.find("barrier deadlock in kernel 'dead', block (0,0,0): 24 of 32 live threads") == 0);
    // Warp 0 (threads 0-31) has exited; 24 of warp 1's wait, 8 are past the barrier.
    CHECK(t.what.find("warp 1: 24 thread(s) (lanes 8-31) wait at PTX line 12 `bar.red.or.pred %p2, 0, %p1`") !=
          std::string::npos);
  }
}

TEST_CASE("malformed and unsupported bar.red forms name the line", "[isa][barrier][bar_red]") {
  auto body = [](const std::string& line) {
    return ptxtest::module(".visible .entry k()\n{\n.reg .b32 %r<3>;\n.reg .pred %p<3>;\n" + line + "\nret;\n}\n");
  };
  struct Case {
    const char* line;
    const char* want;  // the message after "t.ptx:8"
  };
  const Case cases[] = {
      {"bar.red.popc.u32 %r1, 1, %p1;", ": unsupported PTX: bar.red.popc.u32 %r1, 1, %p1;  (named barriers"},
      {"bar.red.popc.u32 %r1, 0, %p1, 64;", ": unsupported PTX: bar.red.popc.u32 %r1, 0, %p1, 64;  (bar.red with a "
                                            "thread count)"},
      {"@%p0 bar.red.popc.u32 %r1, 0, %p1;", ": unsupported PTX: @%p0 bar.red.popc.u32 %r1, 0, %p1;  (a guarded"},
      {"bar.red.xor.pred %p1, 0, %p2;", ": unsupported PTX: bar.red.xor.pred %p1, 0, %p2;  (modifier .xor on bar)"},
      {"bar.red.popc.pred %p1, 0, %p2;", ":1: parse error: bar.red.popc needs the type .u32"},
      {"bar.red.and.u32 %r1, 0, %p2;", ":1: parse error: bar.red.and needs the type .pred"},
      {"bar.red.u32 %r1, 0, %p2;", ":1: parse error: bar.red needs .popc, .and or .or"},
      {"bar.red.popc.and.u32 %r1, 0, %p2;", ":1: parse error: two reduction operators on bar.red"},
      {"bar.sync.and 0;", ":1: parse error: bar without .red takes no reduction operator"},
      {"bar.red.popc.u32 %r1, 0;", ":1: parse error: bar takes 3 operands, 2 given"},
      {"bar.red.popc.u32 %r1, 0, %r2;", ":26: parse error: '%r2' is not a predicate register"},
      {"bar.red.and.pred %r1, 0, %p2;", ":18: parse error: '%r1' is not a predicate register"},
      {"bar.red.popc.u32 %p1, 0, %p2;", ":18: parse error: '%p1' is a predicate register"},
  };
  for (const Case& c : cases) {
    INFO(c.line);
    std::string msg = ptxtest::ptx_error(body(c.line));
    INFO(msg);
    CHECK(msg.rfind(std::string("t.ptx:8") + c.want, 0) == 0);
  }
}
