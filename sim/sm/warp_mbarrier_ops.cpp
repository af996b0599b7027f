// mbarrier objects in the warp executor (sm_80 and later: cuda::barrier, cuda::pipeline with
// a block-scope shared state, cuda::memcpy_async with a barrier, the TMA's completion).
//
// An mbarrier is 8 bytes of the block's shared memory, in warpsim's own layout (the GPU's is
// not documented, and programs treat the object as opaque): bits 0-19 the arrivals the
// current phase still waits for, 20-39 the arrivals each phase expects, 40-61 the pending
// transaction bytes (signed), bit 62 set once initialised, bit 63 the current phase's
// parity. A state token (what arrive returns) is the parity of the phase it arrived in
// (bit 63), bit 62 set, and the arrivals that phase waited for before it (bits 0-19: what
// pending_count reads, as on an H200: docs/measurements/h200_mbarrier_probe_2026-12-03.txt;
// a plain load of the object there reads 1, here the word above). A phase completes when its pending arrivals and transaction
// bytes are both zero: the parity flips and the pending arrivals start again from the
// expected ones. A wait asks whether the phase of a state or a parity has completed (the
// current phase's parity differs from it).
//
// Lanes act in lane order. Misuse the PTX ISA leaves undefined faults, naming the thread:
// an mbarrier not initialised, more arrivals than the phase waits for, a noComplete
// arrival that completes its phase, counts or transaction bytes out of range.
//
// Waits: see WarpExecutor::release_mbarrier_waits. In timing mode (set_timed) test_wait
// never parks and the SM wakes the warps a completed phase finished (sm_core.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "sim/sm/warp_executor.hpp"

namespace warpsim::sm {

using isa::Instr;
using isa::Op;
using isa::Space;

namespace {
constexpr uint64_t kCountMask = (uint64_t(1) << 20) - 1;
constexpr int kExpectedShift = 20, kTxShift = 40;
constexpr uint64_t kTxMask = (uint64_t(1) << 22) - 1;
constexpr int64_t kTxLimit = (int64_t(1) << 20) - 1;  // the PTX ISA's range of tx-count: +-(2^20 - 1)
constexpr uint64_t kValid = uint64_t(1) << 62, kParity = uint64_t(1) << 63;

uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
void store64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }
uint64_t pending(uint64_t v) { return v & kCountMask; }
uint64_t expected(uint64_t v) { return (v >> kExpectedShift) & kCountMask; }
int64_t tx(uint64_t v) {
  const int64_t t = int64_t((v >> kTxShift) & kTxMask);
  return t >= (int64_t(1) << 21) ? t - (int64_t(1) << 22) : t;
}
uint64_t with(uint64_t parity, uint64_t pend, uint64_t exp, int64_t t) {
  return parity | kValid | pend | (exp << kExpectedShift) | ((uint64_t(t) & kTxMask) << kTxShift);
}
// Lane `lane`'s address of an address operand.
uint64_t lane_address(const Warp& w, const isa::Operand& a, uint32_t lane) {
  return (a.has_base ? w.regs[size_t(a.base) * isa::kWarpLanes + lane] : 0) + uint64_t(a.offset);
}
}  // namespace

uint64_t WarpExecutor::own_shared_offset(const Warp& w, uint32_t lane, uint32_t pc, uint64_t off,
                                         const char* what) const {
  if (!(off >> isa::kClusterRankShift)) return off;
  if (cluster_block(w, off) != w.block)
    fault(w, lane, pc, fmt::format("unsupported: {} in another block's shared memory (shared::cluster address {:#x})",
                                   what, off),
          KernelFault::Kind::Trap);
  return off & isa::kSharedOffsetMask;
}

uint64_t WarpExecutor::mbarrier_load(const Warp& w, uint32_t lane, uint32_t pc, const uint64_t* word,
                                     const char* what) const {
  const uint64_t v = load64(reinterpret_cast<const uint8_t*>(word));
  if (!(v & kValid))
    fault(w, lane, pc, fmt::format("{} on an mbarrier that is not initialised (mbarrier.init)", what),
          KernelFault::Kind::Trap);
  return v;
}

