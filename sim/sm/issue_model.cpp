#include "sim/sm/issue_model.hpp"

namespace warpsim::sm {

using isa::InstrClass;

Unit IssueModel::unit(const isa::Instr& in) const {
  switch (in.klass) {
    case InstrClass::Sfu: return Unit::Sfu;
    case InstrClass::Fp64: return Unit::Dp;
    case InstrClass::LdGlobal: case InstrClass::StGlobal: case InstrClass::LdShared: case InstrClass::StShared:
    case InstrClass::LdLocal: case InstrClass::StLocal: case InstrClass::AtomGlobal: case InstrClass::AtomShared:
      return Unit::Lsu;
    case InstrClass::Barrier: case InstrClass::Exit: return Unit::None;
    case InstrClass::Tensor: return Unit::Tensor;
    default: return Unit::Alu;
  }
}

IssueCost IssueModel::cost(const isa::Instr& in) const {
  switch (in.klass) {
    case InstrClass::IntMul: return {Unit::Alu, s_.imul_cycles, s_.imul_latency};
    case InstrClass::IntDiv: {
      uint32_t busy = s_.alu_cycles * s_.idiv_instructions;
      return {Unit::Alu, busy, s_.alu_latency + busy, s_.sequences_hold_dispatch ? s_.idiv_instructions : 1};
    }
    case InstrClass::FpDiv: {
      uint32_t busy = s_.alu_cycles * s_.fdiv_instructions;
      return {Unit::Alu, busy, s_.sfu_latency + busy, s_.sequences_hold_dispatch ? s_.fdiv_instructions : 1};
    }
    case InstrClass::Sfu: return {Unit::Sfu, s_.sfu_cycles, s_.sfu_latency};
    case InstrClass::Fp64: return {Unit::Dp, s_.dp_cycles, s_.dp_latency};
    case InstrClass::Tensor: {
      const TensorRate& t = in.mma.atype == isa::DType::BF16   ? s_.tensor_bf16
                            : in.mma.atype == isa::DType::TF32 ? s_.tensor_tf32
                            : in.mma.atype == isa::DType::F64  ? s_.tensor_f64
                            : in.mma.atype == isa::DType::S8 || in.mma.atype == isa::DType::U8 ? s_.tensor_i8
                                                                                               : s_.tensor_f16;
      return {Unit::Tensor, t.cycles, t.latency};
    }
    case InstrClass::LdParam:
    case InstrClass::LdConst:  // constant-cache hit, like a parameter (which lives in a constant bank)
      return {Unit::Alu, s_.alu_cycles, s_.param_latency};
    case InstrClass::Branch: return {Unit::Alu, s_.branch_cycles, s_.alu_latency};
    case InstrClass::Barrier: return {Unit::None, 1, s_.barrier_latency};
    case InstrClass::Exit: return {Unit::None, 1, 1};
    default: return {Unit::Alu, s_.alu_cycles, s_.alu_latency};
  }
}

}  // namespace warpsim::sm
