#include "sim/isa/register_storage.hpp"

#include <algorithm>
#include <bit>

#include "sim/isa/cfg.hpp"

namespace warpsim::isa {

namespace {

using Bits = std::vector<uint64_t>;

bool test(const Bits& b, uint32_t i) { return (b[i >> 6] >> (i & 63)) & 1; }
void set(Bits& b, uint32_t i) { b[i >> 6] |= uint64_t(1) << (i & 63); }
void clear(Bits& b, uint32_t i) { b[i >> 6] &= ~(uint64_t(1) << (i & 63)); }

// Data registers an operand reads (as a source) or writes (as a destination).
template <class F>
void registers_of(const Operand& o, bool as_destination, F&& f) {
  switch (o.kind) {
    case Operand::Kind::Reg: f(uint32_t(o.reg)); break;
    case Operand::Kind::Addr:
      if (o.has_base && !as_destination) f(uint32_t(o.base));
      break;
    case Operand::Kind::Vec:
      for (int i = 0; i < o.nvec; ++i)
        if (!o.vec_const[i] && o.vec[i] != kSinkSlot) f(uint32_t(o.vec[i]));
      break;
    default: break;
  }
}

template <class F>
void uses_of(const Instr& in, F&& f) {
  for (const Operand* o : {&in.a, &in.b, &in.c, &in.e}) registers_of(*o, false, f);
}

template <class F>
void defs_of(const Instr& in, F&& f) {
  if (in.op == Op::St) return;  // its d[0] holds nothing
  registers_of(in.d[0], true, f);
  registers_of(in.d[1], true, f);
}

}  // namespace

StoragePlan plan_register_storage(const Kernel& k) {
  const uint32_t n = k.num_slots();
  StoragePlan plan;
  plan.slot_of.assign(n, 0);
  if (n == 0) return plan;
  const size_t words = (n + 63) / 64;

  // Liveness per basic block (a guarded definition does not kill: lanes it skips keep
  // the old value), as in estimate_registers.
  const std::vector<BasicBlock> blocks = build_basic_blocks(k);
  auto transfer = [&](const Instr& in, Bits& live) {
    if (!in.has_guard) defs_of(in, [&](uint32_t r) { clear(live, r); });
    uses_of(in, [&](uint32_t r) { set(live, r); });
  };
  std::vector<Bits> live_in(blocks.size(), Bits(words, 0));
  auto live_out_of = [&](size_t bi) {
    Bits live(words, 0);
    for (uint32_t s : blocks[bi].succ)
      for (size_t w = 0; w < words; ++w) live[w] |= live_in[s][w];
    return live;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t bi = blocks.size(); bi-- > 0;) {
      Bits live = live_out_of(bi);
      for (uint32_t pc = blocks[bi].last + 1; pc-- > blocks[bi].first;) transfer(k.code[pc], live);
      if (live != live_in[bi]) {
        live_in[bi] = std::move(live);
        changed = true;
      }
    }
  }

  // Registers with a slot of their own.
  std::vector<bool> own(n, false);
  for (const auto& sp : k.specials) own[sp.slot] = true;
  if (!blocks.empty())
    for (uint32_t r = 0; r < n; ++r)
      if (test(live_in[0], r)) own[r] = true;  // read before written on some path
  std::vector<bool> referenced(n, false);
  for (const Instr& in : k.code) {
    if (in.op == Op::Shfl) registers_of(in.a, false, [&](uint32_t r) { own[r] = true; });
    uses_of(in, [&](uint32_t r) { referenced[r] = true; });
    defs_of(in, [&](uint32_t r) { referenced[r] = true; });
  }

