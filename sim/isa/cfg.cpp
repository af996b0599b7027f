#include "sim/isa/cfg.hpp"

#include <algorithm>
#include <functional>

namespace warpsim::isa {

namespace {

bool ends_block(const Instr& in) {
  return in.op == Op::Bra || in.op == Op::Ret || in.op == Op::Exit || in.op == Op::Trap || in.op == Op::FuncRet;
}
// A device function's return ends its body's paths as an exit ends the kernel's.
bool is_exit(const Instr& in) {
  return in.op == Op::Ret || in.op == Op::Exit || in.op == Op::Trap || in.op == Op::FuncRet;
}

// Strongly connected components (iterative Kosaraju) of the blocks with !reaches[b];
// returns the highest-numbered block of each component without edges to another one.
std::vector<uint32_t> infinite_region_exits(const std::vector<BasicBlock>& blocks,
                                            const std::vector<std::vector<uint32_t>>& preds,
                                            const std::vector<bool>& reaches) {
  const uint32_t n = static_cast<uint32_t>(blocks.size());
  std::vector<uint32_t> finish;  // post-order of the forward graph
  std::vector<bool> seen(n, false);
  for (uint32_t root = 0; root < n; ++root) {
    if (reaches[root] || seen[root]) continue;
    std::vector<std::pair<uint32_t, size_t>> stack{{root, 0}};
    seen[root] = true;
    while (!stack.empty()) {
      auto& [b, i] = stack.back();
      if (i < blocks[b].succ.size()) {
        uint32_t s = blocks[b].succ[i++];
        if (!reaches[s] && !seen[s]) {
          seen[s] = true;
          stack.push_back({s, 0});
        }
      } else {
        finish.push_back(b);
        stack.pop_back();
      }
    }
  }
  constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> comp(n, kNone);
  uint32_t ncomp = 0;
  for (auto it = finish.rbegin(); it != finish.rend(); ++it) {
    if (comp[*it] != kNone) continue;
    std::vector<uint32_t> work{*it};
    comp[*it] = ncomp;
    while (!work.empty()) {
      uint32_t b = work.back();
      work.pop_back();
      for (uint32_t p : preds[b])
        if (!reaches[p] && comp[p] == kNone) {
          comp[p] = ncomp;
          work.push_back(p);
        }
    }
    ++ncomp;
  }
  std::vector<bool> sink(ncomp, true);
  std::vector<uint32_t> rep(ncomp, 0);
  for (uint32_t b = 0; b < n; ++b) {
    if (comp[b] == kNone) continue;
    rep[comp[b]] = std::max(rep[comp[b]], b);
    for (uint32_t s : blocks[b].succ)
      if (comp[s] != comp[b]) sink[comp[b]] = false;
  }
  std::vector<uint32_t> out;
  for (uint32_t c = 0; c < ncomp; ++c)
    if (sink[c]) out.push_back(rep[c]);
  return out;
}

}  // namespace

std::vector<BasicBlock> build_basic_blocks(const Kernel& k) {
  const auto& code = k.code;
  const uint32_t n = static_cast<uint32_t>(code.size());
  std::vector<bool> leader(n + 1, false);
  leader[0] = true;
  for (uint32_t pc = 0; pc < n; ++pc) {
    const Instr& in = code[pc];
    if (in.op == Op::Bra && in.a.target >= 0) leader[in.a.target] = true;
    if (ends_block(in)) leader[pc + 1] = true;
  }
  std::vector<BasicBlock> blocks;
  std::vector<uint32_t> block_of(n, 0);
  for (uint32_t pc = 0; pc < n; ++pc) {
    if (leader[pc]) {
      blocks.push_back({});
      blocks.back().first = pc;
    }
    blocks.back().last = pc;
    block_of[pc] = static_cast<uint32_t>(blocks.size() - 1);
  }
  for (uint32_t b = 0; b < blocks.size(); ++b) {
    BasicBlock& bb = blocks[b];
    const Instr& in = code[bb.last];
    bool falls_through = true;
    if (in.op == Op::Bra) {
      bb.succ.push_back(block_of[in.a.target]);
      if (!in.has_guard) falls_through = false;
    } else if (is_exit(in)) {
      bb.exits = true;
      if (!in.has_guard) falls_through = false;
    }
    if (falls_through) {
      if (bb.last + 1 < n) bb.succ.push_back(block_of[bb.last + 1]);
      else bb.exits = true;  // running off the end behaves as an exit
    }
    std::sort(bb.succ.begin(), bb.succ.end());
    bb.succ.erase(std::unique(bb.succ.begin(), bb.succ.end()), bb.succ.end());
  }
  return blocks;
}

std::vector<uint32_t> immediate_post_dominators(const std::vector<BasicBlock>& blocks) {
  const uint32_t n = static_cast<uint32_t>(blocks.size());
  const uint32_t exit = n;
  // Reverse-graph successors: exit -> exiting blocks; b -> forward predecessors of b.
  std::vector<std::vector<uint32_t>> preds(n + 1);  // forward predecessors
  std::vector<std::vector<uint32_t>> rsucc_of(n + 1);
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t s : blocks[b].succ) preds[s].push_back(b);
  // Blocks that cannot reach an exit (infinite loops) get a virtual exit edge so that
  // post-dominance is defined; threads there reconverge only at kernel exit.
  std::vector<bool> reaches(n + 1, false);
  std::vector<uint32_t> work;
  for (uint32_t b = 0; b < n; ++b)
    if (blocks[b].exits) {
      reaches[b] = true;
      work.push_back(b);
    }
  while (!work.empty()) {
    uint32_t b = work.back();
    work.pop_back();
    for (uint32_t p : preds[b])
      if (!reaches[p]) {
        reaches[p] = true;
        work.push_back(p);
      }
  }
  // Only one block of each region that cannot reach an exit gets the virtual edge: the last
  // block (in code order, normally the loop latch) of each strongly connected component of
  // those blocks that has no edge to another such component. Giving every such block the
  // edge would make the exit the post-dominator of every branch inside an infinite loop, so
  // an if inside `for (;;)` would never reconverge and a barrier after it would deadlock.
  std::vector<bool> to_exit(n, false);
  for (uint32_t b = 0; b < n; ++b) to_exit[b] = blocks[b].exits;
  for (uint32_t rep : infinite_region_exits(blocks, preds, reaches)) to_exit[rep] = true;
  for (uint32_t b = 0; b < n; ++b)
    if (to_exit[b]) rsucc_of[exit].push_back(b);
  for (uint32_t b = 0; b < n; ++b) rsucc_of[b] = preds[b];

