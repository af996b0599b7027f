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
  if (md_.cluster) return cluster_barrier();
  if (md_.bar_red) return bar_red();
  if (md_.red_op) malformed(fmt::format("{} without .red takes no reduction operator", base_));
  if (!md_.sync) unsupported(fmt::format("{} without .sync (bar.arrive / bar.red)", base_));
  need_between(1, 2);
  if (ops_.size() == 2) unsupported("barriers with a thread count");
  const RawOp& id = ops_[0];
  if (id.k != RawOp::K::Imm || id.imm_neg || id.ival != 0) unsupported("named barriers other than barrier 0");
  in_.op = Op::Bar;
  in_.klass = InstrClass::Barrier;
}

// bar.red.popc.u32 d, 0, {!}p  /  bar.red.{and,or}.pred d, 0, {!}p (barrier.red too, with
// .aligned): a block-wide barrier 0 whose result is written to every arriving thread's d
// when the barrier releases (the executor's arrive/release).
void Decoder::bar_red() {
  if (md_.sync) malformed(fmt::format("{}.red takes no .sync", base_));
  if (!md_.red_op) malformed(fmt::format("{}.red needs .popc, .and or .or", base_));
  const DType want = md_.red_op == 'p' ? DType::U32 : DType::Pred;
  if (md_.types.size() != 1 || md_.types[0] != want)
    malformed(fmt::format("{}.red.{} needs the type .{}", base_, md_.red_op == 'p' ? "popc" : md_.red_op == 'a' ? "and" : "or",
                          dtype_name(want)));
  if (ops_.size() == 4) unsupported("bar.red with a thread count");
  need(3);
  if (in_.has_guard) unsupported("a guarded bar.red");
  const RawOp& id = ops_[1];
  if (id.k != RawOp::K::Imm || id.imm_neg || id.ival != 0) unsupported("named barriers other than barrier 0");
  set(kD0, want == DType::Pred ? pdst(ops_[0]) : dst(ops_[0]));
  set(kB, psrc(ops_[2]));
  in_.op = Op::BarRed;
  in_.type = want;
  in_.boolop = md_.red_op == 'p' ? BoolOp::None : md_.red_op == 'a' ? BoolOp::And : BoolOp::Or;
  in_.klass = InstrClass::Barrier;
}

void Decoder::membar() {
  in_.op = Op::Membar;
  in_.klass = InstrClass::Other;
  if (!ops_.empty()) unsupported("fence with operands");
}

}  // namespace warpsim::isa::detail
