// Decoding of the warp-level matrix instructions (tensor cores):
//   wmma.load.{a,b,c}.sync.aligned.{row,col}.shape{.ss}.type   {regs}, [p]{, stride};
//   wmma.store.d.sync.aligned.{row,col}.shape{.ss}.type        [p], {regs}{, stride};
//   wmma.mma.sync.aligned.{row,col}.{row,col}.shape.dtype.ctype             d, a, b, c;  (f16 a and b)
//   wmma.mma.sync.aligned.{row,col}.{row,col}.shape.dtype.atype.btype.ctype d, a, b, c;
// for the shapes and types of sm_70 to sm_90 (f16, bf16, tf32, f64, s8, u8). The sub-byte
// types (.s4, .u4, .b1) are refused as unsupported.
#include "sim/isa/ptx_decoder.hpp"
#include "sim/isa/wmma_layout.hpp"

namespace warpsim::isa::detail {

namespace {

// The PTX registers of a fragment: 64-bit for f64, .f32 for f32 elements, else .b32 (packed
// halves and bytes, tf32 and s32).
DType fragment_reg_type(DType elem, const FragmentGeometry& g) {
  return g.elem_bytes == 8 ? DType::F64 : elem == DType::F32 ? DType::F32 : DType::B32;
}

}  // namespace

bool Decoder::classify_wmma(std::string_view m) {
  if (one_of(m, {"load", "store", "mma"})) {
    if (md_.wmma_op) malformed("two wmma operations");
    md_.wmma_op = m[0] == 'l' ? 'l' : m[0] == 's' ? 's' : 'm';
    return true;
  }
  if (md_.wmma_op != 'm' && one_of(m, {"a", "b", "c", "d"})) {
    if (md_.wmma_frag) malformed("two wmma fragments");
    md_.wmma_frag = m[0];
    return true;
  }
  if (m == "row" || m == "col") {
    md_.layouts.push_back(m[0] == 'r' ? 'r' : 'c');
    return true;
  }
  if (MmaShape s = parse_mma_shape(m); s != MmaShape::None) {
    if (md_.shape != MmaShape::None) malformed("two wmma shapes");
    md_.shape = s;
    return true;
  }
  if (m == "satfinite") {
    md_.satfinite = true;
    return true;
  }
  if (m == "shared::cta") {
    if (md_.has_space) malformed("two state spaces");
    md_.has_space = true;
    md_.space = Space::Shared;
    return true;
  }
  if (one_of(m, {"s4", "u4", "b1", "e4m3", "e5m2"})) unsupported(fmt::format("wmma on .{} elements", m));
  if (one_of(m, {"m8n8k32", "m8n8k128"})) unsupported(fmt::format("wmma shape .{} (sub-byte elements)", m));
  return false;
}

void Decoder::wmma() {
  if (!md_.sync || !md_.aligned) malformed("wmma needs .sync.aligned");
  if (md_.shape == MmaShape::None) malformed("wmma needs a shape (.m16n16k16, .m32n8k16, .m8n32k16, .m16n16k8, .m8n8k4)");
  in_.mma.shape = md_.shape;
  switch (md_.wmma_op) {
    case 'l':
    case 's': return wmma_load_store();
    case 'm': return wmma_mma();
    default: malformed("wmma needs .load, .store or .mma");
  }
}

void Decoder::wmma_load_store() {
  const bool load = md_.wmma_op == 'l';
  if (!md_.wmma_frag) malformed(load ? "wmma.load needs .a, .b or .c" : "wmma.store needs .d");
  if (load ? md_.wmma_frag == 'd' : md_.wmma_frag != 'd')
    malformed(load ? "wmma.load loads .a, .b or .c" : "wmma.store stores .d");
  if (md_.layouts.size() != 1) malformed("wmma.load/store take one layout (.row or .col)");
  if (md_.satfinite || md_.round != Round::None) malformed("wmma.load/store take no rounding or saturation");
  const DType t = type1();
  const MmaFrag frag = md_.wmma_frag == 'a' ? MmaFrag::A : md_.wmma_frag == 'b' ? MmaFrag::B : MmaFrag::C;
  const auto geo = fragment_geometry(md_.shape, frag, t);
  if (!geo)
    malformed(fmt::format("wmma has no .{} fragment of .{} for .{}", md_.wmma_frag, dtype_name(t),
                          mma_shape_name(md_.shape)));
  if (md_.has_space && md_.space != Space::Global && md_.space != Space::Shared)
    malformed("wmma.load/store address .global or .shared memory (or a generic address)");
  in_.op = load ? Op::WmmaLoad : Op::WmmaStore;
  in_.type = t;
  in_.space = md_.has_space ? md_.space : Space::Generic;
  in_.mma.frag = frag;
  in_.mma.col = md_.layouts[0] == 'c';
  need_between(2, 3);
  const DType reg_type = fragment_reg_type(t, *geo);
  if (load) {
    set(kD0, vec_regs(ops_[0], static_cast<int>(geo->regs), true, reg_type));
    set(kA, addr(ops_[1], in_.space, kA));
    if (ops_.size() == 3) set(kB, src(ops_[2], DType::U32, kB));
    in_.klass = in_.space == Space::Shared ? InstrClass::LdShared : InstrClass::LdGlobal;
  } else {
    set(kA, addr(ops_[0], in_.space, kA));
    set(kB, vec_regs(ops_[1], static_cast<int>(geo->regs), false, reg_type));
    if (ops_.size() == 3) set(kC, src(ops_[2], DType::U32, kC));
    in_.klass = in_.space == Space::Shared ? InstrClass::StShared : InstrClass::StGlobal;
  }
}

void Decoder::wmma_mma() {
  if (md_.layouts.size() != 2) malformed("wmma.mma takes two layouts (a's and b's: .row or .col)");
  DType dt, at, bt, ct;
  if (md_.types.size() == 2) {  // f16 inputs
    dt = md_.types[0], ct = md_.types[1];
    at = bt = DType::F16;
    if ((dt != DType::F16 && dt != DType::F32) || (ct != DType::F16 && ct != DType::F32))
      malformed("wmma.mma with f16 inputs takes .f16 or .f32 for d and c");
  } else if (md_.types.size() == 4) {
    dt = md_.types[0], at = md_.types[1], bt = md_.types[2], ct = md_.types[3];
    if (at != bt) malformed("wmma.mma takes one type for a and b");
    bool ok = false;
    if (at == DType::BF16 || at == DType::TF32) ok = dt == DType::F32 && ct == DType::F32;
    else if (at == DType::S8 || at == DType::U8) ok = dt == DType::S32 && ct == DType::S32;
    else if (at == DType::F64) ok = dt == DType::F64 && ct == DType::F64;
    else if (at == DType::F16) ok = false;  // f16 inputs name only d and c
    if (!ok)
      malformed(fmt::format("wmma.mma has no form .{}.{}.{}.{}", dtype_name(dt), dtype_name(at), dtype_name(bt),
                            dtype_name(ct)));
  } else {
    malformed("wmma.mma takes .dtype.ctype (f16 inputs) or .dtype.atype.btype.ctype");
  }
  const auto ga = fragment_geometry(md_.shape, MmaFrag::A, at);
  const auto gb = fragment_geometry(md_.shape, MmaFrag::B, bt);
  const auto gc = fragment_geometry(md_.shape, MmaFrag::C, ct);
  const auto gd = fragment_geometry(md_.shape, MmaFrag::C, dt);
  if (!ga || !gb || !gc || !gd)
    malformed(fmt::format("wmma.mma has no .{} form with .{} inputs", mma_shape_name(md_.shape), dtype_name(at)));
  if (at == DType::F64 ? md_.round != Round::Rn : md_.round != Round::None)
    malformed(at == DType::F64 ? "wmma.mma on .f64 needs .rn" : "wmma.mma takes a rounding only on .f64");
  if (md_.satfinite && at == DType::F64) malformed("wmma.mma on .f64 takes no .satfinite");
  need(4);
  in_.op = Op::WmmaMma;
  in_.type = dt;
  in_.stype = ct;
  in_.mma.atype = at;
  in_.mma.a_col = md_.layouts[0] == 'c';
  in_.mma.b_col = md_.layouts[1] == 'c';
  in_.mma.satfinite = md_.satfinite;
  set(kD0, vec_regs(ops_[0], static_cast<int>(gd->regs), true, fragment_reg_type(dt, *gd)));
  set(kA, vec_regs(ops_[1], static_cast<int>(ga->regs), false, fragment_reg_type(at, *ga)));
  set(kB, vec_regs(ops_[2], static_cast<int>(gb->regs), false, fragment_reg_type(bt, *gb)));
  set(kC, vec_regs(ops_[3], static_cast<int>(gc->regs), false, fragment_reg_type(ct, *gc)));
  in_.klass = InstrClass::Tensor;
}

}  // namespace warpsim::isa::detail