  // Post-order of the reverse graph from exit (iterative DFS).
  std::vector<int> po_num(n + 1, -1);
  std::vector<uint32_t> order;
  {
    std::vector<std::pair<uint32_t, size_t>> stack{{exit, 0}};
    std::vector<bool> seen(n + 1, false);
    seen[exit] = true;
    while (!stack.empty()) {
      auto& [node, idx] = stack.back();
      if (idx < rsucc_of[node].size()) {
        uint32_t s = rsucc_of[node][idx++];
        if (!seen[s]) {
          seen[s] = true;
          stack.push_back({s, 0});
        }
      } else {
        po_num[node] = static_cast<int>(order.size());
        order.push_back(node);
        stack.pop_back();
      }
    }
  }
  // Cooper-Harvey-Kennedy on the reverse graph: the "predecessors" of b there are the
  // forward successors of b, plus exit when b exits.
  const uint32_t undef = UINT32_MAX;
  std::vector<uint32_t> idom(n + 1, undef);
  idom[exit] = exit;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (po_num[a] < po_num[b]) a = idom[a];
      while (po_num[b] < po_num[a]) b = idom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      uint32_t b = *it;
      if (b == exit) continue;
      uint32_t new_idom = undef;
      auto consider = [&](uint32_t p) {
        if (idom[p] == undef) return;
        new_idom = new_idom == undef ? p : intersect(p, new_idom);
      };
      for (uint32_t s : blocks[b].succ) consider(s);
      if (to_exit[b]) consider(exit);
      if (new_idom != undef && idom[b] != new_idom) {
        idom[b] = new_idom;
        changed = true;
      }
    }
  }
  // Unreachable-from-exit nodes cannot occur (every block reaches exit now), but
  // blocks unreachable from the entry still get a post-dominator; default to exit.
  for (uint32_t b = 0; b < n; ++b)
    if (idom[b] == undef) idom[b] = exit;
  idom.resize(n);
  return idom;
}

