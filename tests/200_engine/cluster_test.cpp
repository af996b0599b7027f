// Thread block clusters (sm_90) on the H100 config: the cluster special registers, the
// cluster barrier, distributed shared memory through mapa and the shared::cluster window
// in both modes, the remote load's latency and the placement of clusters in timing mode,
// and the errors: launch shapes CUDA refuses, a rank past the cluster, a block that has
// exited, a wait without an arrive, and the C2070 (no clusters).
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "ptx_fixture.hpp"

using ptxtest::integer;
using ptxtest::ptr;
using warpsim::Dim3;

namespace {

// Each thread stores rank * 1000 + tid in its block's shared array, meets the cluster at
// its barrier, reads element (tid + 1) % ntid of block (rank + `step`) % nranks through the
// 32-bit window, meets it again and writes: the value, its rank, %clusterid.x, the number
// of ranks, %is_explicit_cluster and getctarank of the remote address.
const std::string kExchange = ptxtest::module(R"(
.visible .entry exchange(.param .u64 out_p, .param .u32 step)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<24>;
	.reg .b64 	%rd<6>;
	.shared .align 4 .b8 buf[512];
	ld.param.u64 	%rd1, [out_p];
	ld.param.u32 	%r20, [step];
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r2, %cluster_ctarank;
	mov.u32 	%r3, %cluster_nctarank;
	mov.u32 	%r4, %clusterid.x;
	mov.pred 	%p1, %is_explicit_cluster;
	selp.u32 	%r5, 1, 0, %p1;
	mad.lo.s32 	%r6, %r2, 1000, %r1;
	shl.b32 	%r7, %r1, 2;
	mov.u32 	%r8, buf;
	add.s32 	%r9, %r8, %r7;
	st.shared.u32 	[%r9], %r6;
	barrier.cluster.arrive.release.aligned;
	barrier.cluster.wait.acquire.aligned;
	add.s32 	%r10, %r2, %r20;
	rem.u32 	%r11, %r10, %r3;
	mov.u32 	%r12, %ntid.x;
	add.s32 	%r13, %r1, 1;
	rem.u32 	%r14, %r13, %r12;
	shl.b32 	%r15, %r14, 2;
	add.s32 	%r16, %r8, %r15;
	mapa.shared::cluster.u32 	%r17, %r16, %r11;
	ld.shared::cluster.u32 	%r18, [%r17];
	getctarank.shared::cluster.u32 	%r19, %r17;
	barrier.cluster.arrive;
	barrier.cluster.wait;
	mov.u32 	%r21, %ctaid.x;
	mad.lo.s32 	%r22, %r21, %r12, %r1;
	mul.wide.u32 	%rd2, %r22, 24;
	add.s64 	%rd3, %rd1, %rd2;
	st.global.u32 	[%rd3], %r18;
	st.global.u32 	[%rd3+4], %r2;
	st.global.u32 	[%rd3+8], %r4;
	st.global.u32 	[%rd3+12], %r3;
	st.global.u32 	[%rd3+16], %r5;
	st.global.u32 	[%rd3+20], %r19;
	ret;
}
)");

warpsim::LaunchStats go(warpsim::Device& dev, const warpsim::isa::Kernel& k, Dim3 grid, Dim3 block, uint32_t shared,
                        std::vector<warpsim::KernelArg> args, const warpsim::LaunchOptions& o) {
  return dev.launch(k, grid, block, shared, args, o);
}

warpsim::LaunchOptions clustered(warpsim::SimMode mode, Dim3 cluster) {
  warpsim::LaunchOptions o;
  o.mode = mode;
  o.cluster_given = true;
  o.cluster = cluster;
  return o;
}

}  // namespace

