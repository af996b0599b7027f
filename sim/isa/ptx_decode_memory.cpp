// Decoding of moves, loads, stores, cvta and atomics.
#include "sim/isa/ptx_decoder.hpp"

namespace warpsim::isa::detail {

void Decoder::mov() {
  need(2);
  DType t = type1();
  in_.op = Op::Mov;
  in_.type = t;
  in_.klass = InstrClass::Move;
  const RawOp& d = ops_[0];
  const RawOp& a = ops_[1];
  if (t == DType::Pred) {
    set(kD0, pdst(d));
    if (a.k == RawOp::K::Reg && a.name == "%is_explicit_cluster") {  // a launch constant, 0 or 1 in a data slot
      in_.op = Op::Setp;
      in_.type = DType::U32;
      in_.cmp = Cmp::Ne;
      set(kA, src(a, DType::U32, kA));
      RawOp zero;
      zero.k = RawOp::K::Imm;
      zero.tok = a.tok;
      set(kB, src(zero, DType::U32, kB));
      in_.klass = InstrClass::IntAlu;
      return;
    }
    set(kA, psrc(a));
    return;
  }
  if (a.k == RawOp::K::Reg && ctx_.is_clock_name(a.name)) {
    if (a.name.substr(0, 12) == "%globaltimer") {  // nanoseconds; _lo and _hi are its 32-bit halves
      in_.op = Op::ReadGlobalTimer;
      in_.stype = a.name == "%globaltimer" ? DType::U64 : DType::U32;
      in_.width = a.name == "%globaltimer_hi" ? Width::Hi : Width::None;
    } else {
      in_.op = Op::ReadClock;
      in_.stype = a.name == "%clock64" ? DType::U64 : DType::U32;
    }
    set(kD0, dst(d));
    return;
  }
  if (d.k == RawOp::K::Vec) {  // unpack: mov.b64 {lo, hi}, %rd
    int n = static_cast<int>(d.elems.size());
    if (n != 2 && n != 4) malformed("mov unpacks into 2 or 4 registers");
    if (dtype_bytes(t) != 8 && dtype_bytes(t) != 4) unsupported("mov vector unpack of this size");
    set(kD0, vec_regs(d, n, true, t));
    set(kA, src(a, t, kA));
    return;
  }
  if (a.k == RawOp::K::Vec) {  // pack: mov.b64 %rd, {lo, hi}
    int n = static_cast<int>(a.elems.size());
    if (n != 2 && n != 4) malformed("mov packs 2 or 4 registers");
    if (dtype_bytes(t) != 8 && dtype_bytes(t) != 4) unsupported("mov vector pack of this size");
    set(kD0, dst(d));
    DType et = dtype_bytes(t) / n == 4 ? DType::B32 : (dtype_bytes(t) / n == 2 ? DType::B16 : DType::B8);
    set(kA, vec_regs(a, n, false, et));
    return;
  }
  set(kD0, dst(d));
  set(kA, src(a, t, kA));
}

void Decoder::mem_common() {
  if (md_.types.size() != 1) malformed(fmt::format("{} needs exactly one type", base_));
  in_.type = md_.types[0];
  if (in_.type == DType::Pred) malformed("memory access of .pred");
  in_.space = md_.space;
  in_.vec = static_cast<uint8_t>(md_.vec);
  in_.cache = md_.cache;
  in_.is_volatile = md_.vol;
  in_.strong = md_.vol || md_.sem;
  if (md_.nc && in_.space != Space::Global) malformed(".nc applies to ld.global only");
  if (in_.space == Space::Const && base_ != "ld" && base_ != "ldu") malformed("only loads read the .const space");
}

void Decoder::ld() {
  need(2);
  in_.op = Op::Ld;
  mem_common();
  if (base_ == "ldu" && md_.space != Space::Global && md_.has_space) malformed("ldu applies to global memory");
  if (in_.vec > 1) set(kD0, vec_regs(ops_[0], in_.vec, true, in_.type));
  else set(kD0, dst(ops_[0]));
  set(kA, addr(ops_[1], in_.space, kA));
  switch (in_.space) {
    case Space::Shared: in_.klass = InstrClass::LdShared; break;
    case Space::Local: in_.klass = InstrClass::LdLocal; break;
    case Space::Param: in_.klass = InstrClass::LdParam; break;
    case Space::Const: in_.klass = InstrClass::LdConst; break;
    default: in_.klass = InstrClass::LdGlobal; break;
  }
}

void Decoder::st() {
  need(2);
  in_.op = Op::St;
  mem_common();
  if (in_.space == Space::Param && !(ops_[0].k == RawOp::K::Addr && ctx_.is_call_param(ops_[0].name)))
    unsupported("stores to the .param space other than to a call's parameters");
  set(kA, addr(ops_[0], in_.space, kA));
  if (in_.vec > 1) set(kB, vec_regs(ops_[1], in_.vec, false, in_.type));
  else set(kB, src(ops_[1], in_.type, kB));
  switch (in_.space) {
    case Space::Shared: in_.klass = InstrClass::StShared; break;
    case Space::Local: in_.klass = InstrClass::StLocal; break;
    default: in_.klass = InstrClass::StGlobal; break;
  }
}

void Decoder::cvta() {
  need(2);
  DType t = type1();
  if (t != DType::U64 && t != DType::U32 && t != DType::B64 && t != DType::B32) malformed("cvta takes .u32 or .u64");
  if (!md_.has_space) malformed("cvta needs a state space");
  if (md_.space == Space::Param) unsupported("cvta for the .param space");  // .const: identity, like .global
  in_.op = md_.to ? Op::CvtaTo : Op::Cvta;
  in_.type = t;
  in_.space = md_.space;
  in_.klass = InstrClass::IntAlu;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], DType::U64, kA));
}

