// The executor's inline counts of repeated full-warp shared loads (memory/shared_pattern_tally.hpp):
// the tally's own rules, and a kernel whose loads repeat their patterns across iterations and
// warps counted as the bank rules give, equal per instruction to a run with a traced warp
// (where the counter hands the executor no known patterns and sees every access itself), in
// functional mode and in timing mode (where step() counts them and the SM charges their passes).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "200_engine/ptx_fixture.hpp"
#include "sim/memory/shared_pattern_tally.hpp"

TEST_CASE("shared pattern tally: counts only the pattern it knows at that pc, from a bank's start",
          "[semantics][memory][shared]") {
  warpsim::LaunchStats stats;
  stats.per_pc.resize(4);
  warpsim::SharedPatternTally tally(stats, 4, 3);  // 4-byte banks
  CHECK_FALSE(tally.count_load(1, 7, 0));          // nothing known yet
  tally.learn(1, 7, 2, 1);
  CHECK(tally.count_load(1, 7, 128));
  CHECK(tally.count_load(1, 7, 4));
  CHECK_FALSE(tally.count_load(1, 8, 0));   // another pattern
  CHECK_FALSE(tally.count_load(2, 7, 0));   // another pc
  CHECK_FALSE(tally.count_load(1, 7, 2));   // lane 0 within a bank
  CHECK_FALSE(tally.count_load(4, 7, 0));   // past the kernel's instructions
  tally.learn(4, 7, 2, 1);                  // ignored there
  CHECK_FALSE(tally.count_load(4, 7, 0));
  CHECK(stats.mem.shared_load_transactions == 4);
  CHECK(stats.mem.shared_load_bank_conflicts == 2);
  CHECK(stats.per_pc[1].requests == 2);
  CHECK(stats.per_pc[1].transactions == 4);
  CHECK(stats.mem.shared_store_transactions == 0);
  tally.learn(2, 9, 1, 0);
  tally.forget(1);
  CHECK_FALSE(tally.count_load(1, 7, 0));
  CHECK(tally.count_load(2, 9, 0));
  tally.forget_all();
  CHECK_FALSE(tally.count_load(2, 9, 0));
  CHECK(stats.mem.shared_load_transactions == 5);
  CHECK(stats.per_pc[2].requests == 1);
}

namespace {
// Two warps, eight iterations, four loads each: lanes 2 words apart (a 2-way conflict on 32
// banks of 4 bytes), consecutive words, one word for all (a broadcast), and four runs of 8
// consecutive words 32 words apart (a 4-way conflict whose plan has runs, so that a repeat
// is counted inline).
std::string tally_kernel() {
  return ptxtest::module(R"(.visible .entry tally(.param .u64 out)
{
  .reg .b32 %r<24>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  .shared .align 16 .b8 sm[512];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, sm;
  shl.b32 %r3, %r1, 2;
  add.s32 %r4, %r2, %r3;
  st.shared.u32 [%r4], %r1;
  add.s32 %r5, %r1, 64;
  st.shared.u32 [%r4+256], %r5;
  bar.sync 0;
  and.b32 %r6, %r1, 31;
  shl.b32 %r7, %r6, 3;
  add.s32 %r8, %r2, %r7;
  and.b32 %r14, %r6, 7;
  shl.b32 %r15, %r14, 2;
  shr.u32 %r16, %r6, 3;
  shl.b32 %r17, %r16, 7;
  add.s32 %r18, %r15, %r17;
  add.s32 %r19, %r2, %r18;
  mov.u32 %r9, 0;
  mov.u32 %r10, 0;
LOOP:
  ld.shared.u32 %r11, [%r8];
  ld.shared.u32 %r12, [%r4];
  ld.shared.u32 %r13, [%r2+64];
  ld.shared.u32 %r20, [%r19];
  add.s32 %r10, %r10, %r11;
  add.s32 %r10, %r10, %r12;
  add.s32 %r10, %r10, %r13;
  add.s32 %r10, %r10, %r20;
  add.s32 %r9, %r9, 1;
  setp.lt.u32 %p1, %r9, 8;
  @%p1 bra LOOP;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r10;
  ret;
}
)");
}
// One launch of the tally kernel (one block of 64 threads) on `s`, in `mode`, with warp 1
// of block 0 traced or not; the output checked against each thread's sum.
warpsim::LaunchStats run_tally(ptxtest::Sim& s, const warpsim::isa::Kernel& k, warpsim::SimMode mode, bool traced) {
  auto dout = s.upload(std::vector<uint32_t>(64, 0));
  warpsim::LaunchOptions o;
  o.mode = mode;
  o.threads = 1;
  if (traced) o.trace_warps = {{0, 1}};
  const std::vector<warpsim::KernelArg> args = {ptxtest::ptr(dout)};
  const warpsim::LaunchStats st = s.dev.launch(k, {1, 1, 1}, {64, 1, 1}, 0, args, o);
  const std::vector<uint32_t> out = s.download<uint32_t>(dout, 64);
  for (uint32_t t = 0; t < 64; ++t) {
    INFO("thread " << t << (traced ? ", traced run" : ""));
    CHECK(out[t] == 8 * (2 * (t % 32) + t + 16 + t % 8 + 32 * (t % 32 / 8)));
  }
  return st;
}

// The bank rules' exact counts for the plain run, the same per instruction in the traced
// run (whose counter saw every load as a record), and the traced warp's 32 load records
// with their passes (timed ones in timing mode).
void check_tally_counts(const warpsim::LaunchStats& plain, const warpsim::LaunchStats& traced,
                        const warpsim::isa::Kernel& k, bool timed) {
  // Per warp and iteration: 2 + 1 + 1 + 4 passes, four of them conflicts.
  CHECK(plain.exec.shared_load_requests == 64);
  CHECK(plain.mem.shared_load_transactions == 128);
  CHECK(plain.mem.shared_load_bank_conflicts == 64);
  CHECK(traced.mem.shared_load_transactions == plain.mem.shared_load_transactions);
  CHECK(traced.mem.shared_load_bank_conflicts == plain.mem.shared_load_bank_conflicts);
  CHECK(traced.mem.shared_store_transactions == plain.mem.shared_store_transactions);
  REQUIRE(traced.per_pc.size() == plain.per_pc.size());
  for (size_t pc = 0; pc < plain.per_pc.size(); ++pc) {
    INFO("pc " << pc << ": " << k.text[pc]);
    CHECK(traced.per_pc[pc].requests == plain.per_pc[pc].requests);
    CHECK(traced.per_pc[pc].transactions == plain.per_pc[pc].transactions);
    CHECK(traced.per_pc[pc].stall_cycles == plain.per_pc[pc].stall_cycles);
  }
  const int stride = ptxtest::pc_of(k, "ld.shared.u32 %r11");
  CHECK(plain.per_pc[stride].requests == 16);
  CHECK(plain.per_pc[stride].transactions == 32);
  const int quad = ptxtest::pc_of(k, "ld.shared.u32 %r20");
  CHECK(plain.per_pc[quad].requests == 16);
  CHECK(plain.per_pc[quad].transactions == 64);
  REQUIRE(traced.traces.size() == 1);
  uint32_t loads = 0;
  for (const warpsim::TraceRecord& r : traced.traces[0].records) {
    if (r.space != uint8_t(warpsim::isa::Space::Shared) || r.kind != uint8_t(warpsim::mem::AccessKind::Load)) continue;
    ++loads;
    CHECK(r.shared_passes == (int(r.pc) == stride ? 2u : int(r.pc) == quad ? 4u : 1u));
    CHECK(r.timed == timed);
  }
  CHECK(loads == 32);
}
}  // namespace

