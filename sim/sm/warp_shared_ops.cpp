// The commonest shared-memory access in one tight function: ld.shared or st.shared (the
// explicit space, not a generic address) of one 1-, 2-, 4- or 8-byte element per lane, every
// lane in bounds and aligned. Anything else, a fault included, is left to
// load_store_sized (warp_memory_ops.cpp), which produces the same record and counts and
// names the faulting thread.
#include "sim/sm/lane_elements.hpp"
#include "sim/sm/warp_executor.hpp"

namespace warpsim::sm {

using isa::Instr;
using isa::Op;
using isa::Space;
using detail::read_elem;
using detail::write_elem;

namespace {

// A full warp's 32-bit shared offsets, base register plus offset wrapped to 32 bits, and
// the OR of them (it bounds their maximum and shows misalignment). Called for most shared
// accesses; the x86-64-v3 clone adds four lanes per instruction.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
uint64_t full_warp_offsets(const uint64_t* base, uint64_t off, uint64_t* addr) {
  uint64_t any = 0;
  for (int l = 0; l < isa::kWarpLanes; ++l) any |= addr[l] = (base[l] + off) & 0xFFFFFFFFull;
  return any;
}

}  // namespace

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
  if (mask == 0xFFFFFFFFu) {
    if (ao.has_base) {
      any = full_warp_offsets(w.regs + size_t(ao.base) * isa::kWarpLanes, off, addr);
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
  uint8_t* const sh = b.shared.data();
  ExecStats& es = stats_.exec;
  if (is_load) {
    uint64_t* d = w.regs + size_t(vo.reg) * isa::kWarpLanes;
    const bool sgn = isa::is_signed(in.type);
    // A full warp: one plain load and store a lane. Looking for rows or broadcasts to load
    // four lanes at once cost more in compares than the loads it saved.
    if (mask == 0xFFFFFFFFu && !sgn) {
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
    exec::for_lanes(mask, [&](int l) { write_elem<EB>(sh + addr[l], v[l]); });
    ++es.shared_store_requests;
  }
  acc.set(Space::Shared, is_load ? mem::AccessKind::Load : mem::AccessKind::Store, EB, 1, mask, in.cache,
          in.is_volatile);
  ++r.n_accesses;
  r.accesses = accesses_.data();
  return true;
}

template bool WarpExecutor::shared_scalar<1>(Warp&, const Instr&, uint32_t, StepResult&);
template bool WarpExecutor::shared_scalar<2>(Warp&, const Instr&, uint32_t, StepResult&);
template bool WarpExecutor::shared_scalar<4>(Warp&, const Instr&, uint32_t, StepResult&);
template bool WarpExecutor::shared_scalar<8>(Warp&, const Instr&, uint32_t, StepResult&);

}  // namespace warpsim::sm
