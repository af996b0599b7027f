#include "sim/isa/code_removal.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "sim/isa/cfg.hpp"

namespace warpsim::isa {

void remove_instructions(Kernel& k, const std::vector<bool>& removed) {
  if (removed.size() != k.code.size()) throw std::logic_error("remove_instructions: mask size");
  std::vector<int32_t> new_index(k.code.size() + 1, 0);
  int32_t next = 0;
  for (size_t pc = 0; pc < k.code.size(); ++pc) {
    new_index[pc] = next;
    next += removed[pc] ? 0 : 1;
  }
  new_index[k.code.size()] = next;
  auto renumber = [&](int32_t pc) {
    if (pc < 0) return pc;
    if (size_t(pc) < removed.size() && removed[size_t(pc)])
      throw std::logic_error("remove_instructions: a removed instruction is named by index");
    return new_index[size_t(pc)];
  };
  const bool has_text = k.text.size() == k.code.size();
  std::vector<Instr> code;
  std::vector<std::string> text;
  code.reserve(size_t(next));
  for (size_t pc = 0; pc < k.code.size(); ++pc) {
    if (removed[pc]) continue;
    Instr in = k.code[pc];
    if (in.op == Op::Bra && in.a.kind == Operand::Kind::Label) in.a.target = renumber(in.a.target);
    in.reconv = renumber(in.reconv);
    code.push_back(in);
    if (has_text) text.push_back(std::move(k.text[pc]));
  }
  for (Function& f : k.functions) {
    f.entry = renumber(f.entry);
    f.ret_pc = renumber(f.ret_pc);
  }
  k.code = std::move(code);
  if (has_text) k.text = std::move(text);
  analyse_control_flow(k);
}

}  // namespace warpsim::isa
