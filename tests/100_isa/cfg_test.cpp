// Control-flow analysis: basic blocks, immediate post-dominators and the reconvergence
// point of every branch, for the shapes structured code compiles to.
#include <catch2/catch.hpp>

#include "isa_util.hpp"
#include "sim/isa/cfg.hpp"
#include "sim/isa/ptx_parser.hpp"

using namespace warpsim::isa;
using isatest::pc_of;

namespace {

// A kernel with %r0..%r9, %p0..%p3 and %tid.x in %r0, then `body`.
std::unique_ptr<Module> kernel_body(const std::string& body) {
  return parse_ptx(isatest::module(".entry k()\n{\n.reg .b32 %r<10>;\n.reg .pred %p<4>;\n"
                                   "mov.u32 %r0, %tid.x;\n"
                                   "setp.lt.u32 %p1, %r0, 16;\nsetp.lt.u32 %p2, %r0, 8;\nsetp.lt.u32 %p3, %r0, 4;\n" +
                                   body + "\n}\n"),
                   "cfg.ptx");
}

// The reconvergence instruction of the branch whose text starts with `branch`
// (-1 = only at exit), as the text of that instruction.
std::string reconv_of(const Kernel& k, const std::string& branch) {
  const Instr& in = k.code[pc_of(k, branch)];
  REQUIRE(in.op == Op::Bra);
  if (in.reconv < 0) return "exit";
  return k.text[in.reconv];
}

// Blocks from successor lists; `exits` marks blocks that end the kernel.
std::vector<BasicBlock> graph(const std::vector<std::vector<uint32_t>>& succ, const std::vector<uint32_t>& exits) {
  std::vector<BasicBlock> b(succ.size());
  for (size_t i = 0; i < succ.size(); ++i) {
    b[i].first = b[i].last = static_cast<uint32_t>(i);
    b[i].succ = succ[i];
  }
  for (uint32_t e : exits) b[e].exits = true;
  return b;
}

}  // namespace

TEST_CASE("if without else reconverges at the join", "[isa][cfg]") {
  auto m = kernel_body(R"(
  @%p1 bra SKIP;
  mov.u32 %r1, 1;
SKIP:
  mov.u32 %r9, 9;
  ret;)");
  const Kernel& k = *m->kernels[0];
  CHECK(reconv_of(k, "@%p1 bra SKIP") == "mov.u32 %r9, 9");
  CHECK(k.num_branches == 1);
}

TEST_CASE("if/else reconverges after both arms, the arms' jumps share the join", "[isa][cfg]") {
  auto m = kernel_body(R"(
  @%p1 bra ELSE;
  mov.u32 %r1, 1;
  bra.uni JOIN;
ELSE:
  mov.u32 %r1, 2;
JOIN:
  mov.u32 %r9, 9;
  ret;)");
  const Kernel& k = *m->kernels[0];
  CHECK(reconv_of(k, "@%p1 bra ELSE") == "mov.u32 %r9, 9");
  CHECK(reconv_of(k, "bra.uni JOIN") == "mov.u32 %r9, 9");
  auto blocks = build_basic_blocks(k);
  // entry(0..5: mov, 3 setp, bra) | then(mov, bra.uni) | ELSE | JOIN(mov, ret)
  REQUIRE(blocks.size() == 4);
  CHECK(blocks[0].last == static_cast<uint32_t>(pc_of(k, "@%p1 bra ELSE")));
  CHECK(blocks[0].succ == std::vector<uint32_t>{1, 2});
  CHECK(blocks[1].succ == std::vector<uint32_t>{3});
  CHECK(blocks[2].succ == std::vector<uint32_t>{3});
  CHECK(blocks[3].succ.empty());
  CHECK(blocks[3].exits);
  CHECK(immediate_post_dominators(blocks) == std::vector<uint32_t>{3, 3, 3, 4});
}

TEST_CASE("nested ifs reconverge innermost first", "[isa][cfg]") {
  auto m = kernel_body(R"(
  @%p1 bra OUTER_ELSE;
  @%p2 bra INNER_SKIP;
  mov.u32 %r1, 1;
INNER_SKIP:
  mov.u32 %r2, 2;
  @%p3 bra INNER2_ELSE;
  mov.u32 %r3, 3;
  bra.uni INNER2_JOIN;
INNER2_ELSE:
  mov.u32 %r4, 4;
INNER2_JOIN:
  mov.u32 %r5, 5;
  bra.uni JOIN;
OUTER_ELSE:
  mov.u32 %r6, 6;
JOIN:
  mov.u32 %r9, 9;
  ret;)");
  const Kernel& k = *m->kernels[0];
  CHECK(reconv_of(k, "@%p1 bra OUTER_ELSE") == "mov.u32 %r9, 9");
  CHECK(reconv_of(k, "@%p2 bra INNER_SKIP") == "mov.u32 %r2, 2");
  CHECK(reconv_of(k, "@%p3 bra INNER2_ELSE") == "mov.u32 %r5, 5");
  CHECK(k.num_branches == 5);
  // Branch ordinals follow the code order.
  CHECK(k.code[pc_of(k, "@%p1 bra OUTER_ELSE")].branch_id == 0);
  CHECK(k.code[pc_of(k, "@%p2 bra INNER_SKIP")].branch_id == 1);
  CHECK(k.code[pc_of(k, "@%p3 bra INNER2_ELSE")].branch_id == 2);
}

