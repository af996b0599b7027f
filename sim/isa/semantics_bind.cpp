#include <fmt/format.h>

#include "sim/isa/semantics_internal.hpp"

namespace warpsim::isa {

bool engine_executed(Op op) {
  switch (op) {
    case Op::Ld: case Op::St: case Op::Atom: case Op::Red: case Op::Bra: case Op::Ret: case Op::Exit:
    case Op::Bar: case Op::BarWarp: case Op::Membar: case Op::Trap: case Op::Nop: case Op::ReadClock:
    case Op::ReadGlobalTimer: case Op::Call: case Op::FuncRet: case Op::Tex: case Op::Tld4: case Op::Suld:
    case Op::Sust: case Op::BarRed: case Op::WmmaLoad: case Op::WmmaStore: case Op::WmmaMma:
    case Op::CpAsync: case Op::CpAsyncCommit: case Op::CpAsyncWait: case Op::ClusterArrive: case Op::ClusterWait:
      return true;
    case Op::MbarInit: case Op::MbarInval: case Op::MbarArrive: case Op::MbarTx: case Op::MbarWait:
    case Op::MbarPending: case Op::CpAsyncMbarArrive: case Op::CpAsyncBulk:
      return true;
    default:
      return false;
  }
}

void bind_semantics(Instr& in, const std::function<void(const std::string&)>& unsupported) {
  if (engine_executed(in.op)) {
    in.fn = nullptr;
    return;
  }
  ExecFn fn = nullptr;
  // The narrow formats' own forms belong to one family each; the others are tried in turn.
  if (in.xorsign_abs) fn = detail::xorsign_semantics(in);
  else if (is_fp8_pair(in.type) || is_fp8_pair(in.stype)) fn = detail::fp8_semantics(in);
  else if (is_int_pair(in.type) || (in.relu && in.type == DType::S32)) fn = detail::int_pair_semantics(in);
  else if (in.relu || in.satfinite) fn = detail::half_semantics(in);
  else {
    fn = in.op == Op::Set ? detail::set_semantics(in) : detail::int_semantics(in);
    if (!fn) fn = detail::float_semantics(in);
    if (!fn) fn = detail::warp_semantics(in);
    if (!fn) fn = detail::half_semantics(in);
    if (!fn) fn = detail::carry_semantics(in);
  }
  if (!fn) {
    std::string types(dtype_name(in.type));
    if (in.stype != DType::None) types += fmt::format(".{}", dtype_name(in.stype));
    if (in.relu) types = "relu." + types;
    if (in.satfinite) types = "satfinite." + types;
    if (in.xorsign_abs) types = "xorsign.abs." + types;
    unsupported(fmt::format("{} on .{}", op_name(in.op), types));
  }
  in.fn = fn;
}

}  // namespace warpsim::isa