TEST_CASE("shared pattern tally: repeated loads of two warps counted as the bank rules give, and as a traced run "
          "counts them",
          "[semantics][memory][shared]") {
  static ptxtest::Sim s;
  const auto& k = s.kernel(tally_kernel(), "tally", "tally.ptx");
  const warpsim::LaunchStats plain = run_tally(s, k, warpsim::SimMode::Functional, false);
  const warpsim::LaunchStats traced = run_tally(s, k, warpsim::SimMode::Functional, true);
  check_tally_counts(plain, traced, k, false);
}

TEST_CASE("shared pattern tally: timed repeated loads cost and count as a traced run's records give",
          "[semantics][memory][shared][timing]") {
  // In timing mode the SM steps each instruction with the counter's tally: a repeated load it
  // knows is counted in step() and charged its passes without a record. A traced warp turns
  // the tally off, so that run takes every load through the counter: cycles, stalls and
  // counts must agree. Both configs (32 banks of 4 bytes each; the 4-way conflict's passes
  // cost the load/store unit more than its minimum).
  for (const char* config : {"c2070", "h100"}) {
    INFO("config " << config);
    const warpsim::DeviceSpec& spec = std::string(config) == "c2070" ? ptxtest::c2070() : ptxtest::h100_spec();
    // A device each: a device's caches and DRAM carry over from one launch to the next.
    ptxtest::Sim plain_sim{warpsim::Device(spec)}, traced_sim{warpsim::Device(spec)};
    const warpsim::isa::Kernel& k = plain_sim.kernel(tally_kernel(), "tally", "tally.ptx");
    const warpsim::isa::Kernel& traced_k = traced_sim.kernel(tally_kernel(), "tally", "tally.ptx");
    const warpsim::LaunchStats plain = run_tally(plain_sim, k, warpsim::SimMode::Timing, false);
    const warpsim::LaunchStats traced = run_tally(traced_sim, traced_k, warpsim::SimMode::Timing, true);
    CHECK(plain.timing.valid);
    CHECK(traced.timing.elapsed_cycles_sm == plain.timing.elapsed_cycles_sm);
    CHECK(traced.timing.issued == plain.timing.issued);
    CHECK(traced.timing.stall_exec_dependency == plain.timing.stall_exec_dependency);
    CHECK(traced.timing.stall_memory_dependency == plain.timing.stall_memory_dependency);
    CHECK(traced.timing.stall_pipe_busy == plain.timing.stall_pipe_busy);
    CHECK(traced.timing.stall_not_selected == plain.timing.stall_not_selected);
    check_tally_counts(plain, traced, k, true);
  }
}
