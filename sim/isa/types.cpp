#include "sim/isa/types.hpp"

namespace warpsim::isa {

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::None: return "none";
    case DType::Pred: return "pred";
    case DType::B8: return "b8";
    case DType::B16: return "b16";
    case DType::B32: return "b32";
    case DType::B64: return "b64";
    case DType::U8: return "u8";
    case DType::U16: return "u16";
    case DType::U32: return "u32";
    case DType::U64: return "u64";
    case DType::S8: return "s8";
    case DType::S16: return "s16";
    case DType::S32: return "s32";
    case DType::S64: return "s64";
    case DType::F16: return "f16";
    case DType::F32: return "f32";
    case DType::F64: return "f64";
    case DType::F16x2: return "f16x2";
    case DType::BF16: return "bf16";
    case DType::TF32: return "tf32";
    case DType::BF16x2: return "bf16x2";
    case DType::E4M3x2: return "e4m3x2";
    case DType::E5M2x2: return "e5m2x2";
    case DType::U16x2: return "u16x2";
    case DType::S16x2: return "s16x2";
  }
  return "?";
}

DType parse_dtype(std::string_view s) {
  static constexpr std::pair<std::string_view, DType> table[] = {
      {"pred", DType::Pred}, {"b8", DType::B8},   {"b16", DType::B16}, {"b32", DType::B32}, {"b64", DType::B64},
      {"u8", DType::U8},     {"u16", DType::U16}, {"u32", DType::U32}, {"u64", DType::U64}, {"s8", DType::S8},
      {"s16", DType::S16},   {"s32", DType::S32}, {"s64", DType::S64}, {"f16", DType::F16}, {"f32", DType::F32},
      {"f64", DType::F64},
      {"f16x2", DType::F16x2}, {"bf16", DType::BF16}, {"tf32", DType::TF32},
      {"bf16x2", DType::BF16x2}, {"e4m3x2", DType::E4M3x2}, {"e5m2x2", DType::E5M2x2},
      {"u16x2", DType::U16x2}, {"s16x2", DType::S16x2}};
  for (auto& [n, t] : table)
    if (s == n) return t;
  return DType::None;
}

std::string_view space_name(Space s) {
  switch (s) {
    case Space::Generic: return "generic";
    case Space::Global: return "global";
    case Space::Shared: return "shared";
    case Space::Local: return "local";
    case Space::Param: return "param";
    case Space::Const: return "const";
  }
  return "?";
}