TEST_CASE("clusters: special registers, the cluster barrier and distributed shared memory in both modes",
          "[engine][cluster]") {
  for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
    INFO((mode == warpsim::SimMode::Timing ? "timing" : "functional"));
    for (uint32_t size : {1u, 2u, 4u, 8u}) {
      INFO("cluster of " << size);
      ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
      const auto& k = sim.kernel(kExchange);
      const uint32_t blocks = 16, threads = 96;
      auto dout = sim.zeros<uint32_t>(blocks * threads * 6);
      go(sim.dev, k, {blocks, 1, 1}, {threads, 1, 1}, 0, {ptr(dout), integer(1)}, clustered(mode, {size, 1, 1}));
      const auto out = sim.download<uint32_t>(dout, blocks * threads * 6);
      for (uint32_t b = 0; b < blocks; ++b)
        for (uint32_t t = 0; t < threads; ++t) {
          INFO("block " << b << " thread " << t);
          const uint32_t* o = &out[(b * threads + t) * 6];
          const uint32_t rank = b % size, peer = (rank + 1) % size;
          CHECK(o[0] == peer * 1000 + (t + 1) % threads);
          CHECK(o[1] == rank);
          CHECK(o[2] == b / size);
          CHECK(o[3] == size);
          CHECK(o[4] == 1);
          CHECK(o[5] == peer);
        }
    }
  }
  // Without clusters each block is one: rank 0 of 1, not explicit, and it reads its own.
  ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
  const auto& k = sim.kernel(kExchange);
  auto dout = sim.zeros<uint32_t>(4 * 32 * 6);
  sim.run(k, {4, 1, 1}, {32, 1, 1}, {ptr(dout), integer(1)});
  const auto out = sim.download<uint32_t>(dout, 4 * 32 * 6);
  CHECK(out[0] == 1);          // thread 0 read its own block's element 1
  CHECK(out[3 * 32 * 6 + 2] == 3);  // %clusterid.x is the block's index
  CHECK(out[3] == 1);
  CHECK(out[4] == 0);
}

TEST_CASE("clusters: a load from another block's shared memory costs the remote latency", "[engine][cluster][timing]") {
  // One thread of rank 0 follows a chain of 64 indices through rank `target`'s shared array.
  const std::string chase = ptxtest::module(R"(
.visible .entry chase(.param .u64 out_p, .param .u32 target)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<20>;
	.reg .b64 	%rd<4>;
	.shared .align 4 .b8 buf[256];
	ld.param.u64 	%rd1, [out_p];
	ld.param.u32 	%r1, [target];
	mov.u32 	%r2, %tid.x;
	mov.u32 	%r3, buf;
	add.s32 	%r4, %r2, 1;
	and.b32 	%r4, %r4, 63;
	shl.b32 	%r5, %r2, 2;
	add.s32 	%r6, %r3, %r5;
	st.shared.u32 	[%r6], %r4;
	barrier.cluster.arrive;
	barrier.cluster.wait;
	mov.u32 	%r7, %cluster_ctarank;
	or.b32 	%r8, %r7, %r2;
	setp.ne.u32 	%p1, %r8, 0;
	@%p1 bra DONE;
	mapa.shared::cluster.u32 	%r9, %r3, %r1;
	mov.u32 	%r10, 0;
	mov.u32 	%r11, 0;
LOOP:
	shl.b32 	%r12, %r10, 2;
	add.s32 	%r13, %r9, %r12;
	ld.shared::cluster.u32 	%r10, [%r13];
	add.s32 	%r11, %r11, 1;
	setp.lt.u32 	%p2, %r11, 64;
	@%p2 bra LOOP;
	st.global.u32 	[%rd1], %r10;
DONE:
	barrier.cluster.arrive;
	barrier.cluster.wait;
	ret;
}
)");
  uint64_t cycles[2];
  for (uint32_t target : {0u, 1u}) {
    ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
    const auto& k = sim.kernel(chase);
    auto dout = sim.zeros<uint32_t>(1);
    const auto stats = go(sim.dev, k, {2, 1, 1}, {64, 1, 1}, 0, {ptr(dout), integer(target)},
                                      clustered(warpsim::SimMode::Timing, {2, 1, 1}));
    CHECK(sim.download<uint32_t>(dout, 1)[0] == 0);  // 64 steps of +1 mod 64
    cycles[target] = stats.timing.elapsed_cycles_sm;
  }
  const auto& spec = ptxtest::h100_spec();
  const uint64_t extra = 64ull * (spec.clusters.remote_shared_latency - spec.issue.shared_latency);
  INFO("own " << cycles[0] << " cycles, remote " << cycles[1]);
  CHECK(cycles[1] >= cycles[0] + extra);
  CHECK(cycles[1] <= cycles[0] + extra + 64 * 4);
}

