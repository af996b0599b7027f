// The GPCs of configs/h100.json (docs/memory-hierarchy.md, "GPCs"): the dispatcher fills the
// SMs GPC by GPC (engine/block_placement.hpp), and an L1 read miss for sectors another SM of its GPC has already asked
// the L2 for waits for that reply instead of reaching the L2 (measured on the GPU with
// tools/calibration/l2_merge_scope.sh). The blocks on two chosen SMs read the same array
// with ordinary (L1-caching) loads; the others return at once.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "200_engine/ptx_fixture.hpp"
#include "sim/foundation/error.hpp"
#include "sim/spec/device_spec.hpp"
#include "timing_fixture.hpp"

using namespace warpsim;

namespace {

// Every thread of a block on SM a or SM b sums words tid, tid + ntid, .. below `words` of
// `data`, shifted by `skew` words on SM b (but not on SM a).
const char* kPairRead = R"(
.visible .entry pair_read(.param .u64 data, .param .u32 words, .param .u32 sm_a, .param .u32 sm_b,
                          .param .u64 out, .param .u32 skew)
{
  .reg .pred %p<4>;
  .reg .b32 %r<14>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %smid;
  ld.param.u32 %r2, [sm_a];
  ld.param.u32 %r3, [sm_b];
  setp.eq.u32 %p1, %r1, %r2;
  setp.eq.u32 %p2, %r1, %r3;
  or.pred %p3, %p1, %p2;
  @!%p3 bra DONE;
  ld.param.u64 %rd1, [data];
  ld.param.u32 %r4, [words];
  mov.u32 %r5, %tid.x;
  mov.u32 %r6, %ntid.x;
  ld.param.u32 %r10, [skew];
  selp.u32 %r11, 0, %r10, %p1;
  mov.f32 %f1, 0f00000000;
LOOP:
  setp.ge.u32 %p1, %r5, %r4;
  @%p1 bra END;
  add.u32 %r12, %r5, %r11;
  mul.wide.u32 %rd2, %r12, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.f32 %f2, [%rd3];
  add.f32 %f1, %f1, %f2;
  add.u32 %r5, %r5, %r6;
  bra LOOP;
END:
  ld.param.u64 %rd4, [out];
  mov.u32 %r7, %ctaid.x;
  mov.u32 %r9, %tid.x;
  mad.lo.u32 %r8, %r7, %r6, %r9;
  mul.wide.u32 %rd5, %r8, 4;
  add.u64 %rd6, %rd4, %rd5;
  st.global.f32 [%rd6], %f1;
DONE:
  ret;
}
)";

// Thread 0 of every block writes its %smid.
const char* kWhere = R"(
.visible .entry where(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.u32 %r2, %smid;
  mov.u32 %r3, %ctaid.x;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r3, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
DONE:
  ret;
}
)";

DeviceSpec h100(const std::vector<std::string>& sets = {}) {
  return load_device_spec(test::repo("configs/h100.json"), sets);
}

// The pair's launch on a fresh device: 132 blocks of 256 threads, 64 KiB read by each of
// the two SMs' blocks.
LaunchStats pair_launch(const DeviceSpec& spec, uint32_t sm_a, uint32_t sm_b, uint32_t skew = 0) {
  Device dev(spec);
  const auto& m = dev.load_ptx(ptxtest::module(kPairRead), "pair_read.ptx");
  const uint32_t words = 16384, blocks = spec.sm.count, threads = 256;
  std::vector<float> h(words + skew, 1.0f);
  const DevPtr data = dev.malloc((words + skew) * 4), out = dev.malloc(size_t(blocks) * threads * 4);
  dev.copy_to_device(data, h.data(), (words + skew) * 4);
  LaunchOptions o;
  o.mode = SimMode::Timing;
  const std::vector<KernelArg> args{ptxtest::ptr(data), KernelArg::integer(words), KernelArg::integer(sm_a),
                                    KernelArg::integer(sm_b), ptxtest::ptr(out), KernelArg::integer(skew)};
  return dev.launch(*m.kernels.at(0), Dim3{blocks, 1, 1}, Dim3{threads, 1, 1}, 0, args, o);
}

constexpr uint64_t kSectors = 16384 * 4 / 32;  // each SM's L1 misses: the array once

