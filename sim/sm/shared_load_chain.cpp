#include "sim/sm/shared_load_chain.hpp"

#include "sim/isa/cfg.hpp"

namespace warpsim::sm {

bool is_u32_shared_load(const isa::Instr& in) {
  return in.op == isa::Op::Ld && in.space == isa::Space::Shared && in.fn == nullptr && in.vec == 1 &&
         in.a.kind == isa::Operand::Kind::Addr && in.a.has_base && in.d[0].kind == isa::Operand::Kind::Reg &&
         isa::dtype_bytes(in.type) == 4 && !isa::is_signed(in.type);
}

std::vector<uint32_t> same_base_predecessors(const isa::Kernel& k) {
  const std::vector<isa::Instr>& code = k.code;
  std::vector<uint32_t> prev(code.size(), kNoChainLoad);
  // Writes are what register liveness counts as writes: every destination register and
  // vector element (specials are only read, so none is marked special here).
  const std::vector<bool> special(k.num_slots(), false);
  auto writes = [&](const isa::Instr& in, uint16_t r) {
    const isa::RegisterRefs refs = isa::register_refs(in, special);
    for (uint32_t i = 0; i < refs.nwrites; ++i)
      if (refs.writes[i] == r) return true;
    return false;
  };
  for (uint32_t pc = 0; pc < code.size(); ++pc) {
    if (!is_u32_shared_load(code[pc])) continue;
    const uint16_t base = code[pc].a.base;
    for (uint32_t q = pc; q-- > 0 && pc - q <= kMaxChainGap;) {
      const isa::Instr& in = code[q];
      if (writes(in, base)) break;
      if (is_u32_shared_load(in) && in.a.base == base) {
        prev[pc] = q;
        break;
      }
    }
  }
  return prev;
}

}  // namespace warpsim::sm