TEST_CASE("loops: the back edge and a break both reconverge after the loop", "[isa][cfg]") {
  auto m = kernel_body(R"(
  mov.u32 %r1, 0;
LOOP:
  add.u32 %r1, %r1, 1;
  setp.eq.u32 %p2, %r1, %r0;
  @%p2 bra BREAK;
  add.u32 %r2, %r2, %r1;
  setp.lt.u32 %p3, %r1, 10;
  @%p3 bra LOOP;
  mov.u32 %r3, 3;
  bra.uni AFTER;
BREAK:
  mov.u32 %r4, 4;
AFTER:
  mov.u32 %r9, 9;
  ret;)");
  const Kernel& k = *m->kernels[0];
  CHECK(reconv_of(k, "@%p2 bra BREAK") == "mov.u32 %r9, 9");
  CHECK(reconv_of(k, "@%p3 bra LOOP") == "mov.u32 %r9, 9");
}

TEST_CASE("a loop with a per-thread trip count reconverges at its exit", "[isa][cfg]") {
  // while (i < tid) i++;  as nvcc lays it out: a guard, then a bottom-tested loop.
  auto m = kernel_body(R"(
  mov.u32 %r1, 0;
  setp.eq.u32 %p1, %r0, 0;
  @%p1 bra DONE;
LOOP:
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p2, %r1, %r0;
  @%p2 bra LOOP;
DONE:
  mov.u32 %r9, 9;
  ret;)");
  const Kernel& k = *m->kernels[0];
  CHECK(reconv_of(k, "@%p1 bra DONE") == "mov.u32 %r9, 9");
  CHECK(reconv_of(k, "@%p2 bra LOOP") == "mov.u32 %r9, 9");
}

TEST_CASE("nested loops: the inner loop reconverges inside the outer one", "[isa][cfg]") {
  auto m = kernel_body(R"(
  mov.u32 %r1, 0;
OUTER:
  mov.u32 %r2, 0;
INNER:
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p2, %r2, %r0;
  @%p2 bra INNER;
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p3, %r1, %r0;
  @%p3 bra OUTER;
  mov.u32 %r9, 9;
  ret;)");
  const Kernel& k = *m->kernels[0];
  CHECK(reconv_of(k, "@%p2 bra INNER") == "add.u32 %r1, %r1, 1");
  CHECK(reconv_of(k, "@%p3 bra OUTER") == "mov.u32 %r9, 9");
}

TEST_CASE("early return: a branch whose arms end in different rets reconverges only at exit", "[isa][cfg]") {
  auto m = kernel_body(R"(
  @%p1 bra BODY;
  ret;
BODY:
  @%p2 bra SKIP;
  mov.u32 %r1, 1;
SKIP:
  mov.u32 %r2, 2;
  ret;)");
  const Kernel& k = *m->kernels[0];
  CHECK(reconv_of(k, "@%p1 bra BODY") == "exit");
  CHECK(reconv_of(k, "@%p2 bra SKIP") == "mov.u32 %r2, 2");
  // A guarded ret ends a block but also falls through.
  auto m2 = kernel_body(R"(
  @%p1 ret;
  @%p2 bra SKIP;
  mov.u32 %r1, 1;
SKIP:
  mov.u32 %r2, 2;
  ret;)");
  const Kernel& k2 = *m2->kernels[0];
  auto blocks = build_basic_blocks(k2);
  CHECK(blocks[0].exits);
  CHECK(blocks[0].succ == std::vector<uint32_t>{1});
  CHECK(reconv_of(k2, "@%p2 bra SKIP") == "mov.u32 %r2, 2");
}

TEST_CASE("a shared return block is the reconvergence point of the paths that reach it", "[isa][cfg]") {
  auto m = kernel_body(R"(
  @%p1 bra TAIL;
  @%p2 bra EXIT;
  mov.u32 %r1, 1;
TAIL:
  mov.u32 %r2, 2;
EXIT:
  ret;)");
  const Kernel& k = *m->kernels[0];
  // TAIL is skipped by the path through "@%p2 bra EXIT", so only EXIT post-dominates.
  CHECK(reconv_of(k, "@%p1 bra TAIL") == "ret");
  CHECK(reconv_of(k, "@%p2 bra EXIT") == "ret");
}

