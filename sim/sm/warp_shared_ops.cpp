// The commonest shared-memory access in one tight function: ld.shared or st.shared (the
// explicit space, not a generic address) of one 1-, 2-, 4- or 8-byte element per lane, every
// lane in bounds and aligned. Anything else, a fault included, is left to
// load_store_sized (warp_memory_ops.cpp), which produces the same record and counts and
// names the faulting thread.
#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

#include "sim/sm/lane_elements.hpp"
#include "sim/sm/warp_executor.hpp"

namespace warpsim::sm {

using isa::Instr;
using isa::Op;
using isa::Space;
using detail::read_elem;
using detail::write_elem;

namespace {

// A full warp's 4-byte words, zero-extended into its 32 register lanes: four lanes at a
// time as one 16-byte load where their addresses are four consecutive words (a row) or one
// word (a broadcast), the usual patterns of a tiled kernel, and lane by lane otherwise.
// A warp whose first four lanes are neither is read lane by lane throughout (a column of
// a tile, say: its other lanes are most likely not either). Every address is in bounds
// (checked), so the 16 bytes from a row's first word are too.
void gather_words(const uint8_t* sh, const uint64_t* addr, uint64_t* d) {
  const bool row = addr[1] == addr[0] + 4 && addr[2] == addr[0] + 8 && addr[3] == addr[0] + 12;
  const bool one = addr[1] == addr[0] && addr[2] == addr[0] && addr[3] == addr[0];
  if (!row && !one) {
    for (int l = 0; l < isa::kWarpLanes; ++l) d[l] = read_elem<4>(sh + addr[l], false);
    return;
  }
  for (int g = 0; g < isa::kWarpLanes; g += 4) {
    const uint64_t a0 = addr[g], a1 = addr[g + 1], a2 = addr[g + 2], a3 = addr[g + 3];
#if defined(__SSE4_1__)
    if (a1 == a0 + 4 && a2 == a0 + 8 && a3 == a0 + 12) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(sh + a0));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + g), _mm_cvtepu32_epi64(v));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + g + 2), _mm_cvtepu32_epi64(_mm_unpackhi_epi64(v, v)));
      continue;
    }
    if (a1 == a0 && a2 == a0 && a3 == a0) {
      const __m128i v = _mm_set1_epi64x(static_cast<long long>(read_elem<4>(sh + a0, false)));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + g), v);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + g + 2), v);
      continue;
    }
#endif
    d[g] = read_elem<4>(sh + a0, false);
    d[g + 1] = read_elem<4>(sh + a1, false);
    d[g + 2] = read_elem<4>(sh + a2, false);
    d[g + 3] = read_elem<4>(sh + a3, false);
  }
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
      const uint64_t* base = w.regs + size_t(ao.base) * isa::kWarpLanes;
      for (int l = 0; l < isa::kWarpLanes; ++l) any |= addr[l] = (base[l] + off) & 0xFFFFFFFFull;
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
    if (mask == 0xFFFFFFFFu && !sgn && EB == 4) {
      gather_words(sh, addr, d);
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
