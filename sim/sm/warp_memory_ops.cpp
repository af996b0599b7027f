// Memory instructions of the warp executor: address generation, state-space resolution
// (generic addresses included), bounds and alignment checks, the functional access itself,
// and the WarpMemAccess records the coalescer, bank model and caches consume.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>

#include "sim/foundation/error.hpp"
#include "sim/isa/half_bits.hpp"
#include "sim/sm/lane_addresses.hpp"
#include "sim/sm/lane_elements.hpp"
#include "sim/sm/warp_executor.hpp"

namespace warpsim::sm {

using isa::Instr;
using isa::Op;
using isa::Space;
using detail::read_elem;
using detail::write_elem;

namespace {

const char* kind_word(Op op) {
  switch (op) {
    case Op::Ld: return "load";
    case Op::St: return "store";
    default: return "atomic";
  }
}

template <class T>
T atomic_result(isa::AtomOp op, T old, T b, T c) {
  using isa::AtomOp;
  switch (op) {
    case AtomOp::Add:
      // Integers wrap, as PTX's add does (computed unsigned: signed overflow is undefined here).
      if constexpr (std::is_integral_v<T>) return T(std::make_unsigned_t<T>(old) + std::make_unsigned_t<T>(b));
      return T(old + b);
    case AtomOp::Min: return old < b ? old : b;
    case AtomOp::Max: return old > b ? old : b;
    case AtomOp::Exch: return b;
    case AtomOp::Cas: return old == b ? c : old;
    case AtomOp::Inc:
      if constexpr (std::is_integral_v<T>) return old >= b ? T(0) : T(old + 1);
      return old;
    case AtomOp::Dec:
      if constexpr (std::is_integral_v<T>) return (old == 0 || old > b) ? b : T(old - 1);
      return old;
    case AtomOp::And:
      if constexpr (std::is_integral_v<T>) return T(old & b);
      return old;
    case AtomOp::Or:
      if constexpr (std::is_integral_v<T>) return T(old | b);
      return old;
    case AtomOp::Xor:
      if constexpr (std::is_integral_v<T>) return T(old ^ b);
      return old;
    default: return old;
  }
}

// atom/red.add.noftz on .f16, .f16x2, .bf16 and .bf16x2 (atomicAdd on __half, __half2,
// __nv_bfloat16, __nv_bfloat162): each half's sum rounded to nearest even, subnormals kept,
// a NaN the canonical one; returns the old bits.
uint64_t add_halves(const Instr& in, uint8_t* p, uint64_t b) {
  using isa::DType;
  namespace hb = isa::detail;
  const bool bf = in.type == DType::BF16 || in.type == DType::BF16x2;
  const int n = in.type == DType::F16x2 || in.type == DType::BF16x2 ? 2 : 1;
  uint32_t old = 0, nv = 0;
  std::memcpy(&old, p, 2 * size_t(n));
  for (int h = 0; h < n; ++h) {
    const auto x = uint16_t(old >> (16 * h)), y = uint16_t(b >> (16 * h));
    const double s = bf ? double(hb::from_bf16(x)) + double(hb::from_bf16(y)) : hb::from_half(x) + hb::from_half(y);
    const uint16_t r = std::isnan(s) ? uint16_t(0x7FFF) : bf ? hb::bf16_from_double(s) : hb::to_half(s);
    nv |= uint32_t(r) << (16 * h);
  }
  std::memcpy(p, &nv, 2 * size_t(n));
  return old;
}

// Applies an atomic to the bytes at p; returns the old value's bits.
uint64_t apply_atomic(const Instr& in, uint8_t* p, uint64_t b, uint64_t c) {
  using isa::DType;
  if (isa::is_half(in.type)) return add_halves(in, p, b);
  auto run = [&](auto tag) -> uint64_t {
    using T = decltype(tag);
    T old;
    std::memcpy(&old, p, sizeof(T));
    T nb = exec::get<T>(b), nc = exec::get<T>(c);
    T nv = atomic_result<T>(in.atom, old, nb, nc);
    std::memcpy(p, &nv, sizeof(T));
    return exec::put<T>(old);
  };
  switch (in.type) {
    case DType::S32: return run(int32_t{});
    case DType::U32: case DType::B32: return run(uint32_t{});
    case DType::S64: return run(int64_t{});
    case DType::U64: case DType::B64: return run(uint64_t{});
    case DType::F32: return run(float{});
    case DType::F64: return run(double{});
    default: return 0;
  }
}

}  // namespace

void WarpExecutor::memory_op(Warp& w, const Instr& in, uint32_t pc, uint32_t mask, StepResult& r) {
  if (in.op == Op::Atom || in.op == Op::Red) atomic(w, in, pc, mask, r);
  else load_store(w, in, pc, mask, r);
}


bool WarpExecutor::shared_fast(Warp& w, const Instr& in, uint32_t mask, StepResult& r) {
  if (in.vec != 1) {
    switch (isa::dtype_bytes(in.type)) {
      case 1: return shared_vector<1>(w, in, mask, r);
      case 2: return shared_vector<2>(w, in, mask, r);
      case 4: return shared_vector<4>(w, in, mask, r);
      case 8: return shared_vector<8>(w, in, mask, r);
      default: return false;
    }
  }
  switch (isa::dtype_bytes(in.type)) {
    case 1: return shared_scalar<1>(w, in, mask, r);
    case 2: return shared_scalar<2>(w, in, mask, r);
    case 4: return shared_scalar<4>(w, in, mask, r);
    case 8: return shared_scalar<8>(w, in, mask, r);
    default: return false;
  }
}

// step() has already offered ld/st.shared to shared_fast: what comes here is everything
// else, and the shared accesses it left (a fault, a constant source, a partial warp's
// vector).
void WarpExecutor::load_store(Warp& w, const Instr& in, uint32_t pc, uint32_t mask, StepResult& r) {
  switch (isa::dtype_bytes(in.type)) {
    case 1: load_store_sized<1>(w, in, pc, mask, r); break;
    case 2: load_store_sized<2>(w, in, pc, mask, r); break;
    case 4: load_store_sized<4>(w, in, pc, mask, r); break;
    default: load_store_sized<8>(w, in, pc, mask, r); break;
  }
}

template <int EB>
void WarpExecutor::load_store_sized(Warp& w, const Instr& in, uint32_t pc, uint32_t mask, StepResult& r) {
  const isa::Kernel& k = *ctx_.kernel;
  const bool is_load = in.op == Op::Ld;
  const int nv = in.vec;
  const uint32_t span = uint32_t(EB) * nv;
  const bool sgn = isa::is_signed(in.type);
  const isa::Operand& ao = in.a;
  const uint64_t* base = ao.has_base ? w.regs + size_t(ao.base) * isa::kWarpLanes : nullptr;
  const int64_t off = ao.offset;

  // Value registers: destination(s) of a load, source(s) of a store (null = sink).
  const isa::Operand& vo = is_load ? in.d[0] : in.b;
  const uint64_t* const_base = k.consts_bcast.data();
  uint64_t* val[4] = {nullptr, nullptr, nullptr, nullptr};
  for (int e = 0; e < nv; ++e) {
    if (vo.kind == isa::Operand::Kind::Vec) {
      if (vo.vec[e] != isa::kSinkSlot)
        val[e] = const_cast<uint64_t*>((vo.vec_const[e] ? const_base : w.regs) + size_t(vo.vec[e]) * isa::kWarpLanes);
    } else {
      val[e] = const_cast<uint64_t*>((vo.kind == isa::Operand::Kind::Const ? const_base : w.regs) +
                                     size_t(vo.reg) * isa::kWarpLanes);
    }
  }
  auto move = [&](uint8_t* p, int l) {
    for (int e = 0; e < nv; ++e) {
      if (is_load) {
        if (val[e]) val[e][l] = read_elem<EB>(p + e * EB, sgn);
      } else {
        write_elem<EB>(p + e * EB, val[e][l]);
      }
    }
  };

  if (in.space == Space::Param && in.call_param) {  // a call's parameter: per thread
    exec::for_lanes(mask, [&](int l) {
      uint64_t a = uint64_t((base ? int64_t(base[l]) : 0) + off);
      if (a + span > k.call_param_bytes || a % EB)
        fault(w, l, pc, fmt::format("out-of-bounds call-parameter access of {} bytes at offset {} ({} bytes of call "
                                    "parameters)", span, a, k.call_param_bytes));
      move(call_params(w, l) + a, l);
    });
    return;
  }
  if (in.space == Space::Param) {
    const auto& pb = ctx_.params;
    exec::for_lanes(mask, [&](int l) {
      uint64_t a = uint64_t((base ? int64_t(base[l]) : 0) + off);
      if (a + span > pb.size() || a % EB)
        fault(w, l, pc, fmt::format("out-of-bounds kernel-parameter load of {} bytes at offset {} ({} bytes of parameters)",
                                    span, a, pb.size()));
      move(const_cast<uint8_t*>(pb.data() + a), l);
    });
    return;
  }

  // An explicit state space makes one access record: its addresses are generated in place.
  uint64_t generic_addr[isa::kWarpLanes];
  uint64_t* const addr = in.space == Space::Generic ? generic_addr : accesses_[r.n_accesses].addr.data();
  uint64_t any = 0;  // the OR of the lanes' addresses
  uint64_t lo = ~uint64_t(0), hi = 0;  // their least and greatest, where have_bounds
  bool have_bounds = false;
  uint32_t gmask = 0, smask = 0, lmask = 0;
  if (in.space == Space::Generic) {
    exec::for_lanes(mask, [&](int l) {
      uint64_t a = uint64_t((base ? int64_t(base[l]) : 0) + off);
      uint32_t bit = 1u << l;
      if (a - isa::kSharedWindow < isa::kWindowSize) {
        a -= isa::kSharedWindow;
        smask |= bit;
      } else if (a - isa::kLocalWindow < isa::kWindowSize) {
        a -= isa::kLocalWindow;
        lmask |= bit;
      } else {
        gmask |= bit;
      }
      any |= addr[l] = a;
    });
  } else {
    // Explicit state space: one plain loop per case so the compiler vectorises it.
    // .const variables live in global memory (their addresses are global addresses).
    const bool global_like = in.space == Space::Global || in.space == Space::Const;
    const uint64_t narrow = !global_like ? 0xFFFFFFFFull : ~uint64_t(0);  // shared/local: 32-bit
    if (mask == 0xFFFFFFFFu) {
      if (base) {
        any = full_warp_addresses(base, uint64_t(off), narrow, addr, lo, hi);
        have_bounds = true;
      } else
        for (int l = 0; l < isa::kWarpLanes; ++l) any |= addr[l] = uint64_t(off) & narrow;
    } else {
      exec::for_lanes(mask, [&](int l) { any |= addr[l] = ((base ? base[l] : 0) + uint64_t(off)) & narrow; });
    }
    (global_like ? gmask : in.space == Space::Shared ? smask : lmask) = mask;
  }
  {
    // The OR finds whether any address is misaligned (span is a power of two).
    if (any & (span - 1)) {
      uint32_t misaligned = 0;
      exec::for_lanes(mask, [&](int l) { misaligned |= uint32_t((addr[l] & (span - 1)) != 0) << l; });
      int l = std::countr_zero(misaligned);
      Space sp = (gmask >> l & 1) ? Space::Global : (smask >> l & 1) ? Space::Shared : Space::Local;
      fault(w, l, pc, fmt::format("misaligned {} {} of {} bytes at {:#x} (must be {}-byte aligned)",
                                  isa::space_name(sp), kind_word(in.op), span, addr[l], span));
    }
  }

  BlockState& b = *w.block;
  mem::GlobalMemory& gm = *ctx_.gmem;
  auto record = [&](Space sp, uint32_t m) {
    mem::WarpMemAccess& acc = accesses_[r.n_accesses++];
    acc.set(sp, is_load ? mem::AccessKind::Load : mem::AccessKind::Store, EB, nv, m, in.cache, in.is_volatile);
    if (addr == acc.addr.data()) return;  // generated in place
    if (m == 0xFFFFFFFFu) std::memcpy(acc.addr.data(), addr, sizeof(generic_addr));
    else exec::for_lanes(m, [&](int l) { acc.addr[l] = addr[l]; });
  };
  r.accesses = accesses_.data();
  ExecStats& es = stats_.exec;

  if (gmask) {
    // The allocation this instruction used last: a kernel reads two inputs and writes a
    // third, each instruction usually the same one.
    AllocationSeen& seen = alloc_seen_[pc];
    const mem::GlobalMemory::Allocation* al = gm.releases() == seen.releases ? seen.alloc : nullptr;
    // Fast path: one value per lane and every address in one page of the allocation (a
    // coalesced access), so one page pointer serves all lanes.
    if (!have_bounds || gmask != mask)
      exec::for_lanes(gmask, [&](int l) {
        lo = std::min(lo, addr[l]);
        hi = std::max(hi, addr[l]);
      });
    using GM = mem::GlobalMemory;
    // A warp's lanes usually fall in one allocation: look it up once for the lowest address.
    if (!al || !al->contains(lo, span)) al = gm.find(lo, span);
    const bool one_alloc = al && al->contains(lo, hi - lo + span);
    if (one_alloc && ((lo - al->base) >> GM::kPageBits) == ((hi - al->base + span - 1) >> GM::kPageBits)) {
      if (is_load) {
        const uint8_t* p = gm.read_ptr(*al, lo);
        // Element by element (loads do not conflict; stores below keep lane order); a full
        // warp's 32-bit words in two half-warp runs by vector copies.
        if (!(EB == 4 && nv == 1 && !sgn && gmask == 0xFFFFFFFFu && val[0] &&
              load_u32_half_warp_runs(addr, p, lo, val[0])))
          for (int e = 0; e < nv; ++e)
            if (uint64_t* d = val[e])
              exec::for_lanes(gmask, [&](int l) { d[l] = read_elem<EB>(p + (addr[l] - lo) + e * EB, sgn); });
      } else {
        if (write_guard_) write_guard_->before_write(const_cast<GM::Allocation&>(*al), lo);
        uint8_t* p = gm.write_ptr(const_cast<GM::Allocation&>(*al), lo);
        const uint64_t* v = val[0];
        if (nv == 1) exec::for_lanes(gmask, [&](int l) { write_elem<EB>(p + (addr[l] - lo), v[l]); });
        else exec::for_lanes(gmask, [&](int l) { move(p + (addr[l] - lo), l); });
      }
    } else if (one_alloc) {
      // Several pages of one allocation: a page lookup per lane, no search.
      if (is_load) exec::for_lanes(gmask, [&](int l) { move(const_cast<uint8_t*>(gm.read_ptr(*al, addr[l])), l); });
      else
        exec::for_lanes(gmask, [&](int l) {
          if (write_guard_) write_guard_->before_write(const_cast<GM::Allocation&>(*al), addr[l]);
          move(gm.write_ptr(const_cast<GM::Allocation&>(*al), addr[l]), l);
        });
    } else exec::for_lanes(gmask, [&](int l) {
      uint64_t a = addr[l];
      if (!al || !al->contains(a, span)) {
        al = gm.find(a, span);
        if (!al)
          fault(w, l, pc, fmt::format("out-of-bounds global {} of {} bytes at {:#x} ({})", kind_word(in.op), span, a,
                                      gm.describe(a, span)));
      }
      if (is_load) move(const_cast<uint8_t*>(gm.read_ptr(*al, a)), l);
      else {
        auto& alloc = const_cast<mem::GlobalMemory::Allocation&>(*al);
        if (write_guard_) write_guard_->before_write(alloc, a);
        move(gm.write_ptr(alloc, a), l);
      }
    });
    seen = {al, gm.releases()};
    // Constant loads read global memory but are not global traffic: no access record (no
    // transactions, cache or DRAM traffic, no gld counts); they cost what a parameter load
    // does (a constant-cache hit; sm_core/issue_model). Constant-cache misses are not modelled.
    if (in.space != Space::Const) {
      record(Space::Global, gmask);
      if (is_load) ++es.gld_requests;
      else ++es.gst_requests;
    }
  }
  if (smask) {
    const uint64_t limit = b.shared_bytes;
    uint8_t* sh = b.shared.data();
    // The OR of the addresses bounds the shared offsets' maximum from above; the exact
    // maximum is needed only when the OR is out of range (or a generic access also went
    // to global or local memory, whose addresses are in the OR too).
    uint64_t top = any;
    if (top + span > limit) {
      top = 0;
      exec::for_lanes(smask, [&](int l) { top = std::max(top, addr[l]); });
    }
    // Distributed shared memory: addresses with a cluster rank (isa::kClusterRankShift).
    const bool ranked = top + span > limit && ctx_.clusters && (top >> isa::kClusterRankShift) != 0;
    uint8_t remote = 0;
    if (ranked) {
      exec::for_lanes(smask, [&](int l) {
        move(cluster_shared_ptr(w, l, pc, addr[l], span, kind_word(in.op)), l);
        remote = std::max(remote, remote_kind(w, addr[l]));
      });
    } else if (top + span > limit) {
      exec::for_lanes(smask, [&](int l) {
        if (addr[l] + span > limit)
          fault(w, l, pc,
                fmt::format("out-of-bounds shared {} of {} bytes at offset {} (the block has {} bytes of shared "
                            "memory: {} static{} + {} dynamic)",
                            kind_word(in.op), span, addr[l], b.shared_bytes, k.static_shared_bytes,
                            b.shared_bytes - k.static_shared_bytes - ctx_.dynamic_shared
                                ? fmt::format(" + {} alignment padding",
                                              b.shared_bytes - k.static_shared_bytes - ctx_.dynamic_shared)
                                : std::string(),
                            ctx_.dynamic_shared));
      });
    }
    if (ranked) {
    } else if (nv == 1 && is_load && val[0]) {
      uint64_t* d = val[0];
      if (sgn) exec::for_lanes(smask, [&](int l) { d[l] = read_elem<EB>(sh + addr[l], true); });
      else exec::for_lanes(smask, [&](int l) { d[l] = read_elem<EB>(sh + addr[l], false); });
    } else if (nv == 1 && !is_load) {
      const uint64_t* v = val[0];
      exec::for_lanes(smask, [&](int l) { write_elem<EB>(sh + addr[l], v[l]); });
    } else if (is_load) {  // a vector load, element by element
      for (int e = 0; e < nv; ++e)
        if (uint64_t* d = val[e])
          exec::for_lanes(smask, [&](int l) { d[l] = read_elem<EB>(sh + addr[l] + e * EB, sgn); });
    } else {
      exec::for_lanes(smask, [&](int l) { move(sh + addr[l], l); });
    }
    record(Space::Shared, smask);
    accesses_[r.n_accesses - 1].cluster_remote = remote;
    if (is_load) ++es.shared_load_requests;
    else ++es.shared_store_requests;
  }
  if (lmask) {
    const uint32_t lb = ctx_.local_stride;
    exec::for_lanes(lmask, [&](int l) {
      uint64_t a = addr[l];
      if (a + span > lb)
        fault(w, l, pc, fmt::format("out-of-bounds local {} of {} bytes at offset {} (the thread has {} bytes of local "
                                    "memory)",
                                    kind_word(in.op), span, a, lb));
      move(w.local + size_t(l) * lb + a, l);
    });
    record(Space::Local, lmask);
    if (is_load) ++es.local_load_requests;
    else ++es.local_store_requests;
  }
}

template void WarpExecutor::load_store_sized<1>(Warp&, const Instr&, uint32_t, uint32_t, StepResult&);
template void WarpExecutor::load_store_sized<2>(Warp&, const Instr&, uint32_t, uint32_t, StepResult&);
template void WarpExecutor::load_store_sized<4>(Warp&, const Instr&, uint32_t, uint32_t, StepResult&);
template void WarpExecutor::load_store_sized<8>(Warp&, const Instr&, uint32_t, uint32_t, StepResult&);

void WarpExecutor::atomic(Warp& w, const Instr& in, uint32_t pc, uint32_t mask, StepResult& r) {
  const isa::Kernel& k = *ctx_.kernel;
  const int eb = isa::dtype_bytes(in.type);
  const isa::Operand& ao = in.a;
  const uint64_t* base = ao.has_base ? w.regs + size_t(ao.base) * isa::kWarpLanes : nullptr;
  const uint64_t* bsrc = exec::src({w.regs, w.preds, k.consts_bcast.data(), w.live_mask}, in.b);
  const uint64_t* csrc =
      in.c.kind != isa::Operand::Kind::None ? exec::src({w.regs, w.preds, k.consts_bcast.data(), w.live_mask}, in.c)
                                            : bsrc;
  uint64_t* d = in.op == Op::Atom ? w.regs + size_t(in.d[0].reg) * isa::kWarpLanes : nullptr;
  BlockState& b = *w.block;
  mem::GlobalMemory& gm = *ctx_.gmem;
  uint64_t addr[isa::kWarpLanes];
  uint32_t gmask = 0, smask = 0;
  uint8_t remote = 0;  // the farthest block of its cluster a lane reached (WarpMemAccess::cluster_remote)
  // Lanes are serialised in lane order, which makes the result deterministic.
  exec::for_lanes(mask, [&](int l) {
    uint64_t a = uint64_t((base ? int64_t(base[l]) : 0) + ao.offset);
    Space sp = in.space;
    if (sp == Space::Generic) {
      if (a - isa::kSharedWindow < isa::kWindowSize) {
        sp = Space::Shared;
        a -= isa::kSharedWindow;
      } else if (a - isa::kLocalWindow < isa::kWindowSize) {
        fault(w, l, pc, "atomic on local memory");
      } else {
        sp = Space::Global;
      }
    } else if (sp == Space::Shared) {
      a &= 0xFFFFFFFFu;
    }
    if (a % eb) fault(w, l, pc, fmt::format("misaligned {}-byte atomic at {:#x}", eb, a));
    uint8_t* p;
    if (sp == Space::Global) {
      auto* al = gm.find(a, eb);
      if (!al)
        fault(w, l, pc, fmt::format("out-of-bounds global atomic of {} bytes at {:#x} ({})", eb, a, gm.describe(a, eb)));
      p = gm.write_ptr(*al, a);
      gmask |= 1u << l;
    } else {
      if (ctx_.clusters && (a >> isa::kClusterRankShift) != 0) {
        p = cluster_shared_ptr(w, l, pc, a, eb, "atomic");
        remote = std::max(remote, remote_kind(w, a));
      } else {
        if (a + eb > b.shared_bytes)
          fault(w, l, pc, fmt::format("out-of-bounds shared atomic of {} bytes at offset {} (the block has {} bytes)",
                                      eb, a, b.shared_bytes));
        p = b.shared.data() + a;
      }
      smask |= 1u << l;
    }
    addr[l] = a;
    uint64_t old = apply_atomic(in, p, bsrc[l], csrc[l]);
    if (d) d[l] = old;
  });
  r.accesses = accesses_.data();
  auto record = [&](Space sp, uint32_t m) {
    mem::WarpMemAccess& acc = accesses_[r.n_accesses++];
    acc.set(sp, mem::AccessKind::Atomic, eb, 1, m, in.cache);
    exec::for_lanes(m, [&](int l) { acc.addr[l] = addr[l]; });
  };
  if (gmask) record(Space::Global, gmask);
  if (smask) {
    record(Space::Shared, smask);
    accesses_[r.n_accesses - 1].cluster_remote = remote;
  }
  ++stats_.exec.atomic_requests;
}

}  // namespace warpsim::sm
