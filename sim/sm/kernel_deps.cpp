#include "sim/sm/kernel_deps.hpp"

namespace warpsim::sm {

KernelDeps::KernelDeps(const isa::Kernel& k) {
  using K = isa::Operand::Kind;
  const uint32_t nslots = k.num_slots();
  size_ = nslots + static_cast<uint32_t>(k.preds.size());
  const std::vector<bool> special = isa::special_slots(k);
  off_.resize(k.code.size());
  for (size_t pc = 0; pc < k.code.size(); ++pc) {
    const isa::Instr& in = k.code[pc];
    Range& r = off_[pc];
    r.rb = static_cast<uint32_t>(pool_.size());
    auto read = [&](const isa::Operand& o) {
      switch (o.kind) {
        case K::Reg:
          if (!special[o.reg]) pool_.push_back(o.reg);
          break;
        case K::Pred: pool_.push_back(static_cast<uint16_t>(nslots + o.reg)); break;
        case K::Addr:
          if (o.has_base && !special[o.base]) pool_.push_back(o.base);
          break;
        case K::Vec:
          for (int i = 0; i < o.nvec; ++i)
            if (!o.vec_const[i] && o.vec[i] != isa::kSinkSlot && !special[o.vec[i]]) pool_.push_back(o.vec[i]);
          break;
        default: break;
      }
    };
    read(in.a);
    read(in.b);
    read(in.c);
    read(in.e);
    if (in.has_guard) pool_.push_back(static_cast<uint16_t>(nslots + in.guard));
    r.re = static_cast<uint32_t>(pool_.size());
    auto write = [&](const isa::Operand& o) {
      switch (o.kind) {
        case K::Reg: pool_.push_back(o.reg); break;
        case K::Pred: pool_.push_back(static_cast<uint16_t>(nslots + o.reg)); break;
        case K::Vec:
          for (int i = 0; i < o.nvec; ++i)
            if (o.vec[i] != isa::kSinkSlot) pool_.push_back(o.vec[i]);
          break;
        default: break;
      }
    };
    // A store's first operand slot holds no destination (its address is in a, value in b).
    if (in.op != isa::Op::St) {
      write(in.d[0]);
      write(in.d[1]);
    }
    r.we = static_cast<uint32_t>(pool_.size());
  }
}

}  // namespace warpsim::sm
