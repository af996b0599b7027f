// The partitioned L2 of configs/h100.json (docs/memory-hierarchy.md, "L2 partitions"): a
// line read from DRAM is kept at its home slice; an SM whose partition is not the home's
// keeps a copy in its own partition, and what the copy lacks comes from the home slice,
// `far_latency` cycles later. One thread on a chosen SM chases pointers 128 bytes apart
// with ld.global.cg, launch after launch on one device whose caches are kept.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "200_engine/ptx_fixture.hpp"
#include "sim/memory/address_map.hpp"
#include "sim/memory/memory_path.hpp"
#include "sim/spec/device_spec.hpp"
#include "timing_fixture.hpp"

using namespace warpsim;

namespace {

// Block thread 0 on SM `target` (the first block that finds itself there) chases `steps`
// pointers from next[0]; every other thread returns at once.
const char* kChase = R"(
.visible .entry chase_on(.param .u64 next, .param .u32 steps, .param .u32 target, .param .u64 claimed)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.u32 %r2, %smid;
  ld.param.u32 %r3, [target];
  setp.ne.u32 %p2, %r2, %r3;
  @%p2 bra DONE;
  ld.param.u64 %rd1, [claimed];
  atom.global.cas.b32 %r4, [%rd1], 0, 1;
  setp.ne.u32 %p3, %r4, 0;
  @%p3 bra DONE;
  ld.param.u64 %rd2, [next];
  ld.param.u32 %r5, [steps];
  mov.u64 %rd3, 0;
  mov.u32 %r6, 0;
LOOP:
  shl.b64 %rd4, %rd3, 3;
  add.u64 %rd5, %rd2, %rd4;
  ld.global.cg.u64 %rd3, [%rd5];
  add.u32 %r6, %r6, 1;
  setp.lt.u32 %p3, %r6, %r5;
  @%p3 bra LOOP;
DONE:
  ret;
}
)";

struct ChaseDevice {
  Device dev;
  const isa::Kernel* k = nullptr;
  DevPtr next{}, claimed{};
  uint32_t lines = 0;

  ChaseDevice(const DeviceSpec& spec, uint32_t lines_) : dev(spec), lines(lines_) {
    const auto& m = dev.load_ptx(ptxtest::module(kChase), "chase_on.ptx");
    k = m.kernels.at(0).get();
    std::vector<uint64_t> h(size_t(lines) * 16, 0);
    for (uint32_t i = 0; i < lines; ++i) h[size_t(i) * 16] = uint64_t((i + 1) % lines) * 16;
    next = dev.malloc(h.size() * 8);
    dev.copy_to_device(next, h.data(), h.size() * 8);
    claimed = dev.malloc(4);
  }
  // How many of the chased lines have their home slice in partition `q`.
  uint32_t homed_in(uint32_t q) const {
    const DeviceSpec& spec = dev.spec();
    const mem::AddressMap map(spec.dram);
    uint32_t n = 0;
    for (uint32_t i = 0; i < lines; ++i)
      n += spec.l2.partition_of_slice(mem::l2_slice_of(spec, map, next + uint64_t(i) * 128)) == q;
    return n;
  }
  LaunchStats pass(uint32_t sm, SimMode mode = SimMode::Timing) {
    const uint32_t zero = 0;
    dev.copy_to_device(claimed, &zero, 4);
    LaunchOptions o;
    o.mode = mode;
    o.cache_control = CacheControl::Keep;
    o.threads = 1;
    o.threads_adaptive = false;
    const uint32_t sms = dev.spec().sm.count;
    const std::vector<KernelArg> args{ptxtest::ptr(next), KernelArg::integer(lines), KernelArg::integer(sm),
                                      ptxtest::ptr(claimed)};
    return dev.launch(*k, Dim3{sms * 2, 1, 1}, Dim3{32, 1, 1}, 0, args, o);
  }
};

const DeviceSpec& h100() {
  static const DeviceSpec spec = load_device_spec(test::repo("configs/h100.json"));
  return spec;
}

}  // namespace

TEST_CASE("310: the H100 config's L2 has two partitions of 66 SMs each", "[timing][l2partitions]") {
  const mem::L2Spec& l2 = h100().l2;
  REQUIRE(l2.partitions == 2);
  CHECK(l2.slices_per_partition() == 80);
  CHECK(l2.far_latency == 175);
  uint32_t in_one = 0;
  for (uint8_t p : l2.partition_of_sm) in_one += p;
  CHECK(in_one == 66);
  // Measured: SM 0 and 1 share a partition, 66 and 67 are in the other (h100_l2_partitions.csv).
  CHECK(l2.partition_of_sm[0] == 0);
  CHECK(l2.partition_of_sm[1] == 0);
  CHECK(l2.partition_of_sm[66] == 1);
  CHECK(l2.partition_of_sm[67] == 1);
  // An SM's copy lives at the home slice's place in its own partition.
  CHECK(l2.near_slice(5, 0) == 5);
  CHECK(l2.near_slice(5, 66) == 85);
  CHECK(l2.near_slice(85, 0) == 5);
  CHECK(l2.near_slice(85, 66) == 85);
}

