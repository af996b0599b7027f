// Decoding of branches, returns, barriers and fences.
#include "sim/isa/ptx_decoder.hpp"

namespace warpsim::isa::detail {

void Decoder::bra() {
  need(1);
  if (!md_.types.empty()) malformed("bra takes no type");
  in_.op = Op::Bra;
  in_.uni = md_.uni;
  in_.klass = InstrClass::Branch;
}

void Decoder::ret() {
  need(0);
  in_.op = base_ == "ret" ? Op::Ret : Op::Exit;
  in_.klass = InstrClass::Exit;
}

void Decoder::bar() {
  if (md_.warp) {
    // bar.warp.sync membermask: warps execute in lockstep here, so it only checks its operand.
    need(1);
    in_.op = Op::BarWarp;
    set(kA, src(ops_[0], DType::U32, kA));
    in_.klass = InstrClass::Other;
    return;
  }
  if (!md_.sync) unsupported(fmt::format("{} without .sync (bar.arrive / bar.red)", base_));
  need_between(1, 2);
  if (ops_.size() == 2) unsupported("barriers with a thread count");
  const RawOp& id = ops_[0];
  if (id.k != RawOp::K::Imm || id.imm_neg || id.ival != 0) unsupported("named barriers other than barrier 0");
  in_.op = Op::Bar;
  in_.klass = InstrClass::Barrier;
}

void Decoder::membar() {
  in_.op = Op::Membar;
  in_.klass = InstrClass::Other;
  if (!ops_.empty()) unsupported("fence with operands");
}

}  // namespace warpsim::isa::detail
