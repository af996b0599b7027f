// SIMT reconvergence: nested if/else, loops whose threads leave at different iterations,
// early returns in divergent code; exact warp/thread instruction counts per instruction,
// branch and divergence counters, and per-dynamic-instance branch statistics.
#include <catch2/catch.hpp>

#include "ptx_fixture.hpp"

using ptxtest::pc_of;
using ptxtest::ptr;

namespace {

struct PcExpect {
  const char* text;
  uint64_t executed;
  uint64_t active;
};

void check_pcs(const warpsim::isa::Kernel& k, const warpsim::LaunchStats& st, const std::vector<PcExpect>& want) {
  REQUIRE(st.per_pc.size() == k.code.size());
  uint64_t inst = 0, threads = 0;
  for (const auto& w : want) {
    int pc = pc_of(k, w.text);
    INFO("instruction " << pc << " `" << k.text[pc] << "`");
    CHECK(st.per_pc[pc].executed == w.executed);
    CHECK(st.per_pc[pc].active_threads == w.active);
  }
  for (const auto& p : st.per_pc) {
    inst += p.executed;
    threads += p.active_threads;
  }
  CHECK(st.exec.inst_executed == inst);
  CHECK(st.exec.thread_inst_executed == threads);
}

const std::string kNested = ptxtest::module(R"(
.visible .entry nest(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %laneid;
  mov.u32 %r2, 0;
  setp.lt.u32 %p1, %r0, 16;
  @!%p1 bra ELSE1;
  setp.lt.u32 %p2, %r0, 8;
  @!%p2 bra ELSE2;
  mov.u32 %r1, 1;
  bra.uni J2;
ELSE2:
  mov.u32 %r1, 2;
J2:
  add.u32 %r2, %r1, 10;
  bra.uni J1;
ELSE1:
  mov.u32 %r1, 3;
  setp.lt.u32 %p3, %r0, 24;
  @%p3 bra SKIP3;
  mov.u32 %r1, 4;
SKIP3:
  add.u32 %r2, %r1, 20;
J1:
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)");

}  // namespace

TEST_CASE("nested if/else: every join executes once per warp with all of its threads", "[engine][simt]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(kNested);
  auto out = sim.zeros<uint32_t>(32);
  auto st = sim.run(k, {1, 1, 1}, {32, 1, 1}, {ptr(out)});
  auto r = sim.download<uint32_t>(out, 32);
  for (int l = 0; l < 32; ++l) {
    INFO("lane " << l);
    CHECK(r[l] == uint32_t(l < 8 ? 11 : l < 16 ? 12 : l < 24 ? 23 : 24));
  }
  check_pcs(k, st,
            {{"ld.param", 1, 32},        {"setp.lt.u32 %p1", 1, 32}, {"@!%p1 bra", 1, 32},
             {"setp.lt.u32 %p2", 1, 16}, {"@!%p2 bra", 1, 16},       {"mov.u32 %r1, 1", 1, 8},
             {"bra.uni J2", 1, 8},       {"mov.u32 %r1, 2", 1, 8},   {"add.u32 %r2, %r1, 10", 1, 16},
             {"bra.uni J1", 1, 16},      {"mov.u32 %r1, 3", 1, 16},  {"@%p3 bra", 1, 16},
             {"mov.u32 %r1, 4", 1, 8},   {"add.u32 %r2, %r1, 20", 1, 16}, {"mul.wide.u32", 1, 32},
             {"st.global.u32", 1, 32},   {"ret", 1, 32}});
  CHECK(st.exec.inst_executed == 21);
  CHECK(st.exec.thread_inst_executed == 448);
  // Guards that are false for some active threads: @!%p1 (16 off), @!%p2 (8 off), @%p3 (8 off).
  CHECK(st.exec.not_predicated_off_thread_inst_executed == 448 - 16 - 8 - 8);
  CHECK(st.exec.branch == 5);
  CHECK(st.exec.divergent_branch == 3);
  CHECK(st.per_pc[pc_of(k, "@!%p1 bra")].divergent == 1);
  CHECK(st.per_pc[pc_of(k, "@!%p2 bra")].divergent == 1);
  CHECK(st.per_pc[pc_of(k, "@%p3 bra")].divergent == 1);
  CHECK(st.per_pc[pc_of(k, "bra.uni J1")].divergent == 0);
  // Per conditional branch: one dynamic instance, reached and diverged once.
  REQUIRE(st.branches.size() == k.num_branches);
  const auto& a = st.branches[k.code[pc_of(k, "@!%p1 bra")].branch_id];
  CHECK(a.pc == static_cast<uint32_t>(pc_of(k, "@!%p1 bra")));
  CHECK(a.reached == std::vector<uint64_t>{1});
  CHECK(a.diverged == std::vector<uint64_t>{1});
  CHECK(st.exec.warps == 1);
  CHECK(st.exec.threads == 32);
  CHECK(st.exec.blocks == 1);
}

TEST_CASE("nested if/else with several warps and blocks: counts scale per warp", "[engine][simt]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(kNested);
  auto out = sim.zeros<uint32_t>(32);
  // Every warp computes the same lanes (%laneid), so all write the same values.
  auto st = sim.run(k, {3, 1, 1}, {64, 1, 1}, {ptr(out)});
  CHECK(st.exec.warps == 6);
  CHECK(st.exec.inst_executed == 6 * 21);
  CHECK(st.exec.thread_inst_executed == 6 * 448);
  CHECK(st.exec.divergent_branch == 6 * 3);
  CHECK(st.branches[0].reached == std::vector<uint64_t>{6});
  CHECK(st.per_pc[pc_of(k, "st.global.u32")].executed == 6);
}

TEST_CASE("a loop whose threads leave at different iterations reconverges after it, per-instance branch counts",
          "[engine][simt]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry loop(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  and.b32 %r1, %r0, 3;
  shr.u32 %r2, %r0, 5;
  shl.b32 %r2, %r2, 1;
  add.u32 %r1, %r1, %r2;
  add.u32 %r1, %r1, 1;
  mov.u32 %r3, 0;
  mov.u32 %r4, 0;
LOOP:
  add.u32 %r4, %r4, %r3;
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, %r1;
  @%p1 bra LOOP;
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
}
)"));
  auto out = sim.zeros<uint32_t>(64);
  auto st = sim.run(k, {1, 1, 1}, {64, 1, 1}, {ptr(out)});
  auto r = sim.download<uint32_t>(out, 64);
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t trip = (t % 4) + 1 + (t / 32) * 2;  // warp 0: 1..4, warp 1: 3..6
    CHECK(r[t] == trip * (trip - 1) / 2);
  }
  // Warp 0 runs the body 4 times with 32, 24, 16, 8 threads; warp 1 6 times with 32, 32, 32, 24, 16, 8.
  check_pcs(k, st,
            {{"add.u32 %r4, %r4, %r3", 10, 80 + 144},
             {"@%p1 bra LOOP", 10, 80 + 144},
             {"mul.wide.u32", 2, 64},
             {"mov.u32 %r3, 0", 2, 64}});
  CHECK(st.exec.branch == 10);
  CHECK(st.exec.divergent_branch == 6);
  const auto& b = st.branches[k.code[pc_of(k, "@%p1 bra LOOP")].branch_id];
  CHECK(b.reached == std::vector<uint64_t>{2, 2, 2, 2, 1, 1});
  CHECK(b.diverged == std::vector<uint64_t>{1, 1, 2, 1, 1, 0});  // warp 0 at k = 0..2, warp 1 at k = 2..4
}