void WarpExecutor::mbarrier_store(const Warp& w, uint64_t* word, uint64_t parity, uint64_t pend, uint64_t exp,
                                  int64_t t) {
  if (pend == 0 && t == 0) {  // the phase completes: the next one waits for the expected arrivals
    store64(reinterpret_cast<uint8_t*>(word), with(parity ^ kParity, exp, exp, 0));
    mbar_phase_done_ = true;
  } else {
    store64(reinterpret_cast<uint8_t*>(word), with(parity, pend, exp, t));
  }
  ++w.block->mbar_changes;
}

uint64_t WarpExecutor::operand_value(const Warp& w, const isa::Operand& o, uint32_t lane) const {
  if (o.kind == isa::Operand::Kind::None) return 1;  // arrive's count when none is written
  if (o.kind == isa::Operand::Kind::Const) return ctx_.kernel->consts[o.reg];
  return w.regs[size_t(o.reg) * isa::kWarpLanes + lane];
}

uint64_t* WarpExecutor::mbarrier_word(const Warp& w, const Instr& in, const isa::Operand& a, uint32_t lane,
                                      uint32_t pc) {
  const uint64_t addr = lane_address(w, a, lane);
  uint64_t off;
  if (in.space == Space::Shared) {
    off = addr & 0xFFFFFFFFu;
  } else if (addr - isa::kSharedWindow < isa::kWindowSize) {
    off = addr - isa::kSharedWindow;
  } else {
    fault(w, lane, pc, fmt::format("mbarrier at generic address {:#x}, which is not in shared memory", addr));
  }
  off = own_shared_offset(w, lane, pc, off, "an mbarrier");
  BlockState& b = *w.block;
  if (off % 8)
    fault(w, lane, pc, fmt::format("misaligned mbarrier at shared offset {} (an mbarrier is 8-byte aligned)", off));
  if (off + 8 > b.shared_bytes)
    fault(w, lane, pc,
          fmt::format("out-of-bounds mbarrier at shared offset {} (the block has {} bytes of shared memory)", off,
                      b.shared_bytes));
  return reinterpret_cast<uint64_t*>(b.shared.data() + off);  // accessed through load64/store64
}

uint64_t WarpExecutor::mbarrier_arrive(const Warp& w, uint32_t lane, uint32_t pc, uint64_t* word, uint32_t count,
                                       uint32_t tx_bytes, uint8_t flags) {
  const uint64_t v = mbarrier_load(w, lane, pc, word, "mbarrier.arrive");
  if (count == 0 || count > kCountMask)
    fault(w, lane, pc, fmt::format("mbarrier arrival count {} (the PTX ISA allows 1 to 2^20 - 1)", count),
          KernelFault::Kind::Trap);
  int64_t t = tx(v);
  if (flags & isa::kMbarExpectTx) {
    t += tx_bytes;
    if (t > kTxLimit)
      fault(w, lane, pc, fmt::format("mbarrier transaction count {} past the PTX ISA's 2^20 - 1", t),
            KernelFault::Kind::Trap);
  }
  const uint64_t pend = pending(v);
  if (count > pend)
    fault(w, lane, pc,
          fmt::format("{} arrival(s) at an mbarrier whose phase waits for {} (the PTX ISA leaves this undefined)",
                      count, pend),
          KernelFault::Kind::Trap);
  uint64_t exp = expected(v);
  if (flags & isa::kMbarDrop) exp -= std::min<uint64_t>(exp, count);
  const uint64_t left = pend - count;
  const uint64_t parity = v & kParity;
  if (left == 0 && t == 0 && (flags & isa::kMbarNoComplete))
    fault(w, lane, pc, "mbarrier.arrive.noComplete completes the phase (the PTX ISA leaves this undefined)",
          KernelFault::Kind::Trap);
  mbarrier_store(w, word, parity, left, exp, t);
  return parity | kValid | pend;  // the state: pending_count reads the arrivals before this one
}

