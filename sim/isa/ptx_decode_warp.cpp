// Decoding of warp-level (shfl, vote, match, activemask) and bit-manipulation instructions.
#include "sim/isa/ptx_decoder.hpp"

namespace warpsim::isa::detail {

void Decoder::shfl() {
  if (!md_.has_shfl) malformed("shfl needs .up, .down, .bfly or .idx");
  need_between(4, 5);
  if (md_.sync != (ops_.size() == 5)) malformed(md_.sync ? "shfl.sync takes 5 operands" : "shfl takes 4 operands");
  DType t = type1();
  if (dtype_bytes(t) != 4) malformed("shfl takes .b32");
  in_.op = Op::Shfl;
  in_.type = DType::B32;
  in_.shfl = md_.shfl;
  const RawOp& d = ops_[0];
  set(kD0, dst(d));
  if (!d.pipe.empty()) {
    RawOp p = d;
    p.k = RawOp::K::Reg;  // d may be the sink "_"
    p.name = d.pipe;
    set(kD1, pdst(p));
  }
  set(kA, src(ops_[1], DType::B32, kA));
  set(kB, src(ops_[2], DType::U32, kB));
  set(kC, src(ops_[3], DType::U32, kC));
  if (ops_.size() == 5) set(kE, src(ops_[4], DType::U32, kE));
  in_.klass = InstrClass::IntAlu;
}

void Decoder::vote() {
  if (!md_.has_vote) malformed("vote needs .all, .any, .uni or .ballot");
  need_between(2, 3);
  if (md_.sync != (ops_.size() == 3)) malformed(md_.sync ? "vote.sync takes 3 operands" : "vote takes 2 operands");
  DType t = type1();
  in_.op = Op::Vote;
  in_.vote = md_.vote;
  in_.type = t;
  if (md_.vote == VoteMode::Ballot) {
    if (dtype_bytes(t) != 4 || is_float(t)) malformed("vote.ballot takes .b32");
    set(kD0, dst(ops_[0]));
  } else {
    if (t != DType::Pred) malformed("vote.all/any/uni take .pred");
    set(kD0, pdst(ops_[0]));
  }
  set(kA, psrc(ops_[1]));
  if (ops_.size() == 3) set(kB, src(ops_[2], DType::U32, kB));
  in_.klass = InstrClass::IntAlu;
}

void Decoder::bfe() {
  need(4);
  DType t = type1();
  if (!is_int(t) || dtype_bytes(t) < 4) malformed("bfe takes .u32, .s32, .u64 or .s64");
  in_.op = Op::Bfe;
  in_.type = t;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  set(kB, src(ops_[2], DType::U32, kB));
  set(kC, src(ops_[3], DType::U32, kC));
  in_.klass = InstrClass::IntAlu;
}

// shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: the funnel shift of b:a by c.
void Decoder::shf() {
  need(4);
  DType t = type1();
  if (t != DType::B32) malformed("shf takes .b32");
  if (!md_.shf_dir || !md_.shf_mode) malformed("shf needs .l or .r and .wrap or .clamp");
  bool wrap = md_.shf_mode == 'w';
  in_.op = md_.shf_dir == 'l' ? (wrap ? Op::ShfLWrap : Op::ShfLClamp) : (wrap ? Op::ShfRWrap : Op::ShfRClamp);
  in_.type = t;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  set(kB, src(ops_[2], t, kB));
  set(kC, src(ops_[3], DType::U32, kC));
  in_.klass = InstrClass::IntAlu;
}

// prmt.b32 d, a, b, c (the default mode; the .f4e/.b4e/.rc8/.ecl/.ecr/.rc16 modes are not
// in the subset and arrive here as unknown modifiers).
void Decoder::prmt() {
  need(4);
  DType t = type1();
  if (t != DType::B32) malformed("prmt takes .b32");
  in_.op = Op::Prmt;
  in_.type = t;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  set(kB, src(ops_[2], t, kB));
  set(kC, src(ops_[3], DType::B32, kC));
  in_.klass = InstrClass::IntAlu;
}

void Decoder::activemask() {
  need(1);
  if (type1() != DType::B32) malformed("activemask takes .b32");
  in_.op = Op::Activemask;
  in_.type = DType::B32;
  set(kD0, dst(ops_[0]));
  in_.klass = InstrClass::IntAlu;
}

// match.any.sync.{b32,b64} d, a, membermask;  match.all.sync.{b32,b64} d[|p], a, membermask.
void Decoder::match() {
  if (!md_.match_mode) malformed("match needs .any or .all");
  if (!md_.sync) malformed("match needs .sync");
  need(3);
  DType t = type1();
  if (t != DType::B32 && t != DType::B64) malformed("match takes .b32 or .b64");
  in_.op = md_.match_mode == 'n' ? Op::MatchAny : Op::MatchAll;
  in_.type = t;
  const RawOp& d = ops_[0];
  set(kD0, dst(d));
  if (!d.pipe.empty()) {
    if (in_.op == Op::MatchAny) malformed("match.any has no predicate destination");
    RawOp p = d;
    p.k = RawOp::K::Reg;
    p.name = d.pipe;
    set(kD1, pdst(p));
  }
  set(kA, src(ops_[1], t, kA));
  set(kB, src(ops_[2], DType::U32, kB));
  in_.klass = InstrClass::IntAlu;
}

// bfind[.shiftamt].{u32,s32,u64,s64} d, a: d is .u32.
void Decoder::bfind() {
  need(2);
  DType t = type1();
  if (t != DType::U32 && t != DType::S32 && t != DType::U64 && t != DType::S64)
    malformed("bfind takes .u32, .s32, .u64 or .s64");
  in_.op = md_.shiftamt ? Op::BfindShift : Op::Bfind;
  in_.type = t;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  in_.klass = InstrClass::IntAlu;
}

void Decoder::bfi() {
  need(5);
  DType t = type1();
  if (t != DType::B32 && t != DType::B64) malformed("bfi takes .b32 or .b64");
  in_.op = Op::Bfi;
  in_.type = t;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  set(kB, src(ops_[2], t, kB));
  set(kC, src(ops_[3], DType::U32, kC));
  set(kE, src(ops_[4], DType::U32, kE));
  in_.klass = InstrClass::IntAlu;
}

// bmsk.{clamp,wrap}.b32 d, a, b.
void Decoder::bmsk() {
  need(3);
  if (type1() != DType::B32 || !md_.shf_mode) unsupported("bmsk other than bmsk.clamp.b32 / bmsk.wrap.b32");
  in_.op = md_.shf_mode == 'w' ? Op::BmskWrap : Op::BmskClamp;
  in_.type = DType::B32;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], DType::U32, kA));
  set(kB, src(ops_[2], DType::U32, kB));
  in_.klass = InstrClass::IntAlu;
}

