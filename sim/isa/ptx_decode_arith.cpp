// Decoding of integer and floating-point arithmetic, comparisons, selects and conversions.
#include "sim/isa/ptx_decoder.hpp"

namespace warpsim::isa::detail {

void Decoder::binary() {
  need(3);
  DType t = type1();
  static const std::pair<std::string_view, Op> ops[] = {{"add", Op::Add}, {"sub", Op::Sub}, {"min", Op::Min},
                                                        {"max", Op::Max}, {"and", Op::And}, {"or", Op::Or},
                                                        {"xor", Op::Xor}, {"copysign", Op::Copysign}};
  for (auto& [n, o] : ops)
    if (base_ == n) in_.op = o;
  in_.type = t;
  in_.round = md_.round;
  in_.ftz = md_.ftz;
  in_.sat = md_.sat;
  bool logic = in_.op == Op::And || in_.op == Op::Or || in_.op == Op::Xor;
  const bool sat_float = t == DType::F32 || t == DType::F16 || t == DType::F16x2;
  if (in_.sat && !((in_.op == Op::Add || in_.op == Op::Sub) && (t == DType::S32 || sat_float)))
    malformed(fmt::format(".sat on {} applies to .s32, .f32, .f16 and .f16x2 add/sub", base_));
  if (t == DType::Pred) {
    if (!logic) malformed(fmt::format("{}.pred is not an instruction", base_));
    set(kD0, pdst(ops_[0]));
    set(kA, psrc(ops_[1]));
    set(kB, psrc(ops_[2]));
    in_.klass = InstrClass::IntAlu;
    return;
  }
  if (md_.nan) {
    if (!(t == DType::F32 || t == DType::F16 || t == DType::F16x2 || t == DType::BF16 || t == DType::BF16x2))
      malformed(fmt::format("{}.NaN takes .f32, .f16, .f16x2, .bf16 or .bf16x2", base_));
    in_.nan_min_max = true;
  }
  if (md_.xorsign || md_.abs) {
    if (!(md_.xorsign && md_.abs)) malformed(fmt::format("{} takes .xorsign and .abs together", base_));
    if (!(in_.op == Op::Min || in_.op == Op::Max) ||
        !(t == DType::F32 || t == DType::F16 || t == DType::F16x2 || t == DType::BF16 || t == DType::BF16x2))
      malformed(fmt::format("{}.xorsign.abs takes .f32, .f16, .f16x2, .bf16 or .bf16x2", base_));
    if (in_.ftz && (t == DType::BF16 || t == DType::BF16x2)) malformed(".ftz does not apply to .bf16 min/max");
    in_.xorsign_abs = true;
  }
  // The 16-bit integer pairs (cc 9.0: __vadd2, __vmaxs2, __vimax_s16x2_relu ...) and
  // min/max.relu on .s32 and .s16x2 (__vimax_s32_relu).
  if (is_int_pair(t) && !(in_.op == Op::Add || in_.op == Op::Min || in_.op == Op::Max))
    malformed(fmt::format("{} on .{}: the pairs take add, min and max", base_, dtype_name(t)));
  if (md_.relu) {
    if (!((in_.op == Op::Min || in_.op == Op::Max) && (t == DType::S32 || t == DType::S16x2)))
      malformed(fmt::format("{}.relu takes .s32 or .s16x2 (min and max)", base_));
    in_.relu = true;
  }
  if (in_.op == Op::Copysign && !is_float(t)) malformed("copysign takes .f32 or .f64");
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  set(kB, src(ops_[2], t, kB));
  set_class_arith(t);
}

// The width and saturation forms PTX defines: .wide on 16/32-bit integers (never for
// mul24/mad24, which take .lo/.hi), .sat on f32, f16 and f16x2, and on the .hi.s32 forms
// of mad/mad24.
void Decoder::check_width_and_sat(DType t, bool is_mad) {
  const bool is24 = base_ == "mul24" || base_ == "mad24";
  if (is24 && !(t == DType::S32 || t == DType::U32)) malformed(fmt::format("{} takes .s32 or .u32", base_));
  if (is24 && in_.width == Width::Wide) malformed(fmt::format("{} takes .lo or .hi", base_));
  if (in_.width == Width::Wide && dtype_bytes(t) == 8)
    malformed(fmt::format("{}.wide takes 16- or 32-bit types", base_));
  if (in_.width != Width::None && is_float(t)) malformed(fmt::format("{}.{} is integer-only", base_,
                                                                      in_.width == Width::Hi ? "hi" : in_.width == Width::Lo ? "lo" : "wide"));
  const bool sat_float = t == DType::F32 || t == DType::F16 || t == DType::F16x2;
  if (in_.sat && !(sat_float || (is_mad && in_.width == Width::Hi && t == DType::S32)))
    malformed(fmt::format(".sat on {} applies to .f32, .f16, .f16x2{}", base_, is_mad ? " and .hi.s32" : ""));
}

void Decoder::mul() {
  need(3);
  DType t = type1();
  in_.op = base_ == "mul24" ? Op::Mul24 : Op::Mul;
  in_.type = t;
  in_.round = md_.round;
  in_.ftz = md_.ftz;
  in_.sat = md_.sat;
  in_.width = md_.width;
  if (is_int(t) && in_.width == Width::None) malformed("integer mul needs .lo, .hi or .wide");
  check_width_and_sat(t, false);
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  set(kB, src(ops_[2], t, kB));
  set_class_arith(t);
  if (is_int(t)) in_.klass = InstrClass::IntMul;
}

void Decoder::mad() {
  need(4);
  DType t = type1();
  in_.op = base_ == "mad24" ? Op::Mad24 : Op::Mad;
  in_.type = t;
  in_.round = md_.round;
  in_.ftz = md_.ftz;
  in_.sat = md_.sat;
  in_.width = md_.width;
  if (is_int(t) && in_.width == Width::None) malformed("integer mad needs .lo, .hi or .wide");
  check_width_and_sat(t, true);
  DType ct = (in_.width == Width::Wide) ? (is_signed(t) ? DType::S64 : DType::U64) : t;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  set(kB, src(ops_[2], t, kB));
  set(kC, src(ops_[3], ct, kC));
  set_class_arith(t);
  if (is_int(t)) in_.klass = InstrClass::IntMul;
}

void Decoder::fma() {
  need(4);
  DType t = type1();
  if (!is_float(t)) malformed("fma takes .f32 or .f64");
  in_.op = Op::Fma;
  in_.type = t;
  in_.round = md_.round;
  in_.ftz = md_.ftz;
  in_.sat = md_.sat;
  // fma.rn{.ftz}.relu.{f16,f16x2} and fma.rn.relu.{bf16,bf16x2}: a negative result is +0.
  if (md_.relu) {
    if (!is_half(t)) malformed("fma.relu takes .f16, .f16x2, .bf16 or .bf16x2");
    if (md_.round != Round::Rn) malformed("fma.relu takes .rn");
    if (md_.sat) malformed("fma takes one of .relu and .sat");
    in_.relu = true;
  }
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  set(kB, src(ops_[2], t, kB));
  set(kC, src(ops_[3], t, kC));
  set_class_arith(t);
}

void Decoder::divrem() {
  need(3);
  DType t = type1();
  in_.op = base_ == "div" ? Op::Div : Op::Rem;
  if (in_.op == Op::Rem && is_float(t)) malformed("rem takes integer types");
  in_.type = t;
  in_.round = md_.round;
  in_.ftz = md_.ftz;
  in_.approx = md_.approx || md_.full;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  set(kB, src(ops_[2], t, kB));
  if (t == DType::F64) in_.klass = InstrClass::Fp64;
  else if (is_float(t)) in_.klass = md_.approx ? InstrClass::Sfu : InstrClass::FpDiv;
  else in_.klass = InstrClass::IntDiv;
}

void Decoder::unary() {
  need(2);
  DType t = type1();
  static const std::pair<std::string_view, Op> ops[] = {{"abs", Op::Abs}, {"neg", Op::Neg}, {"not", Op::Not},
                                                        {"cnot", Op::Cnot}, {"popc", Op::Popc}, {"clz", Op::Clz},
                                                        {"brev", Op::Brev}};
  for (auto& [n, o] : ops)
    if (base_ == n) in_.op = o;
  in_.type = t;
  in_.ftz = md_.ftz;
  if (t == DType::Pred) {
    if (in_.op != Op::Not) malformed(fmt::format("{}.pred is not an instruction", base_));
    set(kD0, pdst(ops_[0]));
    set(kA, psrc(ops_[1]));
    in_.klass = InstrClass::IntAlu;
    return;
  }
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  set_class_arith(t);
}

void Decoder::shift() {
  need(3);
  DType t = type1();
  if (is_float(t) || t == DType::Pred) malformed("shifts take integer types");
  in_.op = base_ == "shl" ? Op::Shl : Op::Shr;
  in_.type = t;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  set(kB, src(ops_[2], DType::U32, kB));
  in_.klass = InstrClass::IntAlu;
}

void Decoder::setp() {
  need_between(3, 4);
  DType t = type1();
  if (!md_.has_cmp) malformed("setp needs a comparison operator");
  in_.op = Op::Setp;
  in_.type = t;
  in_.cmp = md_.cmp;
  in_.boolop = md_.boolop;
  in_.ftz = md_.ftz;
  const RawOp& d = ops_[0];
  if (d.k != RawOp::K::Reg) fail_tok(d.tok, "parse error: setp writes a predicate register");
  set(kD0, pdst(d));
  if (!d.pipe.empty()) {
    RawOp q = d;
    q.name = d.pipe;
    set(kD1, pdst(q));
  }
  if (t == DType::Pred) unsupported("setp on predicates");
  set(kA, src(ops_[1], t, kA));
  set(kB, src(ops_[2], t, kB));
  combine_source();
  set_class_arith(t);
}

// setp's and set's fourth operand: the predicate .and/.or/.xor combines with, present
// exactly when one of them is.
void Decoder::combine_source() {
  if (ops_.size() == 4) {
    if (in_.boolop == BoolOp::None) malformed(fmt::format("a third {} source needs .and, .or or .xor", base_));
    set(kC, psrc(ops_[3]));
  } else if (in_.boolop != BoolOp::None) {
    malformed(fmt::format("{} with .and/.or/.xor needs a predicate source", base_));
  }
}

// set.CmpOp{.BoolOp}{.ftz}.dtype.stype d, a, b{, {!}c}: the types PTX allows (dtype .u32,
// .s32, .f32, .f16 or .bf16 for any scalar source, .u16 and .s16 too for .f16 and .bf16
// ones; the source's own pair type, .u32 or .s32 for .f16x2 and .bf16x2 sources).
void Decoder::set_compare() {
  need_between(3, 4);
  if (md_.types.size() != 2) malformed("set needs a destination and a source type");
  if (!md_.has_cmp) malformed("set needs a comparison operator");
  in_.op = Op::Set;
  in_.type = md_.types[0];
  in_.stype = md_.types[1];
  in_.cmp = md_.cmp;
  in_.boolop = md_.boolop;
  in_.ftz = md_.ftz;
  const DType d = in_.type, s = in_.stype;
  const bool pairs = s == DType::F16x2 || s == DType::BF16x2;
  if (s == DType::Pred || s == DType::TF32 || dtype_bytes(s) < 2)
    malformed(fmt::format("set does not compare .{}", dtype_name(s)));
  const bool d_ok = pairs ? (d == s || d == DType::U32 || d == DType::S32)
                          : (d == DType::U32 || d == DType::S32 || d == DType::F32 || d == DType::F16 ||
                             d == DType::BF16 ||
                             ((d == DType::U16 || d == DType::S16) && (s == DType::F16 || s == DType::BF16)));
  if (!d_ok) malformed(fmt::format("set does not write .{} from .{}", dtype_name(d), dtype_name(s)));
  const bool unsigned_cmp = in_.cmp == Cmp::Lo || in_.cmp == Cmp::Ls || in_.cmp == Cmp::Hi || in_.cmp == Cmp::Hs;
  const bool float_only = !unsigned_cmp && in_.cmp != Cmp::Eq && in_.cmp != Cmp::Ne && in_.cmp != Cmp::Lt &&
                          in_.cmp != Cmp::Le && in_.cmp != Cmp::Gt && in_.cmp != Cmp::Ge;
  if (is_float(s) ? unsigned_cmp : float_only)
    malformed(fmt::format("set's comparison does not apply to .{}", dtype_name(s)));
  if (in_.ftz && s != DType::F32 && s != DType::F16 && s != DType::F16x2) malformed(".ftz applies to .f32 and .f16 set");
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], s, kA));
  set(kB, src(ops_[2], s, kB));
  combine_source();
  set_class_arith(s);
}

