// Decoding of carry arithmetic: add.cc, addc(.cc), sub.cc, subc(.cc), mad.lo/hi.cc and
// madc.lo/hi(.cc) on .u32/.s32/.u64/.s64. The carry flag (CC.CF) is a hidden per-thread
// register of the kernel or device function (DecodeContext::carry_reg): an instruction
// with .cc writes it as its second destination, addc/subc/madc read it as their last
// source, so the scoreboard and register liveness see the dependence like any other.
#include "sim/isa/ptx_decoder.hpp"

namespace warpsim::isa::detail {

bool Decoder::is_carry_op() const {
  return md_.cc || base_ == "addc" || base_ == "subc" || base_ == "madc";
}

void Decoder::carry() {
  const bool is_mad = base_ == "mad" || base_ == "madc";
  const bool carry_in = base_ == "addc" || base_ == "subc" || base_ == "madc";
  if (!is_mad && base_ != "add" && base_ != "sub" && !carry_in)
    unsupported(fmt::format("carry-flag arithmetic (.cc) on {}", base_));
  need(is_mad ? 4 : 3);
  const DType t = type1();
  if (t != DType::U32 && t != DType::S32 && t != DType::U64 && t != DType::S64)
    malformed(fmt::format("{}{} takes .u32, .s32, .u64 or .s64", base_, md_.cc ? ".cc" : ""));
  if (md_.sat || md_.ftz || md_.round != Round::None || md_.approx)
    malformed(fmt::format("{} takes no rounding, .ftz or .sat", base_));
  if (is_mad && md_.width != Width::Lo && md_.width != Width::Hi) malformed(fmt::format("{} needs .lo or .hi", base_));
  in_.op = is_mad ? Op::MadCarry : (base_[0] == 'a' ? Op::AddCarry : Op::SubCarry);
  in_.type = t;
  in_.width = md_.width;
  in_.cc = md_.cc;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  set(kB, src(ops_[2], t, kB));
  if (is_mad) set(kC, src(ops_[3], t, kC));
  Operand flag;
  flag.kind = Operand::Kind::Reg;
  flag.reg = ctx_.carry_reg();
  if (md_.cc) set(kD1, flag);
  if (carry_in) set(kE, flag);
  in_.klass = is_mad ? InstrClass::IntMul : InstrClass::IntAlu;
}

}  // namespace warpsim::isa::detail
