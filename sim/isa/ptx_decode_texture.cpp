// Decoding of texture fetches (tex, tex.level, tex.grad, tld4) and surface accesses
// (suld.b, sust.b) through texture and surface objects: the handle is a 64-bit register,
// the coordinates a vector inside the brackets ("[%rd1, {%f1, %f2}]"). Texture references
// (.texref, removed in CUDA 12), formatted surface stores (sust.p), depth compare and
// texel offsets are refused by name.
#include "sim/isa/ptx_decoder.hpp"

namespace warpsim::isa::detail {

namespace {

// Coordinates each geometry takes (3d, a2d, cube and acube are padded to four by PTX).
int coord_count(TexGeom g) {
  switch (g) {
    case TexGeom::D1: return 1;
    case TexGeom::D2: case TexGeom::A1D: return 2;
    default: return 4;
  }
}

}  // namespace

bool Decoder::classify_texture(std::string_view m) {
  static const std::pair<std::string_view, TexGeom> geoms[] = {
      {"1d", TexGeom::D1},   {"2d", TexGeom::D2},     {"3d", TexGeom::D3},    {"a1d", TexGeom::A1D},
      {"a2d", TexGeom::A2D}, {"cube", TexGeom::Cube}, {"acube", TexGeom::ACube}};
  for (auto& [n, g] : geoms)
    if (m == n) {
      if (md_.tex_geom >= 0) malformed("two texture geometries");
      md_.tex_geom = static_cast<int>(g);
      return true;
    }
  if (m == "2dms" || m == "a2dms") unsupported(fmt::format("{}.{} (multisample textures)", base_, m));
  if (base_ == "tex") {
    if (m == "level") { md_.tex_level = true; return true; }
    if (m == "grad") { md_.tex_grad = true; return true; }
    if (m == "base") return true;  // the default: level 0
  }
  if (base_ == "tld4") {
    static constexpr std::string_view comps[] = {"r", "g", "b", "a"};
    for (int i = 0; i < 4; ++i)
      if (m == comps[i]) {
        md_.tex_comp = i;
        return true;
      }
  }
  if (base_ == "suld" || base_ == "sust") {
    if (m == "b") { md_.su_b = true; return true; }
    if (m == "p") unsupported(fmt::format("{}.p (formatted surface access)", base_));
    if (m == "trap") { md_.su_clamp = static_cast<int>(SurfClamp::Trap); return true; }
    if (m == "clamp") { md_.su_clamp = static_cast<int>(SurfClamp::Clamp); return true; }
    if (m == "zero") { md_.su_clamp = static_cast<int>(SurfClamp::Zero); return true; }
  }
  return false;
}

// The texture/surface object: a 64-bit register (the first name in the brackets).
Operand Decoder::tex_handle(const RawOp& r) {
  if (r.k != RawOp::K::Addr) fail_tok(r.tok, fmt::format("parse error: {} takes [object, {{coordinates}}]", base_));
  if (r.name.empty() || r.off != 0) fail_tok(r.tok, fmt::format("parse error: {} takes [object, {{coordinates}}]", base_));
  RawOp h;
  h.k = ctx_.is_symbol(r.name) || r.name[0] != '%' ? RawOp::K::Sym : RawOp::K::Reg;
  h.name = r.name;
  h.tok = r.tok;
  if (h.k == RawOp::K::Sym)
    unsupported(fmt::format("{} through '{}' (texture/surface references were removed in CUDA 12; use "
                            "texture and surface objects)",
                            base_, r.name));
  return src(h, DType::U64, -1);
}

Operand Decoder::tex_coords(const RawOp& r, DType t) {
  const int want = coord_count(static_cast<TexGeom>(md_.tex_geom));
  if (r.elems.empty())
    fail_tok(r.tok, fmt::format("parse error: {} takes [object, {{coordinates}}]", base_));
  if (static_cast<int>(r.elems.size()) != want)
    fail_tok(r.tok, fmt::format("parse error: this geometry takes {} coordinate{}", want, want == 1 ? "" : "s"));
  RawOp v;
  v.k = RawOp::K::Vec;
  v.elems = r.elems;
  v.tok = r.tok;
  return vec_regs(v, want, false, t);
}

// tex[.level|.grad].geom.v4.dtype.ctype d, [obj, {c}] [, lod | , dPdx, dPdy];
// tld4.comp.2d.v4.dtype.f32 d, [obj, {c}];
void Decoder::tex() {
  const bool gather = base_ == "tld4";
  if (md_.tex_geom < 0) malformed(fmt::format("{} needs a geometry (.1d, .2d, .3d, .a1d, .a2d, .cube, .acube)", base_));
  if (md_.types.size() != 2) malformed(fmt::format("{} needs a result type and a coordinate type", base_));
  if (md_.vec != 4) malformed(fmt::format("{} returns a .v4 vector", base_));
  const DType dt = md_.types[0], ct = md_.types[1];
  if (dt != DType::F32 && dt != DType::S32 && dt != DType::U32)
    unsupported(fmt::format("{} returning .{}", base_, dtype_name(dt)));
  if (ct != DType::F32 && ct != DType::S32) malformed(fmt::format("{} coordinates are .s32 or .f32", base_));
  in_.type = dt;
  in_.stype = ct;
  in_.vec = 4;
  in_.geom = static_cast<TexGeom>(md_.tex_geom);
  in_.klass = InstrClass::LdGlobal;
  if (gather) {
    in_.op = Op::Tld4;
    if (md_.tex_comp < 0) malformed("tld4 needs a component (.r, .g, .b or .a)");
    if (in_.geom != TexGeom::D2) unsupported(fmt::format("tld4 on a geometry other than .2d"));
    if (ct != DType::F32) malformed("tld4 coordinates are .f32");
    in_.tex_mode = static_cast<uint8_t>(md_.tex_comp);
    need(2);
  } else {
    in_.op = Op::Tex;
    if (md_.tex_level && md_.tex_grad) malformed("tex takes .level or .grad, not both");
    const size_t extra = md_.tex_level ? 1 : md_.tex_grad ? 2 : 0;
    if (ops_.size() != 2 + extra) {
      if (ops_.size() > 2 + extra) unsupported("tex with texel offsets or depth compare");
      need(2 + extra);
    }
    // Level of detail and gradients select a mipmap level; warpsim's textures have one
    // level, so they are read (dependencies) and otherwise ignored.
    if (md_.tex_level) set(kC, src(ops_[2], DType::F32, kC));
    if (md_.tex_grad) {
      const RawOp& gx = ops_[2];
      const RawOp& gy = ops_[3];
      if (gx.k != RawOp::K::Vec || gy.k != RawOp::K::Vec || gx.elems.size() > 4 || gy.elems.size() > 4)
        malformed("tex.grad takes two gradient vectors (of up to 4 elements)");
      set(kC, vec_regs(gx, static_cast<int>(gx.elems.size()), false, DType::F32));
      set(kE, vec_regs(gy, static_cast<int>(gy.elems.size()), false, DType::F32));
    }
  }
  if (!ops_[0].pipe.empty()) unsupported(fmt::format("{} with a residency predicate (sparse textures)", base_));
  set(kD0, vec_regs(ops_[0], 4, true, dt));
  set(kA, tex_handle(ops_[1]));
  set(kB, tex_coords(ops_[1], ct));
}

void Decoder::suld() {
  need(2);
  if (!md_.su_b) malformed("suld needs .b (unformatted access)");
  if (md_.tex_geom < 0) malformed("suld needs a geometry (.1d, .2d, .3d, .a1d, .a2d)");
  if (md_.tex_geom >= static_cast<int>(TexGeom::Cube)) unsupported("suld on cube maps");
  const DType t = type1();
  if (t != DType::B8 && t != DType::B16 && t != DType::B32 && t != DType::B64)
    malformed("suld.b takes .b8, .b16, .b32 or .b64");
  in_.op = Op::Suld;
  in_.type = t;
  in_.vec = static_cast<uint8_t>(md_.vec);
  in_.geom = static_cast<TexGeom>(md_.tex_geom);
  in_.tex_mode = static_cast<uint8_t>(md_.su_clamp < 0 ? SurfClamp::Trap : static_cast<SurfClamp>(md_.su_clamp));
  in_.klass = InstrClass::LdGlobal;
  if (ops_[0].k == RawOp::K::Vec) set(kD0, vec_regs(ops_[0], in_.vec, true, t));
  else if (in_.vec == 1) set(kD0, dst(ops_[0]));
  else malformed("suld.v2/.v4 needs a vector destination");
  set(kA, tex_handle(ops_[1]));
  set(kB, tex_coords(ops_[1], DType::S32));
}

void Decoder::sust() {
  need(2);
  if (!md_.su_b) malformed("sust needs .b (unformatted access)");
  if (md_.tex_geom < 0) malformed("sust needs a geometry (.1d, .2d, .3d, .a1d, .a2d)");
  if (md_.tex_geom >= static_cast<int>(TexGeom::Cube)) unsupported("sust on cube maps");
  const DType t = type1();
  if (t != DType::B8 && t != DType::B16 && t != DType::B32 && t != DType::B64)
    malformed("sust.b takes .b8, .b16, .b32 or .b64");
  in_.op = Op::Sust;
  in_.type = t;
  in_.vec = static_cast<uint8_t>(md_.vec);
  in_.geom = static_cast<TexGeom>(md_.tex_geom);
  in_.tex_mode = static_cast<uint8_t>(md_.su_clamp < 0 ? SurfClamp::Trap : static_cast<SurfClamp>(md_.su_clamp));
  in_.klass = InstrClass::StGlobal;
  set(kA, tex_handle(ops_[0]));
  set(kB, tex_coords(ops_[0], DType::S32));
  if (ops_[1].k == RawOp::K::Vec) set(kC, vec_regs(ops_[1], in_.vec, false, t));
  else if (in_.vec == 1) set(kC, src(ops_[1], t, kC));
  else malformed("sust.v2/.v4 needs a vector source");
}

}  // namespace warpsim::isa::detail