void Decoder::selp() {
  need(4);
  DType t = type1();
  in_.op = Op::Selp;
  in_.type = t;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  set(kB, src(ops_[2], t, kB));
  set(kC, psrc(ops_[3]));
  in_.klass = InstrClass::IntAlu;
}

void Decoder::slct() {
  need(4);
  if (md_.types.size() != 2) malformed("slct needs two types");
  in_.op = Op::Slct;
  in_.type = md_.types[0];
  in_.stype = md_.types[1];
  if (in_.stype != DType::S32 && in_.stype != DType::F32) malformed("slct's selector is .s32 or .f32");
  in_.ftz = md_.ftz;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], in_.type, kA));
  set(kB, src(ops_[2], in_.type, kB));
  set(kC, src(ops_[3], in_.stype, kC));
  in_.klass = InstrClass::IntAlu;
}

void Decoder::cvt() {
  if (md_.types.size() != 2) malformed("cvt needs a destination and a source type");
  // cvt.rn.{f16x2,bf16x2}.f32 and cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 d, a, b pack two
  // conversions (a's in the upper half).
  const DType dt = md_.types[0], st = md_.types[1];
  const bool pack = (dt == DType::F16x2 || dt == DType::BF16x2 || is_fp8_pair(dt)) && st == DType::F32;
  need(pack ? 3 : 2);
  in_.op = Op::Cvt;
  in_.type = dt;
  in_.stype = st;
  if (pack) set(kB, src(ops_[2], in_.stype, kB));
  if (in_.type == DType::Pred || in_.stype == DType::Pred) malformed("cvt does not take .pred");
  in_.round = md_.round;
  in_.ftz = md_.ftz;
  in_.sat = md_.sat;
  check_cvt_modifiers();
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], in_.stype, kA));
  in_.klass = (in_.type == DType::F64 || in_.stype == DType::F64) ? InstrClass::Fp64 : InstrClass::Conv;
}

