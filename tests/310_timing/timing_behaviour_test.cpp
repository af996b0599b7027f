// The timing model's expected behaviours (issue: "Timing core"): occupancy as the textbook
// derives it, Little's law for latency hiding, the cost of divergence, determinism.
#include <catch2/catch.hpp>

#include "timing_fixture.hpp"

using namespace warpsim;
using warpsim::test::run_spec;

namespace {

// Fraction of the peak FMA rate (32 per cycle per SM on the C2070) of the Volkov kernel
// with K chains per thread, one block of `threads` per SM.
double fma_fraction(int k, int threads) {
  auto r = run_spec("kernels/ilp/fma_chains_k" + std::to_string(k) + ".json", "c2070",
                    {{"blocks", 14}, {"block_size", threads}, {"iters", 512}});
  REQUIRE(r.correct);
  double fmas = 14.0 * threads * 512 * k;
  return fmas / double(r.stats.timing.elapsed_cycles_sm) / 14.0 / 32.0;
}

}  // namespace

TEST_CASE("310: FX5800 runs the textbook tiled matmul 4 blocks per SM, limited by warps", "[timing]") {
  // Kirk & Hwu / Al-Mouhamed & Khan: 16x16 tiles, 2,048 B + 32 B of parameters -> 2,560 B
  // allocated (6 blocks by shared memory), 8 warps per block -> 4 blocks by warps. With
  // the old 16-register count the registers allow 4 as well.
  LaunchOptions opts;
  opts.registers_per_thread = 16;
  auto r = run_spec("kernels/matmul/matmul_tiled_512.json", "fx5800", {{"width", 64}}, {}, SimMode::Timing, opts);
  REQUIRE(r.correct);
  CHECK(r.stats.occupancy.blocks_per_sm == 4);
  CHECK(r.stats.occupancy.limiter == "warps");
  CHECK(r.stats.occupancy.shared_bytes_per_block == 2080);
  CHECK(r.stats.occupancy.limit_shared == 6);
  CHECK(r.stats.timing.valid);
  CHECK(r.stats.timing.elapsed_cycles_sm > 0);
}

TEST_CASE("310: latency hiding follows Little's law", "[timing]") {
  // One chain per thread: throughput grows with the warps in flight until 20 cycles x 32
  // lanes = 640 threads cover the FMA latency.
  double t128 = fma_fraction(1, 128), t256 = fma_fraction(1, 256), t640 = fma_fraction(1, 640),
         t1024 = fma_fraction(1, 1024);
  CHECK(t128 < 0.2);
  CHECK(t256 == Approx(2 * t128).epsilon(0.15));  // linear while latency-bound
  CHECK(t640 > 0.6);
  CHECK(t1024 < t640 * 1.1);                       // the plateau
  // More independent chains per thread need fewer threads for the same throughput.
  CHECK(fma_fraction(4, 128) > 3 * t128);
  CHECK(fma_fraction(8, 128) > 0.75);
}

TEST_CASE("310: a divergent if/else costs both paths, a warp-aligned condition one", "[timing]") {
  auto odd_even = run_spec("kernels/divergence/divergence_odd_even_branch.json", "c2070");
  auto warps = run_spec("kernels/divergence/divergence_warps_branch.json", "c2070");
  REQUIRE(odd_even.correct);
  REQUIRE(warps.correct);
  CHECK(odd_even.stats.exec.divergent_branch == odd_even.stats.exec.warps);
  CHECK(warps.stats.exec.divergent_branch == 0);
  // The two path bodies (M[j] += 2 and M[j] *= 2, each an add.f32): with j%2 every warp
  // issues both; with (j/32)%2 each warp issues one of them.
  auto path_issues = [](const test::Run& r) {
    std::vector<uint64_t> n;
    for (size_t pc = 0; pc < r.text.size(); ++pc)
      if (r.text[pc].rfind("add.f32", 0) == 0) n.push_back(r.stats.per_pc[pc].executed);
    return n;
  };
  const uint64_t w = odd_even.stats.exec.warps;
  CHECK(path_issues(odd_even) == std::vector<uint64_t>{w, w});
  CHECK(path_issues(warps) == std::vector<uint64_t>{w / 2, w / 2});
  // Half the threads are idle during each path of a divergent warp.
  CHECK(odd_even.stats.exec.thread_inst_executed < odd_even.stats.exec.inst_executed * 32);
}

TEST_CASE("310: timing runs are deterministic", "[timing]") {
  auto a = run_spec("kernels/reduction/harris_reduce1.json", "c2070", {{"n", 1 << 16}});
  auto b = run_spec("kernels/reduction/harris_reduce1.json", "c2070", {{"n", 1 << 16}});
  REQUIRE(a.correct);
  CHECK(a.stats.timing.elapsed_cycles_sm == b.stats.timing.elapsed_cycles_sm);
  CHECK(a.stats.timing.stall_memory_dependency == b.stats.timing.stall_memory_dependency);
  CHECK(a.stats.timing.stall_exec_dependency == b.stats.timing.stall_exec_dependency);
  CHECK(a.stats.timing.stall_sync == b.stats.timing.stall_sync);
  CHECK(a.stats.dram.read_bytes == b.stats.dram.read_bytes);
  CHECK(a.stats.dram.row_hits == b.stats.dram.row_hits);
  CHECK(a.stats.mem.l2_hits == b.stats.mem.l2_hits);
}