void WarpExecutor::mbarrier_tx(const Warp& w, uint32_t lane, uint32_t pc, uint64_t* word, int64_t delta) {
  const uint64_t v = mbarrier_load(w, lane, pc, word, "expect_tx/complete_tx");
  const int64_t t = tx(v) + delta;
  if (t > kTxLimit || t < -kTxLimit)
    fault(w, lane, pc, fmt::format("mbarrier transaction count {} outside the PTX ISA's +-(2^20 - 1)", t),
          KernelFault::Kind::Trap);
  mbarrier_store(w, word, v & kParity, pending(v), expected(v), t);
}

uint32_t WarpExecutor::mbarrier_done_lanes(const Warp& w, const Instr& in, uint32_t pc, uint32_t mask) {
  const bool by_parity = in.mbar & isa::kMbarParity;
  uint32_t done = 0;
  exec::for_lanes(mask, [&](int l) {
    const uint64_t v = mbarrier_load(w, l, pc, mbarrier_word(w, in, in.a, l, pc), "mbarrier wait");
    const uint64_t operand = operand_value(w, in.b, l);
    const uint64_t waited = by_parity ? (operand & 1) << 63 : operand & kParity;
    if ((v & kParity) != waited) done |= 1u << l;
  });
  return done;
}

void WarpExecutor::mbarrier_wait(Warp& w, const Instr& in, uint32_t pc, uint32_t mask, StepResult& r) {
  BlockState& b = *w.block;
  const bool give_up = w.mbar_give_up;
  if (w.mbar_waiting) {  // released without its phase: leaves the parked list
    b.mbar_parked.erase(std::find(b.mbar_parked.begin(), b.mbar_parked.end(), &w));
    w.mbar_waiting = false;
  }
  w.mbar_give_up = false;
  w.at_barrier = false;
  const uint32_t done = mask ? mbarrier_done_lanes(w, in, pc, mask) : 0;
  if (done != mask && !give_up) {
    // The other side of a divergent branch may be what arrives (threads of one warp waiting
    // for each other): it runs first, and this path executes its wait again once that one
    // reaches their reconvergence point. Not where that path is at a wait itself.
    if (const SimtEntry* s = w.stack.sibling(); s && ctx_.kernel->code[size_t(s->pc)].op != Op::MbarWait) {
      w.stack.run_sibling_first();
      return;
    }
    if ((in.mbar & isa::kMbarTry) || !timed_) {  // parks (a timed test_wait returns false: the warp spins)
      w.at_barrier = true;
      w.mbar_waiting = true;
      w.barrier_pc = pc;
      b.mbar_parked.push_back(&w);
      r.kind = StepResult::Kind::WaitingAtBarrier;
      return;
    }
  }
  uint32_t& p = w.preds[in.d[0].reg];
  p = (p & ~mask) | done;
  w.stack.top().pc = static_cast<int32_t>(pc + 1);
}

void WarpExecutor::mbarrier_phase_completed(BlockState& b) {
  mbar_phase_done_ = false;
  for (size_t i = 0; i < b.mbar_parked.size();) {
    Warp& o = *b.mbar_parked[i];
    const Instr& in = ctx_.kernel->code[o.barrier_pc];
    uint32_t mask = o.stack.top().mask;
    if (in.has_guard) mask &= in.guard_neg ? ~o.preds[in.guard] : o.preds[in.guard];
    if (mbarrier_done_lanes(o, in, o.barrier_pc, mask) != mask) {
      ++i;
      continue;
    }
    uint32_t& p = o.preds[in.d[0].reg];
    p |= mask;
    o.stack.top().pc = static_cast<int32_t>(o.barrier_pc + 1);
    o.at_barrier = false;
    o.mbar_waiting = false;
    o.mbar_give_up = false;
    b.mbar_parked.erase(b.mbar_parked.begin() + static_cast<std::ptrdiff_t>(i));
    if (timed_) mbar_released_.push_back(&o);
  }
}