TEST_CASE("clusters: accesses to a block on another TPC hold the load/store unit", "[engine][cluster][timing]") {
  // 16 warps a block each add 64 words of block (rank + step) % size's shared array, 8
  // independent loads at a time (enough to keep the load/store unit busy). A cluster of 2
  // sits on one TPC; in one of 4 (SMs 0, 1, 16, 17) step 2 always reaches another TPC.
  const std::string stream = ptxtest::module(R"(
.visible .entry stream(.param .u64 out_p, .param .u32 step)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<32>;
	.reg .b64 	%rd<4>;
	.shared .align 4 .b8 buf[8192];
	ld.param.u64 	%rd1, [out_p];
	ld.param.u32 	%r1, [step];
	mov.u32 	%r2, %tid.x;
	mov.u32 	%r3, buf;
	shl.b32 	%r4, %r2, 2;
	add.s32 	%r5, %r3, %r4;
	st.shared.u32 	[%r5], %r2;
	st.shared.u32 	[%r5+2048], %r2;
	st.shared.u32 	[%r5+4096], %r2;
	st.shared.u32 	[%r5+6144], %r2;
	barrier.cluster.arrive;
	barrier.cluster.wait;
	mov.u32 	%r6, %cluster_ctarank;
	mov.u32 	%r14, %cluster_nctarank;
	add.s32 	%r7, %r6, %r1;
	rem.u32 	%r7, %r7, %r14;
	and.b32 	%r8, %r4, 124;
	add.s32 	%r9, %r3, %r8;
	mapa.shared::cluster.u32 	%r10, %r9, %r7;
	mov.u32 	%r11, 0;
	mov.u32 	%r12, 0;
LOOP:
	ld.shared::cluster.u32 	%r20, [%r10];
	ld.shared::cluster.u32 	%r21, [%r10+128];
	ld.shared::cluster.u32 	%r22, [%r10+256];
	ld.shared::cluster.u32 	%r23, [%r10+384];
	ld.shared::cluster.u32 	%r24, [%r10+512];
	ld.shared::cluster.u32 	%r25, [%r10+640];
	ld.shared::cluster.u32 	%r26, [%r10+768];
	ld.shared::cluster.u32 	%r27, [%r10+896];
	add.s32 	%r11, %r11, %r20;
	add.s32 	%r11, %r11, %r21;
	add.s32 	%r11, %r11, %r22;
	add.s32 	%r11, %r11, %r23;
	add.s32 	%r11, %r11, %r24;
	add.s32 	%r11, %r11, %r25;
	add.s32 	%r11, %r11, %r26;
	add.s32 	%r11, %r11, %r27;
	add.s32 	%r10, %r10, 1024;
	add.s32 	%r12, %r12, 1;
	setp.lt.u32 	%p1, %r12, 8;
	@%p1 bra LOOP;
	barrier.cluster.arrive;
	barrier.cluster.wait;
	st.global.u32 	[%rd1], %r11;
	ret;
}
)");
  const auto& spec = ptxtest::h100_spec();
  const warpsim::DeviceSpec free_network =
      warpsim::load_device_spec(WARPSIM_SOURCE_DIR "/configs/h100.json", {"clusters.remote_wavefront_cycles=0"});
  auto cycles = [&](const warpsim::DeviceSpec& s, uint32_t size, uint32_t step) {
    ptxtest::Sim sim{warpsim::Device(s)};
    const auto& k = sim.kernel(stream);
    auto dout = sim.zeros<uint32_t>(1);
    return go(sim.dev, k, {size, 1, 1}, {512, 1, 1}, 0, {ptr(dout), integer(step)},
              clustered(warpsim::SimMode::Timing, {size, 1, 1}))
        .timing.elapsed_cycles_sm;
  };
  CHECK(cycles(spec, 2, 1) == cycles(free_network, 2, 1));  // one TPC: no network to cross
  // 16 warps x 64 loads of one wavefront on each SM: about remote_wavefront_cycles - 1
  // cycles more each than with a free network.
  const uint64_t loads = 16 * 64, w = spec.clusters.remote_wavefront_cycles;
  REQUIRE(w > 1);
  const uint64_t far = cycles(spec, 4, 2), far_free = cycles(free_network, 4, 2);
  INFO("across TPCs: " << far << " cycles, " << far_free << " with a free network");
  CHECK(far >= far_free + loads * (w - 1) * 8 / 10);
  CHECK(far <= far_free + loads * w);
}