  // Interference: a definition conflicts with everything live after it and with the
  // other registers its instruction names.
  std::vector<Bits> conflicts(n, Bits(words, 0));
  auto conflict = [&](uint32_t a, uint32_t b) {
    if (a == b) return;
    set(conflicts[a], b);
    set(conflicts[b], a);
  };
  for (size_t bi = 0; bi < blocks.size(); ++bi) {
    Bits live = live_out_of(bi);
    for (uint32_t pc = blocks[bi].last + 1; pc-- > blocks[bi].first;) {
      const Instr& in = k.code[pc];
      uint32_t named[40];
      uint32_t nnamed = 0;
      uses_of(in, [&](uint32_t r) { named[nnamed++] = r; });
      defs_of(in, [&](uint32_t d) {
        for (size_t w = 0; w < words; ++w)
          for (uint64_t m = live[w]; m; m &= m - 1) conflict(d, uint32_t(w * 64 + std::countr_zero(m)));
        for (uint32_t i = 0; i < nnamed; ++i) conflict(d, named[i]);
        named[nnamed++] = d;
      });
      transfer(in, live);
    }
  }

  // Own slots first, then greedy colouring in order of first appearance.
  uint32_t next = 0;
  std::vector<int32_t> colour(n, -1);
  for (uint32_t r = 0; r < n; ++r)
    if (own[r]) colour[r] = int32_t(next++);
  const uint32_t shared_base = next;
  std::vector<uint32_t> order;
  std::vector<bool> seen(n, false);
  auto visit = [&](uint32_t r) {
    if (!seen[r]) {
      seen[r] = true;
      order.push_back(r);
    }
  };
  for (const Instr& in : k.code) {
    defs_of(in, visit);
    uses_of(in, visit);
  }
  std::vector<uint32_t> taken_by;  // colour -> last register that found it taken
  for (uint32_t r : order) {
    if (colour[r] >= 0) continue;
    taken_by.resize(next, UINT32_MAX);
    for (size_t w = 0; w < words; ++w)
      for (uint64_t m = conflicts[r][w]; m; m &= m - 1) {
        const int32_t c = colour[w * 64 + std::countr_zero(m)];
        if (c >= 0) taken_by[size_t(c)] = r;
      }
    uint32_t c = shared_base;
    while (c < next && taken_by[c] == r) ++c;
    if (c == next) ++next;
    colour[r] = int32_t(c);
  }
  for (uint32_t r = 0; r < n; ++r) {
    if (colour[r] < 0) colour[r] = referenced[r] ? int32_t(next++) : 0;  // unreferenced: never touched
    plan.slot_of[r] = static_cast<uint16_t>(colour[r]);
  }
  plan.slots = std::max<uint32_t>(next, 1);
  return plan;
}

Kernel with_register_storage(const Kernel& k, const StoragePlan& plan) {
  Kernel out = k;
  auto remap = [&](Operand& o) {
    switch (o.kind) {
      case Operand::Kind::Reg: o.reg = plan.slot_of[o.reg]; break;
      case Operand::Kind::Addr:
        if (o.has_base) o.base = plan.slot_of[o.base];
        break;
      case Operand::Kind::Vec:
        for (int i = 0; i < o.nvec; ++i)
          if (!o.vec_const[i] && o.vec[i] != kSinkSlot) o.vec[i] = plan.slot_of[o.vec[i]];
        break;
      default: break;
    }
  };
  for (Instr& in : out.code)
    for (Operand* o : {&in.d[0], &in.d[1], &in.a, &in.b, &in.c, &in.e}) remap(*o);
  for (auto& sp : out.specials) sp.slot = plan.slot_of[sp.slot];
  // The register table describes storage slots now: each is named after the first
  // register placed in it.
  std::vector<RegInfo> regs(plan.slots);
  std::vector<bool> named(plan.slots, false);
  for (size_t r = 0; r < k.regs.size(); ++r) {
    const uint16_t s = plan.slot_of[r];
    if (!named[s]) {
      regs[s] = k.regs[r];
      named[s] = true;
    }
  }
  out.regs = std::move(regs);
  return out;
}

}  // namespace warpsim::isa
