// Instruction decoder: opcode text with its modifiers and the written operands ->
// a typed Instr. Every modifier and operand shape outside the subset is rejected
// through DecodeContext::unsupported (which names the line).
#include "sim/isa/ptx_decoder.hpp"

#include <bit>
#include <cmath>
#include <cstring>

namespace warpsim::isa::detail {

Operand& operand_slot(Instr& in, int which) {
  switch (which) {
    case 0: return in.d[0];
    case 1: return in.d[1];
    case 2: return in.a;
    case 3: return in.b;
    case 4: return in.c;
    default: return in.e;
  }
}

void Decoder::run(std::string_view opcode, const Token& tok) {
  tok_ = tok;
  size_t dot = opcode.find('.');
  base_ = opcode.substr(0, dot);
  std::vector<std::string_view> parts;
  while (dot != std::string_view::npos) {
    size_t nd = opcode.find('.', dot + 1);
    parts.push_back(opcode.substr(dot + 1, nd == std::string_view::npos ? std::string_view::npos : nd - dot - 1));
    dot = nd;
  }
  for (auto m : parts) classify(m);
  // "d|p": a second (predicate) destination exists only for setp and shfl, and only on
  // the destination operand.
  for (size_t i = 0; i < ops_.size(); ++i)
    if (!ops_[i].pipe.empty() && (i != 0 || (base_ != "setp" && base_ != "shfl" && base_ != "match" && base_ != "lop3")))
      fail_tok(ops_[i].tok, "parse error: '|' (a second predicate destination) is only for setp and shfl "
                            "destinations");
  dispatch();
}

void Decoder::classify(std::string_view m) {
  DType t = parse_dtype(m);
  if (t != DType::None) {
    md_.types.push_back(t);
    return;
  }
  if (one_of(base_, {"tex", "tld4", "suld", "sust"}) && classify_texture(m)) return;
  if (base_ == "wmma" && classify_wmma(m)) return;
  if (base_ == "cp" && classify_cp(m)) return;
  if (base_ == "mbarrier" && classify_mbarrier(m)) return;
  if (classify_cluster(m)) return;
  bool is_setp = base_ == "setp" || base_ == "set";
  bool is_mul = one_of(base_, {"mul", "mad", "mul24", "mad24", "madc", "dp2a"});
  bool is_atom = base_ == "atom" || base_ == "red" || base_ == "redux";
  if (is_setp) {
    static const std::pair<std::string_view, Cmp> cmps[] = {
        {"eq", Cmp::Eq},   {"ne", Cmp::Ne},   {"lt", Cmp::Lt},   {"le", Cmp::Le},   {"gt", Cmp::Gt},
        {"ge", Cmp::Ge},   {"lo", Cmp::Lo},   {"ls", Cmp::Ls},   {"hi", Cmp::Hi},   {"hs", Cmp::Hs},
        {"equ", Cmp::Equ}, {"neu", Cmp::Neu}, {"ltu", Cmp::Ltu}, {"leu", Cmp::Leu}, {"gtu", Cmp::Gtu},
        {"geu", Cmp::Geu}, {"num", Cmp::Num}, {"nan", Cmp::Nan}};
    for (auto& [n, c] : cmps)
      if (m == n) {
        if (md_.has_cmp) malformed("two comparison operators");
        md_.has_cmp = true;
        md_.cmp = c;
        return;
      }
    if (m == "and") { md_.boolop = BoolOp::And; return; }
    if (m == "or") { md_.boolop = BoolOp::Or; return; }
    if (m == "xor") { md_.boolop = BoolOp::Xor; return; }
  }
  if (is_mul) {
    if (m == "lo") { md_.width = Width::Lo; return; }
    if (m == "hi") { md_.width = Width::Hi; return; }
    if (m == "wide") { md_.width = Width::Wide; return; }
  }
  if (is_atom) {
    static const std::pair<std::string_view, AtomOp> ops[] = {
        {"add", AtomOp::Add}, {"min", AtomOp::Min}, {"max", AtomOp::Max}, {"exch", AtomOp::Exch},
        {"cas", AtomOp::Cas}, {"inc", AtomOp::Inc}, {"dec", AtomOp::Dec}, {"and", AtomOp::And},
        {"or", AtomOp::Or},   {"xor", AtomOp::Xor}};
    for (auto& [n, o] : ops)
      if (m == n) {
        md_.atom = o;
        return;
      }
    if (m == "noftz") return;
  }
  if (base_ == "shfl") {
    if (m == "up") { md_.has_shfl = true; md_.shfl = ShflMode::Up; return; }
    if (m == "down") { md_.has_shfl = true; md_.shfl = ShflMode::Down; return; }
    if (m == "bfly") { md_.has_shfl = true; md_.shfl = ShflMode::Bfly; return; }
    if (m == "idx") { md_.has_shfl = true; md_.shfl = ShflMode::Idx; return; }
  }
  if ((base_ == "min" || base_ == "max") && m == "NaN") {
    md_.nan = true;
    return;
  }
  if ((base_ == "min" || base_ == "max") && (m == "xorsign" || m == "abs")) {
    (m == "abs" ? md_.abs : md_.xorsign) = true;
    return;
  }
  if ((base_ == "fma" || base_ == "cvt" || base_ == "min" || base_ == "max") && m == "relu") {
    md_.relu = true;
    return;
  }
  if (base_ == "cvt" && m == "satfinite") {
    md_.satfinite = true;
    return;
  }
  if (base_ == "bmsk" && (m == "clamp" || m == "wrap")) {
    md_.shf_mode = m[0];
    return;
  }
  if (base_ == "shf") {
    if (m == "l" || m == "r") { md_.shf_dir = m[0]; return; }
    if (m == "wrap" || m == "clamp") { md_.shf_mode = m[0]; return; }
  }
  if (base_ == "match") {
    if (m == "any") { md_.match_mode = 'n'; return; }
    if (m == "all") { md_.match_mode = 'l'; return; }
  }
  if (base_ == "vabsdiff4" && m == "add") {
    md_.vadd = true;
    return;
  }
  if (base_ == "bar" || base_ == "barrier") {
    if (m == "red") { md_.bar_red = true; return; }
    if (m == "popc" || m == "and" || m == "or") {
      if (md_.red_op) malformed("two reduction operators on bar.red");
      md_.red_op = m[0];
      return;
    }
  }
  if (base_ == "griddepcontrol" && (m == "wait" || m == "launch_dependents")) {
    if (md_.griddep) malformed("griddepcontrol takes one of .wait and .launch_dependents");
    md_.griddep = m[0];
    return;
  }
  if (base_ == "pmevent" && m == "mask") return;
  if (base_ == "bfind" && m == "shiftamt") {
    md_.shiftamt = true;
    return;
  }
  if (base_ == "vote") {
    if (m == "all") { md_.has_vote = true; md_.vote = VoteMode::All; return; }
    if (m == "any") { md_.has_vote = true; md_.vote = VoteMode::Any; return; }
    if (m == "uni") { md_.has_vote = true; md_.vote = VoteMode::Uni; return; }
    if (m == "ballot") { md_.has_vote = true; md_.vote = VoteMode::Ballot; return; }
  }
  static const std::pair<std::string_view, Space> spaces[] = {{"global", Space::Global}, {"shared", Space::Shared},
                                                              {"local", Space::Local},   {"param", Space::Param},
                                                              {"const", Space::Const}};
  for (auto& [n, s] : spaces)
    if (m == n) {
      if (md_.has_space) malformed("two state spaces");
      md_.has_space = true;
      md_.space = s;
      return;
    }
  static const std::pair<std::string_view, Round> rounds[] = {{"rn", Round::Rn},   {"rz", Round::Rz},
                                                              {"rm", Round::Rm},   {"rp", Round::Rp},
                                                              {"rni", Round::Rni}, {"rzi", Round::Rzi},
                                                              {"rmi", Round::Rmi}, {"rpi", Round::Rpi},
                                                              {"rna", Round::Rna}};
  for (auto& [n, r] : rounds)
    if (m == n) {
      md_.round = r;
      return;
    }
  static const std::pair<std::string_view, CacheOp> caches[] = {{"ca", CacheOp::Ca}, {"cg", CacheOp::Cg},
                                                                {"cs", CacheOp::Cs}, {"lu", CacheOp::Lu},
                                                                {"cv", CacheOp::Cv}, {"wb", CacheOp::Wb},
                                                                {"wt", CacheOp::Wt}};
  for (auto& [n, c] : caches)
    if (m == n) {
      md_.cache = c;
      return;
    }
  if (m == "ftz") { md_.ftz = true; return; }
  if (m == "sat") { md_.sat = true; return; }
  if (m == "approx") { md_.approx = true; return; }
  if (m == "full") { md_.full = true; return; }
  if (m == "nc") { md_.nc = true; return; }
  if (m == "volatile") { md_.vol = true; return; }
  if (m == "v2") { md_.vec = 2; return; }
  if (m == "v4") { md_.vec = 4; return; }
  if (m == "uni") { md_.uni = true; return; }
  if (m == "sync") { md_.sync = true; return; }
  if (m == "aligned") { md_.aligned = true; return; }
  if (m == "to") { md_.to = true; return; }
  if (m == "warp") { md_.warp = true; return; }
  if (m == "cc") { md_.cc = true; return; }
  if (one_of(m, {"relaxed", "acquire", "release", "acq_rel", "sc", "weak", "cta", "cluster", "gpu", "sys", "gl"})) {
    md_.sem = true;
    return;
  }
  unsupported(fmt::format("modifier .{} on {}", m, base_));
}

void Decoder::need(size_t n) {
  if (ops_.size() != n)
    malformed(fmt::format("{} takes {} operand{}, {} given", base_, n, n == 1 ? "" : "s", ops_.size()));
}

void Decoder::need_between(size_t lo, size_t hi) {
  if (ops_.size() < lo || ops_.size() > hi)
    malformed(fmt::format("{} takes {} to {} operands, {} given", base_, lo, hi, ops_.size()));
}

DType Decoder::type1() {
  if (md_.types.size() != 1) malformed(fmt::format("{} needs exactly one type", base_));
  return md_.types[0];
}

Operand Decoder::dst(const RawOp& r) {
  Operand o;
  if (r.k == RawOp::K::Sink) {
    o.kind = Operand::Kind::Reg;
    o.reg = ctx_.sink_reg();
    return o;
  }
  if (r.k != RawOp::K::Reg) fail_tok(r.tok, "parse error: destination must be a register");
  if (ctx_.is_special_name(r.name) || ctx_.is_clock_name(r.name))
    fail_tok(r.tok, fmt::format("parse error: special register '{}' is read-only", r.name));
  if (r.neg) fail_tok(r.tok, "parse error: '!' on a destination");
  o.kind = Operand::Kind::Reg;
  o.reg = ctx_.data_reg(r);
  return o;
}

Operand Decoder::pdst(const RawOp& r) {
  Operand o;
  if (r.k == RawOp::K::Sink) unsupported("'_' as a predicate destination");
  o.kind = Operand::Kind::Pred;
  o.reg = ctx_.pred_reg(r);
  return o;
}

Operand Decoder::psrc(const RawOp& r) {
  Operand o;
  if (r.k == RawOp::K::Imm && (r.ival <= 1) && !(r.imm_neg && r.ival == 0)) {
    // Constant predicate (0, 1, or nvcc's -1 for true): a const-pool "mask" of all or no
    // lanes.
    o.kind = Operand::Kind::Const;
    o.reg = ctx_.const_slot(r.ival ? ~uint64_t(0) : 0);
    return o;
  }
  o.kind = Operand::Kind::Pred;
  o.reg = ctx_.pred_reg(r);
  o.neg = r.neg;
  return o;
}

uint64_t Decoder::imm_bits(const RawOp& r, DType t) {
  bool fl = is_float(t);
  if (r.k == RawOp::K::Imm) {
    // Negated in unsigned arithmetic: -9223372036854775808 (INT64_MIN) is a valid literal,
    // and negating it as int64_t would overflow (found by the UBSan suite).
    const uint64_t bits = r.imm_neg ? uint64_t(0) - r.ival : r.ival;
    const int64_t v = static_cast<int64_t>(bits);
    if (t == DType::F32) return std::bit_cast<uint32_t>(static_cast<float>(v));
    if (t == DType::F64) return std::bit_cast<uint64_t>(static_cast<double>(v));
    return static_cast<uint64_t>(v);
  }
  // Floating-point literal.
  if (r.fhex) {
    if (r.fhex_double) {
      double d = std::bit_cast<double>(r.ival);
      if (t == DType::F32) return std::bit_cast<uint32_t>(static_cast<float>(d));
      return r.ival;  // f64 or b64 bit pattern
    }
    uint32_t bits = static_cast<uint32_t>(r.ival);
    if (t == DType::F64) return std::bit_cast<uint64_t>(static_cast<double>(std::bit_cast<float>(bits)));
    return bits;
  }
  if (!fl && dtype_bytes(t) != 4 && dtype_bytes(t) != 8)
    fail_tok(r.tok, "parse error: floating-point literal for an integer operand");
  if (t == DType::F64 || dtype_bytes(t) == 8) return std::bit_cast<uint64_t>(r.fval);
  if (t == DType::F32 || dtype_bytes(t) == 4) return std::bit_cast<uint32_t>(static_cast<float>(r.fval));
  fail_tok(r.tok, "parse error: floating-point literal for an integer operand");
}

// A source of type t at operand position `which` (used for symbol fixups).
Operand Decoder::src(const RawOp& r, DType t, int which) {
  Operand o;
  switch (r.k) {
    case RawOp::K::Reg:
      if (r.neg) fail_tok(r.tok, "parse error: '!' applies only to predicate operands");
      if (ctx_.is_clock_name(r.name)) unsupported("%clock may only be read with mov");
      if (ctx_.is_pred_name(r.name))
        fail_tok(r.tok, fmt::format("parse error: predicate '{}' used as a data operand", r.name));
      o.kind = Operand::Kind::Reg;
      o.reg = ctx_.data_reg(r);
      return o;
    case RawOp::K::Imm:
    case RawOp::K::FloatImm:
      o.kind = Operand::Kind::Const;
      o.reg = ctx_.const_slot(imm_bits(r, t));
      return o;
    case RawOp::K::Sym:
      if (r.name == "WARP_SZ" && !ctx_.is_symbol(r.name)) {  // ptxas's constant: the warp size
        o.kind = Operand::Kind::Const;
        o.reg = ctx_.const_slot(32);
        return o;
      }
      if (!ctx_.is_symbol(r.name)) fail_tok(r.tok, fmt::format("parse error: undeclared symbol '{}'", r.name));
      o.kind = Operand::Kind::Const;
      ctx_.symbol_ref(which, r.name, 0, true, Space::Generic, r.tok);
      return o;
    default:
      fail_tok(r.tok, "parse error: expected a register or an immediate");
  }
}

Operand Decoder::addr(const RawOp& r, Space sp, int which) {
  if (r.k != RawOp::K::Addr) fail_tok(r.tok, "parse error: expected an address [..]");
  Operand o;
  o.kind = Operand::Kind::Addr;
  o.offset = r.off;
  if (r.name.empty()) {
    o.offset += static_cast<int64_t>(r.ival);
    return o;
  }
  if (ctx_.is_symbol(r.name)) {
    ctx_.symbol_ref(which, r.name, 0, false, sp, r.tok);
    return o;
  }
  if (r.name[0] != '%') fail_tok(r.tok, fmt::format("parse error: undeclared symbol '{}'", r.name));
  RawOp reg = r;
  reg.k = RawOp::K::Reg;
  o.has_base = true;
  o.base = ctx_.data_reg(reg);
  return o;
}

Operand Decoder::vec_regs(const RawOp& r, int n, bool is_dst, DType t) {
  if (r.k != RawOp::K::Vec || static_cast<int>(r.elems.size()) != n)
    fail_tok(r.tok, fmt::format("parse error: expected a vector of {} registers", n));
  Operand o;
  o.kind = Operand::Kind::Vec;
  o.nvec = static_cast<uint8_t>(n);
  for (int i = 0; i < n; ++i) {
    const RawOp& e = r.elems[i];
    if (e.k == RawOp::K::Sink) {
      if (!is_dst) fail_tok(e.tok, "parse error: '_' only in destination vectors");
      o.vec[i] = kSinkSlot;
    } else if (e.k == RawOp::K::Sym || e.k == RawOp::K::Addr || e.k == RawOp::K::Vec) {
      fail_tok(e.tok, "parse error: vector elements must be registers");
    } else if (!is_dst && (e.k == RawOp::K::Imm || e.k == RawOp::K::FloatImm)) {
      o.vec[i] = ctx_.const_slot(imm_bits(e, t));
      o.vec_const[i] = true;
    } else {
      o.vec[i] = is_dst ? dst(e).reg : src(e, t, -1).reg;
    }
  }
  return o;
}

void Decoder::set_class_arith(DType t) {
  if (t == DType::F64) in_.klass = InstrClass::Fp64;
  else if (is_float(t)) in_.klass = InstrClass::FpAlu;
  else in_.klass = InstrClass::IntAlu;
}

void Decoder::dispatch() {
  if (is_carry_op()) return carry();
  const std::string_view b = base_;
  if (b == "mov") return mov();
  if (b == "ld" || b == "ldu") return ld();
  if (b == "st") return st();
  if (b == "cvta") return cvta();
  if (one_of(b, {"add", "sub", "min", "max", "and", "or", "xor", "copysign"})) return binary();
  if (b == "mul" || b == "mul24") return mul();
  if (b == "mad" || b == "mad24") return mad();
  if (b == "fma") return fma();
  if (b == "div" || b == "rem") return divrem();
  if (one_of(b, {"abs", "neg", "not", "cnot", "popc", "clz", "brev"})) return unary();
  if (b == "shl" || b == "shr") return shift();
  if (b == "setp") return setp();
  if (b == "set") return set_compare();
  if (b == "selp") return selp();
  if (b == "slct") return slct();
  if (b == "cvt") return cvt();
  if (b == "bra") return bra();
  if (b == "ret" || b == "exit") return ret();
  if (b == "bar" || b == "barrier") return bar();
  if (b == "membar" || b == "fence") return membar();
  if (b == "atom" || b == "red") return atom();
  if (one_of(b, {"rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh"})) return sfu();
  if (b == "shfl") return shfl();
  if (b == "vote") return vote();
  if (b == "bfe") return bfe();
  if (b == "bfi") return bfi();
  if (b == "bfind") return bfind();
  if (b == "shf") return shf();
  if (b == "prmt") return prmt();
  if (b == "activemask") return activemask();
  if (b == "match") return match();
  if (b == "bmsk") return bmsk();
  if (b == "nanosleep") return nanosleep();
  if (b == "griddepcontrol") return griddepcontrol();
  if (b == "vabsdiff4") return vabsdiff4();
  if (b == "redux") return redux();
  if (b == "dp4a" || b == "dp2a") return dp4a();
  if (b == "lop3") return lop3();
  if (b == "sad") return sad();
  if (b == "pmevent") return pmevent();
  if (b == "tex" || b == "tld4") return tex();
  if (b == "suld") return suld();
  if (b == "sust") return sust();
  if (b == "wmma") return wmma();
  if (b == "cp") return cp_async();
  if (b == "mbarrier") return mbarrier();
  if (b == "mapa" || b == "getctarank") return mapa();
  if (b == "trap") {
    need(0);
    in_.op = Op::Trap;
    in_.klass = InstrClass::Exit;
    return;
  }
  unsupported(fmt::format("instruction '{}'", b));
}

bool known_opcode(std::string_view base) {
  static constexpr std::string_view kKnown[] = {
      "mov",  "ld",    "ldu",   "st",    "cvta", "add",   "sub",   "min",   "max",   "and",  "or",    "xor",
      "copysign", "mul", "mul24", "mad", "mad24", "fma",  "div",   "rem",   "abs",   "neg",  "not",   "cnot",
      "popc", "clz",   "brev",  "shl",   "shr",  "setp",  "set", "selp",  "slct",  "cvt",   "bra",  "ret",   "exit",
      "bar",  "barrier", "membar", "fence", "atom", "red", "rcp",   "sqrt",  "rsqrt", "ex2",  "lg2",   "sin",
      "cos",  "tanh",  "shfl",  "vote",  "bfe",  "bfi",  "bfind", "trap", "shf", "prmt", "activemask", "match",
      "bmsk", "nanosleep", "griddepcontrol", "tex", "tld4", "suld", "sust", "vabsdiff4", "addc", "subc", "madc", "wmma", "cp",
      "mapa", "getctarank", "redux", "dp4a", "dp2a", "lop3", "sad", "pmevent", "mbarrier"};
  for (auto k : kKnown)
    if (base == k) return true;
  return false;
}

void decode_instruction(DecodeContext& ctx, std::string_view opcode, const Token& op_tok, std::vector<RawOp>& ops,
                        Instr& in) {
  Decoder d(ctx, ops, in);
  d.run(opcode, op_tok);
}

}  // namespace warpsim::isa::detail
