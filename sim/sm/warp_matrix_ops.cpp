// The warp-collective matrix instructions of the warp executor: wmma.load and wmma.store
// move a fragment between the 32 lanes' registers and a matrix in global or shared memory
// (the element each lane holds: sim/isa/wmma_layout.hpp), and wmma.mma runs on the
// fragments (sim/isa/semantics_matrix.hpp). All three need the whole warp, one matrix
// address and one stride.
//
// The memory accesses handed to the coalescer and caches are the SASS loads and stores an
// H100 makes of them (docs/measurements/h100_wmma_sass.txt): one access of a register's
// bytes per lane, or, where a fragment's register holds elements that are not adjacent in
// memory (a column-major tile of a row-major fragment), for 16-bit elements one 4-byte word
// per lane of the same 8x8 tile, which the GPU then transposes between the lanes (MOVM), and
// for 8-bit elements one access per element (LDG.U8); registers whose
// bytes follow each other in every lane share one wider access (LDG.64/.128), as the
// accumulators of row-major tiles do.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "sim/isa/semantics_matrix.hpp"
#include "sim/isa/wmma_layout.hpp"
#include "sim/sm/warp_executor.hpp"

namespace warpsim::sm {

using isa::Instr;
using isa::Op;
using isa::Space;

namespace {

const char* what_of(const Instr& in) {
  return in.op == Op::WmmaLoad ? "wmma.load" : in.op == Op::WmmaStore ? "wmma.store" : "wmma.mma";
}

// One lane-uniform value of an operand (register or immediate), or `def` when absent.
bool uniform_value(const exec::ExecCtx& c, const isa::Operand& o, uint64_t def, uint64_t& v, uint32_t& bad_lane) {
  if (o.kind == isa::Operand::Kind::None) {
    v = def;
    return true;
  }
  const uint64_t* p = exec::src(c, o);
  v = p[0];
  for (uint32_t l = 1; l < 32; ++l)
    if (p[l] != v) {
      bad_lane = l;
      return false;
    }
  return true;
}

}  // namespace

void WarpExecutor::matrix_op(Warp& w, const Instr& in, uint32_t pc, uint32_t mask, StepResult& r) {
  const isa::Kernel& k = *ctx_.kernel;
  if (mask != 0xFFFFFFFFu)
    fault(w, std::countr_zero(mask), pc,
          fmt::format("{} executed by {} of the warp's 32 threads (lanes {:#010x}): wmma needs the whole warp "
                      "(.sync.aligned)",
                      what_of(in), std::popcount(mask), mask),
          KernelFault::Kind::Trap);
  const exec::ExecCtx c{w.regs, w.preds, k.consts_bcast.data(), w.live_mask};
  if (in.op == Op::WmmaMma) {
    isa::wmma_mma(c, in);
    return;
  }
  const bool load = in.op == Op::WmmaLoad;
  const isa::FragmentMap& map = *isa::fragment_map(in.mma.shape, in.mma.frag, in.type);
  const isa::FragmentGeometry& g = map.g;
  const uint32_t eb = g.elem_bytes;

  // One matrix address and one stride (in elements; by default the matrix's leading
  // dimension) for the warp.
  uint32_t bad = 0;
  uint64_t base = 0, stride = 0;
  {
    const isa::Operand& ao = in.a;
    const uint64_t* b = ao.has_base ? w.regs + size_t(ao.base) * isa::kWarpLanes : nullptr;
    base = (b ? b[0] : 0) + uint64_t(ao.offset);
    for (uint32_t l = 1; l < 32 && b; ++l)
      if (b[l] != b[0])
        fault(w, l, pc, fmt::format("{} with a matrix address that differs between lanes ({:#x} in lane 0, {:#x} here): "
                                    "wmma needs one address for the warp",
                                    what_of(in), base, b[l] + uint64_t(ao.offset)));
  }
  if (!uniform_value(c, load ? in.b : in.c, in.mma.col ? g.rows : g.cols, stride, bad))
    fault(w, bad, pc, fmt::format("{} with a stride that differs between lanes: wmma needs one stride for the warp",
                                  what_of(in)));
  stride &= 0xFFFFFFFFu;
  Space sp = in.space;
  if (sp == Space::Generic) {
    if (base - isa::kSharedWindow < isa::kWindowSize) {
      sp = Space::Shared;
      base -= isa::kSharedWindow;
    } else if (base - isa::kLocalWindow < isa::kWindowSize) {
      fault(w, 0, pc, fmt::format("{} of local memory: wmma addresses global or shared memory", what_of(in)));
    } else {
      sp = Space::Global;
    }
  } else if (sp == Space::Shared) {
    base &= 0xFFFFFFFFu;
  }

  // The GPU moves a fragment 4 bytes at a time (8 for f64): the matrix and its rows (or
  // columns) must start on such a boundary, or the loads and stores fault. (CUDA asks for
  // more: 32-byte aligned matrices and strides of 16 bytes; it does not check them.)
  const uint32_t align = eb == 8 ? 8 : 4;
  if (base % align || (stride * eb) % align)
    fault(w, 0, pc, fmt::format("misaligned {} {}: the matrix at {:#x} with a stride of {} elements ({} bytes) must "
                                "be {}-byte aligned",
                                isa::space_name(sp), what_of(in), base, stride, stride * eb, align));

  // Where each lane's distinct elements are.
  auto elem_addr = [&](uint32_t lane, uint32_t e) {
    const isa::MatrixCoord at = map.at(lane, e);
    const uint64_t off = in.mma.col ? uint64_t(at.col) * stride + at.row : uint64_t(at.row) * stride + at.col;
    return base + off * eb;
  };

  // The accesses: a register's elements per lane, adjacent or not (see the file comment).
  const uint32_t per_reg = g.per_reg();
  const uint32_t unique_regs = (g.unique + per_reg - 1) / per_reg;
  const uint32_t reg_bytes = per_reg * eb;
  r.n_accesses = 0;
  auto new_record = [&](uint32_t bytes) -> mem::WarpMemAccess& {
    mem::WarpMemAccess& acc = accesses_[r.n_accesses++];
    const uint32_t elem = std::min<uint32_t>(bytes, eb == 8 ? 8 : 4);
    acc.set(sp, load ? mem::AccessKind::Load : mem::AccessKind::Store, elem, bytes / elem, 0xFFFFFFFFu);
    return acc;
  };
  // Per register: the lane's first element address if its elements are adjacent and the
  // run aligned, else 0 with `adjacent` false.
  std::array<std::array<uint64_t, 32>, 8> natural{};
  std::array<bool, 8> adjacent{};
  for (uint32_t rg = 0; rg < unique_regs; ++rg) {
    adjacent[rg] = true;
    for (uint32_t l = 0; l < 32; ++l) {
      const uint64_t a0 = elem_addr(l, rg * per_reg);
      natural[rg][l] = a0;
      bool ok = a0 % reg_bytes == 0;
      for (uint32_t j = 1; j < per_reg && ok; ++j) ok = elem_addr(l, rg * per_reg + j) == a0 + j * eb;
      if (!ok) adjacent[rg] = false;
    }
  }
  for (uint32_t rg = 0; rg < unique_regs;) {
    if (adjacent[rg]) {
      // Join the following registers whose bytes follow in every lane (up to 16 bytes).
      uint32_t n = 1;
      while (rg + n < unique_regs && adjacent[rg + n] && (n + 1) * reg_bytes <= 16) {
        bool follows = true;
        for (uint32_t l = 0; l < 32 && follows; ++l)
          follows = natural[rg + n][l] == natural[rg][l] + n * reg_bytes && natural[rg][l] % ((n + 1) * reg_bytes) == 0;
        if (!follows) break;
        ++n;
      }
      while (n & (n - 1)) --n;  // 1, 2 or 4 registers: a power-of-two access
      mem::WarpMemAccess& acc = new_record(n * reg_bytes);
      acc.addr = natural[rg];
      rg += n;
      continue;
    }
    // A transposed tile of 16-bit elements: the distinct words of the register's elements,
    // one per lane (MOVM transposes 16-bit elements only; 8-bit ones are loaded one by one).
    std::array<uint64_t, 64> words{};
    uint32_t nw = 0;
    bool fits = eb == 2;
    for (uint32_t l = 0; l < 32 && fits; ++l)
      for (uint32_t j = 0; j < per_reg && fits; ++j) {
        const uint64_t a = elem_addr(l, rg * per_reg + j) & ~uint64_t(reg_bytes - 1);
        if (std::find(words.begin(), words.begin() + nw, a) == words.begin() + nw) {
          if (nw == 32) fits = false;
          else words[nw++] = a;
        }
      }
    if (fits && nw == 32) {
      std::sort(words.begin(), words.begin() + 32);
      mem::WarpMemAccess& acc = new_record(reg_bytes);
      std::copy(words.begin(), words.begin() + 32, acc.addr.begin());
    } else {
      for (uint32_t j = 0; j < per_reg; ++j) {  // elements one by one
        mem::WarpMemAccess& acc = new_record(eb);
        for (uint32_t l = 0; l < 32; ++l) acc.addr[l] = elem_addr(l, rg * per_reg + j);
      }
    }
    ++rg;
  }
  r.accesses = accesses_.data();

  // Bounds and alignment, then the data.
  for (uint8_t i = 0; i < r.n_accesses; ++i) {
    const mem::WarpMemAccess& acc = accesses_[i];
    const uint32_t span = acc.bytes_per_lane();
    for (uint32_t l = 0; l < 32; ++l)
      if (acc.addr[l] % span)
        fault(w, l, pc, fmt::format("misaligned {} {} of {} bytes at {:#x} (the matrix at {:#x}, stride {} elements: "
                                    "must be {}-byte aligned)",
                                    isa::space_name(sp), what_of(in), span, acc.addr[l], base, stride, span));
  }
  // The registers (null: the sink "_"); a load's are cleared, then filled element by element.
  const isa::Operand& vo = load ? in.d[0] : in.b;
  auto reg_of = [&](uint32_t e) -> uint64_t* {
    const uint32_t rg = g.reg_of(e);
    if (vo.vec[rg] == isa::kSinkSlot) return nullptr;
    const uint64_t* base_ptr = vo.vec_const[rg] ? k.consts_bcast.data() : w.regs;
    return const_cast<uint64_t*>(base_ptr) + size_t(vo.vec[rg]) * isa::kWarpLanes;
  };
  // Every element's bytes, bounds-checked before any register or memory changes.
  std::array<uint8_t*, 32 * isa::FragmentMap::kMaxElements> at{};
  const mem::GlobalMemory::Allocation* al = nullptr;
  for (uint32_t l = 0; l < 32; ++l)
    for (uint32_t e = 0; e < g.unique; ++e) {
      const uint64_t a = elem_addr(l, e);
      uint8_t*& p = at[l * isa::FragmentMap::kMaxElements + e];
      if (sp == Space::Shared) {
        BlockState& b = *w.block;
        if (a + eb > b.shared_bytes)
          fault(w, l, pc, fmt::format("out-of-bounds shared {} of {} bytes at offset {} (the block has {} bytes of "
                                      "shared memory; the matrix at offset {}, stride {} elements)",
                                      what_of(in), eb, a, b.shared_bytes, base, stride));
        p = b.shared.data() + a;
      } else {
        mem::GlobalMemory& gm = *ctx_.gmem;
        if (!al || !al->contains(a, eb)) al = gm.find(a, eb);
        if (!al)
          fault(w, l, pc, fmt::format("out-of-bounds global {} of {} bytes at {:#x} ({}; the matrix at {:#x}, stride "
                                      "{} elements)",
                                      what_of(in), eb, a, gm.describe(a, eb), base, stride));
        auto& alloc = const_cast<mem::GlobalMemory::Allocation&>(*al);
        if (!load && write_guard_) write_guard_->before_write(alloc, a);
        p = load ? const_cast<uint8_t*>(gm.read_ptr(alloc, a)) : gm.write_ptr(alloc, a);
      }
    }
  if (load)
    for (uint32_t rg = 0; rg < g.regs; ++rg)
      if (uint64_t* reg = reg_of(rg * per_reg)) std::fill(reg, reg + isa::kWarpLanes, 0);
  // Moves each element between the lanes' registers and memory, T wide.
  auto move_all = [&]<class T>() {
    for (uint32_t e = 0; e < g.unique; ++e) {
      uint64_t* reg = reg_of(e);
      if (!reg) continue;
      const uint32_t shift = g.shift_of(e);
      for (uint32_t l = 0; l < 32; ++l) {
        uint8_t* p = at[l * isa::FragmentMap::kMaxElements + e];
        T v;
        if (load) {
          std::memcpy(&v, p, sizeof(T));
          reg[l] |= uint64_t(v) << shift;
        } else {
          v = static_cast<T>(reg[l] >> shift);
          std::memcpy(p, &v, sizeof(T));
        }
      }
    }
  };
  switch (eb) {
    case 1: move_all.template operator()<uint8_t>(); break;
    case 2: move_all.template operator()<uint16_t>(); break;
    case 4: move_all.template operator()<uint32_t>(); break;
    default: move_all.template operator()<uint64_t>(); break;
  }
  ExecStats& es = stats_.exec;
  if (sp == Space::Shared) (load ? es.shared_load_requests : es.shared_store_requests) += r.n_accesses;
  else (load ? es.gld_requests : es.gst_requests) += r.n_accesses;
  // A loaded fragment with repeated elements (f16 a/b of the narrower shapes) holds each
  // distinct element `elements / unique` times: copy the first copy's bits into the others.
  if (load && g.elements > g.unique) {
    for (uint32_t e = g.unique; e < g.elements; ++e) {
      const uint32_t from = e % g.unique;
      uint64_t* src = reg_of(from);
      uint64_t* dst = reg_of(e);
      if (!src || !dst) continue;
      for (uint32_t l = 0; l < 32; ++l) dst[l] |= ((src[l] >> g.shift_of(from)) & g.elem_mask()) << g.shift_of(e);
    }
  }
}

}  // namespace warpsim::sm
