// The per-generation issue model: which execution unit an instruction uses, how long it
// occupies it, and when its result may be consumed. All numbers come from the device
// config's "issue" section; memory instructions get their unit time from the access
// (bank-conflict passes, transactions) at issue.
#pragma once
#include <algorithm>
#include <cstdint>

#include "sim/spec/device_spec.hpp"
#include "sim/isa/ir.hpp"

namespace warpsim::sm {

enum class Unit : uint8_t { Alu, Sfu, Dp, Lsu, Tensor, None };  // Alu and Tensor: one per scheduler

struct IssueCost {
  Unit unit = Unit::Alu;
  uint32_t busy = 1;      // cycles the unit is occupied by this warp instruction
  uint32_t latency = 1;   // cycles from issue until a dependent instruction may issue
  uint32_t dispatch = 1;  // cycles the scheduler issues nothing else (a software sequence's length)
};

class IssueModel {
 public:
  explicit IssueModel(const IssueSpec& spec) : s_(spec) {}

  Unit unit(const isa::Instr& in) const;

  // Cost of a non-memory instruction (and of ld.param).
  IssueCost cost(const isa::Instr& in) const;

  // A shared-memory access that takes `passes` wavefronts: the banks serve one pass per
  // shared_pass_cycles, and the instruction never takes less than its issue time.
  IssueCost shared_cost(uint32_t passes) const {
    uint32_t p = passes ? passes : 1;
    uint32_t busy = std::max(s_.mem_cycles, p * s_.shared_pass_cycles);
    return {Unit::Lsu, busy, s_.shared_latency + busy - s_.mem_cycles};
  }
  // A global/local access of `transactions` transactions: the LSU hands over one
  // transaction per transaction_cycles, and never takes less than its issue time.
  IssueCost global_cost(uint32_t transactions) const {
    const uint32_t per = s_.lsu_transactions_per_cycle;
    return {Unit::Lsu, std::max(s_.mem_cycles, (transactions + per - 1) / per * s_.transaction_cycles),
            s_.global_latency};
  }

  const IssueSpec& spec() const { return s_; }

 private:
  IssueSpec s_;
};

}  // namespace warpsim::sm
