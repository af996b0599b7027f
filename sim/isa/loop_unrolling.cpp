#include "sim/isa/loop_unrolling.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/isa/cfg.hpp"
#include "sim/isa/semantics.hpp"

namespace warpsim::isa {

namespace {

bool unrollable_op(const Instr& in) {
  switch (in.op) {
    case Op::Bar: case Op::BarWarp: case Op::BarRed: case Op::Membar: case Op::Call: case Op::FuncRet:
    case Op::ClusterArrive: case Op::ClusterWait:
    case Op::MbarInit: case Op::MbarInval: case Op::MbarArrive: case Op::MbarTx: case Op::MbarWait:
    case Op::CpAsyncMbarArrive: case Op::CpAsyncBulk:
    case Op::Bra: case Op::Ret: case Op::Exit: case Op::Trap: case Op::Shfl: case Op::Vote:
    case Op::Activemask: case Op::MatchAny: case Op::MatchAll: case Op::ReadClock: case Op::ReadGlobalTimer:
      return false;
    default:
      return true;
  }
}

int64_t signed_const(const Kernel& k, const Operand& o, DType t) {
  const uint64_t v = k.consts[o.reg];
  return dtype_bytes(t) == 4 ? int64_t(int32_t(uint32_t(v))) : int64_t(v);
}

// One loop that qualifies: its head and back branch, the counter's update and the test.
struct Loop {
  uint32_t head = 0, branch = 0, update = 0, test = 0;
  int64_t step = 0;
  std::vector<uint16_t> renamed;  // registers given new names in bodies 1 .. U-1
};

bool qualifies(const Kernel& k, const std::vector<bool>& special, const std::vector<bool>& target,
               const std::vector<bool>& in_function, uint32_t e, Loop& L) {
  const Instr& br = k.code[e];
  if (br.op != Op::Bra || !br.has_guard || br.guard_neg || br.uni || br.a.kind != Operand::Kind::Label) return false;
  const int32_t h = br.a.target;
  if (h < 0 || uint32_t(h) + 2 > e || e - uint32_t(h) + 1 > kUnrollMaxBody || in_function[e]) return false;
  const uint32_t t = e - 1;
  const Instr& test = k.code[t];
  if (test.op != Op::Setp || test.has_guard || test.boolop != BoolOp::None || !is_int(test.type) ||
      test.d[0].kind != Operand::Kind::Pred || test.d[0].reg != br.guard || test.d[1].kind != Operand::Kind::None ||
      test.a.kind != Operand::Kind::Reg || special[test.a.reg])
    return false;
  if (test.cmp != Cmp::Lt && test.cmp != Cmp::Le && test.cmp != Cmp::Gt && test.cmp != Cmp::Ge && test.cmp != Cmp::Ne)
    return false;
  const uint16_t x = test.a.reg;
  const bool bound_reg = test.b.kind == Operand::Kind::Reg;
  if (!bound_reg && test.b.kind != Operand::Kind::Const) return false;
  int updates = 0;
  for (uint32_t i = uint32_t(h); i < t; ++i) {
    const Instr& in = k.code[i];
    if (!unrollable_op(in) || (i > uint32_t(h) && target[i])) return false;
    if (reads_pred(in, br.guard) || writes_pred(in, br.guard)) return false;
    const RegisterRefs r = register_refs(in, special);
    for (uint32_t w = 0; w < r.nwrites; ++w) {
      if (bound_reg && r.writes[w] == test.b.reg) return false;
      if (r.writes[w] != x) continue;
      ++updates;
      if (in.op != Op::Add || in.has_guard || in.a.kind != Operand::Kind::Reg || in.a.reg != x ||
          in.b.kind != Operand::Kind::Const || in.type != test.type || in.cc)
        return false;
      L.update = i;
      L.step = signed_const(k, in.b, in.type);
    }
  }
  if (target[t] || updates != 1 || L.step == 0) return false;
  if ((test.cmp == Cmp::Lt || test.cmp == Cmp::Le) && L.step < 0) return false;
  if ((test.cmp == Cmp::Gt || test.cmp == Cmp::Ge) && L.step > 0) return false;
  L.head = uint32_t(h);
  L.branch = e;
  L.test = t;
  // Registers local to an iteration: written unguarded before any read in the body.
  std::vector<int8_t> state(k.num_slots(), 0);  // 0 untouched, 1 written first, -1 read first or guarded
  for (uint32_t i = L.head; i < t; ++i) {
    const Instr& in = k.code[i];
    const RegisterRefs r = register_refs(in, special);
    for (uint32_t q = 0; q < r.nreads; ++q)
      if (state[r.reads[q]] == 0) state[r.reads[q]] = -1;
    for (uint32_t w = 0; w < r.nwrites; ++w) {
      int8_t& s = state[r.writes[w]];
      if (in.has_guard) s = -1;
      else if (s == 0) s = 1;
    }
  }
  state[x] = -1;
  for (uint32_t s = 0; s < state.size(); ++s)
    if (state[s] == 1) L.renamed.push_back(uint16_t(s));
  return true;
}

// Where a branch the pass makes goes, in its loop's new code (Label: labels[label]).
enum class Target : int8_t { None, Body, Join, Exit, Label };

struct Emitted {
  Instr in;
  std::string text;
  int32_t old = -1;        // the PTX instruction it is (the kept loop), or -1 for new ones
  Target target = Target::None;  // for new branches
  int32_t loop = -1;
  int32_t label = -1;      // Target::Label: which
};

uint16_t add_slot(Kernel& k, const std::string& name, DType t) {
  if (k.regs.size() >= 0xFFFE) throw std::length_error("unroll_loops: too many registers");
  k.regs.push_back(RegInfo{name, t});
  return uint16_t(k.regs.size() - 1);
}

uint16_t add_pred(Kernel& k, const std::string& name) {
  k.preds.push_back(RegInfo{name, DType::Pred});
  return uint16_t(k.preds.size() - 1);
}

uint16_t add_const(Kernel& k, uint64_t v) {
  k.consts.push_back(v);
  return uint16_t(k.consts.size() - 1);
}

void rename(Instr& in, const std::map<uint16_t, uint16_t>& to) {
  auto one = [&](uint16_t& s) {
    auto it = to.find(s);
    if (it != to.end()) s = it->second;
  };
  for (Operand* o : {&in.d[0], &in.d[1], &in.a, &in.b, &in.c, &in.e}) {
    if (o->kind == Operand::Kind::Reg) one(o->reg);
    if (o->kind == Operand::Kind::Addr && o->has_base) one(o->base);
    if (o->kind == Operand::Kind::Vec)
      for (uint8_t v = 0; v < o->nvec; ++v)
        if (!o->vec_const[v] && o->vec[v] != kSinkSlot) one(o->vec[v]);
  }
}

void bind(Instr& in) {
  bind_semantics(in, [](const std::string& why) { throw std::logic_error("unroll_loops: " + why); });
}

}  // namespace

uint32_t unroll_loops(Kernel& k, uint32_t factor) {
  if (factor < 2 || k.nounroll) return 0;
  const std::vector<bool> special = special_slots(k);
  const size_t n = k.code.size();
  std::vector<bool> target(n + 1, false), in_function(n, false);
  for (const Instr& in : k.code)
    if (in.op == Op::Bra && in.a.kind == Operand::Kind::Label && in.a.target >= 0) target[size_t(in.a.target)] = true;
  for (const Function& f : k.functions)
    for (int32_t pc = f.entry; pc <= f.ret_pc && size_t(pc) < n; ++pc) in_function[size_t(pc)] = true;
  std::vector<Loop> loops;
  for (uint32_t e = 0; e < n; ++e) {
    Loop L;
    if (!qualifies(k, special, target, in_function, e, L)) continue;
    if (k.code[L.head].nounroll) continue;  // `.pragma "nounroll"`: ptxas keeps it as it is
    // The counter's distance over factor-1 iterations must be a value of its type.
    const int64_t limit = dtype_bytes(k.code[L.test].type) == 4 ? int64_t(INT32_MAX) : int64_t(1) << 62;
    if ((L.step > 0 ? L.step : -L.step) > limit / int64_t(factor - 1)) continue;
    loops.push_back(L);
  }
  if (loops.empty()) return 0;

  const bool has_text = k.text.size() == n;
  auto text_of = [&](size_t i) { return has_text ? k.text[i] : std::string(); };
  std::vector<Emitted> out;
  out.reserve(n + loops.size() * (kUnrollMaxBody * factor + 8));
  std::vector<int32_t> head_of(n, -1);  // old head index -> loop number
  for (size_t l = 0; l < loops.size(); ++l) head_of[loops[l].head] = int32_t(l);
  // Labels of the new branches, as indices into `out` once known.
  struct Labels {
    int32_t head = -1, body = -1, join = -1;
  };
  std::vector<Labels> at(loops.size());
  std::vector<int32_t> labels;  // Target::Label's places in `out`
  for (size_t i = 0; i < n; ++i) {
    const int32_t l = head_of[i];
    if (l < 0) {
      out.push_back({k.code[i], text_of(i), int32_t(i)});
      continue;
    }
    const Loop& L = loops[size_t(l)];
    const Instr& test = k.code[L.test];
    const Instr& br = k.code[L.branch];
    const std::string tag = fmt::format("u{}", l);
    const uint16_t t = add_slot(k, "%" + tag + "_t", test.type);
    const uint16_t q_nowrap = add_pred(k, "%" + tag + "_q0"), q = add_pred(k, "%" + tag + "_q");
    const std::string bound =
        test.b.kind == Operand::Kind::Reg ? k.regs[test.b.reg].name : std::to_string(signed_const(k, test.b, test.type));
    // The guard that m more iterations run: t = x + (m-1)*c; q = t <cmp> b, and t moved
    // from x in the step's direction (no wraparound), and (and_p) %p: the lane is not done.
    // Then a branch: back to the bodies, on to the join, or past a block (a label).
    auto guard = [&](uint32_t m, Target to, int32_t label, bool and_p) {
      Instr add = k.code[L.update];
      add.d[0].reg = t;
      add.b.reg = add_const(k, uint64_t(L.step * int64_t(m - 1)));
      bind(add);
      out.push_back({add, fmt::format("add {}, {}, {};  // unrolled x{}: the counter {} iterations on",
                                      k.regs[t].name, k.regs[test.a.reg].name, L.step * int64_t(m - 1), m, m - 1),
                     -1, Target::None, l});
      Instr nowrap = test;
      nowrap.d[0].reg = q_nowrap;
      nowrap.a = add.d[0];
      nowrap.b = test.a;
      nowrap.cmp = L.step > 0 ? Cmp::Gt : Cmp::Lt;
      if (and_p) {
        nowrap.boolop = BoolOp::And;
        nowrap.c = Operand{};
        nowrap.c.kind = Operand::Kind::Pred;
        nowrap.c.reg = br.guard;
      }
      bind(nowrap);
      out.push_back({nowrap, fmt::format("setp.{}{}.{} {}, {}, {}{};  // no wraparound", L.step > 0 ? "gt" : "lt",
                                         and_p ? ".and" : "", dtype_name(test.type), k.preds[q_nowrap].name,
                                         k.regs[t].name, k.regs[test.a.reg].name,
                                         and_p ? ", " + k.preds[br.guard].name : std::string()),
                     -1, Target::None, l});
      Instr enough = test;
      enough.d[0].reg = q;
      enough.a = add.d[0];
      if (test.cmp == Cmp::Ne) enough.cmp = L.step > 0 ? Cmp::Lt : Cmp::Gt;
      enough.boolop = BoolOp::And;
      enough.c = Operand{};
      enough.c.kind = Operand::Kind::Pred;
      enough.c.reg = q_nowrap;
      bind(enough);
      out.push_back({enough, fmt::format("setp.and {}, {}, {}, {};  // {} more iterations left", k.preds[q].name,
                                         k.regs[t].name, bound, k.preds[q_nowrap].name, m),
                     -1, Target::None, l});
      Instr jump = br;
      jump.guard = q;
      jump.guard_neg = to != Target::Body;
      out.push_back({jump, to == Target::Body   ? fmt::format("@{} bra body;  // again", k.preds[q].name)
                           : to == Target::Join ? fmt::format("@!{} bra join;  // fewer left", k.preds[q].name)
                                                : fmt::format("@!{} bra past{};  // fewer left", k.preds[q].name, m),
                     -1, to, l, label});
    };
    // m copies of the body without their test, the registers an iteration makes for itself
    // renamed in all but the last (which keeps the PTX's names: values read after the loop).
    auto bodies = [&](uint32_t m, const std::string& suffix) {
      for (uint32_t copy = 1; copy <= m; ++copy) {
        std::map<uint16_t, uint16_t> to;
        if (copy < m)
          for (uint16_t r : L.renamed)
            to[r] = add_slot(k, fmt::format("{}_{}{}{}", k.regs[r].name, tag, suffix, copy), k.regs[r].type);
        for (uint32_t pc = L.head; pc < L.test; ++pc) {
          Instr c = k.code[pc];
          rename(c, to);
          out.push_back({c, text_of(pc) + fmt::format("  // unrolled copy {} of {}", copy, m), -1, Target::None, l});
        }
      }
    };
    // head': %p = true (a lane that skips the bodies runs the loop at least once), guard.
    at[size_t(l)].head = int32_t(out.size());
    Instr always = test;
    always.b = test.a;
    always.cmp = Cmp::Eq;
    bind(always);
    out.push_back({always, fmt::format("setp.eq {}, {}, {};  // true: the loop runs at least once",
                                       k.preds[br.guard].name, k.regs[test.a.reg].name, k.regs[test.a.reg].name),
                   -1, Target::None, l});
    guard(factor, Target::Join, -1, false);
    // The bodies, none with its test; the guard again at the bottom, then the loop's own test.
    at[size_t(l)].body = int32_t(out.size());
    bodies(factor, "");
    guard(factor, Target::Body, -1, false);
    out.push_back({test, text_of(L.test) + "  // after the unrolled bodies", -1, Target::None, l});
    // join: fewer than U iterations are left (or none: %p false). As ptxas writes the
    // remainder, blocks of m = U/2, U/4 .. 2 iterations, each for the lanes with m more
    // left, each followed by the loop's test (%p) and a join; then the one-iteration block
    // is the loop as it was, for the lanes with %p (one more, or the loop's first).
    at[size_t(l)].join = int32_t(out.size());
    for (uint32_t m = std::bit_floor(factor - 1); m >= 2; m /= 2) {
      const int32_t past = int32_t(labels.size());
      labels.push_back(-1);
      guard(m, Target::Label, past, true);
      bodies(m, fmt::format("r{}_", m));
      out.push_back({test, text_of(L.test) + fmt::format("  // after {} more", m), -1, Target::None, l});
      labels[size_t(past)] = int32_t(out.size());
    }
    Instr done = br;
    done.guard_neg = true;
    out.push_back({done, fmt::format("@!{} bra exit;  // join: done", k.preds[br.guard].name), -1, Target::Exit, l});
    out.push_back({k.code[i], text_of(i), int32_t(i)});
  }
  // Where each old instruction went.
  std::vector<int32_t> new_index(n + 1, -1);
  for (size_t j = 0; j < out.size(); ++j)
    if (out[j].old >= 0) new_index[size_t(out[j].old)] = int32_t(j);
  new_index[n] = int32_t(out.size());
  for (size_t j = 0; j < out.size(); ++j) {
    Instr& in = out[j].in;
    if (in.op != Op::Bra || in.a.kind != Operand::Kind::Label || in.a.target < 0) continue;
    const int32_t l = out[j].loop;
    if (out[j].target != Target::None) {
      const Loop& L = loops[size_t(l)];
      in.a.target = out[j].target == Target::Body    ? at[size_t(l)].body
                    : out[j].target == Target::Join  ? at[size_t(l)].join
                    : out[j].target == Target::Label ? labels[size_t(out[j].label)]
                                                     : new_index[L.branch + 1];
      continue;
    }
    const int32_t old_target = in.a.target;
    const int32_t hl = head_of[size_t(old_target)];
    // Entering a loop at its head enters head'; the kept loop's own branch stays.
    const bool own_back_edge = hl >= 0 && out[j].old == int32_t(loops[size_t(hl)].branch);
    in.a.target = hl >= 0 && !own_back_edge ? at[size_t(hl)].head : new_index[size_t(old_target)];
  }
  // head' is where the head was, so code that falls into the loop falls into head'.
  for (Function& f : k.functions) {
    f.entry = new_index[size_t(f.entry)];
    f.ret_pc = new_index[size_t(f.ret_pc)];
  }
  k.code.clear();
  k.text.clear();
  for (Emitted& e : out) {
    k.code.push_back(e.in);
    if (has_text) k.text.push_back(std::move(e.text));
  }
  broadcast_consts(k);
  analyse_control_flow(k);
  return uint32_t(loops.size());
}

}  // namespace warpsim::isa
