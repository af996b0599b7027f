// Texture fetches and surface accesses of the warp executor: per lane, the object named by
// the handle register, the sampler's result into the destination vector, and one access
// record of the texels read or written (the first texel of a filtered footprint) for the
// coalescer, caches and the timed memory system. Bad handles and surface traps fault like
// any other memory error, naming the thread.
#include <fmt/format.h>

#include "sim/sm/texture_sampler.hpp"
#include "sim/sm/warp_executor.hpp"

namespace warpsim::sm {

using isa::Op;

void WarpExecutor::texture_op(Warp& w, const isa::Instr& in, uint32_t pc, uint32_t mask, StepResult& r) {
  const isa::Kernel& k = *ctx_.kernel;
  const exec::ExecCtx c{w.regs, w.preds, k.consts_bcast.data(), w.live_mask};
  const uint64_t* handle = exec::src(c, in.a);
  const uint64_t* coord[4] = {nullptr, nullptr, nullptr, nullptr};
  for (int i = 0; i < in.b.nvec; ++i)
    coord[i] = (in.b.vec_const[i] ? k.consts_bcast.data() : w.regs) + size_t(in.b.vec[i]) * isa::kWarpLanes;
  // Destinations (tex, tld4, suld) or stored values (sust).
  const bool store = in.op == Op::Sust;
  const isa::Operand& vo = store ? in.c : in.d[0];
  const int nv = in.op == Op::Suld || store ? in.vec : 4;
  const uint64_t* val[4] = {nullptr, nullptr, nullptr, nullptr};
  for (int e = 0; e < nv; ++e) {
    if (vo.kind == isa::Operand::Kind::Vec) {
      if (vo.vec[e] != isa::kSinkSlot)
        val[e] = (vo.vec_const[e] ? k.consts_bcast.data() : w.regs) + size_t(vo.vec[e]) * isa::kWarpLanes;
    } else if (e == 0) {
      val[0] = (vo.kind == isa::Operand::Kind::Const ? k.consts_bcast.data() : w.regs) + size_t(vo.reg) * isa::kWarpLanes;
    }
  }

  TextureSampler sampler(*ctx_.gmem);
  mem::WarpMemAccess& acc = accesses_[0];
  acc = mem::WarpMemAccess{};
  acc.space = isa::Space::Global;
  acc.kind = store ? mem::AccessKind::Store : mem::AccessKind::Load;
  acc.texture = true;
  uint32_t bytes = 4;  // per lane: the texel, or the surface access
  const char* what = in.op == Op::Tex ? "tex" : in.op == Op::Tld4 ? "tld4" : in.op == Op::Suld ? "suld" : "sust";
  exec::for_lanes(mask, [&](int l) {
    const uint64_t h = handle[l];
    const TextureObject* obj = ctx_.textures ? ctx_.textures->find(h) : nullptr;
    if (!obj) {
      const bool destroyed = ctx_.textures && ctx_.textures->was_issued(h);
      fault(w, uint32_t(l), pc,
            fmt::format("{} through {} {} ({})", what, store || in.op == Op::Suld ? "surface object" : "texture object",
                        h, destroyed ? "destroyed before this launch" : "no such object was created"));
    }
    uint64_t cv[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; ++i)
      if (coord[i]) cv[i] = coord[i][l];
    TexelAccess out;
    std::string err;
    if (store) {
      uint64_t v[4] = {0, 0, 0, 0};
      for (int e = 0; e < nv; ++e)
        if (val[e]) v[e] = val[e][l];
      err = sampler.surface_store(*obj, in, cv, v, out);
    } else if (in.op == Op::Suld) {
      err = sampler.surface_load(*obj, in, cv, out);
    } else {
      err = sampler.fetch(*obj, in, cv, out);
    }
    if (!err.empty()) fault(w, uint32_t(l), pc, err);
    if (!store)
      for (int e = 0; e < nv; ++e)
        if (val[e]) const_cast<uint64_t*>(val[e])[l] = out.v[e];
    if (out.touched) {
      acc.mask |= 1u << l;
      acc.addr[l] = out.addr;
      bytes = in.op == Op::Suld || store ? uint32_t(isa::dtype_bytes(in.type)) * in.vec : obj->res.format.bytes();
    }
  });
  ++stats_.exec.tex_requests;
  if (!acc.mask) return;  // every lane read the border (or a zero-mode surface edge)
  // Per-lane bytes as an element size the coalescer takes (1, 2, 4 or 8 bytes, times a vector).
  acc.elem_bytes = static_cast<uint8_t>(bytes > 8 ? 8 : bytes);
  acc.vec = static_cast<uint8_t>(bytes > 8 ? bytes / 8 : 1);
  r.accesses = accesses_.data();
  r.n_accesses = 1;
}

}  // namespace warpsim::sm