// nanosleep.u32 t: a hint that the thread may sleep up to t ns; warpsim does not suspend it.
void Decoder::nanosleep() {
  need(1);
  if (type1() != DType::U32) unsupported("nanosleep other than nanosleep.u32");
  in_.op = Op::Nop;
  set(kA, src(ops_[0], DType::U32, kA));
  in_.klass = InstrClass::Other;
}

// griddepcontrol.wait / .launch_dependents (programmatic dependent launch, sm_90): a grid
// waits for the grids it depends on, or lets its dependents start early. Launches run one
// after another to completion here, so every prerequisite grid has finished and its memory
// is visible before the dependent grid starts: both are no-ops, which is one legal schedule.
void Decoder::griddepcontrol() {
  need(0);
  if (!md_.griddep) malformed("griddepcontrol needs .wait or .launch_dependents");
  in_.op = Op::Nop;
  in_.klass = InstrClass::Other;
}

// vabsdiff4.{u32,s32}.{u32,s32}.{u32,s32}.add d, a, b, c: c plus the sum of |a_i - b_i| over
// the four bytes (signed or unsigned as a's and b's types say), as __sad-style code uses it;
// without .add (__vabsdiffu4, __vabsdiffs4) each byte of d is its |a_i - b_i| (the
// merge with c selects all four bytes: d's byte selectors are refused by the parser).
// The per-byte forms (a byte-mask destination, .min/.max) are refused.
void Decoder::vabsdiff4() {
  if (md_.types.size() != 3) malformed("vabsdiff4 takes three types (d, a, b)");
  for (DType t : md_.types)
    if (t != DType::U32 && t != DType::S32) malformed("vabsdiff4 types are .u32 or .s32");
  if (md_.sat) unsupported("vabsdiff4 with .sat");
  need(4);
  in_.op = md_.vadd ? Op::VAbsDiff4Add : Op::VAbsDiff4;
  in_.type = md_.types[1];   // a's type: signed or unsigned bytes
  in_.stype = md_.types[2];  // b's type
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], DType::U32, kA));
  set(kB, src(ops_[2], DType::U32, kB));
  set(kC, src(ops_[3], DType::U32, kC));
  in_.klass = InstrClass::IntAlu;
}

