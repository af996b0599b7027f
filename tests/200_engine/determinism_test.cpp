// Determinism: two identical launches (on one device or on two) give identical
// statistics, per-instruction and per-branch counts, and identical outputs, even for
// a kernel with divergence, barriers, shuffles and order-sensitive atomics.
#include <catch2/catch.hpp>

#include <cmath>

#include "ptx_fixture.hpp"
#include "sim/report/metrics.hpp"

using ptxtest::ptr;

namespace {

// Divergent loops, a barrier-synchronised shared-memory reduction, a warp shuffle, a local
// array, and float atomics whose rounding depends on the order of the additions.
const std::string kMix = ptxtest::module(R"(
.visible .entry mix(.param .u64 in, .param .u64 out, .param .u64 acc)
{
  .reg .b32 %r<20>;
  .reg .b64 %rd<12>;
  .reg .f32 %f<10>;
  .reg .pred %p<6>;
  .shared .align 4 .b8 s[1024];
  .local .align 4 .b8 depot[32];
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u64 %rd3, [acc];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd4, %r4, 4;
  add.s64 %rd5, %rd1, %rd4;
  ld.global.f32 %f1, [%rd5];
  rem.u32 %r5, %r4, 7;
  mov.u32 %r6, 0;
  setp.eq.u32 %p1, %r5, 0;
  @%p1 bra SKIPLOOP;
LOOP:
  mul.f32 %f1, %f1, 0f3F8CCCCD;
  add.u32 %r6, %r6, 1;
  setp.lt.u32 %p2, %r6, %r5;
  @%p2 bra LOOP;
SKIPLOOP:
  and.b32 %r7, %r4, 7;
  shl.b32 %r8, %r7, 2;
  mov.u64 %rd6, depot;
  cvt.u64.u32 %rd7, %r8;
  add.s64 %rd6, %rd6, %rd7;
  st.local.f32 [%rd6], %f1;
  ld.local.f32 %f2, [%rd6];
  mov.u32 %r9, s;
  shl.b32 %r10, %r1, 2;
  add.u32 %r10, %r9, %r10;
  st.shared.f32 [%r10], %f2;
  bar.sync 0;
  shr.u32 %r11, %r3, 1;
RED:
  setp.ge.u32 %p3, %r1, %r11;
  @%p3 bra RSKIP;
  shl.b32 %r12, %r11, 2;
  add.u32 %r12, %r10, %r12;
  ld.shared.f32 %f3, [%r12];
  ld.shared.f32 %f4, [%r10];
  add.f32 %f4, %f4, %f3;
  st.shared.f32 [%r10], %f4;
RSKIP:
  bar.sync 0;
  shr.u32 %r11, %r11, 1;
  setp.ne.u32 %p4, %r11, 0;
  @%p4 bra RED;
  shfl.sync.down.b32 %f5, %f2, 3, 31, -1;
  add.f32 %f6, %f2, %f5;
  atom.global.add.f32 %f7, [%rd3], %f6;
  atom.global.inc.u32 %r13, [%rd3+4], 1000;
  ld.shared.f32 %f8, [%r9];
  add.f32 %f8, %f8, %f7;
  cvt.rn.f32.u32 %f9, %r13;
  add.f32 %f8, %f8, %f9;
  add.s64 %rd8, %rd2, %rd4;
  st.global.f32 [%rd8], %f8;
  ret;
}
)");

struct Run {
  warpsim::LaunchStats st;
  std::vector<float> out;
  std::vector<uint32_t> acc;
};

Run run_mix(ptxtest::Sim& sim, bool no_caches = false) {
  const uint32_t blocks = 6, threads = 160, n = blocks * threads;
  std::vector<float> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = std::sin(float(i)) * 1000.0f;
  const auto& k = sim.kernel(kMix);
  auto din = sim.upload(in);
  auto dout = sim.zeros<float>(n);
  auto dacc = sim.zeros<uint32_t>(2);
  Run r;
  warpsim::LaunchOptions o;
  o.mode = warpsim::SimMode::Functional;
  o.no_caches = no_caches;
  const std::vector<warpsim::KernelArg> args = {ptr(din), ptr(dout), ptr(dacc)};
  r.st = sim.dev.launch(k, {blocks, 1, 1}, {threads, 1, 1}, 0, args, o);
  r.out = sim.download<float>(dout, n);
  r.acc = sim.download<uint32_t>(dacc, 2);
  return r;
}

void check_same(const warpsim::LaunchStats& a, const warpsim::LaunchStats& b) {
  const auto& x = a.exec;
  const auto& y = b.exec;
  CHECK(x.inst_executed == y.inst_executed);
  CHECK(x.thread_inst_executed == y.thread_inst_executed);
  CHECK(x.not_predicated_off_thread_inst_executed == y.not_predicated_off_thread_inst_executed);
  CHECK(x.branch == y.branch);
  CHECK(x.divergent_branch == y.divergent_branch);
  CHECK(x.gld_requests == y.gld_requests);
  CHECK(x.gst_requests == y.gst_requests);
  CHECK(x.local_load_requests == y.local_load_requests);
  CHECK(x.local_store_requests == y.local_store_requests);
  CHECK(x.shared_load_requests == y.shared_load_requests);
  CHECK(x.shared_store_requests == y.shared_store_requests);
  CHECK(x.atomic_requests == y.atomic_requests);
  CHECK(x.barriers == y.barriers);
  CHECK(x.blocks == y.blocks);
  CHECK(x.warps == y.warps);
  CHECK(x.threads == y.threads);
  const auto& m = a.mem;
  const auto& n = b.mem;
  CHECK(m.gld_transactions == n.gld_transactions);
  CHECK(m.gst_transactions == n.gst_transactions);
  CHECK(m.local_load_transactions == n.local_load_transactions);
  CHECK(m.local_store_transactions == n.local_store_transactions);
  CHECK(m.atomic_transactions == n.atomic_transactions);
  CHECK(m.gld_bytes_requested == n.gld_bytes_requested);
  CHECK(m.gst_bytes_requested == n.gst_bytes_requested);
  CHECK(m.shared_load_transactions == n.shared_load_transactions);
  CHECK(m.shared_store_transactions == n.shared_store_transactions);
  CHECK(m.shared_load_bank_conflicts == n.shared_load_bank_conflicts);
  CHECK(m.shared_store_bank_conflicts == n.shared_store_bank_conflicts);
  {
    const auto mc = m.cache_counters();
    const auto nc = n.cache_counters();
    for (size_t i = 0; i < mc.size(); ++i) {
      INFO("cache counter " << i);
      CHECK(*mc[i] == *nc[i]);
    }
  }
  REQUIRE(a.per_pc.size() == b.per_pc.size());
  for (size_t pc = 0; pc < a.per_pc.size(); ++pc) {
    INFO("pc " << pc);
    CHECK(a.per_pc[pc].executed == b.per_pc[pc].executed);
    CHECK(a.per_pc[pc].active_threads == b.per_pc[pc].active_threads);
    CHECK(a.per_pc[pc].divergent == b.per_pc[pc].divergent);
    CHECK(a.per_pc[pc].requests == b.per_pc[pc].requests);
    CHECK(a.per_pc[pc].transactions == b.per_pc[pc].transactions);
  }
  REQUIRE(a.branches.size() == b.branches.size());
  for (size_t i = 0; i < a.branches.size(); ++i) {
    CHECK(a.branches[i].pc == b.branches[i].pc);
    CHECK(a.branches[i].reached == b.branches[i].reached);
    CHECK(a.branches[i].diverged == b.branches[i].diverged);
  }
  CHECK(a.occupancy.blocks_per_sm == b.occupancy.blocks_per_sm);
  CHECK(a.occupancy.registers_per_thread == b.occupancy.registers_per_thread);
}

}  // namespace