TEST_CASE("an if inside a loop rejoins in every iteration", "[engine][simt]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry ifloop(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %laneid;
  mov.u32 %r3, 0;
  mov.u32 %r4, 0;
LOOP:
  and.b32 %r1, %r0, %r3;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra SKIP;
  add.u32 %r4, %r4, %r3;
SKIP:
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, 8;
  @%p2 bra LOOP;
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
}
)"));
  auto out = sim.zeros<uint32_t>(32);
  auto st = sim.run(k, {1, 1, 1}, {32, 1, 1}, {ptr(out)});
  auto r = sim.download<uint32_t>(out, 32);
  uint64_t body_threads = 0;
  uint64_t diverging = 0;
  for (uint32_t i = 0; i < 8; ++i) {
    uint32_t n = 0;
    for (uint32_t l = 0; l < 32; ++l) n += (l & i) != 0;
    body_threads += n;
    diverging += n != 0 && n != 32;
  }
  for (uint32_t l = 0; l < 32; ++l) {
    uint32_t want = 0;
    for (uint32_t i = 0; i < 8; ++i) want += (l & i) ? i : 0;
    CHECK(r[l] == want);
  }
  check_pcs(k, st, {{"add.u32 %r4", 7, body_threads}, {"add.u32 %r3, %r3, 1", 8, 8 * 32}, {"@%p1 bra SKIP", 8, 256}});
  CHECK(st.exec.divergent_branch == diverging);
  const auto& b = st.branches[k.code[pc_of(k, "@%p1 bra SKIP")].branch_id];
  CHECK(b.reached == std::vector<uint64_t>(8, 1));
  CHECK(b.diverged == std::vector<uint64_t>{0, 1, 1, 1, 1, 1, 1, 1});
}