void analyse_control_flow(Kernel& k) {
  auto blocks = build_basic_blocks(k);
  // A trap ends the kernel, so where trapping threads would reconverge does not matter; the
  // others' paths decide. nvcc ends a switch's unreachable default with `trap; bra.uni
  // JOIN`: taken as the end of a path, the trap would move the switch's reconvergence
  // point to the kernel's exit, past a __syncthreads() after the join, which the
  // switch's threads would then reach apart. For reconvergence, a trap falls through.
  for (BasicBlock& bb : blocks) {
    const Instr& last = k.code[bb.last];
    if (last.op == Op::Trap && !last.has_guard && bb.last + 1 < k.code.size()) {
      bb.exits = false;
      for (uint32_t b = 0; b < blocks.size(); ++b)
        if (blocks[b].first == bb.last + 1) bb.succ = {b};
    }
  }
  auto ipdom = immediate_post_dominators(blocks);
  uint32_t branches = 0;
  for (uint32_t b = 0; b < blocks.size(); ++b) {
    Instr& in = k.code[blocks[b].last];
    if (in.op != Op::Bra) continue;
    in.branch_id = static_cast<int32_t>(branches++);
    uint32_t pd = ipdom[b];
    in.reconv = pd >= blocks.size() ? -1 : static_cast<int32_t>(blocks[pd].first);
  }
  // In a device function, paths that meet only at the exit (one of them exits or traps)
  // reconverge at its return: the threads that leave the function together return together.
  for (const Function& f : k.functions)
    for (int32_t pc = f.entry; pc < f.ret_pc; ++pc)
      if (k.code[pc].op == Op::Bra && k.code[pc].reconv < 0) k.code[pc].reconv = f.ret_pc;
  k.num_branches = branches;
}

RegisterRefs register_refs(const Instr& in, const std::vector<bool>& special) {
  RegisterRefs r;
  auto src = [&](const Operand& o) {
    if (o.kind == Operand::Kind::Reg && !special[o.reg]) r.reads[r.nreads++] = o.reg;
    if (o.kind == Operand::Kind::Addr && o.has_base && !special[o.base]) r.reads[r.nreads++] = o.base;
    if (o.kind == Operand::Kind::Vec)
      for (int i = 0; i < o.nvec; ++i)
        if (!o.vec_const[i] && o.vec[i] != kSinkSlot && !special[o.vec[i]]) r.reads[r.nreads++] = o.vec[i];
  };
  src(in.a);
  src(in.b);
  src(in.c);
  src(in.e);
  if (in.op == Op::St) return r;  // a store's d[0] holds nothing
  for (const Operand* d : {&in.d[0], &in.d[1]}) {
    if (d->kind == Operand::Kind::Reg) r.writes[r.nwrites++] = d->reg;
    if (d->kind == Operand::Kind::Vec)
      for (int i = 0; i < d->nvec; ++i)
        if (d->vec[i] != kSinkSlot) r.writes[r.nwrites++] = d->vec[i];
  }
  return r;
}

