// The commonest shared-memory accesses in tight functions: ld.shared or st.shared (the
// explicit space, not a generic address) of one 1-, 2-, 4- or 8-byte element per lane, or
// (a full warp) a vector of them, every lane in bounds and aligned; a full warp's data
// moved by the plan of its pattern (shared_access_plan.hpp). Anything else, a fault
// included, is left to load_store_sized (warp_memory_ops.cpp), which produces the same
// record and counts and names the faulting thread.
#include "sim/memory/shared_pattern_tally.hpp"
#include "sim/sm/lane_elements.hpp"
#include "sim/sm/warp_executor.hpp"

namespace warpsim::sm {

using isa::Instr;
using isa::Op;
using isa::Space;
using detail::read_elem;
using detail::write_elem;

namespace {

// A plan's runs, for one element per lane (nv = 1) or a vector (ld/st.shared.v2/.v4):
// element e of the run's k-th lane is at k * span + e * EB from the run's first address
// (span = EB * nv; a run at one address: k = 0 for every lane). Loads fill each run's
// lanes; null value registers are sinks. Stores write the runs in lane order, a run at one
// address only its last lane's values (what the lanes one by one would leave: the
// highest lane's).
template <int EB>
void load_vector_runs(const SharedAccessPlan& p, const uint8_t* sh, const uint64_t* addr, int nv,
                      uint64_t* const* val, bool sgn) {
  const uint32_t span = uint32_t(EB) * nv;
  for (int i = 0; i < p.nruns; ++i) {
    const SharedRun r = p.runs[i];
    const uint8_t* src = sh + addr[r.first];
    for (int e = 0; e < nv; ++e) {
      uint64_t* out = val[e];
      if (!out) continue;
      out += r.first;
      if (r.same_address) {
        const uint64_t v = read_elem<EB>(src + e * EB, sgn);
        for (int k = 0; k < r.count; ++k) out[k] = v;
      } else {
        for (int k = 0; k < r.count; ++k) out[k] = read_elem<EB>(src + k * span + e * EB, sgn);
      }
    }
  }
}

template <int EB>
void store_vector_runs(const SharedAccessPlan& p, uint8_t* sh, const uint64_t* addr, int nv,
                       const uint64_t* const* val) {
  const uint32_t span = uint32_t(EB) * nv;
  for (int i = 0; i < p.nruns; ++i) {
    const SharedRun r = p.runs[i];
    uint8_t* dst = sh + addr[r.first];
    if (r.same_address) {
      for (int e = 0; e < nv; ++e) write_elem<EB>(dst + e * EB, val[e][r.first + r.count - 1]);
    } else {
      for (int k = 0; k < r.count; ++k)
        for (int e = 0; e < nv; ++e) write_elem<EB>(dst + k * span + e * EB, val[e][r.first + k]);
    }
  }
}

}  // namespace

SharedAccessPlan& WarpExecutor::new_shared_plan(uint32_t pc) {
  shared_plan_index_[pc] = uint32_t(shared_plans_.size());
  return shared_plans_.emplace_back();
}

template <int EB>
bool WarpExecutor::shared_scalar(Warp& w, const Instr& in, uint32_t mask, StepResult& r) {
  const bool is_load = in.op == Op::Ld;
  const isa::Operand& vo = is_load ? in.d[0] : in.b;
  if (vo.kind != isa::Operand::Kind::Reg && (is_load || vo.kind != isa::Operand::Kind::Const)) return false;
  const isa::Operand& ao = in.a;
  const uint64_t off = uint64_t(ao.offset);
  mem::WarpMemAccess& acc = accesses_[r.n_accesses];
  uint64_t* const addr = acc.addr.data();
  // Shared offsets are 32-bit; the OR of them bounds their maximum and shows misalignment.
  uint64_t any = 0;
  // A full warp from a base register: checked against the plan of its last execution here.
  SharedAccessPlan* plan = nullptr;
  bool same_plan = false;
  if (mask == 0xFFFFFFFFu) {
    if (ao.has_base) {
      plan = &shared_plan(r.pc);
      uint64_t differs = 0;
      any = full_warp_offsets_against(w.regs + size_t(ao.base) * isa::kWarpLanes, off, plan->delta.data(), addr,
                                      differs);
      same_plan = plan->pattern != 0 && differs == 0;
    } else {
      for (int l = 0; l < isa::kWarpLanes; ++l) any |= addr[l] = off & 0xFFFFFFFFull;
    }
  } else {
    const uint64_t* base = ao.has_base ? w.regs + size_t(ao.base) * isa::kWarpLanes : nullptr;
    exec::for_lanes(mask, [&](int l) { any |= addr[l] = ((base ? base[l] : 0) + off) & 0xFFFFFFFFull; });
  }
  if (any & (EB - 1)) return false;
  BlockState& b = *w.block;
  const uint64_t limit = b.shared_bytes;
  if (any + EB > limit) {
    uint64_t top = 0;
    exec::for_lanes(mask, [&](int l) { top = std::max(top, addr[l]); });
    if (top + EB > limit) return false;
  }
  if (plan && !same_plan) {
    make_shared_plan(addr, EB, *plan);
    plan->pattern = ++last_pattern_;
  }
  const bool runs = plan && plan->nruns != 0;
  uint8_t* const sh = b.shared.data();
  ExecStats& es = stats_.exec;
  if (is_load) {
    uint64_t* d = w.regs + size_t(vo.reg) * isa::kWarpLanes;
    const bool sgn = isa::is_signed(in.type);
    // A full warp: its runs, or one plain load and store a lane. Looking for rows or
    // broadcasts every time to load four lanes at once cost more in compares than the
    // loads it saved; the plan finds them once per pattern.
    if (runs && EB == 4 && !sgn) {
      load_runs_u32(*plan, sh + addr[0], d);
    } else if (runs) {
      uint64_t* const val[1] = {d};
      load_vector_runs<EB>(*plan, sh, addr, 1, val, sgn);
    } else if (mask == 0xFFFFFFFFu && !sgn) {
      for (int l = 0; l < isa::kWarpLanes; ++l) d[l] = read_elem<EB>(sh + addr[l], false);
    } else if (sgn) {
      exec::for_lanes(mask, [&](int l) { d[l] = read_elem<EB>(sh + addr[l], true); });
    } else {
      exec::for_lanes(mask, [&](int l) { d[l] = read_elem<EB>(sh + addr[l], false); });
    }
    ++es.shared_load_requests;
  } else {
    const uint64_t* v = (vo.kind == isa::Operand::Kind::Const ? ctx_.kernel->consts_bcast.data() : w.regs) +
                        size_t(vo.reg) * isa::kWarpLanes;
    // Lane order: of several lanes storing to one address the highest lane's value stays.
    const uint64_t* const val[1] = {v};
    if (runs) store_vector_runs<EB>(*plan, sh, addr, 1, val);
    else exec::for_lanes(mask, [&](int l) { write_elem<EB>(sh + addr[l], v[l]); });
    ++es.shared_store_requests;
  }
  acc.set(Space::Shared, is_load ? mem::AccessKind::Load : mem::AccessKind::Store, EB, 1, mask, in.cache,
          in.is_volatile);
  if (plan) acc.pattern = plan->pattern;
  ++r.n_accesses;
  r.accesses = accesses_.data();
  return true;
}

const SharedAccessPlan* WarpExecutor::repeat_plan(uint32_t pc) const {
  const uint32_t i = shared_plan_index_[pc];
  if (i == UINT32_MAX) return nullptr;
  const SharedAccessPlan& plan = shared_plans_[i];
  return plan.pattern != 0 && plan.nruns != 0 ? &plan : nullptr;
}

bool WarpExecutor::shared_load_repeat(Warp& w, const Instr& in, uint32_t pc, MemoryObserver* observer,
                                      SharedPatternTally* tally, uint64_t run) {
  const SharedAccessPlan* const known_plan = repeat_plan(pc);
  if (!known_plan) return false;
  const SharedAccessPlan& plan = *known_plan;
  BlockState& b = *w.block;
  RepeatLoad& rl = repeat_loads_[pc];
  // The base register's lanes are where the earlier load of this run found them (nothing
  // between wrote it): with the same offsets in both plans, only lane 0 needs a look.
  bool known = false;
  if (rl.prev != kNoChainLoad && repeat_loads_[rl.prev].checked_in == run) {
    const uint64_t earlier = repeat_loads_[rl.prev].checked_pattern;
    if (rl.prev_pattern != earlier || rl.own_pattern != plan.pattern) {
      rl.prev_pattern = earlier;
      rl.own_pattern = plan.pattern;
      rl.same_offsets = shared_plans_[shared_plan_index_[rl.prev]].delta == plan.delta;
    }
    known = rl.same_offsets;
  }
  const uint64_t* const base = w.regs + size_t(in.a.base) * isa::kWarpLanes;
  uint64_t* const d = w.regs + size_t(in.d[0].reg) * isa::kWarpLanes;
  const uint64_t a0 =
      known ? load_u32_by_known_plan(plan, base[0], uint64_t(in.a.offset), b.shared.data(), b.shared_bytes, d)
            : load_u32_by_plan(plan, base, uint64_t(in.a.offset), b.shared.data(), b.shared_bytes, d);
  if (a0 == kNotByPlan) return false;
  rl.checked_in = run;
  rl.checked_pattern = plan.pattern;
  ++stats_.exec.shared_load_requests;
  if (observer && !(tally && tally->count_load(pc, plan.pattern, a0))) {
    // The whole record, as shared_scalar<4> makes it.
    mem::WarpMemAccess& acc = accesses_[0];
    acc.set(Space::Shared, mem::AccessKind::Load, 4, 1, 0xFFFFFFFFu, in.cache, in.is_volatile);
    for (int l = 0; l < isa::kWarpLanes; ++l) acc.addr[l] = a0 + uint64_t(plan.delta[l]);
    acc.pattern = plan.pattern;
    observer->on_access(acc, in, pc, b.linear, w.index);
  }
  return true;
}

uint32_t WarpExecutor::shared_load_tallied(Warp& w, const Instr& in, uint32_t pc, SharedPatternTally& tally) {
  if (repeat_loads_.empty()) make_repeat_loads();
  if (!repeat_loads_[pc].eligible) return 0;
  const SharedAccessPlan* const known_plan = repeat_plan(pc);
  if (!known_plan) return 0;
  const SharedAccessPlan& plan = *known_plan;
  const uint64_t* const base = w.regs + size_t(in.a.base) * isa::kWarpLanes;
  const uint64_t off = uint64_t(in.a.offset);
  // Asked before the load, which may overwrite its own base register: lane 0's offset as
  // load_u32_by_plan computes it.
  if (!tally.knows(pc, plan.pattern, (base[0] + off) & 0xFFFFFFFFull)) return 0;
  BlockState& b = *w.block;
  uint64_t* const d = w.regs + size_t(in.d[0].reg) * isa::kWarpLanes;
  const uint64_t a0 = load_u32_by_plan(plan, base, off, b.shared.data(), b.shared_bytes, d);
  if (a0 == kNotByPlan) return 0;
  ++stats_.exec.shared_load_requests;
  return tally.count_load_passes(pc, plan.pattern, a0);
}

template <int EB>
bool WarpExecutor::shared_vector(Warp& w, const Instr& in, uint32_t mask, StepResult& r) {
  const bool is_load = in.op == Op::Ld;
  const isa::Operand& vo = is_load ? in.d[0] : in.b;
  const isa::Operand& ao = in.a;
  const int nv = in.vec;
  if (mask != 0xFFFFFFFFu || !ao.has_base || vo.kind != isa::Operand::Kind::Vec || nv > 4) return false;
  const uint32_t span = uint32_t(EB) * nv;
  mem::WarpMemAccess& acc = accesses_[r.n_accesses];
  uint64_t* const addr = acc.addr.data();
  SharedAccessPlan& plan = shared_plan(r.pc);
  uint64_t differs = 0;
  const uint64_t any = full_warp_offsets_against(w.regs + size_t(ao.base) * isa::kWarpLanes, uint64_t(ao.offset),
                                                 plan.delta.data(), addr, differs);
  // Misaligned, past the block's shared memory or in another block of the cluster: the
  // general path, which faults or goes there.
  if (any & (span - 1)) return false;
  BlockState& b = *w.block;
  const uint64_t limit = b.shared_bytes;
  if (any + span > limit) {
    uint64_t top = 0;
    for (int l = 0; l < isa::kWarpLanes; ++l) top = std::max(top, addr[l]);
    if (top + span > limit) return false;
  }
  if (plan.pattern == 0 || differs != 0) {
    make_shared_plan(addr, span, plan);
    plan.pattern = ++last_pattern_;
  }
  const uint64_t* const_base = ctx_.kernel->consts_bcast.data();
  uint64_t* val[4] = {nullptr, nullptr, nullptr, nullptr};
  for (int e = 0; e < nv; ++e)
    if (vo.vec[e] != isa::kSinkSlot)
      val[e] = const_cast<uint64_t*>((vo.vec_const[e] ? const_base : w.regs) + size_t(vo.vec[e]) * isa::kWarpLanes);
  uint8_t* const sh = b.shared.data();
  ExecStats& es = stats_.exec;
  if (is_load) {
    const bool sgn = isa::is_signed(in.type);
    if (plan.nruns) {
      load_vector_runs<EB>(plan, sh, addr, nv, val, sgn);
    } else {
      for (int e = 0; e < nv; ++e)
        if (uint64_t* d = val[e])
          for (int l = 0; l < isa::kWarpLanes; ++l) d[l] = read_elem<EB>(sh + addr[l] + e * EB, sgn);
    }
    ++es.shared_load_requests;
  } else {
    if (plan.nruns) {
      store_vector_runs<EB>(plan, sh, addr, nv, val);
    } else {
      for (int l = 0; l < isa::kWarpLanes; ++l)  // lane order
        for (int e = 0; e < nv; ++e) write_elem<EB>(sh + addr[l] + e * EB, val[e][l]);
    }
    ++es.shared_store_requests;
  }
  acc.set(Space::Shared, is_load ? mem::AccessKind::Load : mem::AccessKind::Store, EB, nv, mask, in.cache,
          in.is_volatile);
  acc.pattern = plan.pattern;
  ++r.n_accesses;
  r.accesses = accesses_.data();
  return true;
}

template bool WarpExecutor::shared_vector<1>(Warp&, const Instr&, uint32_t, StepResult&);
template bool WarpExecutor::shared_vector<2>(Warp&, const Instr&, uint32_t, StepResult&);
template bool WarpExecutor::shared_vector<4>(Warp&, const Instr&, uint32_t, StepResult&);
template bool WarpExecutor::shared_vector<8>(Warp&, const Instr&, uint32_t, StepResult&);
template bool WarpExecutor::shared_scalar<1>(Warp&, const Instr&, uint32_t, StepResult&);
template bool WarpExecutor::shared_scalar<2>(Warp&, const Instr&, uint32_t, StepResult&);
template bool WarpExecutor::shared_scalar<4>(Warp&, const Instr&, uint32_t, StepResult&);
template bool WarpExecutor::shared_scalar<8>(Warp&, const Instr&, uint32_t, StepResult&);

}  // namespace warpsim::sm
