// Memory instructions of the warp executor: address generation, state-space resolution
// (generic addresses included), bounds and alignment checks, the functional access itself,
// and the WarpMemAccess records the coalescer, bank model and caches consume.
#include <fmt/format.h>

#include <bit>
#include <cstring>

#include "sim/core/error.hpp"
#include "sim/sm/warp_executor.hpp"

namespace warpsim::sm {

using isa::Instr;
using isa::Op;
using isa::Space;

namespace {

inline uint64_t extend(uint64_t v, int bytes, bool is_signed) {
  if (bytes >= 8 || !is_signed) return v;
  int sh = 64 - 8 * bytes;
  return static_cast<uint64_t>(static_cast<int64_t>(v << sh) >> sh);
}

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
    case AtomOp::Add: return T(old + b);
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

// Applies an atomic to the bytes at p; returns the old value's bits.
uint64_t apply_atomic(const Instr& in, uint8_t* p, uint64_t b, uint64_t c) {
  using isa::DType;
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

void WarpExecutor::load_store(Warp& w, const Instr& in, uint32_t pc, uint32_t mask, StepResult& r) {
  const isa::Kernel& k = *ctx_.kernel;
  const bool is_load = in.op == Op::Ld;
  const int eb = isa::dtype_bytes(in.type);
  const int nv = in.vec;
  const uint32_t span = uint32_t(eb) * nv;
  const bool sgn = isa::is_signed(in.type);
  const isa::Operand& ao = in.a;
  const uint64_t* base = ao.has_base ? w.regs + size_t(ao.base) * isa::kWarpLanes : nullptr;
  const int64_t off = ao.offset;

  // Value registers: destination(s) of a load, source(s) of a store.
  const isa::Operand& vo = is_load ? in.d[0] : in.b;
  const uint64_t* const_base = k.consts_bcast.data();
  auto value_slot = [&](int e) -> uint64_t* {
    if (vo.kind == isa::Operand::Kind::Vec) {
      if (vo.vec[e] == isa::kSinkSlot) return nullptr;
      return const_cast<uint64_t*>((vo.vec_const[e] ? const_base : w.regs) + size_t(vo.vec[e]) * isa::kWarpLanes);
    }
    return const_cast<uint64_t*>((vo.kind == isa::Operand::Kind::Const ? const_base : w.regs) +
                                 size_t(vo.reg) * isa::kWarpLanes);
  };

  if (in.space == Space::Param) {
    const auto& pb = ctx_.params;
    exec::for_lanes(mask, [&](int l) {
      uint64_t a = uint64_t((base ? int64_t(base[l]) : 0) + off);
      if (a + span > pb.size() || a % eb)
        fault(w, l, pc, fmt::format("out-of-bounds kernel-parameter load of {} bytes at offset {} ({} bytes of parameters)",
                                    span, a, pb.size()));
      for (int e = 0; e < nv; ++e) {
        uint64_t v = 0;
        std::memcpy(&v, pb.data() + a + e * eb, eb);
        if (uint64_t* d = value_slot(e)) d[l] = extend(v, eb, sgn);
      }
    });
    return;
  }

  uint64_t addr[isa::kWarpLanes];
  uint32_t gmask = 0, smask = 0, lmask = 0;
  exec::for_lanes(mask, [&](int l) {
    uint64_t a = uint64_t((base ? int64_t(base[l]) : 0) + off);
    Space sp = in.space;
    if (sp == Space::Generic) {
      if (a - isa::kSharedWindow < isa::kWindowSize) {
        sp = Space::Shared;
        a -= isa::kSharedWindow;
      } else if (a - isa::kLocalWindow < isa::kWindowSize) {
        sp = Space::Local;
        a -= isa::kLocalWindow;
      } else {
        sp = Space::Global;
      }
    } else if (sp == Space::Shared || sp == Space::Local) {
      a &= 0xFFFFFFFFu;  // shared/local addresses are 32-bit offsets
    }
    addr[l] = a;
    if (a % span && (span <= 16))
      fault(w, l, pc, fmt::format("misaligned {} {} of {} bytes at {:#x} (must be {}-byte aligned)",
                                  isa::space_name(sp), kind_word(in.op), span, a, span));
    uint32_t bit = 1u << l;
    if (sp == Space::Global) gmask |= bit;
    else if (sp == Space::Shared) smask |= bit;
    else lmask |= bit;
  });

  BlockState& b = *w.block;
  mem::GlobalMemory& gm = *ctx_.gmem;
  auto record = [&](Space sp, uint32_t m) {
    mem::WarpMemAccess& acc = accesses_[r.n_accesses++];
    acc.space = sp;
    acc.kind = is_load ? mem::AccessKind::Load : mem::AccessKind::Store;
    acc.elem_bytes = static_cast<uint8_t>(eb);
    acc.vec = static_cast<uint8_t>(nv);
    acc.cache = in.cache;
    acc.is_volatile = in.is_volatile;
    acc.mask = m;
    exec::for_lanes(m, [&](int l) { acc.addr[l] = addr[l]; });
  };
  r.accesses = accesses_.data();
  ExecStats& es = stats_.exec;

  if (gmask) {
    const mem::GlobalMemory::Allocation* al = last_alloc_;
    exec::for_lanes(gmask, [&](int l) {
      uint64_t a = addr[l];
      if (!al || !al->contains(a, span)) {
        al = gm.find(a, span);
        if (!al)
          fault(w, l, pc, fmt::format("out-of-bounds global {} of {} bytes at {:#x} ({})", kind_word(in.op), span, a,
                                      gm.describe(a, span)));
      }
      for (int e = 0; e < nv; ++e) {
        uint64_t ea = a + uint64_t(e) * eb;
        if (is_load) {
          uint64_t v = 0;
          std::memcpy(&v, gm.read_ptr(*al, ea), eb);
          if (uint64_t* d = value_slot(e)) d[l] = extend(v, eb, sgn);
        } else {
          const uint64_t* s = value_slot(e);
          std::memcpy(gm.write_ptr(const_cast<mem::GlobalMemory::Allocation&>(*al), ea), &s[l], eb);
        }
      }
    });
    last_alloc_ = al;
    record(Space::Global, gmask);
    if (is_load) ++es.gld_requests;
    else ++es.gst_requests;
  }
  if (smask) {
    exec::for_lanes(smask, [&](int l) {
      uint64_t a = addr[l];
      if (a + span > b.shared_bytes)
        fault(w, l, pc, fmt::format("out-of-bounds shared {} of {} bytes at offset {} (the block has {} bytes of shared "
                                    "memory: {} static + {} dynamic)",
                                    kind_word(in.op), span, a, b.shared_bytes, k.static_shared_bytes,
                                    b.shared_bytes - k.static_shared_bytes));
      for (int e = 0; e < nv; ++e) {
        uint8_t* p = b.shared.data() + a + e * eb;
        if (is_load) {
          uint64_t v = 0;
          std::memcpy(&v, p, eb);
          if (uint64_t* d = value_slot(e)) d[l] = extend(v, eb, sgn);
        } else {
          std::memcpy(p, &value_slot(e)[l], eb);
        }
      }
    });
    record(Space::Shared, smask);
    if (is_load) ++es.shared_load_requests;
    else ++es.shared_store_requests;
  }
  if (lmask) {
    const uint32_t lb = k.local_bytes;
    exec::for_lanes(lmask, [&](int l) {
      uint64_t a = addr[l];
      if (a + span > lb)
        fault(w, l, pc, fmt::format("out-of-bounds local {} of {} bytes at offset {} (the thread has {} bytes of local "
                                    "memory)",
                                    kind_word(in.op), span, a, lb));
      for (int e = 0; e < nv; ++e) {
        uint8_t* p = w.local + size_t(l) * lb + a + e * eb;
        if (is_load) {
          uint64_t v = 0;
          std::memcpy(&v, p, eb);
          if (uint64_t* d = value_slot(e)) d[l] = extend(v, eb, sgn);
        } else {
          std::memcpy(p, &value_slot(e)[l], eb);
        }
      }
    });
    record(Space::Local, lmask);
    if (is_load) ++es.local_load_requests;
    else ++es.local_store_requests;
  }
}

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
      if (a + eb > b.shared_bytes)
        fault(w, l, pc, fmt::format("out-of-bounds shared atomic of {} bytes at offset {} (the block has {} bytes)", eb,
                                    a, b.shared_bytes));
      p = b.shared.data() + a;
      smask |= 1u << l;
    }
    addr[l] = a;
    uint64_t old = apply_atomic(in, p, bsrc[l], csrc[l]);
    if (d) d[l] = old;
  });
  r.accesses = accesses_.data();
  auto record = [&](Space sp, uint32_t m) {
    mem::WarpMemAccess& acc = accesses_[r.n_accesses++];
    acc.space = sp;
    acc.kind = mem::AccessKind::Atomic;
    acc.elem_bytes = static_cast<uint8_t>(eb);
    acc.vec = 1;
    acc.cache = in.cache;
    acc.is_volatile = false;
    acc.mask = m;
    exec::for_lanes(m, [&](int l) { acc.addr[l] = addr[l]; });
  };
  if (gmask) record(Space::Global, gmask);
  if (smask) record(Space::Shared, smask);
  ++stats_.exec.atomic_requests;
}

}  // namespace warpsim::sm