bool WarpExecutor::release_mbarrier_waits(BlockState& b) {
  bool any = false;
  for (Warp* o : b.mbar_parked) {
    if (o->mbar_given_up_pc == o->barrier_pc && o->mbar_given_up_changes == b.mbar_changes) continue;
    o->mbar_given_up_pc = o->barrier_pc;
    o->mbar_given_up_changes = b.mbar_changes;
    o->at_barrier = false;  // stays parked: its wait executes again and leaves then
    o->mbar_give_up = true;
    any = true;
  }
  return any;
}

void WarpExecutor::mbarrier_complete_tx(Warp& w, uint32_t pc, uint32_t offset, uint32_t bytes) {
  uint8_t* p = w.block->shared.data() + offset;
  mbarrier_tx(w, 0, pc, reinterpret_cast<uint64_t*>(p), -int64_t(bytes));
  if (mbar_phase_done_) mbarrier_phase_completed(*w.block);
}

void WarpExecutor::mbarrier_op(Warp& w, const Instr& in, uint32_t pc, uint32_t mask, StepResult& r) {
  if (in.op == Op::MbarWait) return mbarrier_wait(w, in, pc, mask, r);
  w.stack.top().pc = static_cast<int32_t>(pc + 1);
  if (!mask) return;
  if (in.op == Op::CpAsyncBulk) return bulk_copy(w, in, pc, mask, r);
  auto value = [&](const isa::Operand& o, int l) { return operand_value(w, o, l); };
  BlockState& b = *w.block;
  switch (in.op) {
    case Op::MbarInit:
      exec::for_lanes(mask, [&](int l) {
        const uint64_t count = value(in.b, l) & 0xFFFFFFFFu;
        if (count == 0 || count > kCountMask)
          fault(w, l, pc, fmt::format("mbarrier.init with count {} (the PTX ISA allows 1 to 2^20 - 1)", count),
                KernelFault::Kind::Trap);
        store64(reinterpret_cast<uint8_t*>(mbarrier_word(w, in, in.a, l, pc)), with(0, count, count, 0));
      });
      ++b.mbar_changes;
      break;
    case Op::MbarInval:
      exec::for_lanes(mask, [&](int l) { store64(reinterpret_cast<uint8_t*>(mbarrier_word(w, in, in.a, l, pc)), 0); });
      ++b.mbar_changes;
      break;
    case Op::MbarArrive: {
      uint64_t* d = w.regs + size_t(in.d[0].reg) * isa::kWarpLanes;
      const bool expect_tx = in.mbar & isa::kMbarExpectTx;
      exec::for_lanes(mask, [&](int l) {
        const uint32_t n = static_cast<uint32_t>(expect_tx ? 1 : value(in.b, l));
        const uint32_t t = expect_tx ? static_cast<uint32_t>(value(in.b, l)) : 0;
        d[l] = mbarrier_arrive(w, l, pc, mbarrier_word(w, in, in.a, l, pc), n, t, in.mbar);
      });
      break;
    }
    case Op::MbarTx:
      exec::for_lanes(mask, [&](int l) {
        const int64_t n = int64_t(value(in.b, l) & 0xFFFFFFFFu);
        mbarrier_tx(w, l, pc, mbarrier_word(w, in, in.a, l, pc), (in.mbar & isa::kMbarComplete) ? -n : n);
      });
      break;
    case Op::MbarPending: {
      uint64_t* d = w.regs + size_t(in.d[0].reg) * isa::kWarpLanes;
      exec::for_lanes(mask, [&](int l) { d[l] = value(in.a, l) & kCountMask; });
      break;
    }
    case Op::CpAsyncMbarArrive:
      // The thread's earlier cp.async copies are complete when this executes (functionally at
      // once; in timing mode the SM issues it after they have arrived). Without .noinc the
      // arrival is one the pending count was raised for first: no change but the check.
      exec::for_lanes(mask, [&](int l) {
        uint64_t* word = mbarrier_word(w, in, in.a, l, pc);
        if (in.mbar & isa::kMbarNoInc) {
          mbarrier_arrive(w, l, pc, word, 1, 0, 0);
        } else {
          mbarrier_load(w, l, pc, word, "cp.async.mbarrier.arrive");
        }
      });
      break;
    default: break;
  }
  if (mbar_phase_done_) mbarrier_phase_completed(b);
}