// The forms PTX gives .relu, .satfinite and the fp8 pairs:
//   cvt.{rn,rz}{.relu}{.satfinite}.{f16,f16x2,bf16,bf16x2}.f32
//   cvt.rna{.satfinite}.tf32.f32 (cvt.{rn,rz}{.satfinite}{.relu}.tf32.f32 needs sm_100:
//   refused as unsupported)
//   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32,f16x2}   (.satfinite is required)
//   cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}
void Decoder::check_cvt_modifiers() {
  const DType dt = in_.type, st = in_.stype;
  const bool to_half = dt == DType::F16 || dt == DType::F16x2 || dt == DType::BF16 || dt == DType::BF16x2;
  const bool rn_or_rz = md_.round == Round::Rn || md_.round == Round::Rz;
  if (is_fp8_pair(dt) || is_fp8_pair(st)) {
    if (md_.ftz || md_.sat) malformed("cvt to and from fp8 pairs takes no .ftz or .sat");
    if (md_.round != Round::Rn) malformed("cvt to and from fp8 pairs takes .rn");
    if (is_fp8_pair(dt)) {
      if (st != DType::F32 && st != DType::F16x2) malformed(fmt::format("cvt to .{} takes .f32 or .f16x2", dtype_name(dt)));
      if (!md_.satfinite) malformed(fmt::format("cvt to .{} needs .satfinite", dtype_name(dt)));
    } else {
      if (dt != DType::F16x2) malformed(fmt::format("cvt from .{} writes .f16x2", dtype_name(st)));
      if (md_.satfinite) malformed(fmt::format("cvt from .{} takes no .satfinite", dtype_name(st)));
    }
  } else if (md_.relu || md_.satfinite) {
    const bool tf32 = dt == DType::TF32 && st == DType::F32;
    if (!((to_half && st == DType::F32) || tf32))
      malformed(".relu and .satfinite apply to cvt from .f32 to .f16, .f16x2, .bf16, .bf16x2 and .tf32");
    if (md_.ftz || md_.sat) malformed("cvt with .relu or .satfinite takes no .ftz or .sat");
    if (tf32 && !(md_.round == Round::Rna && !md_.relu)) {
      if (rn_or_rz) unsupported("cvt.rn/.rz to .tf32 with .relu or .satfinite (sm_100)");
      malformed("cvt to .tf32 takes .rna{.satfinite} or .rn/.rz{.satfinite}{.relu}");
    }
    if (!tf32 && !rn_or_rz) malformed("cvt to halves with .relu or .satfinite rounds with .rn or .rz");
  }
  in_.relu = md_.relu;
  in_.satfinite = md_.satfinite;
}