TEST_CASE("310: lines homed in the other partition cost far_latency more, once", "[timing][l2partitions]") {
  const uint32_t lines = 1024;  // 128 KB: fits every level
  ChaseDevice d(h100(), lines);
  const uint32_t homed_far = d.homed_in(1);  // far for SM 0, near for SM 66
  REQUIRE(homed_far > lines / 4);
  REQUIRE(homed_far < lines * 3 / 4);
  // A copy's miss asks its home for the 64-byte pair its sector is in (l2.fetch_bytes).
  const uint32_t pair = h100().l2.slice.fetch_bytes / h100().l2.slice.sector_bytes;
  REQUIRE(pair == 2);
  const LaunchStats cold = d.pass(0);        // SM 0, partition 0: DRAM, kept at home (+ SM 0's copies)
  const LaunchStats near = d.pass(1);        // SM 1, partition 0: its partition has every line
  const LaunchStats far = d.pass(66);        // SM 66, partition 1: the lines homed there are there
  const LaunchStats far_again = d.pass(66);  // now it has copies of the others too
  // The claim's atomics (one per block that lands on the SM) are done at the claim word's
  // home slice, where it stays: hits.
  const uint64_t claims = far.mem.atomic_transactions;
  REQUIRE(claims >= 1);
  // Every line read from DRAM once, 64 bytes of it; the claim word's pair once too.
  CHECK(cold.dram.read_bytes == uint64_t(lines + 1) * 64);
  CHECK(cold.mem.l2_fabric_sectors == homed_far * pair);  // SM 0's copies asked their homes (misses)
  CHECK(cold.mem.l2_fabric_hits == 0);
  CHECK(near.mem.l2_hits == lines + claims);
  CHECK(near.mem.l2_fabric_sectors == 0);
  CHECK(far.mem.l2_hits == homed_far + claims);
  CHECK(far.mem.l2_misses == lines - homed_far);
  CHECK(far.mem.l2_fabric_sectors == (lines - homed_far) * pair);
  CHECK(far.mem.l2_fabric_hits == (lines - homed_far) * pair);
  CHECK(far.dram.read_bytes == 0);
  CHECK(far_again.mem.l2_hits == lines + claims);
  CHECK(far_again.mem.l2_fabric_sectors == 0);
  // Each dependent load that crosses waits far_latency more cycles, nothing else.
  CHECK(far.timing.elapsed_cycles_sm - far_again.timing.elapsed_cycles_sm == uint64_t(lines - homed_far) * 175);
}

TEST_CASE("310: functional mode counts the partitioned L2 as timing mode does", "[timing][l2partitions]") {
  const uint32_t lines = 1024;
  for (SimMode mode : {SimMode::Timing, SimMode::Functional}) {
    INFO((mode == SimMode::Timing ? "timing" : "functional"));
    ChaseDevice d(h100(), lines);
    const uint32_t homed_far = d.homed_in(1);
    d.pass(0, mode);
    const LaunchStats far = d.pass(66, mode);
    const LaunchStats again = d.pass(66, mode);
    const uint64_t claims = far.mem.atomic_transactions;
    const uint32_t pair = h100().l2.slice.fetch_bytes / h100().l2.slice.sector_bytes;
    CHECK(far.mem.l2_hits == homed_far + claims);
    CHECK(far.mem.l2_fabric_hits == (lines - homed_far) * pair);
    CHECK(again.mem.l2_hits == lines + claims);
    CHECK(again.mem.l2_fabric_sectors == 0);
  }
}

TEST_CASE("310: past its own partition an SM still finds the lines homed in the other", "[timing][l2partitions]") {
  // One set of 10 ways per slice: 80 x 10 lines per partition (100 KB). 1280 lines from SM 0
  // overflow its partition (about 16 per slice: the lines homed there and copies of the
  // others), while the other partition keeps the lines homed there (about 8 per slice). On
  // the second pass every load misses near, and exactly the lines homed in the other
  // partition are found there; the rest come from DRAM.
  const DeviceSpec spec = load_device_spec(test::repo("configs/h100.json"), {"l2.size_bytes=204800"});
  REQUIRE(spec.l2.slice.sets == 1);
  const uint32_t lines = 1280;
  ChaseDevice d(spec, lines);
  const uint32_t homed_far = d.homed_in(1);
  d.pass(0);
  const LaunchStats second = d.pass(0);
  CHECK(second.mem.l2_hits <= second.mem.atomic_transactions);  // the claim word may stay
  const uint32_t pair = spec.l2.slice.fetch_bytes / spec.l2.slice.sector_bytes;
  CHECK(second.mem.l2_fabric_sectors == homed_far * pair);
  CHECK(second.mem.l2_fabric_hits == homed_far * pair);
  CHECK(second.dram.read_transactions > 0);
}