// lop3.b32 d, a, b, c, immLut: any logic function of three inputs, bit by bit (the table's
// bit (a << 2 | b << 1 | c) is the result). The predicate-writing form lop3.{or,and} d|p is
// sm_100's and refused.
void Decoder::lop3() {
  if (!ops_.empty() && !ops_[0].pipe.empty()) unsupported("lop3 with a predicate destination (sm_100)");
  need(5);
  if (type1() != DType::B32) malformed("lop3 takes .b32");
  if (ops_[4].k != RawOp::K::Imm) malformed("lop3's lookup table is an immediate");
  if (ops_[4].ival > 0xFF || ops_[4].imm_neg) malformed("lop3's lookup table is 0 to 255");
  in_.op = Op::Lop3;
  in_.type = DType::B32;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], DType::B32, kA));
  set(kB, src(ops_[2], DType::B32, kB));
  set(kC, src(ops_[3], DType::B32, kC));
  set(kE, src(ops_[4], DType::B32, kE));
  in_.klass = InstrClass::IntAlu;
}

// sad.{u16,u32,u64,s16,s32,s64} d, a, b, c: c + |a - b| (__sad, __usad).
void Decoder::sad() {
  need(4);
  const DType t = type1();
  if (!is_int(t) || dtype_bytes(t) < 2 || !(is_signed(t) || t == DType::U16 || t == DType::U32 || t == DType::U64))
    malformed("sad takes .u16, .u32, .u64, .s16, .s32 or .s64");
  in_.op = Op::Sad;
  in_.type = t;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  set(kB, src(ops_[2], t, kB));
  set(kC, src(ops_[3], t, kC));
  in_.klass = InstrClass::IntAlu;
}

// pmevent a and pmevent.mask a (__prof_trigger): a performance-monitor event, which counts
// nothing here.
void Decoder::pmevent() {
  need(1);
  if (ops_[0].k != RawOp::K::Imm) malformed("pmevent takes an immediate");
  in_.op = Op::Nop;
  in_.klass = InstrClass::Other;
}

// redux.sync.{add,min,max}.{u32,s32} and redux.sync.{and,or,xor}.b32 d, a, membermask
// (cc 8.0; __reduce_add_sync, cooperative groups' reduce on integers).
void Decoder::redux() {
  if (!md_.sync) malformed("redux needs .sync");
  need(3);
  const DType t = type1();
  const AtomOp op = md_.atom;
  if (t == DType::F32) unsupported("redux.sync on .f32 (sm_100)");
  const bool arith = op == AtomOp::Add || op == AtomOp::Min || op == AtomOp::Max;
  const bool logic = op == AtomOp::And || op == AtomOp::Or || op == AtomOp::Xor;
  if (!arith && !logic) malformed("redux.sync needs .add, .min, .max, .and, .or or .xor");
  if (arith ? !(t == DType::U32 || t == DType::S32) : t != DType::B32)
    malformed("redux.sync.add/min/max take .u32 or .s32, and/or/xor take .b32");
  in_.op = Op::Redux;
  in_.atom = op;
  in_.type = t;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  set(kB, src(ops_[2], DType::U32, kB));
  in_.klass = InstrClass::IntAlu;
}

// dp4a.atype.btype d, a, b, c and dp2a.{lo,hi}.atype.btype d, a, b, c (cc 6.1; __dp4a,
// __dp2a_lo, __dp2a_hi): atype and btype .u32 or .s32, d and c .s32 if either is signed.
void Decoder::dp4a() {
  if (md_.types.size() != 2) malformed(fmt::format("{} takes two types (a's and b's)", base_));
  for (DType t : md_.types)
    if (t != DType::U32 && t != DType::S32) malformed(fmt::format("{} types are .u32 or .s32", base_));
  need(4);
  if (base_ == "dp2a") {
    if (md_.width != Width::Lo && md_.width != Width::Hi) malformed("dp2a needs .lo or .hi");
    in_.op = md_.width == Width::Lo ? Op::Dp2aLo : Op::Dp2aHi;
  } else {
    in_.op = Op::Dp4a;
  }
  in_.type = md_.types[0];   // a's bytes or halves: signed or unsigned
  in_.stype = md_.types[1];  // b's bytes
  const DType acc = in_.type == DType::S32 || in_.stype == DType::S32 ? DType::S32 : DType::U32;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], DType::U32, kA));
  set(kB, src(ops_[2], DType::U32, kB));
  set(kC, src(ops_[3], acc, kC));
  in_.klass = InstrClass::IntMul;
}

}  // namespace warpsim::isa::detail
