#include "sim/sm/warp_executor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "sim/foundation/error.hpp"

namespace warpsim::sm {

using isa::Instr;
using isa::Op;
using isa::Special;

WarpExecutor::WarpExecutor(const LaunchContext& ctx, LaunchStats& stats) : ctx_(ctx), stats_(stats) {
  stats_.per_pc.resize(ctx_.kernel->code.size());
  shared_plan_index_.assign(ctx_.kernel->code.size(), UINT32_MAX);
  alloc_seen_.assign(ctx_.kernel->code.size(), AllocationSeen{});
  stats_.exec.round_robin_sm_instructions.assign(std::max<uint32_t>(1, ctx_.num_sms), 0);
}

void WarpExecutor::init_block(BlockState& b, uint32_t linear, uint32_t sm_id) const {
  const isa::Kernel& k = *ctx_.kernel;
  const Dim3 g = ctx_.grid, bd = ctx_.block;
  b.idx = {linear % g.x, (linear / g.x) % g.y, linear / (g.x * g.y)};
  b.linear = linear;
  b.sm = sm_id;
  const uint32_t nw = ctx_.warps_per_block;
  const uint32_t slots = k.num_slots();
  const uint32_t npred = static_cast<uint32_t>(std::max<size_t>(k.preds.size(), 1));
  b.warps.resize(nw);
  b.regs.resize(size_t(nw) * slots * isa::kWarpLanes);
  b.preds.assign(size_t(nw) * npred, 0);
  b.shared_bytes = k.static_shared_bytes + (k.has_dynamic_shared ? ctx_.dynamic_shared : 0);
  if (k.has_dynamic_shared) {
    uint32_t a = k.dynamic_shared_align;
    uint32_t base = (k.static_shared_bytes + a - 1) / a * a;
    b.shared_bytes = base + ctx_.dynamic_shared;
  }
  const uint32_t reserved_base = (b.shared_bytes + 127) / 128 * 128;
  if (ctx_.reserved_shared) b.shared_bytes = reserved_base + ctx_.reserved_shared;
  b.shared.assign(b.shared_bytes, 0);
  b.local.assign(size_t(nw) * isa::kWarpLanes * ctx_.local_stride, 0);
  b.live_threads = ctx_.threads_per_block;
  b.arrived = 0;
  b.red_true = 0;
  b.warps_done = 0;
  b.device_calls = 0;
  b.mbar_parked.clear();
  b.mbar_changes = 0;
  const Dim3 cd = ctx_.cluster;
  const uint32_t rank = b.idx.x % cd.x + cd.x * (b.idx.y % cd.y + cd.y * (b.idx.z % cd.z));
  b.cluster = nullptr;
  b.cluster_rank = rank;
  b.cluster_id = 0;
  if (ctx_.clusters) {
    b.cluster_id = ctx_.clusters->cluster_of(b.idx);
    b.cluster = &ctx_.clusters->join(b.cluster_id, rank, &b);
  }
  const uint32_t ws = ctx_.warp_size;
  for (uint32_t wi = 0; wi < nw; ++wi) {
    Warp& w = b.warps[wi];
    w.block = &b;
    w.index = wi;
    uint32_t first = wi * ws;
    uint32_t n = std::min(ws, ctx_.threads_per_block - first);
    w.exists_mask = n >= 32 ? 0xFFFFFFFFu : ((1u << n) - 1);
    w.live_mask = w.exists_mask;
    w.stack.reset(w.exists_mask);
    w.at_barrier = false;
    w.done = false;
    w.barrier_pc = 0;
    w.cluster_waiting = false;
    w.mbar_waiting = false;
    w.mbar_give_up = false;
    w.mbar_given_up_pc = UINT32_MAX;
    w.cluster_arrived = 0;
    w.cluster_phase = 0;
    w.instructions = 0;
    w.regs = b.regs.data() + size_t(wi) * slots * isa::kWarpLanes;
    w.preds = b.preds.data() + size_t(wi) * npred;
    w.local = b.local.data() + size_t(wi) * isa::kWarpLanes * ctx_.local_stride;
    w.frames.clear();
    w.printf_calls = 0;
    w.branch_executions.assign(k.num_branches, 0);
    for (const auto& sp : k.specials) {
      uint64_t* r = w.regs + size_t(sp.slot) * isa::kWarpLanes;
      // The registers that differ between lanes, each in a loop of its own; the rest are
      // one value for the warp (a switch per lane was most of a small block's start).
      switch (sp.which) {
        case Special::TidX: for (uint32_t l = 0; l < isa::kWarpLanes; ++l) r[l] = (first + l) % bd.x; continue;
        case Special::TidY:
          for (uint32_t l = 0; l < isa::kWarpLanes; ++l) r[l] = ((first + l) / bd.x) % bd.y;
          continue;
        case Special::TidZ:
          for (uint32_t l = 0; l < isa::kWarpLanes; ++l) r[l] = (first + l) / (bd.x * bd.y);
          continue;
        case Special::LaneId: for (uint32_t l = 0; l < isa::kWarpLanes; ++l) r[l] = l; continue;
        case Special::LanemaskEq: for (uint32_t l = 0; l < isa::kWarpLanes; ++l) r[l] = 1u << l; continue;
        case Special::LanemaskLt: for (uint32_t l = 0; l < isa::kWarpLanes; ++l) r[l] = (1u << l) - 1; continue;
        case Special::LanemaskLe:
          for (uint32_t l = 0; l < isa::kWarpLanes; ++l) r[l] = l == 31 ? 0xFFFFFFFFu : (2u << l) - 1;
          continue;
        case Special::LanemaskGt:
          for (uint32_t l = 0; l < isa::kWarpLanes; ++l) r[l] = l == 31 ? 0u : ~((2u << l) - 1);
          continue;
        case Special::LanemaskGe: for (uint32_t l = 0; l < isa::kWarpLanes; ++l) r[l] = ~((1u << l) - 1); continue;
        default: break;
      }
      uint64_t v = 0;
      switch (sp.which) {
        case Special::NtidX: v = bd.x; break;
        case Special::NtidY: v = bd.y; break;
        case Special::NtidZ: v = bd.z; break;
        case Special::CtaidX: v = b.idx.x; break;
        case Special::CtaidY: v = b.idx.y; break;
        case Special::CtaidZ: v = b.idx.z; break;
        case Special::NctaidX: v = g.x; break;
        case Special::NctaidY: v = g.y; break;
        case Special::NctaidZ: v = g.z; break;
        case Special::WarpId: v = wi; break;
        case Special::NWarpId: v = nw; break;
        case Special::SmId: v = sm_id; break;
        case Special::NSmId: v = ctx_.num_sms; break;
        case Special::GridId: v = 1; break;
        case Special::EnvReg: v = 0; break;
        case Special::EnvReg1: v = ctx_.grid_workspace >> 32; break;
        case Special::EnvReg2: v = ctx_.grid_workspace & 0xFFFFFFFFu; break;
        case Special::ClusterCtaidX: v = b.idx.x % cd.x; break;
        case Special::ClusterCtaidY: v = b.idx.y % cd.y; break;
        case Special::ClusterCtaidZ: v = b.idx.z % cd.z; break;
        case Special::ClusterNctaidX: v = cd.x; break;
        case Special::ClusterNctaidY: v = cd.y; break;
        case Special::ClusterNctaidZ: v = cd.z; break;
        case Special::ClusterIdX: v = b.idx.x / cd.x; break;
        case Special::ClusterIdY: v = b.idx.y / cd.y; break;
        case Special::ClusterIdZ: v = b.idx.z / cd.z; break;
        case Special::NclusterIdX: v = g.x / cd.x; break;
        case Special::NclusterIdY: v = g.y / cd.y; break;
        case Special::NclusterIdZ: v = g.z / cd.z; break;
        case Special::ClusterCtaRank: v = rank; break;
        case Special::ClusterNctaRank: v = cd.count(); break;
        case Special::IsExplicitCluster: v = ctx_.explicit_cluster ? 1 : 0; break;
        // As an H200 gives them, from the region's start (h200_mbarrier_probe_2026-12-03.txt):
        // offsets 0 and 1 at its start, `end` 288 bytes in (the part cooperative groups use).
        case Special::ReservedSmemBegin: case Special::ReservedSmem0: case Special::ReservedSmem1:
          v = reserved_base;
          break;
        case Special::ReservedSmemEnd: v = reserved_base + std::min<uint32_t>(288, ctx_.reserved_shared); break;
        case Special::ReservedSmemCap: v = ctx_.reserved_shared; break;
        default: break;  // the lane-dependent ones, above
      }
      std::fill(r, r + isa::kWarpLanes, v);
    }
  }
}

namespace {
// What step() and run_plain offer to shared_fast.
bool is_shared_ld_st(const Instr& in) {
  return in.space == isa::Space::Shared && (in.op == Op::Ld || in.op == Op::St);
}
}  // namespace

bool WarpExecutor::may_spin() {
  if (may_spin_ < 0) {
    const std::vector<Instr>& code = ctx_.kernel->code;
    auto waits_on_others = [](const Instr& in) {
      return (in.op == Op::Ld && in.strong && in.space != isa::Space::Param && in.space != isa::Space::Const &&
              in.space != isa::Space::Local) ||
             (in.op == Op::Atom && (in.atom == isa::AtomOp::Cas || in.atom == isa::AtomOp::Exch));
    };
    may_spin_ = 0;
    // A loop (a branch back to `target`) with such an access in its body.
    for (size_t pc = 0; pc < code.size() && !may_spin_; ++pc) {
      const Instr& in = code[pc];
      if (in.op != Op::Bra || in.a.target < 0 || size_t(in.a.target) > pc) continue;
      for (size_t i = size_t(in.a.target); i < pc && !may_spin_; ++i) may_spin_ = waits_on_others(code[i]);
    }
  }
  return may_spin_ == 1;
}

void WarpExecutor::make_repeat_loads() {
  const std::vector<uint32_t> prev = same_base_predecessors(*ctx_.kernel);
  repeat_loads_.assign(prev.size(), RepeatLoad{});
  for (size_t pc = 0; pc < prev.size(); ++pc) {
    repeat_loads_[pc].eligible = is_u32_shared_load(ctx_.kernel->code[pc]);
    repeat_loads_[pc].prev = prev[pc];
  }
}

StepResult WarpExecutor::step(Warp& w, uint64_t now, SharedPatternTally* tally) {
  StepResult r;
  SimtStack& st = w.stack;
  st.reconverge();
  const uint32_t pc = static_cast<uint32_t>(st.top().pc);
  const Instr& in = ctx_.kernel->code[pc];
  const uint32_t active = st.top().mask;
  uint32_t exec = active;
  if (in.has_guard) {
    uint32_t p = w.preds[in.guard];
    exec &= in.guard_neg ? ~p : p;
  }
  r.pc = pc;
  r.instr = &in;
  r.active = active;
  r.exec_mask = exec;
  ++w.instructions;

  ExecStats& es = stats_.exec;
  const uint32_t nact = std::popcount(active);
  ++es.inst_executed;
  es.thread_inst_executed += nact;
  es.not_predicated_off_thread_inst_executed += std::popcount(exec);
  PcStats& ps = stats_.per_pc[pc];
  ++ps.executed;
  ps.active_threads += nact;

  if (in.fn) {
    if (exec) {
      exec::ExecCtx c{w.regs, w.preds, ctx_.kernel->consts_bcast.data(), w.live_mask};
      in.fn(c, in, exec);
    }
    st.top().pc = static_cast<int32_t>(pc + 1);
    return r;
  }
  // The commonest memory access, straight to its fast path (what load_store would call).
  if (exec && is_shared_ld_st(in)) {
    if (tally && exec == 0xFFFFFFFFu &&
        (r.tallied_shared_passes = static_cast<uint16_t>(shared_load_tallied(w, in, pc, *tally))) != 0) {
      st.top().pc = static_cast<int32_t>(pc + 1);
      return r;
    }
    if (shared_fast(w, in, exec, r)) {
      st.top().pc = static_cast<int32_t>(pc + 1);
      return r;
    }
  }
  step_other(w, in, now, r);
  return r;
}

uint64_t WarpExecutor::run_plain(Warp& w, uint64_t budget, MemoryObserver* observer) {
  SimtStack& st = w.stack;
  st.reconverge();
  const isa::Kernel& k = *ctx_.kernel;
  const Instr* const code = k.code.data();
  PcStats* const per_pc = stats_.per_pc.data();
  exec::ExecCtx c{w.regs, w.preds, k.consts_bcast.data(), w.live_mask};
  const uint32_t block = w.block->linear;
  // The warp's counters, kept here (the semantic functions are opaque calls) and added in
  // once, also when an instruction throws.
  struct Counts {
    Warp& w;
    ExecStats& es;
    uint64_t n = 0, threads = 0, not_predicated_off = 0;
    ~Counts() {
      w.instructions += n;
      es.inst_executed += n;
      es.thread_inst_executed += threads;
      es.not_predicated_off_thread_inst_executed += not_predicated_off;
    }
  } counts{w, stats_.exec};
  // Only a pc reaching the top entry's reconvergence pc changes the stack here (these
  // instructions neither branch nor exit nor change a mask): it is checked for that alone.
  SimtEntry* top = &st.top();
  bool nested = st.depth() > 1;
  if (repeat_loads_.empty()) make_repeat_loads();
  const RepeatLoad* const repeat = repeat_loads_.data();
  SharedPatternTally* const tally = observer ? observer->shared_pattern_tally() : nullptr;
  uint64_t run = ++plain_run_;
  while (counts.n < budget) {
    const uint32_t pc = static_cast<uint32_t>(top->pc);
    const Instr& in = code[pc];
    const uint32_t active = top->mask;
    uint32_t exec = active;
    if (in.has_guard) {
      const uint32_t p = w.preds[in.guard];
      exec &= in.guard_neg ? ~p : p;
    }
    if (in.fn) {
      if (exec) in.fn(c, in, exec);
    } else {
      // Only what step() hands to shared_fast, and only where it takes it: nothing is done
      // or counted otherwise, and step() then does it all.
      if (!exec || !is_shared_ld_st(in)) break;
      if (!(exec == 0xFFFFFFFFu && repeat[pc].eligible && shared_load_repeat(w, in, pc, observer, tally, run))) {
        StepResult r;
        r.pc = pc;
        if (!shared_fast(w, in, exec, r)) break;
        if (observer)
          for (uint8_t i = 0; i < r.n_accesses; ++i) observer->on_access(r.accesses[i], in, pc, block, w.index);
      }
    }
    ++counts.n;
    const uint32_t nact = std::popcount(active);
    counts.threads += nact;
    counts.not_predicated_off += std::popcount(exec);
    PcStats& ps = per_pc[pc];
    ++ps.executed;
    ps.active_threads += nact;
    top->pc = static_cast<int32_t>(pc + 1);
    if (nested && top->pc == top->rpc) {
      st.reconverge();
      top = &st.top();
      nested = st.depth() > 1;
      run = ++plain_run_;
    }
  }
  return counts.n;
}

// Out of step()'s line, so that the arithmetic instructions' path above keeps its
// registers (and its stack frame small).
void WarpExecutor::step_other(Warp& w, const Instr& in, uint64_t now, StepResult& r) {
  SimtStack& st = w.stack;
  const uint32_t pc = r.pc;
  const uint32_t active = r.active;
  const uint32_t exec = r.exec_mask;
  switch (in.op) {
    case Op::Bra:
      branch(w, in, pc, active, in.has_guard ? exec : active, r);
      break;
    case Op::Ret:
    case Op::Exit:
      st.top().pc = static_cast<int32_t>(pc + 1);
      if (exec) exit_threads(w, exec, r);
      break;
    case Op::Bar:
      arrive_at_barrier(w, pc, active, r);
      break;
    case Op::BarRed:
      w.block->red_true += std::popcount(active & red_predicate(w, in));
      arrive_at_barrier(w, pc, active, r);
      break;
    case Op::ClusterArrive:
      st.top().pc = static_cast<int32_t>(pc + 1);
      cluster_arrive(w, pc, active);
      break;
    case Op::ClusterWait:
      cluster_wait(w, pc, active, r);
      break;
    case Op::Ld:
    case Op::St:
    case Op::Atom:
    case Op::Red:
      if (exec) memory_op(w, in, pc, exec, r);
      st.top().pc = static_cast<int32_t>(pc + 1);
      break;
    case Op::Tex:
    case Op::Tld4:
    case Op::Suld:
    case Op::Sust:
      if (exec) texture_op(w, in, pc, exec, r);
      st.top().pc = static_cast<int32_t>(pc + 1);
      break;
    case Op::CpAsync:
      if (exec) async_copy(w, in, pc, exec, r);
      st.top().pc = static_cast<int32_t>(pc + 1);
      break;
    case Op::MbarInit:
    case Op::MbarInval:
    case Op::MbarArrive:
    case Op::MbarTx:
    case Op::MbarWait:
    case Op::MbarPending:
    case Op::CpAsyncMbarArrive:
    case Op::CpAsyncBulk:
      mbarrier_op(w, in, pc, exec, r);
      break;
    case Op::WmmaLoad:
    case Op::WmmaStore:
    case Op::WmmaMma:
      if (exec) matrix_op(w, in, pc, exec, r);
      st.top().pc = static_cast<int32_t>(pc + 1);
      break;
    case Op::ReadClock: {
      uint64_t* d = w.regs + size_t(in.d[0].reg) * isa::kWarpLanes;
      uint64_t v = in.stype == isa::DType::U32 ? (now & 0xFFFFFFFFu) : now;
      exec::for_lanes(exec, [&](int l) { d[l] = v; });
      st.top().pc = static_cast<int32_t>(pc + 1);
      break;
    }
    case Op::ReadGlobalTimer: {
      uint64_t* d = w.regs + size_t(in.d[0].reg) * isa::kWarpLanes;
      const uint64_t ns = static_cast<uint64_t>(static_cast<double>(now) * ctx_.ns_per_cycle);
      const uint64_t v = in.stype == isa::DType::U64 ? ns : in.width == isa::Width::Hi ? ns >> 32 : ns & 0xFFFFFFFFu;
      exec::for_lanes(exec, [&](int l) { d[l] = v; });
      st.top().pc = static_cast<int32_t>(pc + 1);
      break;
    }
    case Op::Call:
      st.top().pc = static_cast<int32_t>(pc + 1);  // where the callee returns to
      if (exec) call(w, in, pc, exec);
      break;
    case Op::FuncRet:
      func_return(w, pc);
      break;
    case Op::Trap:
      if (exec) fault(w, std::countr_zero(exec), pc, "trap instruction executed", KernelFault::Kind::Trap);
      st.top().pc = static_cast<int32_t>(pc + 1);
      break;
    default:  // membar, bar.warp.sync, nop: no functional effect in lockstep execution
      st.top().pc = static_cast<int32_t>(pc + 1);
      break;
  }
}

void WarpExecutor::branch(Warp& w, const Instr& in, uint32_t pc, uint32_t active, uint32_t taken, StepResult& r) {
  ++stats_.exec.branch;
  const uint32_t fall = active & ~taken;
  const bool diverged = taken != 0 && fall != 0;
  if (in.has_guard && in.branch_id >= 0) {
    auto& bs = stats_.branches;
    if (bs.size() <= static_cast<size_t>(in.branch_id)) bs.resize(ctx_.kernel->num_branches);
    BranchInstanceStats& b = bs[in.branch_id];
    b.pc = pc;
    uint32_t k = w.branch_executions[in.branch_id]++;
    if (b.reached.size() <= k) {
      b.reached.resize(k + 1, 0);
      b.diverged.resize(k + 1, 0);
    }
    ++b.reached[k];
    if (diverged) ++b.diverged[k];
  }
  SimtStack& st = w.stack;
  if (fall == 0) {
    st.top().pc = in.a.target;
  } else if (taken == 0) {
    st.top().pc = static_cast<int32_t>(pc + 1);
  } else {
    ++stats_.exec.divergent_branch;
    ++stats_.per_pc[pc].divergent;
    st.diverge(in.reconv, in.a.target, taken, static_cast<int32_t>(pc + 1), fall);
    r.diverged = true;
  }
  st.reconverge();
}

void WarpExecutor::exit_threads(Warp& w, uint32_t exiting, StepResult& r) {
  BlockState& b = *w.block;
  exiting &= w.live_mask;
  w.live_mask &= ~exiting;
  b.live_threads -= std::popcount(exiting);
  if (b.cluster) cluster_threads_exit(w, exiting);
  const bool left = w.stack.remove_threads(exiting);
  // Activations whose threads have all exited are gone with their reconvergence entry.
  while (!w.frames.empty() && w.stack.depth() <= w.frames.back().simt_depth) w.frames.pop_back();
  if (!left) {
    w.done = true;
    ++b.warps_done;
    auto& per_sm = stats_.exec.round_robin_sm_instructions;
    per_sm[b.linear % per_sm.size()] += w.instructions;
    stats_.exec.longest_warp_instructions = std::max(stats_.exec.longest_warp_instructions, w.instructions);
    r.kind = StepResult::Kind::WarpDone;
    if (b.cluster && b.finished()) {
      b.cluster = nullptr;
      ctx_.clusters->leave(b.cluster_id, b.cluster_rank);
    }
  }
  if (release_barrier_if_complete(b)) r.barrier_released = true;
}

void WarpExecutor::arrive_at_barrier(Warp& w, uint32_t pc, uint32_t active, StepResult& r) {
  BlockState& b = *w.block;
  ++stats_.exec.barriers;
  b.arrived += std::popcount(active);
  w.at_barrier = true;
  w.barrier_pc = pc;
  if (release_barrier_if_complete(b)) {
    r.barrier_released = true;
    return;
  }
  r.kind = StepResult::Kind::WaitingAtBarrier;
  // Every live warp now waits at a barrier that still lacks threads: nothing can ever
  // arrive (the missing threads are on another path of a divergent branch). A warp at the
  // cluster's barrier may still be released by the cluster's other blocks.
  for (const Warp& o : b.warps)
    if (!o.done && (!o.at_barrier || o.cluster_waiting || o.mbar_waiting)) return;
  report_deadlock(b);
}

uint32_t WarpExecutor::red_predicate(const Warp& w, const Instr& in) const {
  if (in.b.kind == isa::Operand::Kind::Const) return static_cast<uint32_t>(ctx_.kernel->consts[in.b.reg]);
  const uint32_t p = w.preds[in.b.reg];
  return in.b.neg ? ~p : p;
}

bool WarpExecutor::release_barrier_if_complete(BlockState& b) {
  if (b.arrived == 0 || b.arrived < b.live_threads) return false;
  for (Warp& w : b.warps) {
    if (!BlockState::at_block_barrier(w)) continue;
    const Instr& in = ctx_.kernel->code[w.barrier_pc];
    if (in.op == Op::BarRed) {
      // The reduction over every thread that reached the barrier, to each of this warp's.
      const uint32_t at = w.stack.top().mask;
      if (in.boolop == isa::BoolOp::None) {
        uint64_t* d = w.regs + size_t(in.d[0].reg) * isa::kWarpLanes;
        exec::for_lanes(at, [&](int l) { d[l] = b.red_true; });
      } else {
        const bool v = in.boolop == isa::BoolOp::And ? b.red_true == b.arrived : b.red_true != 0;
        uint32_t& p = w.preds[in.d[0].reg];
        p = v ? (p | at) : (p & ~at);
      }
    }
    w.at_barrier = false;
    w.stack.top().pc = static_cast<int32_t>(w.barrier_pc + 1);
  }
  b.arrived = 0;
  b.red_true = 0;
  return true;
}

namespace {

std::string lane_list(uint32_t mask) {
  std::string s;
  int l = 0;
  while (l < 32) {
    if (!((mask >> l) & 1)) {
      ++l;
      continue;
    }
    int e = l;
    while (e + 1 < 32 && ((mask >> (e + 1)) & 1)) ++e;
    s += s.empty() ? "" : ",";
    s += e == l ? fmt::format("{}", l) : fmt::format("{}-{}", l, e);
    l = e + 1;
  }
  return s.empty() ? "none" : s;
}

}  // namespace

void WarpExecutor::report_deadlock(const BlockState& b) const {
  const isa::Kernel& k = *ctx_.kernel;
  std::string detail;
  uint32_t shown = 0;
  for (const Warp& w : b.warps) {
    if (w.done) continue;
    if (++shown > 8) {
      detail += "\n  ...";
      break;
    }
    uint32_t at = w.stack.top().mask;
    detail += fmt::format("\n  warp {}: {} thread(s) (lanes {}) wait at PTX line {} `{}`", w.index,
                          std::popcount(at), lane_list(at), k.code[w.barrier_pc].ptx_line, k.text[w.barrier_pc]);
    uint32_t others = w.live_mask & ~at;
    if (others) {
      // Find where the other threads are parked on the reconvergence stack.
      const auto& es = w.stack.entries();
      for (size_t i = es.size() - 1; i-- > 0;) {
        if (es[i].mask & others) {
          int32_t pc = es[i].pc;
          detail += fmt::format("; lanes {} are on another path of a divergent branch (next: PTX line {})",
                                lane_list(es[i].mask & others),
                                pc >= 0 ? k.code[pc].ptx_line : k.code.back().ptx_line);
          break;
        }
      }
    }
  }
  if (!b.mbar_parked.empty())
    throw KernelFault(KernelFault::Kind::Deadlock,
                      fmt::format("mbarrier deadlock in kernel '{}', block ({},{},{}): {} warp(s) wait at an mbarrier "
                                  "for a phase that never completes (too few arrivals or transaction bytes: an "
                                  "mbarrier.init count above the threads that arrive?), and no other thread of the "
                                  "block can go on{}",
                                  k.name, b.idx.x, b.idx.y, b.idx.z, b.mbar_parked.size(), detail));
  bool cluster_wait = false;
  for (const Warp& w : b.warps) cluster_wait |= !w.done && w.cluster_waiting;
  if (cluster_wait && b.cluster)
    throw KernelFault(KernelFault::Kind::Deadlock,
                      fmt::format("cluster barrier deadlock in kernel '{}', block ({},{},{}) (rank {} of a cluster of "
                                  "{}): {} of the cluster's {} live threads arrived at barrier.cluster and the rest "
                                  "can never arrive (a barrier.cluster.arrive inside divergent code, or a block "
                                  "waiting on the block barrier?){}",
                                  k.name, b.idx.x, b.idx.y, b.idx.z, b.cluster_rank, ctx_.cluster.count(),
                                  b.cluster->arrived, b.cluster->live_threads, detail));
  throw KernelFault(KernelFault::Kind::Deadlock,
                    fmt::format("barrier deadlock in kernel '{}', block ({},{},{}): {} of {} live threads reached "
                                "bar.sync and the rest can never arrive (a barrier inside divergent code?){}",
                                k.name, b.idx.x, b.idx.y, b.idx.z, b.arrived, b.live_threads, detail));
}

std::string WarpExecutor::thread_name(const Warp& w, uint32_t lane) const {
  uint32_t t = w.index * ctx_.warp_size + lane;
  const Dim3 bd = ctx_.block;
  return fmt::format("({},{},{})", t % bd.x, (t / bd.x) % bd.y, t / (bd.x * bd.y));
}

void WarpExecutor::fault(const Warp& w, uint32_t lane, uint32_t pc, const std::string& what,
                         KernelFault::Kind kind) const {
  const isa::Kernel& k = *ctx_.kernel;
  const BlockState& b = *w.block;
  const Instr& in = k.code[pc];
  std::string src;
  if (in.loc_file && in.loc_line && k.module) {
    auto f = k.module->files.find(in.loc_file);
    if (f != k.module->files.end()) src = fmt::format(", source {}:{}", f->second, in.loc_line);
  }
  throw KernelFault(kind,
                    fmt::format("{} in kernel '{}', block ({},{},{}), thread {}, at {}:{} `{}`{}", what, k.name,
                                b.idx.x, b.idx.y, b.idx.z, thread_name(w, lane),
                                k.module ? k.module->path : std::string("<ptx>"), in.ptx_line, k.text[pc], src));
}

}  // namespace warpsim::sm
