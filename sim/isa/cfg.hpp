// Control-flow analysis of a decoded kernel, done once at load time:
// basic blocks, immediate post-dominators (the reconvergence point of every branch,
// divergent loops included), branch ordinals, and a liveness-based register estimate.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/isa/ir.hpp"

namespace warpsim::isa {

struct BasicBlock {
  uint32_t first = 0, last = 0;  // instruction index range [first, last]
  std::vector<uint32_t> succ;    // successor block indices; exit edges are not listed
  bool exits = false;            // ends in ret/exit/trap
};

std::vector<BasicBlock> build_basic_blocks(const Kernel& k);

// Immediate post-dominator block of each block; blocks.size() denotes the virtual exit.
std::vector<uint32_t> immediate_post_dominators(const std::vector<BasicBlock>& blocks);

// Sets Instr::reconv and Instr::branch_id of every branch and Kernel::num_branches.
void analyse_control_flow(Kernel& k);

// Max simultaneously live 32-bit register words over the kernel (64-bit values count
// as two), a stand-in for `ptxas -v` when a launch does not give its register count.
uint32_t estimate_registers(const Kernel& k);

}  // namespace warpsim::isa