TEST_CASE("infinite loops: entering one reconverges at exit, divergence inside reconverges inside", "[isa][cfg]") {
  auto m = kernel_body(R"(
  @%p1 bra SPIN;
  mov.u32 %r1, 1;
  ret;
SPIN:
  bra.uni SPIN;)");
  const Kernel& k = *m->kernels[0];
  CHECK(reconv_of(k, "@%p1 bra SPIN") == "exit");
  CHECK(reconv_of(k, "bra.uni SPIN") == "exit");
  // for (;;) { if (tid < 16) r1++; r2++; }  - the if joins inside the loop.
  auto m2 = kernel_body(R"(
LOOP:
  @!%p1 bra JOIN;
  add.u32 %r1, %r1, 1;
JOIN:
  add.u32 %r2, %r2, 1;
  bra.uni LOOP;)");
  const Kernel& k2 = *m2->kernels[0];
  CHECK(reconv_of(k2, "@!%p1 bra JOIN") == "add.u32 %r2, %r2, 1");
  // Two nested infinite loops behind a branch, with an if inside the inner one.
  auto m3 = kernel_body(R"(
  @%p3 bra DONE;
OUTER:
  mov.u32 %r1, 0;
INNER:
  @%p1 bra SKIP;
  add.u32 %r2, %r2, 1;
SKIP:
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p2, %r1, %r0;
  @%p2 bra INNER;
  bra.uni OUTER;
DONE:
  ret;)");
  const Kernel& k3 = *m3->kernels[0];
  CHECK(reconv_of(k3, "@%p3 bra DONE") == "exit");
  CHECK(reconv_of(k3, "@%p1 bra SKIP") == "add.u32 %r1, %r1, 1");
  CHECK(reconv_of(k3, "@%p2 bra INNER") == "bra.uni OUTER");
}

TEST_CASE("immediate post-dominators of hand-built graphs", "[isa][cfg]") {
  // Diamond: 0 -> {1,2} -> 3 (exit).
  CHECK(immediate_post_dominators(graph({{1, 2}, {3}, {3}, {}}, {3})) == std::vector<uint32_t>{3, 3, 3, 4});
  // Two exits: 0 -> {1 (exit), 2 (exit)}: only the virtual exit (index 3) post-dominates 0.
  CHECK(immediate_post_dominators(graph({{1, 2}, {}, {}}, {1, 2})) == std::vector<uint32_t>{3, 3, 3});
  // Loop: 0 -> 1; 1 -> {1, 2}; 2 exit.
  CHECK(immediate_post_dominators(graph({{1}, {1, 2}, {}}, {2})) == std::vector<uint32_t>{1, 2, 3});
  // Unreachable block 3 -> 2 still gets a post-dominator.
  CHECK(immediate_post_dominators(graph({{1}, {2}, {}, {2}}, {2})) == std::vector<uint32_t>{1, 2, 4, 2});
  // Self loop with no way out behind a branch: 0 -> {1, 2}; 1 -> 1; 2 exit.
  CHECK(immediate_post_dominators(graph({{1, 2}, {1}, {}}, {2})) == std::vector<uint32_t>{3, 3, 3});
  // Infinite loop with a diamond inside: 0 -> 1; 1 -> {2, 3}; 2 -> 3; 3 -> 1. No exit at all.
  CHECK(immediate_post_dominators(graph({{1}, {2, 3}, {3}, {1}}, {})) == std::vector<uint32_t>{1, 3, 3, 4});
}

TEST_CASE("a switch whose unreachable default traps reconverges at its join", "[isa][cfg]") {
  // nvcc's switch over t % 4 with `__builtin_unreachable()`-style default: `trap; bra.uni
  // JOIN`. Trapping threads end the kernel, so the other paths decide the join; taken as an
  // exit, the trap would put the reconvergence point past a barrier after the join.
  auto m = kernel_body(
      "and.b32 %r1, %r0, 3;\n"
      "setp.eq.u32 %p0, %r1, 0;\n"
      "@%p0 bra CASE0;\n"
      "setp.eq.u32 %p0, %r1, 1;\n"
      "@%p0 bra CASE1;\n"
      "setp.gt.u32 %p0, %r1, 3;\n"
      "@%p0 bra DEFAULT;\n"
      "mov.u32 %r2, 22;\n"
      "bra.uni JOIN;\n"
      "DEFAULT:\n"
      "trap;\n"
      "bra.uni JOIN;\n"
      "CASE0:\n"
      "mov.u32 %r2, 20;\n"
      "bra.uni JOIN;\n"
      "CASE1:\n"
      "mov.u32 %r2, 21;\n"
      "JOIN:\n"
      "bar.sync 0;\n"
      "ret;");
  const Kernel& k = *m->kernels[0];
  CHECK(reconv_of(k, "@%p0 bra CASE0") == "bar.sync 0");
  CHECK(reconv_of(k, "@%p0 bra CASE1") == "bar.sync 0");
  CHECK(reconv_of(k, "@%p0 bra DEFAULT") == "bar.sync 0");
}
