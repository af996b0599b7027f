// Control-flow analysis of a decoded kernel, done once at load time:
// basic blocks, immediate post-dominators (the reconvergence point of every branch,
// divergent loops included), branch ordinals, and a liveness-based register estimate.
#pragma once
#include <cstdint>
#include <functional>
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

// The data registers (kernel data slots) an instruction reads (source registers, address
// bases, vector elements) and writes (destinations). Special registers (read-only, set at
// block start) and predicates are not included.
struct RegisterRefs {
  uint16_t reads[32];  // wmma.mma reads 24
  uint32_t nreads = 0;
  uint16_t writes[8];
  uint32_t nwrites = 0;
};
RegisterRefs register_refs(const Instr& in, const std::vector<bool>& special);

// Whether an instruction reads predicate p (as its guard or a source), or writes it.
bool reads_pred(const Instr& in, uint16_t p);
bool writes_pred(const Instr& in, uint16_t p);

// Which data registers are live where, per thread. A guarded definition does not end a
// value's life: the lanes it skips keep the old value.
class RegisterLiveness {
 public:
  explicit RegisterLiveness(const Kernel& k);
  // Calls f(pc, refs, live_after) for every instruction (each block from its last
  // instruction back); live_after is a bit set over data slots (bit r of word r / 64).
  void walk(const std::function<void(uint32_t, const RegisterRefs&, const std::vector<uint64_t>&)>& f) const;
  // Whether slot r may be read before any write (live at the kernel's entry).
  bool live_at_entry(uint32_t r) const;
  const std::vector<bool>& special() const { return special_; }

 private:
  std::vector<uint64_t> live_out(size_t block) const;
  void transfer(const Instr& in, const RegisterRefs& refs, std::vector<uint64_t>& live) const;
  const Kernel& k_;
  std::vector<bool> special_;
  std::vector<BasicBlock> blocks_;
  std::vector<std::vector<uint64_t>> live_in_;  // per block
};

// Max simultaneously live 32-bit register words over the kernel (64-bit values count
// as two), a stand-in for `ptxas -v` when a launch does not give its register count.
uint32_t estimate_registers(const Kernel& k);

}  // namespace warpsim::isa