void Decoder::atom() {
  bool is_red = base_ == "red";
  need_between(is_red ? 2 : 3, is_red ? 2 : 4);
  DType t = type1();
  if (md_.atom == AtomOp::None) malformed(fmt::format("{} needs an operation", base_));
  in_.op = is_red ? Op::Red : Op::Atom;
  in_.type = t;
  in_.atom = md_.atom;
  in_.space = md_.space;
  if (in_.space != Space::Global && in_.space != Space::Shared && in_.space != Space::Generic)
    malformed("atomics work on global or shared memory");
  check_atom_type(is_red, t);
  bool cas = in_.atom == AtomOp::Cas;
  if (is_red) {
    if (cas || in_.atom == AtomOp::Exch) malformed("red does not take .cas or .exch");
    set(kA, addr(ops_[0], in_.space, kA));
    set(kB, src(ops_[1], t, kB));
  } else {
    if (cas != (ops_.size() == 4)) malformed(cas ? "atom.cas takes 4 operands" : "atom takes 3 operands");
    set(kD0, dst(ops_[0]));
    set(kA, addr(ops_[1], in_.space, kA));
    set(kB, src(ops_[2], t, kB));
    if (cas) set(kC, src(ops_[3], t, kC));
  }
  in_.klass = in_.space == Space::Shared ? InstrClass::AtomShared : InstrClass::AtomGlobal;
}

// The operation/type pairs PTX defines (the engine executes exactly these): bitwise ops,
// exch, cas, inc and dec on 32- and 64-bit integers; inc and dec on .u32; add on integers,
// .f32 and .f64, and (add.noftz) on .f16, .f16x2, .bf16 and .bf16x2; min and max on integers.
void Decoder::check_atom_type(bool is_red, DType t) {
  const AtomOp op = in_.atom;
  static const char* names[] = {"", "add", "min", "max", "exch", "cas", "inc", "dec", "and", "or", "xor"};
  auto reject = [&] {
    unsupported(fmt::format("{}.{} on .{}", base_, names[static_cast<int>(op)], dtype_name(t)));
  };
  if (is_half(t)) {
    if (op != AtomOp::Add) reject();
    return;
  }
  if (t == DType::Pred || (dtype_bytes(t) != 4 && dtype_bytes(t) != 8)) reject();
  if (is_float(t) && op != AtomOp::Add) reject();
  if ((op == AtomOp::Inc || op == AtomOp::Dec) && t != DType::U32) reject();
}

}  // namespace warpsim::isa::detail
