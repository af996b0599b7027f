#include "sim/isa/register_storage.hpp"

#include <algorithm>
#include <bit>

#include "sim/isa/cfg.hpp"

namespace warpsim::isa {

namespace {

using Bits = std::vector<uint64_t>;

void set(Bits& b, uint32_t i) { b[i >> 6] |= uint64_t(1) << (i & 63); }

}  // namespace

StoragePlan plan_register_storage(const Kernel& k) {
  const uint32_t n = k.num_slots();
  StoragePlan plan;
  plan.slot_of.assign(n, 0);
  if (n == 0) return plan;
  const size_t words = (n + 63) / 64;
  const RegisterLiveness liveness(k);

  // Registers with a slot of their own.
  std::vector<bool> own = liveness.special();
  for (uint32_t r = 0; r < n; ++r)
    if (liveness.live_at_entry(r)) own[r] = true;  // read before written on some path
  for (const Instr& in : k.code)
    if (in.op == Op::Shfl && in.a.kind == Operand::Kind::Reg) own[in.a.reg] = true;

  // Interference: a definition conflicts with everything live after it and with the
  // other registers its instruction names.
  std::vector<Bits> conflicts(n, Bits(words, 0));
  std::vector<bool> referenced(n, false);
  auto conflict = [&](uint32_t a, uint32_t b) {
    if (a == b) return;
    set(conflicts[a], b);
    set(conflicts[b], a);
  };
  liveness.walk([&](uint32_t, const RegisterRefs& refs, const Bits& live) {
    for (uint32_t i = 0; i < refs.nreads; ++i) referenced[refs.reads[i]] = true;
    for (uint32_t j = 0; j < refs.nwrites; ++j) {
      const uint32_t d = refs.writes[j];
      referenced[d] = true;
      for (size_t w = 0; w < words; ++w)
        for (uint64_t m = live[w]; m; m &= m - 1) conflict(d, uint32_t(w * 64 + std::countr_zero(m)));
      for (uint32_t i = 0; i < refs.nreads; ++i) conflict(d, refs.reads[i]);
      for (uint32_t i = 0; i < j; ++i) conflict(d, refs.writes[i]);
    }
  });

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
    const RegisterRefs refs = register_refs(in, liveness.special());
    for (uint32_t i = 0; i < refs.nwrites; ++i) visit(refs.writes[i]);
    for (uint32_t i = 0; i < refs.nreads; ++i) visit(refs.reads[i]);
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
