#include "sim/sm/shared_load_chain.hpp"

#include <algorithm>

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
  if (std::none_of(code.begin(), code.end(), is_u32_shared_load)) return prev;
  // One pass in order: per register, the last such load from it since it was last written.
  // Writes are what register liveness counts as writes: every destination register and
  // vector element (specials are only read, so none is marked special here).
  const std::vector<bool> special(k.num_slots(), false);
  std::vector<uint32_t> last(k.num_slots(), kNoChainLoad);
  for (uint32_t pc = 0; pc < code.size(); ++pc) {
    const isa::Instr& in = code[pc];
    const bool load = is_u32_shared_load(in);
    if (load && last[in.a.base] != kNoChainLoad && pc - last[in.a.base] <= kMaxChainGap) prev[pc] = last[in.a.base];
    const isa::RegisterRefs refs = isa::register_refs(in, special);
    for (uint32_t i = 0; i < refs.nwrites; ++i) last[refs.writes[i]] = kNoChainLoad;
    if (load && in.d[0].reg != in.a.base) last[in.a.base] = pc;
  }
  return prev;
}

}  // namespace warpsim::sm