// The SM each block of a `blocks`-block launch ran on (%smid).
std::vector<uint32_t> block_sms(const DeviceSpec& spec, uint32_t blocks, SimMode mode) {
  Device dev(spec);
  const auto& m = dev.load_ptx(ptxtest::module(kWhere), "where.ptx");
  const DevPtr out = dev.malloc(blocks * 4);
  LaunchOptions o;
  o.mode = mode;
  const std::vector<KernelArg> args{ptxtest::ptr(out)};
  dev.launch(*m.kernels.at(0), Dim3{blocks, 1, 1}, Dim3{32, 1, 1}, 0, args, o);
  std::vector<uint32_t> sm(blocks);
  dev.copy_from_device(sm.data(), out, blocks * 4);
  return sm;
}

}  // namespace

TEST_CASE("310: the H100 config has 8 GPCs that hold every SM once", "[timing][gpc]") {
  const DeviceSpec spec = h100();
  REQUIRE(spec.gpcs == 8);
  REQUIRE(spec.gpc_of_sm.size() == 132);
  REQUIRE(spec.sm_fill_order.size() == 132);
  std::vector<uint32_t> sizes(8, 0);
  for (uint32_t g : spec.gpc_of_sm) ++sizes.at(g);
  CHECK(sizes == std::vector<uint32_t>{16, 16, 16, 16, 16, 16, 18, 18});
  std::vector<uint32_t> order = spec.sm_fill_order;
  std::sort(order.begin(), order.end());
  for (uint32_t i = 0; i < 132; ++i) CHECK(order[i] == i);
  // Measured: SMs 0, 1, 16, 17 share a GPC; 2 is in another (h200_l2_merge_scope.csv).
  CHECK(spec.gpc_of_sm[1] == spec.gpc_of_sm[0]);
  CHECK(spec.gpc_of_sm[16] == spec.gpc_of_sm[0]);
  CHECK(spec.gpc_of_sm[2] != spec.gpc_of_sm[0]);
  // Each GPC lies on one side of the L2's two partitions (sm_partition, measured apart).
  for (uint32_t s = 0; s < 132; ++s)
    for (uint32_t t = 0; t < 132; ++t)
      if (spec.gpc_of_sm[s] == spec.gpc_of_sm[t]) CHECK(spec.l2.partition_of_sm[s] == spec.l2.partition_of_sm[t]);
}

TEST_CASE("310: a grid of a block per SM or more fills GPC by GPC in both modes", "[timing][gpc]") {
  const DeviceSpec spec = h100();
  for (SimMode mode : {SimMode::Timing, SimMode::Functional}) {
    INFO((mode == SimMode::Timing ? "timing" : "functional"));
    const std::vector<uint32_t> sm = block_sms(spec, 264, mode);
    for (uint32_t b = 0; b < 264; ++b) {
      INFO("block " << b);
      CHECK(sm[b] == spec.sm_fill_order[b % 132]);
    }
    // As on the GPU (h200_block_placement_1024_256_2048.csv): 0 -> SM 124, 8 -> 0, 16 -> 2.
    CHECK(sm[0] == 124);
    CHECK(sm[8] == 0);
    CHECK(sm[9] == 1);
    CHECK(sm[16] == 2);
  }
}

