#include "sim/isa/call_stack.hpp"

#include <algorithm>
#include <vector>

namespace warpsim::isa {

namespace {

// The function whose body holds instruction pc, or -1 for the kernel's own code.
int32_t owner_of(const Kernel& k, uint32_t pc) {
  for (size_t f = 0; f < k.functions.size(); ++f)
    if (pc >= uint32_t(k.functions[f].entry) && pc <= uint32_t(k.functions[f].ret_pc)) return int32_t(f);
  return -1;
}

}  // namespace

std::optional<uint64_t> static_stack_bytes(const Kernel& k) {
  if (k.calls.empty() || k.functions.empty()) return uint64_t(0);
  // Callees of the kernel (index 0) and of each function (index f + 1).
  std::vector<std::vector<int32_t>> callees(k.functions.size() + 1);
  for (uint32_t pc = 0; pc < k.code.size(); ++pc) {
    const Instr& in = k.code[pc];
    if (in.op != Op::Call) continue;
    const CallSite& cs = k.calls[size_t(in.a.target)];
    if (cs.builtin != Builtin::None) continue;
    if (cs.indirect || cs.callee < 0) return std::nullopt;
    callees[size_t(owner_of(k, pc) + 1)].push_back(cs.callee);
  }
  // Depth-first, memoised; a function met again on the current path is recursion.
  enum class State : uint8_t { New, Open, Done };
  std::vector<State> state(k.functions.size(), State::New);
  std::vector<uint64_t> need(k.functions.size(), 0);
  bool recursive = false;
  auto visit = [&](auto&& self, int32_t f) -> uint64_t {
    if (state[size_t(f)] == State::Done) return need[size_t(f)];
    if (state[size_t(f)] == State::Open) {
      recursive = true;
      return 0;
    }
    state[size_t(f)] = State::Open;
    uint64_t deepest = 0;
    for (int32_t c : callees[size_t(f) + 1]) deepest = std::max(deepest, self(self, c));
    state[size_t(f)] = State::Done;
    need[size_t(f)] = k.functions[size_t(f)].frame_bytes + deepest;
    return need[size_t(f)];
  };
  uint64_t deepest = 0;
  for (int32_t c : callees[0]) deepest = std::max(deepest, visit(visit, c));
  if (recursive) return std::nullopt;
  return deepest;
}

}  // namespace warpsim::isa