TEST_CASE("clusters: timed clusters run on distinct SMs of one GPC, never on the pair-only SMs",
          "[engine][cluster][timing]") {
  const std::string where = ptxtest::module(R"(
.visible .entry where(.param .u64 out_p)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [out_p];
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %smid;
	mul.wide.u32 	%rd2, %r1, 4;
	add.s64 	%rd3, %rd1, %rd2;
	st.global.u32 	[%rd3], %r2;
	barrier.cluster.arrive;
	barrier.cluster.wait;
	ret;
}
)");
  const auto& spec = ptxtest::h100_spec();
  for (uint32_t size : {2u, 4u, 8u}) {
    INFO("cluster of " << size);
    ptxtest::Sim sim{warpsim::Device(spec)};
    const auto& k = sim.kernel(where);
    const uint32_t blocks = size * 40;
    auto dout = sim.zeros<uint32_t>(blocks);
    // 200 KB of dynamic shared memory: one block per SM, so the clusters come in waves.
    go(sim.dev, k, {blocks, 1, 1}, {32, 1, 1}, 200 * 1024, {ptr(dout)},
                   clustered(warpsim::SimMode::Timing, {size, 1, 1}));
    const auto sms = sim.download<uint32_t>(dout, blocks);
    const auto& pair_only = spec.clusters.pair_only_sms;
    for (uint32_t c = 0; c < blocks / size; ++c) {
      INFO("cluster " << c);
      std::set<uint32_t> distinct(sms.begin() + c * size, sms.begin() + (c + 1) * size);
      CHECK(distinct.size() == size);
      for (uint32_t s : distinct) {
        CHECK(spec.gpc_of_sm[s] == spec.gpc_of_sm[sms[c * size]]);
        if (size > 2) CHECK(std::find(pair_only.begin(), pair_only.end(), s) == pair_only.end());
      }
    }
  }
}