TEST_CASE("310: a grid of fewer blocks than SMs is placed as on the GPU: SMs 124-131, then a TPC at a time",
          "[timing][gpc]") {
  const DeviceSpec spec = h100();
  REQUIRE(spec.gpc_tpc_sms == 2);
  REQUIRE(spec.gpc_small_grid_lead_sms == 8);
  // The H200's placements (h200_block_placement_{16,49}_256_2048.csv): the first 8 blocks on
  // SMs 124-131, then one block per TPC (SMs 2k, 2k+1), dealt over the GPCs a round at a
  // time and numbered GPC by GPC; GPC 0 has 4 TPCs left after the first 8.
  const std::vector<uint32_t> gpu16{124, 125, 126, 127, 128, 129, 130, 131, 0, 2, 4, 6, 8, 10, 12, 14};
  const std::vector<uint32_t> gpu49{124, 125, 126, 127, 128, 129, 130, 131, 0,  16, 32, 48, 2,  18, 34, 50, 64,
                                    78,  4,   20,  36,  52,  66,  80,  6,   22, 38, 54, 68, 8,  24, 40, 56, 70,
                                    10,  26,  42,  58,  72,  12,  28,  44,  60, 74, 14, 30, 46, 62, 76};
  for (SimMode mode : {SimMode::Timing, SimMode::Functional}) {
    INFO((mode == SimMode::Timing ? "timing" : "functional"));
    CHECK(block_sms(spec, 16, mode) == gpu16);
    const std::vector<uint32_t> sm = block_sms(spec, 49, mode);
    CHECK(sm == gpu49);
    std::vector<uint32_t> per_gpc(spec.gpcs, 0);
    for (uint32_t s : sm) ++per_gpc.at(spec.gpc_of_sm.at(s));
    CHECK(per_gpc == std::vector<uint32_t>{12, 6, 6, 5, 5, 5, 5, 5});
    // 64 blocks (h200_block_placement_64_256_2048.csv): GPC 0 still 8 + 4, the first three
    // others 8, the rest 7.
    per_gpc.assign(spec.gpcs, 0);
    for (uint32_t s : block_sms(spec, 64, mode)) ++per_gpc.at(spec.gpc_of_sm.at(s));
    CHECK(per_gpc == std::vector<uint32_t>{12, 8, 8, 8, 7, 7, 7, 7});
  }
  // Past one block per TPC (not measured between 64 and 132 blocks) the second SMs take
  // blocks the same way: 120 blocks = 8 + the 62 TPCs' first SMs + 50 second SMs, dealt a
  // round at a time: 4 on GPC 0 (all it has left), then 7 rounds over GPCs 1-7 less 3.
  {
    const std::vector<uint32_t> sm = block_sms(spec, 120, SimMode::Timing);
    std::vector<uint32_t> sorted = sm;
    std::sort(sorted.begin(), sorted.end());
    CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());  // one block per SM
    std::vector<uint32_t> per_gpc(spec.gpcs, 0);
    for (uint32_t s : sm) ++per_gpc.at(spec.gpc_of_sm.at(s));
    CHECK(per_gpc == std::vector<uint32_t>{16, 15, 15, 15, 15, 14, 15, 15});
  }
  // With one SM per TPC and no lead, equal shares in GPC order: 40 blocks, 5 per GPC, each
  // on its GPC's first SMs in fill order.
  const DeviceSpec plain_tpcs = h100({"gpcs.tpc_sms=1", "gpcs.small_grid_lead_sms=0"});
  const std::vector<uint32_t> sm40 = block_sms(plain_tpcs, 40, SimMode::Timing);
  std::vector<uint32_t> per_gpc(spec.gpcs, 0);
  for (uint32_t s : sm40) ++per_gpc.at(spec.gpc_of_sm.at(s));
  CHECK(per_gpc == std::vector<uint32_t>(8, 5));
  CHECK(std::vector<uint32_t>(sm40.begin(), sm40.begin() + 7) == std::vector<uint32_t>{124, 125, 126, 127, 128, 2, 3});
  // Without GPCs, SM order.
  const DeviceSpec c2070 = load_device_spec(test::repo("configs/c2070.json"));
  const std::vector<uint32_t> plain = block_sms(c2070, 10, SimMode::Timing);
  for (uint32_t b = 0; b < 10; ++b) CHECK(plain[b] == b);
}

TEST_CASE("310: two SMs of one GPC reading the same lines send the L2 one read per sector", "[timing][gpc]") {
  const DeviceSpec spec = h100();
  REQUIRE(spec.gpc_merge_reads);
  const LaunchStats alone = pair_launch(spec, 0, 0);
  CHECK(alone.mem.gpc_merging);
  CHECK(alone.mem.gpc_merged_sectors == 0);
  CHECK(alone.mem.l2_read_sectors == kSectors);

  // SM 0 and SM 1 (one TPC), SM 0 and SM 16 (another TPC of the GPC): every sector one asks
  // for while the other's request is out waits for it. Each miss sector either reaches the
  // L2 or waits; the two run nearly in step, so nearly all of the second's wait.
  for (uint32_t partner : {1u, 16u}) {
    INFO("SM 0 and SM " << partner);
    const LaunchStats pair = pair_launch(spec, 0, partner);
    CHECK(pair.mem.l2_read_sectors + pair.mem.gpc_merged_sectors == 2 * kSectors);
    CHECK(pair.mem.gpc_merged_sectors >= kSectors * 9 / 10);
    CHECK(pair.mem.gpc_merged_sectors <= kSectors);
  }
  // SM 0 and SM 2 (another GPC): both read at the L2.
  const LaunchStats apart = pair_launch(spec, 0, 2);
  CHECK(apart.mem.gpc_merged_sectors == 0);
  CHECK(apart.mem.l2_read_sectors == 2 * kSectors);

  // Without merging, the same GPC reads twice too.
  const LaunchStats off = pair_launch(h100({"gpcs.merge_reads=false"}), 0, 1);
  CHECK_FALSE(off.mem.gpc_merging);
  CHECK(off.mem.gpc_merged_sectors == 0);
  CHECK(off.mem.l2_read_sectors == 2 * kSectors);
}

