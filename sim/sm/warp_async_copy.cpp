// cp.async in the warp executor: each lane copies 4, 8 or 16 bytes from global to shared
// memory (reading `src-size` of them and zero-filling the rest). The copy is made when the
// instruction executes; a correct program reads the bytes only after cp.async.wait_group,
// so it sees what the GPU gives it. Timing: the global read goes to the memory system as a
// load without a destination register, the shared write to the banks, and the warp's
// cp.async.wait_group waits until its copies' loads have returned (sm_core.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "sim/sm/warp_executor.hpp"

namespace warpsim::sm {

using isa::Instr;
using isa::Space;

void WarpExecutor::async_copy(Warp& w, const Instr& in, uint32_t pc, uint32_t mask, StepResult& r) {
  const isa::Kernel& k = *ctx_.kernel;
  const exec::ExecCtx c{w.regs, w.preds, k.consts_bcast.data(), w.live_mask};
  const uint32_t size = 4u * in.vec;
  const uint64_t* dbase = in.a.has_base ? w.regs + size_t(in.a.base) * isa::kWarpLanes : nullptr;
  const uint64_t* sbase = in.b.has_base ? w.regs + size_t(in.b.base) * isa::kWarpLanes : nullptr;
  const uint64_t* src_size = in.c.kind != isa::Operand::Kind::None ? exec::src(c, in.c) : nullptr;
  const uint32_t ignore = in.e.kind == isa::Operand::Kind::Pred ? exec::pred_src(c, in.e) : 0;
  mem::WarpMemAccess& ld = accesses_[0];
  mem::WarpMemAccess& st = accesses_[1];
  BlockState& b = *w.block;
  mem::GlobalMemory& gm = *ctx_.gmem;
  uint32_t read_mask = 0;
  exec::for_lanes(mask, [&](int l) {
    const uint64_t dst = ((dbase ? dbase[l] : 0) + uint64_t(in.a.offset)) & 0xFFFFFFFFu;
    const uint64_t src = (sbase ? sbase[l] : 0) + uint64_t(in.b.offset);
    const uint32_t n = (ignore >> l & 1) ? 0 : src_size ? static_cast<uint32_t>(src_size[l]) : size;
    if (n > size)
      fault(w, l, pc, fmt::format("cp.async reads {} bytes of a {}-byte copy (src-size must be at most cp-size)", n,
                                  size));
    if (dst % size || src % size)
      fault(w, l, pc, fmt::format("misaligned cp.async of {} bytes from {:#x} to shared offset {} (both must be "
                                  "{}-byte aligned)",
                                  size, src, dst, size));
    if (dst + size > b.shared_bytes)
      fault(w, l, pc, fmt::format("out-of-bounds cp.async of {} bytes to shared offset {} (the block has {} bytes of "
                                  "shared memory)",
                                  size, dst, b.shared_bytes));
    uint8_t bytes[16] = {};
    if (n) {
      const mem::GlobalMemory::Allocation* al = gm.find(src, n);
      if (!al)
        fault(w, l, pc, fmt::format("out-of-bounds cp.async read of {} bytes at {:#x} ({})", n, src,
                                    gm.describe(src, n)));
      gm.read(*al, src, bytes, n);
      read_mask |= 1u << l;
    }
    std::memcpy(b.shared.data() + dst, bytes, size);
    ld.addr[l] = src;
    st.addr[l] = dst;
  });
  auto fill = [&](mem::WarpMemAccess& a, Space sp, mem::AccessKind kind, uint32_t m) {
    a.set(sp, kind, 4, in.vec, m, in.cache);
  };
  ExecStats& es = stats_.exec;
  r.accesses = accesses_.data();
  r.n_accesses = 0;
  if (read_mask) {
    fill(ld, Space::Global, mem::AccessKind::Load, read_mask);
    r.n_accesses = 1;
    ++es.gld_requests;
  }
  mem::WarpMemAccess& s = accesses_[r.n_accesses++];
  if (&s != &st) s.addr = st.addr;
  fill(s, Space::Shared, mem::AccessKind::Store, mask);
  ++es.shared_store_requests;
}

}  // namespace warpsim::sm