TEST_CASE("clusters: launches CUDA refuses, and faults that name the block", "[engine][cluster][fault]") {
  ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
  const auto& k = sim.kernel(kExchange);
  auto dout = sim.zeros<uint32_t>(64 * 32 * 6);
  auto refused = [&](Dim3 grid, Dim3 cluster, bool non_portable = false) {
    auto o = clustered(warpsim::SimMode::Functional, cluster);
    o.cluster_non_portable = non_portable;
    auto t = ptxtest::catch_error([&] { go(sim.dev, k, grid, {32, 1, 1}, 0, {ptr(dout), integer(1)}, o); });
    CHECK(t.type == "LaunchError");
    return t.what;
  };
  CHECK_THAT(refused({12, 1, 1}, {8, 1, 1}), Catch::StartsWith("invalid cluster size: the grid 12x1x1 is not a whole"));
  CHECK_THAT(refused({32, 1, 1}, {16, 1, 1}), Catch::Contains("more than the portable 8"));
  CHECK_THAT(refused({64, 1, 1}, {32, 1, 1}, true), Catch::Contains("runs at most 16"));
  CHECK_THAT(refused({16, 1, 1}, {0, 1, 1}), Catch::Contains("a cluster of 0x1x1 blocks"));
  CHECK_THAT(refused({16, 1, 1}, {2, 2, 1}), Catch::Contains("not a whole number of 2x2x1 clusters"));
  auto o16 = clustered(warpsim::SimMode::Functional, {16, 1, 1});
  o16.cluster_non_portable = true;
  CHECK_NOTHROW(go(sim.dev, k, {32, 1, 1}, {32, 1, 1}, 0, {ptr(dout), integer(1)}, o16));

  // A rank past the cluster: step 5 in clusters of 4 reads rank (r + 5) % 4, fine; the
  // 32-bit window's rank is checked where it is used.
  const std::string past = ptxtest::module(R"(
.visible .entry past(.param .u64 out_p)
{
	.reg .b32 	%r<6>;
	.shared .align 4 .b8 buf[64];
	mov.u32 	%r1, buf;
	mov.u32 	%r2, 5;
	mapa.shared::cluster.u32 	%r3, %r1, %r2;
	ld.shared::cluster.u32 	%r4, [%r3];
	ret;
}
)");
  const auto& kp = sim.kernel(past);
  auto t = ptxtest::catch_error(
      [&] { go(sim.dev, kp, {8, 1, 1}, {32, 1, 1}, 0, {ptr(dout)}, clustered(warpsim::SimMode::Functional, {4, 1, 1})); });
  REQUIRE(t.type == "KernelFault");
  CHECK_THAT(t.what, Catch::StartsWith("distributed shared load at 0x6000000: block rank 5 of a cluster of 4 block(s)") &&
                         Catch::Contains("block (0,0,0), thread (0,0,0)"));

  // Rank 1 exits at once; rank 0 passes the barrier (exited threads count as arrived) and
  // reads rank 1's shared memory, which is gone.
  const std::string exited = ptxtest::module(R"(
.visible .entry exited(.param .u64 out_p)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.shared .align 4 .b8 buf[64];
	mov.u32 	%r1, %cluster_ctarank;
	setp.ne.u32 	%p1, %r1, 0;
	@%p1 bra DONE;
	barrier.cluster.arrive;
	barrier.cluster.wait;
	mov.u32 	%r2, buf;
	mov.u32 	%r3, 1;
	mapa.shared::cluster.u32 	%r4, %r2, %r3;
	ld.shared::cluster.u32 	%r5, [%r4];
DONE:
	ret;
}
)");
  const auto& ke = sim.kernel(exited);
  for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
    INFO((mode == warpsim::SimMode::Timing ? "timing" : "functional"));
    t = ptxtest::catch_error([&] { go(sim.dev, ke, {2, 1, 1}, {32, 1, 1}, 0, {ptr(dout)}, clustered(mode, {2, 1, 1})); });
    REQUIRE(t.type == "KernelFault");
    CHECK_THAT(t.what, Catch::StartsWith("distributed shared load at 0x2000000: block (1,0,0), rank 1 of the cluster, "
                                         "has exited"));
  }

  // A wait without an arrive would wait forever.
  const std::string no_arrive = ptxtest::module(R"(
.visible .entry no_arrive(.param .u64 out_p)
{
	barrier.cluster.wait;
	ret;
}
)");
  const auto& kn = sim.kernel(no_arrive);
  t = ptxtest::catch_error(
      [&] { go(sim.dev, kn, {2, 1, 1}, {32, 1, 1}, 0, {ptr(dout)}, clustered(warpsim::SimMode::Functional, {2, 1, 1})); });
  REQUIRE(t.type == "KernelFault");
  CHECK(t.fault == warpsim::KernelFault::Kind::Deadlock);
  CHECK_THAT(t.what, Catch::StartsWith("barrier.cluster.wait without a barrier.cluster.arrive"));

  // Half of each block's threads never arrive: a deadlock, named as a cluster's.
  const std::string half = ptxtest::module(R"(
.visible .entry half(.param .u64 out_p)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<2>;
	mov.u32 	%r1, %tid.x;
	setp.lt.u32 	%p1, %r1, 32;
	@%p1 bra SKIP;
	barrier.cluster.arrive;
	barrier.cluster.wait;
SKIP:
	bar.sync 0;
	ret;
}
)");
  const auto& kh = sim.kernel(half);
  t = ptxtest::catch_error(
      [&] { go(sim.dev, kh, {2, 1, 1}, {64, 1, 1}, 0, {ptr(dout)}, clustered(warpsim::SimMode::Functional, {2, 1, 1})); });
  REQUIRE(t.type == "KernelFault");
  CHECK(t.fault == warpsim::KernelFault::Kind::Deadlock);
  CHECK_THAT(t.what, Catch::Contains("deadlock in kernel 'half'"));

  // The C2070 has no clusters.
  ptxtest::Sim old;
  const auto& kc = old.kernel(kExchange);
  auto dc = old.zeros<uint32_t>(8 * 32 * 6);
  t = ptxtest::catch_error(
      [&] { go(old.dev, kc, {8, 1, 1}, {32, 1, 1}, 0, {ptr(dc), integer(1)}, clustered(warpsim::SimMode::Functional, {2, 1, 1})); });
  REQUIRE(t.type == "LaunchError");
  CHECK_THAT(t.what, Catch::Contains("has no thread block clusters (cc 9.0 and later"));
}