void WarpExecutor::bulk_copy(Warp& w, const Instr& in, uint32_t pc, uint32_t mask, StepResult& r) {
  BlockState& b = *w.block;
  mem::GlobalMemory& gm = *ctx_.gmem;
  // The copy's 16-byte chunks, in lane order, for the memory system: 32 to a warp access.
  constexpr uint32_t kMaxChunks = 32 * 8;
  uint32_t nchunks = 0;
  std::array<uint64_t, kMaxChunks> src_chunk, dst_chunk;
  int64_t deferred_offset = -1;
  uint64_t deferred_bytes = 0;
  exec::for_lanes(mask, [&](int l) {
    const uint64_t dst = own_shared_offset(w, l, pc, lane_address(w, in.a, l) & 0xFFFFFFFFu, "cp.async.bulk");
    const uint64_t src = lane_address(w, in.b, l);
    const uint64_t n = operand_value(w, in.c, l) & 0xFFFFFFFFu;
    if (n == 0 || n % 16 || dst % 16 || src % 16)
      fault(w, l, pc,
            fmt::format("cp.async.bulk of {} bytes from {:#x} to shared offset {} (a bulk copy moves a non-zero "
                        "multiple of 16 bytes between 16-byte aligned addresses)",
                        n, src, dst));
    if (dst + n > b.shared_bytes)
      fault(w, l, pc,
            fmt::format("out-of-bounds cp.async.bulk of {} bytes to shared offset {} (the block has {} bytes of "
                        "shared memory)",
                        n, dst, b.shared_bytes));
    const mem::GlobalMemory::Allocation* al = gm.find(src, n);
    if (!al)
      fault(w, l, pc, fmt::format("out-of-bounds cp.async.bulk read of {} bytes at {:#x} ({})", n, src,
                                  gm.describe(src, n)));
    uint64_t* word = mbarrier_word(w, in, in.e, l, pc);
    gm.read(*al, src, b.shared.data() + dst, static_cast<uint32_t>(n));
    for (uint64_t k = 0; k < n && nchunks < kMaxChunks; k += 16, ++nchunks) {
      src_chunk[nchunks] = src + k;
      dst_chunk[nchunks] = dst + k;
    }
    const int64_t offset = reinterpret_cast<uint8_t*>(word) - b.shared.data();
    if (timed_ && (deferred_offset < 0 || deferred_offset == offset)) {
      deferred_offset = offset;
      deferred_bytes += n;
    } else {
      mbarrier_tx(w, l, pc, word, -int64_t(n));
    }
  });
  if (deferred_bytes) {
    r.mbar_tx_offset = static_cast<uint32_t>(deferred_offset);
    r.mbar_tx_bytes = static_cast<uint32_t>(deferred_bytes);
  }
  ExecStats& es = stats_.exec;
  r.accesses = accesses_.data();
  r.n_accesses = 0;
  for (uint32_t first = 0; first < nchunks; first += 32) {
    const uint32_t count = std::min<uint32_t>(32, nchunks - first);
    const uint32_t lanes = count == 32 ? 0xFFFFFFFFu : (1u << count) - 1;
    mem::WarpMemAccess& ld = accesses_[r.n_accesses++];
    mem::WarpMemAccess& st = accesses_[r.n_accesses++];
    for (uint32_t i = 0; i < count; ++i) {
      ld.addr[i] = src_chunk[first + i];
      st.addr[i] = dst_chunk[first + i];
    }
    ld.set(Space::Global, mem::AccessKind::Load, 4, 4, lanes, isa::CacheOp::Cg);
    st.set(Space::Shared, mem::AccessKind::Store, 4, 4, lanes, isa::CacheOp::Default);
    ++es.gld_requests;
    ++es.shared_store_requests;
  }
}

}  // namespace warpsim::sm