TEST_CASE("two launches on two devices give identical statistics and outputs", "[engine][determinism]") {
  ptxtest::Sim one, two;
  Run a = run_mix(one), b = run_mix(two);
  check_same(a.st, b.st);
  CHECK(a.out == b.out);
  CHECK(a.acc == b.acc);
  // The kernel really exercised what it should.
  CHECK(a.st.exec.divergent_branch > 0);
  CHECK(a.st.exec.barriers > 0);
  CHECK(a.st.exec.atomic_requests == 2 * a.st.exec.warps);
  CHECK(a.acc[1] == 960 % 1001);
}

TEST_CASE("relaunching on the same device gives identical statistics and outputs", "[engine][determinism]") {
  ptxtest::Sim sim;
  Run a = run_mix(sim);
  Run b = run_mix(sim);  // fresh buffers, same device, module loaded a second time
  check_same(a.st, b.st);
  CHECK(a.out == b.out);
  CHECK(a.acc == b.acc);
  // And the same kernel object launched again.
  const auto& k = sim.kernel(kMix);
  std::vector<float> in(960);
  for (uint32_t i = 0; i < 960; ++i) in[i] = std::sin(float(i)) * 1000.0f;
  auto din = sim.upload(in);
  std::vector<std::vector<float>> outs;
  std::vector<warpsim::LaunchStats> stats;
  for (int rep = 0; rep < 2; ++rep) {
    auto dout = sim.zeros<float>(960);
    auto dacc = sim.zeros<uint32_t>(2);
    stats.push_back(sim.run(k, {6, 1, 1}, {160, 1, 1}, {ptr(din), ptr(dout), ptr(dacc)}));
    outs.push_back(sim.download<float>(dout, 960));
  }
  check_same(stats[0], stats[1]);
  check_same(stats[0], a.st);
  CHECK(outs[0] == outs[1]);
  CHECK(outs[0] == a.out);
}