TEST_CASE("early return in divergent code: exited threads leave, the rest continue", "[engine][simt]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry early(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %laneid;
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r1, 1;
  setp.lt.u32 %p1, %r0, 20;
  @!%p1 bra TAIL;
  and.b32 %r2, %r0, 1;
  setp.eq.u32 %p2, %r2, 1;
  @%p2 bra ODD;
  mov.u32 %r1, 2;
  bra.uni TAIL;
ODD:
  st.global.u32 [%rd3], 99;
  ret;
TAIL:
  st.global.u32 [%rd3], %r1;
  ret;
}
)"));
  auto out = sim.zeros<uint32_t>(32);
  auto st = sim.run(k, {1, 1, 1}, {32, 1, 1}, {ptr(out)});
  auto r = sim.download<uint32_t>(out, 32);
  for (uint32_t l = 0; l < 32; ++l) CHECK(r[l] == (l >= 20 ? 1u : l % 2 ? 99u : 2u));
  // Both branches reconverge only at the exit (one path returns early), so TAIL runs twice:
  // for the 10 even lanes below 20 and for the 12 lanes from 20 up.
  CHECK(k.code[pc_of(k, "@!%p1 bra TAIL")].reconv == -1);
  check_pcs(k, st,
            {{"st.global.u32 [%rd3], 99", 1, 10}, {"st.global.u32 [%rd3], %r1", 2, 22}, {"mov.u32 %r1, 2", 1, 10}});
  CHECK(st.exec.branch == 3);
  CHECK(st.exec.divergent_branch == 2);
}

TEST_CASE("a guarded ret inside a loop removes threads one iteration at a time", "[engine][simt]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry leave(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r3, 0;
LOOP:
  add.u32 %r3, %r3, 1;
  st.global.u32 [%rd3], %r3;
  setp.gt.u32 %p1, %r3, %r0;
  @%p1 ret;
  bra.uni LOOP;
}
)"));
  auto out = sim.zeros<uint32_t>(40);
  auto st = sim.run(k, {1, 1, 1}, {40, 1, 1}, {ptr(out)});
  auto r = sim.download<uint32_t>(out, 40);
  for (uint32_t t = 0; t < 40; ++t) CHECK(r[t] == t + 1);
  // Warp 0: 32 iterations with 32, 31, ..., 1 threads; warp 1 (8 threads, tids 32..39): 40 iterations,
  // all 8 threads until iteration 33, then 7, 6, ..., 1.
  uint64_t w1 = 33 * 8 + (7 + 6 + 5 + 4 + 3 + 2 + 1);
  check_pcs(k, st, {{"add.u32 %r3", 32 + 40, 528 + w1}, {"@%p1 ret", 32 + 40, 528 + w1}, {"bra.uni LOOP", 31 + 39, 496 + 284}});
  CHECK(st.exec.divergent_branch == 0);
}
