#include "sim/isa/load_scheduling.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "sim/isa/cfg.hpp"

namespace warpsim::isa {

namespace {

bool is_load(const Instr& in) {
  return ((in.op == Op::Ld && !in.call_param) || in.op == Op::Tex || in.op == Op::Tld4) && !in.is_volatile;
}

// Nothing crosses these: control, synchronisation, calls, time reads.
bool is_fence(const Instr& in) {
  switch (in.op) {
    case Op::Bar: case Op::BarWarp: case Op::BarRed: case Op::Membar: case Op::ClusterArrive: case Op::ClusterWait:
    case Op::Bra: case Op::Ret: case Op::Exit: case Op::Trap: case Op::Call: case Op::FuncRet:
    case Op::ReadClock: case Op::ReadGlobalTimer:
    case Op::MbarInit: case Op::MbarInval: case Op::MbarArrive: case Op::MbarTx: case Op::MbarWait:
    case Op::CpAsyncMbarArrive: case Op::CpAsyncBulk:
      return true;
    default:
      return false;
  }
}

// Loads whose latency the scheduler hides: those that may go to the L1/L2/DRAM (global,
// generic, local) and texture fetches. Shared-memory and parameter loads take tens of
// cycles and keep their place, as ptxas interleaves them with the arithmetic.
bool is_long_load(const Instr& in) {
  if (!is_load(in)) return false;
  return in.op != Op::Ld || (in.space != Space::Shared && in.space != Space::Param && in.space != Space::Const);
}

bool touches_memory(const Instr& in) { return is_memory_op(in.op) || in.call_param; }

// Which memory an access can touch: accesses to two different explicit state spaces never
// overlap (ptxas moves a global load above a shared store); a generic address may be any.
enum class Region { Any, Global, Shared, Local, ReadOnly };
Region region_of(const Instr& in) {
  if (in.op == Op::Tex || in.op == Op::Tld4 || in.op == Op::Suld || in.op == Op::Sust) return Region::Global;
  switch (in.space) {
    case Space::Global: return Region::Global;
    case Space::Shared: return Region::Shared;
    case Space::Local: return Region::Local;
    case Space::Const: case Space::Param: return Region::ReadOnly;
    default: return Region::Any;
  }
}
bool may_overlap(const Instr& i, const Instr& j) {
  const Region a = region_of(i), b = region_of(j);
  return a == Region::Any || b == Region::Any || a == b;
}
bool pinned_memory(const Instr& in) { return touches_memory(in) && (in.is_volatile || in.call_param); }
bool uses_carry(const Instr& in) {
  return in.cc || in.op == Op::AddCarry || in.op == Op::SubCarry || in.op == Op::MadCarry;
}

// Everything an instruction reads and writes, predicates numbered after the data slots.
struct Access {
  std::vector<uint32_t> reads, writes;
};

Access access_of(const Instr& in, const std::vector<bool>& special, uint32_t pred_base) {
  Access a;
  const RegisterRefs r = register_refs(in, special);
  a.reads.assign(r.reads, r.reads + r.nreads);
  a.writes.assign(r.writes, r.writes + r.nwrites);
  if (in.has_guard) a.reads.push_back(pred_base + in.guard);
  for (const Operand* o : {&in.a, &in.b, &in.c, &in.e})
    if (o->kind == Operand::Kind::Pred) a.reads.push_back(pred_base + o->reg);
  for (const Operand& d : in.d)
    if (d.kind == Operand::Kind::Pred) a.writes.push_back(pred_base + d.reg);
  return a;
}

bool meet(const std::vector<uint32_t>& x, const std::vector<uint32_t>& y) {
  for (uint32_t a : x)
    for (uint32_t b : y)
      if (a == b) return true;
  return false;
}

// Whether instruction j (after i in PTX order) must stay after i; `feeds` is set when the
// order comes from a register (j reads what i writes, writes what i reads, or both write).
bool ordered(const Instr& i, const Access& ai, const Instr& j, const Access& aj, bool& feeds) {
  // Any register dependence: true, anti or output (a predicated load after the move that
  // gives its register the value of the lanes it skips).
  feeds = meet(ai.writes, aj.reads) || meet(ai.reads, aj.writes) || meet(ai.writes, aj.writes);
  if (feeds) return true;
  if (is_fence(i) || is_fence(j)) return true;
  if (uses_carry(i) && uses_carry(j)) return true;
  if (touches_memory(i) && touches_memory(j) && !(is_load(i) && is_load(j)) && may_overlap(i, j)) return true;
  return pinned_memory(i) || pinned_memory(j);
}

// Schedules code[first, first + n) in place; returns how many instructions moved.
uint32_t schedule_window(Kernel& k, uint32_t first, uint32_t n, const std::vector<bool>& special) {
  const uint32_t pred_base = k.num_slots();
  std::vector<Access> acc(n);
  bool any_load = false;
  for (uint32_t i = 0; i < n; ++i) {
    acc[i] = access_of(k.code[first + i], special, pred_base);
    any_load |= is_long_load(k.code[first + i]);
  }
  if (!any_load) return 0;
  std::vector<std::vector<uint32_t>> succ(n), feeds_into(n);
  std::vector<uint32_t> waiting(n, 0);
  for (uint32_t j = 0; j < n; ++j)
    for (uint32_t i = 0; i < j; ++i) {
      bool feeds = false;
      if (!ordered(k.code[first + i], acc[i], k.code[first + j], acc[j], feeds)) continue;
      succ[i].push_back(j);
      ++waiting[j];
      if (feeds) feeds_into[i].push_back(j);
    }
  // Long-latency loads, and what must precede one through a register, go first.
  std::vector<bool> early(n, false);
  for (uint32_t i = n; i-- > 0;) {
    early[i] = is_long_load(k.code[first + i]);
    for (uint32_t j : feeds_into[i]) early[i] = early[i] || early[j];
  }
  std::vector<uint32_t> order;
  order.reserve(n);
  std::vector<bool> done(n, false);
  while (order.size() < n) {
    uint32_t pick = n;
    for (uint32_t i = 0; i < n; ++i) {
      if (done[i] || waiting[i]) continue;
      if (pick == n) pick = i;
      if (early[i]) {
        pick = i;
        break;
      }
    }
    done[pick] = true;
    order.push_back(pick);
    for (uint32_t j : succ[pick]) --waiting[j];
  }
  uint32_t moved = 0;
  for (uint32_t t = 0; t < n; ++t) moved += order[t] != t;
  if (!moved) return 0;
  std::vector<Instr> code(n);
  std::vector<std::string> text(n);
  const bool has_text = k.text.size() == k.code.size();
  for (uint32_t t = 0; t < n; ++t) {
    code[t] = k.code[first + order[t]];
    if (has_text) text[t] = k.text[first + order[t]];
  }
  for (uint32_t t = 0; t < n; ++t) {
    k.code[first + t] = std::move(code[t]);
    if (has_text) k.text[first + t] = std::move(text[t]);
  }
  return moved;
}

}  // namespace

uint32_t schedule_loads_first(Kernel& k) {
  const std::vector<bool> special(k.num_slots(), false);  // specials are never written: no effect
  uint32_t moved = 0;
  for (const BasicBlock& b : build_basic_blocks(k))
    for (uint32_t first = b.first; first <= b.last; first += kScheduleWindow)
      moved += schedule_window(k, first, std::min(kScheduleWindow, b.last + 1 - first), special);
  return moved;
}

}  // namespace warpsim::isa