TEST_CASE("310: l2.partitions errors name the key", "[timing][l2partitions][config]") {
  auto error_of = [](const std::string& config, const std::vector<std::string>& sets) {
    ptxtest::Thrown t = ptxtest::catch_error([&] { load_device_spec(config, sets); });
    return t.what;
  };
  const std::string h100_json = test::repo("configs/h100.json");
  CHECK_THAT(error_of(h100_json, {"l2.partitions.count=3"}),
             Catch::Contains("l2.partitions.count") && Catch::Contains("do not split 80 channels"));
  CHECK_THAT(error_of(h100_json, {"sm.count=100"}),
             Catch::Contains("l2.partitions.sm_partition") && Catch::Contains("array of 100"));
  // An SM attached to a partition that does not exist.
  nlohmann::json cfg = nlohmann::json::parse(std::ifstream(h100_json));
  cfg["l2"]["partitions"]["sm_partition"][7] = 2;
  const std::string bad = (std::filesystem::temp_directory_path() / "warpsim_l2_partitions_bad.json").string();
  std::ofstream(bad) << cfg.dump();
  CHECK_THAT(error_of(bad, {}), Catch::Contains("l2.partitions.sm_partition") && Catch::Contains("SM 7") &&
                                    Catch::Contains("below 2"));
  std::filesystem::remove(bad);
  // One partition turns the model off; its SM list is then not needed (and without GPCs,
  // configs/h100.json's list of 132 SMs in GPCs neither).
  const DeviceSpec one = load_device_spec(h100_json, {"l2.partitions.count=1", "sm.count=100", "gpcs=null"});
  CHECK(one.gpcs == 0);
  CHECK(one.l2.partitions == 1);
  CHECK(one.l2.near_slice(85, 7) == 85);
}

TEST_CASE("310: with one partition the H100 L2 counts no fabric traffic", "[timing][l2partitions]") {
  const DeviceSpec spec = load_device_spec(test::repo("configs/h100.json"), {"l2.partitions.count=1"});
  ChaseDevice d(spec, 1024);
  d.pass(0);
  const LaunchStats other = d.pass(66);
  CHECK(other.mem.l2_hits == 1024 + other.mem.atomic_transactions);
  CHECK(other.mem.l2_fabric_sectors == 0);
}

namespace {

// Every block's threads sum words tid, tid + ntid, .. of `data` with ordinary loads; block
// b writes its threads' sums at out[b * ntid + tid].
const char* kAllRead = R"(
.visible .entry all_read(.param .u64 data, .param .u32 words, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<10>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [data];
  ld.param.u32 %r4, [words];
  mov.u32 %r5, %tid.x;
  mov.u32 %r6, %ntid.x;
  mov.f32 %f1, 0f00000000;
LOOP:
  setp.ge.u32 %p1, %r5, %r4;
  @%p1 bra END;
  mul.wide.u32 %rd2, %r5, 4;
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
  ret;
}
)";

}  // namespace

TEST_CASE("310: SMs of both partitions reading the same lines at once read each sector from DRAM once",
          "[timing][l2partitions]") {
  // A block on every SM reads the same 64 KiB at once: the home slices' MSHRs reach their
  // merge limit (4) while their DRAM reads are in flight, and the other partition's copies
  // ask for the same lines. Those wait for the fill in flight; they once read DRAM again
  // (matmul_simple_100 read 3,254 sectors for 2,500). Without GPCs, so that no merging
  // before the L2 hides it.
  const DeviceSpec spec = load_device_spec(test::repo("configs/h100.json"), {"gpcs=null"});
  REQUIRE(spec.l2.slice.mshr_max_merge == 4);
  Device dev(spec);
  const auto& m = dev.load_ptx(ptxtest::module(kAllRead), "all_read.ptx");
  const uint32_t words = 16384, blocks = spec.sm.count, threads = 256;
  std::vector<float> h(words, 1.0f);
  const DevPtr data = dev.malloc(words * 4), out = dev.malloc(size_t(blocks) * threads * 4);
  dev.copy_to_device(data, h.data(), words * 4);
  LaunchOptions o;
  o.mode = SimMode::Timing;
  const std::vector<KernelArg> args{ptxtest::ptr(data), KernelArg::integer(words), ptxtest::ptr(out)};
  const LaunchStats s = dev.launch(*m.kernels.at(0), Dim3{blocks, 1, 1}, Dim3{threads, 1, 1}, 0, args, o);
  CHECK(s.mem.l2_fabric_sectors > 0);
  CHECK(s.dram.read_bytes == uint64_t(words) * 4);
  std::vector<float> got(size_t(blocks) * threads);
  dev.copy_from_device(got.data(), out, got.size() * 4);
  CHECK(got[0] == 64.0f);
  CHECK(got.back() == 64.0f);
}