bool reads_pred(const Instr& in, uint16_t p) {
  if (in.has_guard && in.guard == p) return true;
  for (const Operand* o : {&in.a, &in.b, &in.c, &in.e})
    if (o->kind == Operand::Kind::Pred && o->reg == p) return true;
  return false;
}

bool writes_pred(const Instr& in, uint16_t p) {
  for (const Operand& d : in.d)
    if (d.kind == Operand::Kind::Pred && d.reg == p) return true;
  return false;
}

RegisterLiveness::RegisterLiveness(const Kernel& k) : k_(k), special_(special_slots(k)) {
  blocks_ = build_basic_blocks(k);
  live_in_.assign(blocks_.size(), std::vector<uint64_t>((k.num_slots() + 63) / 64, 0));
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t bi = blocks_.size(); bi-- > 0;) {
      std::vector<uint64_t> live = live_out(bi);
      for (uint32_t pc = blocks_[bi].last + 1; pc-- > blocks_[bi].first;)
        transfer(k.code[pc], register_refs(k.code[pc], special_), live);
      if (live != live_in_[bi]) {
        live_in_[bi] = std::move(live);
        changed = true;
      }
    }
  }
}

std::vector<uint64_t> RegisterLiveness::live_out(size_t block) const {
  std::vector<uint64_t> live((k_.num_slots() + 63) / 64, 0);
  for (uint32_t s : blocks_[block].succ)
    for (size_t w = 0; w < live.size(); ++w) live[w] |= live_in_[s][w];
  return live;
}

void RegisterLiveness::transfer(const Instr& in, const RegisterRefs& refs, std::vector<uint64_t>& live) const {
  if (!in.has_guard)
    for (uint32_t i = 0; i < refs.nwrites; ++i) live[refs.writes[i] >> 6] &= ~(uint64_t(1) << (refs.writes[i] & 63));
  for (uint32_t i = 0; i < refs.nreads; ++i) live[refs.reads[i] >> 6] |= uint64_t(1) << (refs.reads[i] & 63);
}

void RegisterLiveness::walk(
    const std::function<void(uint32_t, const RegisterRefs&, const std::vector<uint64_t>&)>& f) const {
  for (size_t bi = 0; bi < blocks_.size(); ++bi) {
    std::vector<uint64_t> live = live_out(bi);
    for (uint32_t pc = blocks_[bi].last + 1; pc-- > blocks_[bi].first;) {
      const RegisterRefs refs = register_refs(k_.code[pc], special_);
      f(pc, refs, live);
      transfer(k_.code[pc], refs, live);
    }
  }
}

bool RegisterLiveness::live_at_entry(uint32_t r) const {
  return !live_in_.empty() && (live_in_[0][r >> 6] >> (r & 63) & 1);
}

uint32_t estimate_registers(const Kernel& k) {
  const uint32_t nslots = k.num_slots();
  if (nslots == 0) return 0;
  std::vector<uint8_t> width(nslots, 1);
  for (uint32_t s = 0; s < nslots; ++s) width[s] = dtype_bytes(k.regs[s].type) == 8 ? 2 : 1;
  uint32_t best = 0;
  // Live across an instruction: live after it plus its own destinations.
  RegisterLiveness(k).walk([&](uint32_t, const RegisterRefs& refs, const std::vector<uint64_t>& live_after) {
    std::vector<uint64_t> across = live_after;
    for (uint32_t i = 0; i < refs.nwrites; ++i) across[refs.writes[i] >> 6] |= uint64_t(1) << (refs.writes[i] & 63);
    uint32_t sum = 0;
    for (uint32_t s = 0; s < nslots; ++s)
      if (across[s >> 6] >> (s & 63) & 1) sum += width[s];
    best = std::max(best, sum);
  });
  // ptxas also reserves registers for addressing and the thread index; never report
  // fewer than a minimal kernel uses.
  return std::max<uint32_t>(best, 2);
}

}  // namespace warpsim::isa
