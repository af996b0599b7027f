#include "sim/isa/if_conversion.hpp"

#include <string>
#include <vector>

#include "sim/isa/cfg.hpp"
#include "sim/isa/code_removal.hpp"

namespace warpsim::isa {

namespace {

bool predicable(const Instr& in, uint16_t guard) {
  return !stores_or_orders(in.op) && !in.has_guard && !writes_pred(in, guard);
}

bool long_load(const Instr& in) {
  if (in.op == Op::Tex || in.op == Op::Tld4) return true;
  return in.op == Op::Ld && !in.call_param &&
         (in.space == Space::Global || in.space == Space::Local || in.space == Space::Generic);
}

}  // namespace

uint32_t if_convert_skips(Kernel& k) {
  const size_t n = k.code.size();
  std::vector<bool> target(n + 1, false);
  for (const Instr& in : k.code)
    if (in.op == Op::Bra && in.a.kind == Operand::Kind::Label && in.a.target >= 0) target[size_t(in.a.target)] = true;
  for (const Function& f : k.functions) target[size_t(f.entry)] = true;
  std::vector<bool> removed(n, false);
  const bool has_text = k.text.size() == n;
  uint32_t converted = 0;
  for (size_t pc = 0; pc < n; ++pc) {
    const Instr& br = k.code[pc];
    if (br.op != Op::Bra || !br.has_guard || br.uni || br.a.kind != Operand::Kind::Label) continue;
    const size_t to = size_t(br.a.target);
    if (to <= pc + 1 || to - pc - 1 > kIfConvertMax) continue;
    bool ok = true, loads = false;
    for (size_t i = pc + 1; i < to && ok; ++i) {
      ok = !target[i] && !removed[i] && predicable(k.code[i], br.guard);
      loads = loads || long_load(k.code[i]);
    }
    if (!ok || !loads) continue;
    const std::string guard = std::string(br.guard_neg ? "@" : "@!") + k.preds[br.guard].name + " ";
    for (size_t i = pc + 1; i < to; ++i) {
      Instr& in = k.code[i];
      in.has_guard = true;
      in.guard = br.guard;
      in.guard_neg = !br.guard_neg;
      if (has_text) k.text[i] = guard + k.text[i];
    }
    removed[pc] = true;
    ++converted;
    pc = to - 1;
  }
  if (converted) remove_instructions(k, removed);
  return converted;
}

}  // namespace warpsim::isa
