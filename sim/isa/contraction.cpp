// Multiply-add contraction (see contraction.hpp for the rules and where they were measured).
#include "sim/isa/contraction.hpp"

#include "sim/isa/cfg.hpp"

namespace warpsim::isa {

namespace {

bool float_add(const Instr& in) {
  return (in.op == Op::Add || in.op == Op::Sub) && (in.type == DType::F32 || in.type == DType::F64) &&
         in.round == Round::None && !in.sat;
}

bool float_mul(const Instr& in) {
  return in.op == Op::Mul && (in.type == DType::F32 || in.type == DType::F64) && in.round == Round::None &&
         !in.sat && in.d[0].kind == Operand::Kind::Reg;
}

bool same_guard(const Instr& x, const Instr& y) {
  return x.has_guard == y.has_guard && (!x.has_guard || (x.guard == y.guard && x.guard_neg == y.guard_neg));
}

}  // namespace

uint32_t contract_multiply_adds(Kernel& k) {
  const std::vector<bool> special = special_slots(k);
  // How often each register is read and written anywhere in the kernel.
  std::vector<uint32_t> reads(k.num_slots(), 0), writes(k.num_slots(), 0);
  for (const Instr& in : k.code) {
    const RegisterRefs refs = register_refs(in, special);
    for (uint32_t i = 0; i < refs.nreads; ++i) ++reads[refs.reads[i]];
    for (uint32_t i = 0; i < refs.nwrites; ++i) ++writes[refs.writes[i]];
  }
  // The latest writer of each register within the current block (-1: none yet).
  std::vector<int32_t> writer(k.num_slots(), -1);
  uint32_t fused = 0;
  for (const BasicBlock& bb : build_basic_blocks(k)) {
    std::vector<uint16_t> touched;
    for (uint32_t pc = bb.first; pc <= bb.last; ++pc) {
      Instr& in = k.code[pc];
      if (float_add(in)) {
        // The first operand that is a fusable product wins.
        for (int which = 0; which < 2; ++which) {
          const Operand& o = which == 0 ? in.a : in.b;
          if (o.kind != Operand::Kind::Reg || special[o.reg] || reads[o.reg] != 1 || writes[o.reg] != 1) continue;
          const int32_t mpc = writer[o.reg];
          if (mpc < 0) continue;
          const Instr& mul = k.code[mpc];
          if (!float_mul(mul) || mul.type != in.type || mul.ftz != in.ftz || !same_guard(mul, in)) continue;
          // The mul's sources must still hold what it read, and its guard what it tested.
          bool intact = true;
          for (const Operand* s : {&mul.a, &mul.b})
            if (s->kind == Operand::Kind::Reg && writer[s->reg] > mpc) intact = false;
          for (uint32_t q = uint32_t(mpc) + 1; intact && mul.has_guard && q < pc; ++q)
            if (writes_pred(k.code[q], mul.guard)) intact = false;
          if (!intact) continue;
          const Operand other = which == 0 ? in.b : in.a;
          const bool sub = in.op == Op::Sub;
          in.a = mul.a;
          in.b = mul.b;
          in.c = other;
          in.fused = kFusedMulAdd;
          if (sub) in.fused |= which == 0 ? kFusedNegAddend : kFusedNegProduct;
          ++fused;
          break;
        }
      }
      const RegisterRefs refs = register_refs(in, special);
      for (uint32_t i = 0; i < refs.nwrites; ++i) {
        writer[refs.writes[i]] = int32_t(pc);
        touched.push_back(refs.writes[i]);
      }
    }
    for (uint16_t r : touched) writer[r] = -1;
  }
  return fused;
}

}  // namespace warpsim::isa
