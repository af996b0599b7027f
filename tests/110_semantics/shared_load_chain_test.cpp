// Loads that trust an earlier load's check of their base register (sm/shared_load_chain.hpp):
// which loads chain to which, statically, and in a kernel whose base register keeps or
// changes its lanes' pattern between and across iterations, the values and bank-conflict
// counts that the lanes one by one and shared_passes give.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "110_semantics/shared_fill_ptx.hpp"
#include "200_engine/ptx_fixture.hpp"
#include "sim/isa/ptx_parser.hpp"
#include "sim/sm/shared_banks.hpp"
#include "sim/sm/shared_load_chain.hpp"

namespace {

using warpsim::sm::kNoChainLoad;

}  // namespace

TEST_CASE("shared load chains: the earlier load from the same unchanged base register", "[semantics][shared]") {
  const std::string text = ptxtest::module(R"(.visible .entry chain(.param .u64 out)
{
  .reg .b32 %r<24>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  .shared .align 16 .b8 sm[1024];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, sm;
  add.s32 %r4, %r3, %r2;
  ld.shared.u32 %r5, [%r4];
  ld.shared.f32 %f1, [%r4+128];
  ld.shared.u32 %r6, [%r3];
  add.s32 %r7, %r5, %r6;
  st.shared.u32 [%r4+4], %r7;
  ld.shared.b32 %r8, [%r4+256];
  add.s32 %r4, %r4, %r7;
  ld.shared.u32 %r9, [%r4];
  ld.shared.u32 %r4, [%r4+4];
  ld.shared.u32 %r10, [%r4];
  ld.shared.s32 %r11, [%r4+8];
  ld.shared.u16 %r12, [%r4+8];
  ld.shared.v2.u32 {%r13, %r14}, [%r4+8];
  ld.shared.u32 %r15, [%r4+12];
  mov.b64 {%r4, %r16}, %rd1;
  ld.shared.u32 %r17, [%r4];
  ld.shared.u32 %r18, [%r4+4];
  ld.shared.u32 %r19, [%r3+8];
  ret;
}
)");
  const auto module = warpsim::isa::parse_ptx(text, "chain.ptx");
  const warpsim::isa::Kernel& k = *module->kernels.at(0);
  const std::vector<uint32_t> prev = warpsim::sm::same_base_predecessors(k);
  REQUIRE(prev.size() == k.code.size());
  auto pc = [&](const std::string& prefix) { return uint32_t(ptxtest::pc_of(k, prefix)); };
  auto before = [&](const std::string& load) { return prev[pc(load)]; };

  CHECK(before("ld.shared.u32 %r5") == kNoChainLoad);              // the first from %r4
  CHECK(before("ld.shared.f32 %f1") == pc("ld.shared.u32 %r5"));  // an f32 load is a u32 load
  CHECK(before("ld.shared.u32 %r6") == kNoChainLoad);              // the first from %r3
  // Past a store and an add that write other registers.
  CHECK(before("ld.shared.b32 %r8") == pc("ld.shared.f32 %f1"));
  CHECK(before("ld.shared.u32 %r9") == kNoChainLoad);  // add.s32 %r4 between
  CHECK(before("ld.shared.u32 %r4") == pc("ld.shared.u32 %r9"));
  CHECK(before("ld.shared.u32 %r10") == kNoChainLoad);  // the load before wrote its own base
  // Signed, 2-byte and vector loads are not such loads: no chain from or to them.
  CHECK(before("ld.shared.s32 %r11") == kNoChainLoad);
  CHECK(before("ld.shared.u16 %r12") == kNoChainLoad);
  CHECK(before("ld.shared.v2.u32") == kNoChainLoad);
  CHECK(before("ld.shared.u32 %r15") == pc("ld.shared.u32 %r10"));
  CHECK(before("ld.shared.u32 %r17") == kNoChainLoad);  // a vector element of mov wrote %r4
  CHECK(before("ld.shared.u32 %r18") == pc("ld.shared.u32 %r17"));
  CHECK(before("ld.shared.u32 %r19") == pc("ld.shared.u32 %r6"));
  // Nothing else has a predecessor.
  for (uint32_t i = 0; i < k.code.size(); ++i)
    if (!warpsim::sm::is_u32_shared_load(k.code[i])) CHECK(prev[i] == kNoChainLoad);
  CHECK(!warpsim::sm::is_u32_shared_load(k.code[pc("st.shared.u32")]));
}