std::string_view op_name(Op op) {
  switch (op) {
    case Op::Mov: return "mov";
    case Op::Ld: return "ld";
    case Op::St: return "st";
    case Op::Cvta: return "cvta";
    case Op::CvtaTo: return "cvta.to";
    case Op::Add: return "add";
    case Op::Sub: return "sub";
    case Op::Mul: return "mul";
    case Op::Mad: return "mad";
    case Op::Fma: return "fma";
    case Op::Div: return "div";
    case Op::Rem: return "rem";
    case Op::Abs: return "abs";
    case Op::Neg: return "neg";
    case Op::Min: return "min";
    case Op::Max: return "max";
    case Op::And: return "and";
    case Op::Or: return "or";
    case Op::Xor: return "xor";
    case Op::Not: return "not";
    case Op::Cnot: return "cnot";
    case Op::Shl: return "shl";
    case Op::Shr: return "shr";
    case Op::Setp: return "setp";
    case Op::Set: return "set";
    case Op::Selp: return "selp";
    case Op::Cvt: return "cvt";
    case Op::Bra: return "bra";
    case Op::Ret: return "ret";
    case Op::Exit: return "exit";
    case Op::Bar: return "bar.sync";
    case Op::BarWarp: return "bar.warp.sync";
    case Op::Membar: return "membar";
    case Op::Atom: return "atom";
    case Op::Red: return "red";
    case Op::Rcp: return "rcp";
    case Op::Sqrt: return "sqrt";
    case Op::Rsqrt: return "rsqrt";
    case Op::Ex2: return "ex2";
    case Op::Lg2: return "lg2";
    case Op::Sin: return "sin";
    case Op::Cos: return "cos";
    case Op::Shfl: return "shfl";
    case Op::Vote: return "vote";
    case Op::Popc: return "popc";
    case Op::Clz: return "clz";
    case Op::Brev: return "brev";
    case Op::Bfe: return "bfe";
    case Op::Bfi: return "bfi";
    case Op::Copysign: return "copysign";
    case Op::Mul24: return "mul24";
    case Op::Mad24: return "mad24";
    case Op::Slct: return "slct";
    case Op::Trap: return "trap";
    case Op::Nop: return "nop";
    case Op::Tanh: return "tanh";
    case Op::Bfind: return "bfind";
    case Op::BfindShift: return "bfind.shiftamt";
    case Op::ShfLWrap: return "shf.l.wrap";
    case Op::ShfLClamp: return "shf.l.clamp";
    case Op::ShfRWrap: return "shf.r.wrap";
    case Op::ShfRClamp: return "shf.r.clamp";
    case Op::Prmt: return "prmt";
    case Op::Activemask: return "activemask";
    case Op::MatchAny: return "match.any";
    case Op::MatchAll: return "match.all";
    case Op::ReadClock: return "mov(clock)";
    case Op::ReadGlobalTimer: return "mov(globaltimer)";
    case Op::Call: return "call";
    case Op::FuncRet: return "ret(func)";
    case Op::BmskClamp: return "bmsk.clamp";
    case Op::BmskWrap: return "bmsk.wrap";
    case Op::Tex: return "tex";
    case Op::Tld4: return "tld4";
    case Op::Suld: return "suld";
    case Op::Sust: return "sust";
    case Op::VAbsDiff4Add: return "vabsdiff4.add";
    case Op::Redux: return "redux.sync";
    case Op::Dp4a: return "dp4a";
    case Op::Dp2aLo: return "dp2a.lo";
    case Op::Dp2aHi: return "dp2a.hi";
    case Op::Lop3: return "lop3";
    case Op::Sad: return "sad";
    case Op::VAbsDiff4: return "vabsdiff4";
    case Op::MbarInit: return "mbarrier.init";
    case Op::MbarInval: return "mbarrier.inval";
    case Op::MbarArrive: return "mbarrier.arrive";
    case Op::MbarTx: return "mbarrier.expect_tx/complete_tx";
    case Op::MbarWait: return "mbarrier.test_wait/try_wait";
    case Op::MbarPending: return "mbarrier.pending_count";
    case Op::CpAsyncMbarArrive: return "cp.async.mbarrier.arrive";
    case Op::CpAsyncBulk: return "cp.async.bulk";
    case Op::BarRed: return "bar.red";
    case Op::WmmaLoad: return "wmma.load";
    case Op::WmmaStore: return "wmma.store";
    case Op::WmmaMma: return "wmma.mma";
    case Op::CpAsync: return "cp.async";
    case Op::CpAsyncCommit: return "cp.async.commit_group";
    case Op::CpAsyncWait: return "cp.async.wait_group";
    case Op::ClusterArrive: return "barrier.cluster.arrive";
    case Op::ClusterWait: return "barrier.cluster.wait";
    case Op::Mapa: return "mapa";
    case Op::GetCtaRank: return "getctarank";
    case Op::AddCarry: return "addc";
    case Op::SubCarry: return "subc";
    case Op::MadCarry: return "madc";
  }
  return "?";
}

std::string_view instr_class_name(InstrClass c) {
  switch (c) {
    case InstrClass::IntAlu: return "int";
    case InstrClass::IntMul: return "imul";
    case InstrClass::IntDiv: return "idiv";
    case InstrClass::FpAlu: return "fp32";
    case InstrClass::FpDiv: return "fdiv";
    case InstrClass::Fp64: return "fp64";
    case InstrClass::Sfu: return "sfu";
    case InstrClass::Conv: return "cvt";
    case InstrClass::Move: return "mov";
    case InstrClass::LdGlobal: return "ld.global";
    case InstrClass::StGlobal: return "st.global";
    case InstrClass::LdShared: return "ld.shared";
    case InstrClass::StShared: return "st.shared";
    case InstrClass::LdLocal: return "ld.local";
    case InstrClass::StLocal: return "st.local";
    case InstrClass::LdParam: return "ld.param";
    case InstrClass::LdConst: return "ld.const";
    case InstrClass::AtomGlobal: return "atom.global";
    case InstrClass::AtomShared: return "atom.shared";
    case InstrClass::Branch: return "branch";
    case InstrClass::Barrier: return "barrier";
    case InstrClass::Exit: return "exit";
    case InstrClass::Other: return "other";
    case InstrClass::Tensor: return "tensor";
  }
  return "?";
}

}  // namespace warpsim::isa