TEST_CASE("clusters: __cluster_dims__ and its PTX directives", "[isa][cluster]") {
  const std::string fixed = ptxtest::module(R"(
.visible .entry fixed(.param .u64 out_p)
.explicitcluster
.reqnctapercluster 2, 1, 1
.maxclusterrank 4
{
	barrier.cluster.arrive.relaxed;
	barrier.cluster.wait;
	fence.acq_rel.cluster;
	ret;
}
)");
  ptxtest::Sim sim{warpsim::Device(ptxtest::h100_spec())};
  const auto& k = sim.kernel(fixed);
  CHECK(k.cluster_dims[0] == 2);
  CHECK(k.cluster_dims[1] == 1);
  CHECK(k.explicit_cluster);
  CHECK(k.max_cluster_rank == 4);
  auto dout = sim.zeros<uint32_t>(4);
  // Launched without a shape it runs in its own clusters of 2; with another shape it is refused.
  CHECK_NOTHROW(sim.run(k, {4, 1, 1}, {32, 1, 1}, {ptr(dout)}));
  auto t = ptxtest::catch_error(
      [&] { go(sim.dev, k, {4, 1, 1}, {32, 1, 1}, 0, {ptr(dout)}, clustered(warpsim::SimMode::Functional, {4, 1, 1})); });
  CHECK_THAT(t.what, Catch::Contains("the kernel was compiled for 2x1x1"));
  t = ptxtest::catch_error([&] { sim.run(k, {3, 1, 1}, {32, 1, 1}, {ptr(dout)}); });
  CHECK_THAT(t.what, Catch::Contains("the grid 3x1x1 is not a whole number of 2x1x1 clusters"));

  auto bad = [](const std::string& body) {
    return ptxtest::ptx_error(ptxtest::module(".visible .entry b(.param .u64 p)\n{\n\t.reg .b32 %r<4>;\n" + body +
                                              "\n\tret;\n}\n"));
  };
  CHECK_THAT(bad("\tbarrier.cluster;"), Catch::Contains("barrier.cluster needs .arrive or .wait"));
  CHECK_THAT(bad("\tbarrier.cluster.arrive.wait;"), Catch::Contains("one of .arrive and .wait"));
  CHECK_THAT(bad("\tmapa.shared::cluster.u16 %r1, %r2, %r3;"), Catch::Contains("mapa takes .u32 or .u64"));
  CHECK_THAT(bad("\tmapa.shared::cluster.u32 %r1, %r2;"), Catch::Contains("mapa takes 3 operands"));
  CHECK_THAT(ptxtest::ptx_error(ptxtest::module(".visible .entry b()\n.reqnctapercluster 0, 1, 1\n{\n\tret;\n}\n")),
             Catch::Contains(".reqnctapercluster of 0 blocks"));
}