TEST_CASE("310: with merge_match \"request\" a miss waits only for a request of exactly its sectors",
          "[timing][gpc]") {
  // On the H200 the L2 Request Coalescer merges none of the greyscale kernels' reads, whose
  // warps share sectors but ask for different sets of them, and a third of the tiled
  // matmul's (tools/calibration/lrc_coalescing.sh, h200_lrc_coalescing.csv).
  const DeviceSpec spec = h100();
  REQUIRE(spec.gpc_merge_whole_requests);
  // SM 1 reads the same words as SM 0 one sector later: each of its warps asks for sectors
  // 1-3 of a line and 0 of the next where SM 0's ask for 0-3; they share sectors, never a
  // request.
  const LaunchStats skewed = pair_launch(spec, 0, 1, 8);
  CHECK(skewed.mem.gpc_merged_sectors == 0);
  CHECK(skewed.mem.l2_read_sectors == 2 * kSectors);
  // Merging by sectors takes nearly all of the shared sectors.
  const LaunchStats by_sectors = pair_launch(h100({"gpcs.merge_match=sectors"}), 0, 1, 8);
  CHECK_FALSE(by_sectors.mem.gpc_merged_sectors == 0);
  CHECK(by_sectors.mem.gpc_merged_sectors >= kSectors * 8 / 10);
  CHECK(by_sectors.mem.l2_read_sectors + by_sectors.mem.gpc_merged_sectors == 2 * kSectors);
  // The same requests merge under either rule.
  CHECK(pair_launch(spec, 0, 1).mem.gpc_merged_sectors >= kSectors * 9 / 10);
}

TEST_CASE("310: a gpcs section that misses, repeats or invents an SM names the key", "[timing][gpc]") {
  auto fails_with = [](const std::vector<std::string>& sets, const std::string& words) {
    INFO(words);
    try {
      h100(sets);
      FAIL("accepted");
    } catch (const Error& e) {
      const std::string what = e.what();
      INFO(what);
      CHECK(what.find("gpcs.") != std::string::npos);
      CHECK(what.find(words) != std::string::npos);
    }
  };
  fails_with({"gpcs.sms=[[0,1],[2,3]]"}, "SM 4 is in no GPC");
  std::string all = "[[0";
  for (int s = 1; s < 132; ++s) all += "," + std::to_string(s);
  fails_with({"gpcs.sms=" + all + ",1]]"}, "SM 1 is in GPC 0 and again in GPC 0");
  fails_with({"gpcs.sms=" + all + "],[132]]"}, "132 is not an SM number below sm.count 132");
  fails_with({"gpcs.sms=[]"}, "expected an array of GPCs");
  fails_with({"sm.count=100", "l2.partitions.count=1"}, "--set gpcs=null models no GPCs");
  fails_with({"gpcs.merge_lines=2000000"}, "at most 1000000 lines");
  fails_with({"gpcs.merge_lines=4294967297"}, "at most 1000000 lines");  // not taken modulo 2^32
  fails_with({"gpcs.tpc_sms=0"}, "expected 1 to 8 SMs per TPC");
  fails_with({"gpcs.merge_match=lines"}, "\"lines\" is not a merge rule");
  fails_with({"gpcs.small_grid_lead_sms=133"}, "at most sm.count (132) SMs");
  // gpcs=null: no GPCs, blocks in SM order, no merging.
  const DeviceSpec none = h100({"gpcs=null"});
  CHECK(none.gpcs == 0);
  CHECK(none.sm_fill_order.empty());
  CHECK_FALSE(none.gpc_merge_reads);
  // One GPC of every SM is a valid layout (one merge domain, blocks in SM order).
  const DeviceSpec one = h100({"gpcs.sms=" + all + "]]"});
  CHECK(one.gpcs == 1);
  CHECK(one.sm_fill_order[5] == 5);
}