void Decoder::sfu() {
  need(2);
  DType t = type1();
  if (!is_float(t)) malformed(fmt::format("{} takes floating-point types", base_));
  static const std::pair<std::string_view, Op> ops[] = {{"rcp", Op::Rcp}, {"sqrt", Op::Sqrt}, {"rsqrt", Op::Rsqrt},
                                                        {"ex2", Op::Ex2}, {"lg2", Op::Lg2},   {"sin", Op::Sin},
                                                        {"cos", Op::Cos}, {"tanh", Op::Tanh}};
  for (auto& [n, o] : ops)
    if (base_ == n) in_.op = o;
  in_.type = t;
  in_.round = md_.round;
  in_.ftz = md_.ftz;
  in_.approx = md_.approx;
  // On halves PTX has tanh.approx.{f16,f16x2,bf16,bf16x2}, ex2.approx.{f16,f16x2} and
  // ex2.approx.ftz.{bf16,bf16x2}.
  if (is_half(t)) {
    if (!((in_.op == Op::Tanh || in_.op == Op::Ex2) && md_.approx))
      unsupported(fmt::format("{} on .{} (of the special functions, halves have tanh.approx and ex2.approx)", base_,
                              dtype_name(t)));
    const bool bf = t == DType::BF16 || t == DType::BF16x2;
    if (in_.op == Op::Ex2 && md_.ftz != bf) malformed("ex2.approx takes .ftz on .bf16 and .bf16x2, and only there");
    if (in_.op == Op::Tanh && md_.ftz) malformed("tanh.approx takes no .ftz");
  }
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  if (t == DType::F64) in_.klass = InstrClass::Fp64;
  else if (md_.approx) in_.klass = InstrClass::Sfu;
  else in_.klass = InstrClass::FpDiv;  // IEEE-rounded: a short instruction sequence
}

}  // namespace warpsim::isa::detail
