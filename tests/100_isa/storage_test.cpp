// Register storage compaction (isa/register_storage.hpp): registers never live together
// share a storage slot; the cases where sharing would change what a thread computes keep
// them apart. Whole kernels computing the same with and without it: tests/600_kernels.
#include <catch2/catch.hpp>

#include "isa_util.hpp"
#include "sim/isa/ptx_parser.hpp"
#include "sim/isa/register_storage.hpp"

using namespace warpsim::isa;

namespace {

struct Planned {
  std::unique_ptr<Module> module;
  StoragePlan plan;
  const Kernel& kernel() const { return *module->kernels[0]; }
  uint16_t slot(const std::string& name) const {
    const Kernel& k = kernel();
    for (size_t i = 0; i < k.regs.size(); ++i)
      if (k.regs[i].name == name) return plan.slot_of[i];
    FAIL("no register " << name);
    return 0;
  }
};

Planned plan(const std::string& body) {
  Planned p;
  p.module = parse_ptx(isatest::module(".entry k(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
                                       ".reg .pred %p<2>;\n" +
                                       body + "\n}\n"),
                       "storage.ptx");
  p.plan = plan_register_storage(p.kernel());
  return p;
}

}  // namespace

TEST_CASE("storage: a chain of values reuses two slots", "[isa][storage]") {
  auto p = plan(R"(
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
  add.s32 %r2, %r1, 1;
  add.s32 %r3, %r2, 1;
  add.s32 %r4, %r3, 1;
  st.global.u32 [%rd1], %r4;
  ret;)");
  // A destination never shares with its own sources, so the chain alternates.
  CHECK(p.slot("%r1") != p.slot("%r2"));
  CHECK(p.slot("%r3") == p.slot("%r1"));
  CHECK(p.slot("%r4") == p.slot("%r2"));
  CHECK(p.slot("%rd1") != p.slot("%r1"));
  CHECK(p.slot("%rd1") != p.slot("%r2"));
  CHECK(p.plan.slots == 3);  // rd1 and two for the chain; unreferenced registers take none
}

TEST_CASE("storage: a guarded definition keeps the old value alive", "[isa][storage]") {
  auto p = plan(R"(
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
  setp.eq.u32 %p1, %r1, 0;
  mov.u32 %r3, 1;
  ld.global.u32 %r4, [%rd1+4];
  st.global.u32 [%rd1+8], %r4;
  @%p1 mov.u32 %r3, 7;
  st.global.u32 [%rd1+12], %r3;
  ret;)");
  // Lanes with p1 false store the 1 written before r4 lived: r3 is live across r4.
  CHECK(p.slot("%r3") != p.slot("%r4"));
  // r1 dies at the setp, before r3 is written: they may share.
  CHECK(p.slot("%r1") == p.slot("%r3"));
}

TEST_CASE("storage: the destinations of one instruction stay apart, dead or not", "[isa][storage]") {
  auto p = plan(R"(
  ld.param.u64 %rd1, [p];
  ld.global.v2.u32 {%r1, %r2}, [%rd1];
  st.global.u32 [%rd1], %r1;
  ret;)");
  CHECK(p.slot("%r1") != p.slot("%r2"));
  CHECK(p.slot("%r1") != p.slot("%rd1"));
  CHECK(p.slot("%r2") != p.slot("%rd1"));
}

TEST_CASE("storage: specials, values read before written and shfl sources keep their own slot",
          "[isa][storage]") {
  auto p = plan(R"(
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  add.s32 %r2, %r6, %r1;
  st.global.u32 [%rd1], %r2;
  mov.u32 %r3, 3;
  shfl.sync.idx.b32 %r4, %r3, 0, 31, -1;
  st.global.u32 [%rd1+4], %r4;
  mov.u32 %r5, 9;
  st.global.u32 [%rd1+8], %r5;
  ret;)");
  const Kernel& k = p.kernel();
  REQUIRE(k.specials.size() == 1);
  const uint16_t tid = p.plan.slot_of[k.specials[0].slot];
  for (const std::string r : {"%r1", "%r2", "%r3", "%r4", "%r5", "%rd1"}) {
    INFO(r);
    CHECK(p.slot(r) != tid);
    CHECK(p.slot(r) != p.slot("%r6"));  // r6 is read before any write: its initial contents
  }
  // r3 is read from other (possibly inactive) lanes: nothing written later may take it.
  CHECK(p.slot("%r5") != p.slot("%r3"));
  CHECK(p.slot("%r4") != p.slot("%r3"));
}

TEST_CASE("storage: the rewritten kernel names storage slots everywhere", "[isa][storage]") {
  auto p = plan(R"(
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  ld.global.v2.u32 {%r2, %r3}, [%rd1];
  add.s32 %r4, %r2, %r3;
  add.s32 %r5, %r4, %r1;
  st.global.v2.u32 [%rd1], {%r5, %r4};
  ret;)");
  const Kernel out = with_register_storage(p.kernel(), p.plan);
  CHECK(out.num_slots() == p.plan.slots);
  CHECK(out.code.size() == p.kernel().code.size());
  REQUIRE(out.specials.size() == 1);
  CHECK(out.specials[0].slot == p.plan.slot_of[p.kernel().specials[0].slot]);
  for (size_t pc = 0; pc < out.code.size(); ++pc) {
    const Instr& a = p.kernel().code[pc];
    const Instr& b = out.code[pc];
    if (a.op != Op::St) continue;
    REQUIRE(b.b.kind == Operand::Kind::Vec);
    CHECK(b.b.vec[0] == p.slot("%r5"));
    CHECK(b.b.vec[1] == p.slot("%r4"));
    CHECK(b.a.base == p.slot("%rd1"));
  }
}

TEST_CASE("storage: nvcc's unrolled tiled matmul needs a quarter of its virtual registers", "[isa][storage]") {
  auto m = load_ptx_file(std::string(WARPSIM_SOURCE_DIR) + "/kernels/matmul/matmul_tiled.ptx");
  const Kernel& k = m->kernel("MatrixMulKernel");
  StoragePlan plan = plan_register_storage(k);
  INFO(k.num_slots() << " virtual registers, " << plan.slots << " slots");
  CHECK(k.num_slots() >= 100);
  CHECK(plan.slots * 4 <= k.num_slots());
}