TEST_CASE("Harris's reduction kernels' statistics repeat exactly", "[engine][determinism]") {
  // nvcc-compiled: shared memory, barriers, divergence, unrolled warps; each run twice.
  ptxtest::Sim sim;
  const auto& m = sim.dev.load_ptx_file(ptxtest::source_path("kernels/reduction/harris_reduction.ptx"));
  std::vector<int32_t> in(16384);  // reduce5<1024> reads 2 * 1024 per block
  for (size_t i = 0; i < in.size(); ++i) in[i] = int32_t((i * 2654435761u) % 1000);
  auto din = sim.upload(in);
  int ran = 0;
  for (const auto& k : m.kernels) {
    INFO(k->name);
    // Templated kernels are instantiated for their block size: _Z7reduce5ILj128E...
    uint32_t block = 256;
    size_t t_at = k->name.find("ILj");
    if (t_at != std::string::npos) block = uint32_t(std::stoul(k->name.substr(t_at + 3)));
    std::vector<warpsim::LaunchStats> st;
    std::vector<std::vector<int32_t>> outs;
    for (int rep = 0; rep < 2; ++rep) {
      auto dout = sim.zeros<int32_t>(64);
      auto t = ptxtest::catch_error([&] {
        std::vector<warpsim::KernelArg> args = {ptr(din), ptr(dout)};
        if (k->params.size() == 3) args.push_back(ptxtest::integer(16384));
        st.push_back(sim.run(*k, {8, 1, 1}, {block, 1, 1}, args, block * 4));
      });
      INFO(t.what);
      REQUIRE(t.type == "none");
      outs.push_back(sim.download<int32_t>(dout, 64));
    }
    ++ran;
    check_same(st[0], st[1]);
    CHECK(outs[0] == outs[1]);
  }
  CHECK(ran == 15);
}

TEST_CASE("timing-mode launches repeat exactly too", "[engine][determinism][timing]") {
  ptxtest::Sim a, b;
  warpsim::LaunchOptions o;
  o.mode = warpsim::SimMode::Timing;
  std::vector<warpsim::LaunchStats> st;
  std::vector<std::vector<float>> outs;
  for (ptxtest::Sim* s : {&a, &b}) {
    const auto& k = s->kernel(kMix);
    std::vector<float> in(960);
    for (uint32_t i = 0; i < 960; ++i) in[i] = std::sin(float(i)) * 1000.0f;
    auto din = s->upload(in);
    auto dout = s->zeros<float>(960);
    auto dacc = s->zeros<uint32_t>(2);
    std::vector<warpsim::KernelArg> args = {ptr(din), ptr(dout), ptr(dacc)};
    st.push_back(s->dev.launch(k, {6, 1, 1}, {160, 1, 1}, 0, args, o));
    outs.push_back(s->download<float>(dout, 960));
  }
  check_same(st[0], st[1]);
  CHECK(outs[0] == outs[1]);
  CHECK(st[0].timing.valid);
  CHECK(st[0].timing.elapsed_cycles_sm == st[1].timing.elapsed_cycles_sm);
  CHECK(st[0].timing.issued == st[1].timing.issued);
  CHECK(st[0].timing.stall_sync == st[1].timing.stall_sync);
  CHECK(st[0].timing.stall_memory_dependency == st[1].timing.stall_memory_dependency);
  CHECK(st[0].dram.requests == st[1].dram.requests);
  for (size_t pc = 0; pc < st[0].per_pc.size(); ++pc) CHECK(st[0].per_pc[pc].stall_cycles == st[1].per_pc[pc].stall_cycles);
}

TEST_CASE("a functional launch without the cache model counts all else the same and has no hit rates",
          "[engine][determinism]") {
  ptxtest::Sim with, without;
  Run a = run_mix(with), b = run_mix(without, /*no_caches=*/true);
  CHECK(a.st.mem.has_l1);
  CHECK(a.st.mem.has_l2);
  CHECK(a.st.mem.l1_hits + a.st.mem.l1_misses > 0);
  CHECK(a.st.mem.l2_hits + a.st.mem.l2_misses > 0);
  // No cache statistics at all: absent, not zero.
  CHECK_FALSE(b.st.mem.has_l1);
  CHECK_FALSE(b.st.mem.has_l2);
  CHECK(b.st.mem.l1_hits + b.st.mem.l1_misses + b.st.mem.l2_hits + b.st.mem.l2_misses == 0);
  for (const auto& g : warpsim::collect_metrics(b.st))
    for (const auto& m : g.metrics) {
      INFO(m.name);
      CHECK(m.name.find("l1_") == std::string::npos);
      CHECK(m.name.find("l2_") == std::string::npos);
    }
  // Everything execution counts, and the results, as with the caches.
  warpsim::LaunchStats same = b.st;
  {
    const auto to = same.mem.cache_counters();
    const auto from = a.st.mem.cache_counters();
    for (size_t i = 0; i < to.size(); ++i) *to[i] = *from[i];
  }
  check_same(a.st, same);
  CHECK(a.out == b.out);
  CHECK(a.acc == b.acc);
}