TEST_CASE("shared load chains: a kernel's base register kept or changed between loads, values and bank conflicts",
          "[semantics][memory][shared]") {
  // Per iteration: a base pattern P (words per lane) and a step S per lane. Loads A and B
  // read P and P + 1 (B trusts A's check), the base moves by S, and C and D read P + S and
  // P + S + 2 (D trusts C's). Patterns repeat, change shape, shift uniformly, and go lane by
  // lane, so that every check is kept, redone or refused somewhere.
  using Word = uint32_t (*)(uint32_t);
  struct Step {
    Word p, s;
  };
  const std::vector<Step> steps = {
      {[](uint32_t l) { return l; }, [](uint32_t) { return 0u; }},
      {[](uint32_t l) { return l; }, [](uint32_t) { return 16u; }},
      // C's plan left at the base's pattern, then the base moved lane by lane: C must
      // check its lanes (the add between), not take B's offsets, which equal its plan's.
      {[](uint32_t l) { return l < 16 ? 5u : 21u; }, [](uint32_t) { return 0u; }},
      {[](uint32_t l) { return l < 16 ? 5u : 21u; }, [](uint32_t l) { return l; }},
      {[](uint32_t l) { return l < 16 ? 5u : 21u; }, [](uint32_t l) { return l; }},
      {[](uint32_t l) { return 2 * l; }, [](uint32_t) { return 1u; }},
      {[](uint32_t l) { return l % 16; }, [](uint32_t) { return 0u; }},
      {[](uint32_t l) { return 100 + l; }, [](uint32_t l) { return l < 16 ? 0u : 40u; }},
      {[](uint32_t l) { return 100 + l; }, [](uint32_t l) { return l < 16 ? 0u : 40u; }},
      {[](uint32_t l) { return 60 + l; }, [](uint32_t) { return 0u; }},
  };
  const uint32_t n = uint32_t(steps.size());
  std::vector<uint32_t> table;
  for (const Step& st : steps)
    for (uint32_t l = 0; l < 32; ++l) table.push_back(4 * st.p(l));
  for (const Step& st : steps)
    for (uint32_t l = 0; l < 32; ++l) table.push_back(4 * st.s(l));

  const std::string text = ptxtest::module(R"(.visible .entry kept(.param .u64 tab, .param .u64 out)
{
  .reg .b32 %r<24>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  .shared .align 16 .b8 sm[1024];
)" + ptxtest::fill_shared_words(8) + R"(
  mov.u32 %r3, 0;
LOOP:
  shl.b32 %r4, %r3, 5;
  add.s32 %r5, %r4, %r1;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r6, [%rd4];
  ld.global.u32 %r13, [%rd4+)" + std::to_string(128 * n) + R"(];
  add.s32 %r7, %r2, %r6;
  ld.shared.u32 %r8, [%r7];
  ld.shared.u32 %r9, [%r7+4];
  add.s32 %r7, %r7, %r13;
  ld.shared.u32 %r10, [%r7];
  ld.shared.f32 %f1, [%r7+8];
  mov.b32 %r11, %f1;
  mul.wide.u32 %rd3, %r5, 16;
  add.s64 %rd5, %rd2, %rd3;
  st.global.v4.u32 [%rd5], {%r8, %r9, %r10, %r11};
  add.s32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, )" + std::to_string(n) + R"(;
  @%p1 bra LOOP;
  ret;
}
)");
  static ptxtest::Sim s;
  const auto& k = s.kernel(text, "kept", "shared_chain.ptx");
  auto dtab = s.upload(table);
  auto dout = s.upload(std::vector<uint32_t>(4 * 32 * n, 0));
  const warpsim::LaunchStats st = s.run(k, {1, 1, 1}, {32, 1, 1}, {ptxtest::ptr(dtab), ptxtest::ptr(dout)});
  const std::vector<uint32_t> out = s.download<uint32_t>(dout, 4 * 32 * n);

  auto mem = [](uint32_t w) { return uint32_t(w * 2654435761u); };
  warpsim::mem::WarpMemAccess a;
  uint64_t passes = 0, conflicts = 0;
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t l = 0; l < 32; ++l) {
      INFO("iteration " << i << ", lane " << l);
      const uint32_t p = steps[i].p(l), q = p + steps[i].s(l);
      const uint32_t* got = &out[(i * 32 + l) * 4];
      CHECK(got[0] == mem(p));
      CHECK(got[1] == mem(p + 1));
      CHECK(got[2] == mem(q));
      CHECK(got[3] == mem(q + 2));
    }
    for (int which = 0; which < 4; ++which) {
      a.set(warpsim::isa::Space::Shared, warpsim::mem::AccessKind::Load, 4, 1, 0xFFFFFFFFu);
      for (uint32_t l = 0; l < 32; ++l) {
        const uint32_t p = steps[i].p(l), q = p + steps[i].s(l);
        const uint32_t w = which == 0 ? p : which == 1 ? p + 1 : which == 2 ? q : q + 2;
        a.addr[l] = 4 * w;
      }
      const auto r = warpsim::sm::shared_passes(ptxtest::c2070().shared, a);
      passes += r.passes;
      conflicts += r.conflicts();
    }
  }
  CHECK(st.exec.shared_load_requests == 4 * n);
  CHECK(st.mem.shared_load_transactions == passes);
  CHECK(st.mem.shared_load_bank_conflicts == conflicts);
  CHECK(st.mem.shared_load_bank_conflicts > 0);
}