TEST_CASE("310: every scheduler policy runs barrier-heavy kernels correctly", "[timing]") {
  for (const char* policy : {"lrr", "gto", "two_level"}) {
    INFO(policy);
    auto r = run_spec("kernels/reduction/harris_reduce2.json", "c2070", {{"n", 1 << 15}},
                      {std::string("sm.scheduler_policy=") + policy});
    CHECK(r.correct);
    CHECK(r.stats.timing.stall_sync > 0);
  }
}

TEST_CASE("310: an unknown scheduler policy names the key and the valid policies", "[timing][config]") {
  try {
    load_device_spec(test::repo("configs/c2070.json"), {"sm.scheduler_policy=fifo"});
    FAIL("no error");
  } catch (const ConfigError& e) {
    std::string m = e.what();
    CHECK_THAT(m, Catch::Contains("sm.scheduler_policy"));
    CHECK_THAT(m, Catch::Contains("lrr"));
    CHECK_THAT(m, Catch::Contains("two_level"));
  }
}

TEST_CASE("310: functional and timing runs count the same instructions and transactions", "[timing]") {
  for (const char* config : {"c2070", "fx5800"}) {
    INFO(config);
    auto f = run_spec("kernels/transpose/transpose_coalesced_256x128.json", config, {}, {}, SimMode::Functional);
    auto t = run_spec("kernels/transpose/transpose_coalesced_256x128.json", config, {}, {}, SimMode::Timing);
    REQUIRE(f.correct);
    REQUIRE(t.correct);
    CHECK(f.stats.exec.inst_executed == t.stats.exec.inst_executed);
    CHECK(f.stats.exec.divergent_branch == t.stats.exec.divergent_branch);
    CHECK(f.stats.mem.gld_transactions == t.stats.mem.gld_transactions);
    CHECK(f.stats.mem.gst_transactions == t.stats.mem.gst_transactions);
    CHECK(f.stats.mem.shared_load_transactions == t.stats.mem.shared_load_transactions);
    CHECK(f.stats.mem.shared_store_bank_conflicts == t.stats.mem.shared_store_bank_conflicts);
  }
}

TEST_CASE("310: the stall breakdown accounts for every warp-cycle a warp waited", "[timing]") {
  auto r = run_spec("kernels/matmul/matmul_tiled_512.json", "c2070", {{"width", 64}});
  REQUIRE(r.correct);
  const TimingStats& t = r.stats.timing;
  uint64_t stalls = t.stall_exec_dependency + t.stall_memory_dependency + t.stall_sync + t.stall_not_selected +
                    t.stall_pipe_busy;
  uint64_t per_pc = 0;
  for (const auto& p : r.stats.per_pc) per_pc += p.stall_cycles;
  CHECK(stalls == per_pc);
  CHECK(t.stall_sync > 0);
  CHECK(t.stall_memory_dependency > 0);
  CHECK(t.issued == r.stats.exec.inst_executed);
  CHECK(t.achieved_occupancy > 0);
  CHECK(t.achieved_occupancy <= r.stats.occupancy.theoretical_occupancy + 1e-9);
}

// Ruetsch & Micikevicius, "Optimizing Matrix Transpose in CUDA": on GT200 the blocks of a wave
// write output columns that fall in one 256-byte-wide partition, so the coalesced transpose is
// held back by partition camping and diagonal block reordering relieves it (4.2x on a GTX 280);
// Fermi's hashed channel mapping leaves little to relieve (0.8x on an M2090). docs/calibration.md
// has the full table; 2.70x and 1.23x are what the simulator gives for 2048x2048.
TEST_CASE("310: diagonal block order relieves partition camping on the FX5800, not on the C2070",
          "[timing][transpose][large]") {
  auto cycles = [](const char* kernel, const char* config) {
    warpsim::test::Run r = run_spec(std::string("kernels/transpose/") + kernel + "_2048.json", config);
    REQUIRE(r.correct);
    return double(r.stats.timing.elapsed_cycles_sm);
  };
  const double fx = cycles("transpose_no_bank_conflicts", "fx5800") / cycles("transpose_diagonal", "fx5800");
  const double fermi = cycles("transpose_no_bank_conflicts", "c2070") / cycles("transpose_diagonal", "c2070");
  INFO("FX5800 speedup " << fx << ", C2070 speedup " << fermi);
  CHECK(fx > 2.0);
  CHECK(fermi < 1.5);
  CHECK(fx > 1.5 * fermi);
}
