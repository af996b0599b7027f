// Instruction decoder: opcode text with its modifiers and the written operands ->
// a typed Instr. Every modifier and operand shape outside the subset is rejected
// through DecodeContext::unsupported (which names the line).
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "sim/isa/ptx_parser_internal.hpp"

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

namespace {

constexpr int kD0 = 0, kD1 = 1, kA = 2, kB = 3, kC = 4, kE = 5;

struct Mods {
  std::vector<DType> types;
  bool has_space = false;
  Space space = Space::Generic;
  Round round = Round::None;
  bool ftz = false, sat = false, approx = false, full = false;
  Width width = Width::None;
  bool has_cmp = false;
  Cmp cmp = Cmp::Eq;
  BoolOp boolop = BoolOp::None;
  AtomOp atom = AtomOp::None;
  CacheOp cache = CacheOp::Default;
  bool nc = false, vol = false, uni = false, sync = false, aligned = false, to = false, warp = false, cc = false;
  int vec = 1;
  bool has_shfl = false;
  ShflMode shfl = ShflMode::Idx;
  bool has_vote = false;
  VoteMode vote = VoteMode::All;
  bool shiftamt = false;  // bfind.shiftamt
  int shf_dir = 0;         // shf: 'l' or 'r'
  int shf_mode = 0;        // shf: 'w'rap or 'c'lamp
  int match_mode = 0;      // match: 'n' (any) or 'l' (all)
  bool sem = false;  // memory-ordering qualifiers (ignored: the simulator is sequentially consistent)
};

bool one_of(std::string_view m, std::initializer_list<std::string_view> l) {
  for (auto x : l)
    if (m == x) return true;
  return false;
}

class Decoder {
 public:
  Decoder(DecodeContext& ctx, std::vector<RawOp>& ops, Instr& in) : ctx_(ctx), ops_(ops), in_(in) {}

  void run(std::string_view opcode, const Token& tok) {
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
      if (!ops_[i].pipe.empty() && (i != 0 || (base_ != "setp" && base_ != "shfl" && base_ != "match")))
        fail_tok(ops_[i].tok, "parse error: '|' (a second predicate destination) is only for setp and shfl "
                              "destinations");
    dispatch();
  }

 private:
  // DecodeContext's reporters always throw; the unreachable marks tell the compiler so.
  [[noreturn]] void unsupported(const std::string& why) {
    ctx_.unsupported(why);
    __builtin_unreachable();
  }
  [[noreturn]] void fail_tok(const Token& t, const std::string& why) {
    ctx_.malformed(t, why);
    __builtin_unreachable();
  }
  [[noreturn]] void malformed(const std::string& why) { fail_tok(tok_, fmt::format("parse error: {}", why)); }

  void classify(std::string_view m) {
    DType t = parse_dtype(m);
    if (t != DType::None) {
      if (t == DType::F16) unsupported("half-precision (.f16) instructions");
      md_.types.push_back(t);
      return;
    }
    bool is_setp = base_ == "setp" || base_ == "set";
    bool is_mul = one_of(base_, {"mul", "mad", "mul24", "mad24"});
    bool is_atom = base_ == "atom" || base_ == "red";
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
    if (base_ == "shf") {
      if (m == "l" || m == "r") { md_.shf_dir = m[0]; return; }
      if (m == "wrap" || m == "clamp") { md_.shf_mode = m[0]; return; }
    }
    if (base_ == "match") {
      if (m == "any") { md_.match_mode = 'n'; return; }
      if (m == "all") { md_.match_mode = 'l'; return; }
    }
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
                                                                {"rmi", Round::Rmi}, {"rpi", Round::Rpi}};
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
    if (one_of(m, {"relaxed", "acquire", "release", "acq_rel", "sc", "weak", "cta", "gpu", "sys", "gl"})) {
      md_.sem = true;
      return;
    }
    unsupported(fmt::format("modifier .{} on {}", m, base_));
  }

  // ---- operand helpers ------------------------------------------------------------
  void need(size_t n) {
    if (ops_.size() != n)
      malformed(fmt::format("{} takes {} operand{}, {} given", base_, n, n == 1 ? "" : "s", ops_.size()));
  }
  void need_between(size_t lo, size_t hi) {
    if (ops_.size() < lo || ops_.size() > hi)
      malformed(fmt::format("{} takes {} to {} operands, {} given", base_, lo, hi, ops_.size()));
  }
  DType type1() {
    if (md_.types.size() != 1) malformed(fmt::format("{} needs exactly one type", base_));
    return md_.types[0];
  }
  void set(int which, const Operand& o) { operand_slot(in_, which) = o; }

  Operand dst(const RawOp& r) {
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
  Operand pdst(const RawOp& r) {
    Operand o;
    if (r.k == RawOp::K::Sink) unsupported("'_' as a predicate destination");
    o.kind = Operand::Kind::Pred;
    o.reg = ctx_.pred_reg(r);
    return o;
  }
  Operand psrc(const RawOp& r) {
    Operand o;
    if (r.k == RawOp::K::Imm && !r.imm_neg && r.ival <= 1) {
      // Constant predicate: encode as a const-pool "mask" of all or no lanes.
      o.kind = Operand::Kind::Const;
      o.reg = ctx_.const_slot(r.ival ? ~uint64_t(0) : 0);
      return o;
    }
    o.kind = Operand::Kind::Pred;
    o.reg = ctx_.pred_reg(r);
    o.neg = r.neg;
    return o;
  }
  uint64_t imm_bits(const RawOp& r, DType t) {
    bool fl = is_float(t);
    if (r.k == RawOp::K::Imm) {
      int64_t v = r.imm_neg ? -static_cast<int64_t>(r.ival) : static_cast<int64_t>(r.ival);
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
  Operand src(const RawOp& r, DType t, int which) {
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
        if (!ctx_.is_symbol(r.name)) fail_tok(r.tok, fmt::format("parse error: undeclared symbol '{}'", r.name));
        o.kind = Operand::Kind::Const;
        ctx_.symbol_ref(which, r.name, 0, true, Space::Generic, r.tok);
        return o;
      default:
        fail_tok(r.tok, "parse error: expected a register or an immediate");
    }
  }
  Operand addr(const RawOp& r, Space sp, int which) {
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
  Operand vec_regs(const RawOp& r, int n, bool is_dst, DType t) {
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

  void set_class_arith(DType t) {
    if (t == DType::F64) in_.klass = InstrClass::Fp64;
    else if (is_float(t)) in_.klass = InstrClass::FpAlu;
    else in_.klass = InstrClass::IntAlu;
  }

  // ---- opcodes --------------------------------------------------------------------
  void dispatch() {
    if (md_.cc) unsupported("carry-flag arithmetic (.cc)");
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
    if (b == "trap") {
      need(0);
      in_.op = Op::Trap;
      in_.klass = InstrClass::Exit;
      return;
    }
    if (b == "call") unsupported("function calls");
    unsupported(fmt::format("instruction '{}'", b));
  }

  void mov() {
    need(2);
    DType t = type1();
    in_.op = Op::Mov;
    in_.type = t;
    in_.klass = InstrClass::Move;
    const RawOp& d = ops_[0];
    const RawOp& a = ops_[1];
    if (t == DType::Pred) {
      set(kD0, pdst(d));
      set(kA, psrc(a));
      return;
    }
    if (a.k == RawOp::K::Reg && ctx_.is_clock_name(a.name)) {
      in_.op = Op::ReadClock;
      in_.stype = a.name == "%clock64" ? DType::U64 : DType::U32;
      set(kD0, dst(d));
      return;
    }
    if (d.k == RawOp::K::Vec) {  // unpack: mov.b64 {lo, hi}, %rd
      int n = static_cast<int>(d.elems.size());
      if (dtype_bytes(t) != 8 && dtype_bytes(t) != 4) unsupported("mov vector unpack of this size");
      set(kD0, vec_regs(d, n, true, t));
      set(kA, src(a, t, kA));
      return;
    }
    if (a.k == RawOp::K::Vec) {  // pack: mov.b64 %rd, {lo, hi}
      int n = static_cast<int>(a.elems.size());
      if (dtype_bytes(t) != 8 && dtype_bytes(t) != 4) unsupported("mov vector pack of this size");
      set(kD0, dst(d));
      DType et = dtype_bytes(t) / n == 4 ? DType::B32 : (dtype_bytes(t) / n == 2 ? DType::B16 : DType::B8);
      set(kA, vec_regs(a, n, false, et));
      return;
    }
    set(kD0, dst(d));
    set(kA, src(a, t, kA));
  }

  void mem_common() {
    if (md_.types.size() != 1) malformed(fmt::format("{} needs exactly one type", base_));
    in_.type = md_.types[0];
    if (in_.type == DType::Pred) malformed("memory access of .pred");
    in_.space = md_.space;
    in_.vec = static_cast<uint8_t>(md_.vec);
    in_.cache = md_.cache;
    in_.is_volatile = md_.vol;
    if (md_.nc && in_.space != Space::Global) malformed(".nc applies to ld.global only");
    if (in_.space == Space::Const && base_ != "ld" && base_ != "ldu") malformed("only loads read the .const space");
  }

  void ld() {
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

  void st() {
    need(2);
    in_.op = Op::St;
    mem_common();
    if (in_.space == Space::Param) unsupported("stores to the .param space");
    set(kA, addr(ops_[0], in_.space, kA));
    if (in_.vec > 1) set(kB, vec_regs(ops_[1], in_.vec, false, in_.type));
    else set(kB, src(ops_[1], in_.type, kB));
    switch (in_.space) {
      case Space::Shared: in_.klass = InstrClass::StShared; break;
      case Space::Local: in_.klass = InstrClass::StLocal; break;
      default: in_.klass = InstrClass::StGlobal; break;
    }
  }

  void cvta() {
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

  void binary() {
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
    if (in_.sat && !((in_.op == Op::Add || in_.op == Op::Sub) && (t == DType::S32 || t == DType::F32)))
      malformed(fmt::format(".sat on {} applies to .s32 and .f32 add/sub", base_));
    if (t == DType::Pred) {
      if (!logic) malformed(fmt::format("{}.pred is not an instruction", base_));
      set(kD0, pdst(ops_[0]));
      set(kA, psrc(ops_[1]));
      set(kB, psrc(ops_[2]));
      in_.klass = InstrClass::IntAlu;
      return;
    }
    if (in_.op == Op::Copysign && !is_float(t)) malformed("copysign takes .f32 or .f64");
    set(kD0, dst(ops_[0]));
    set(kA, src(ops_[1], t, kA));
    set(kB, src(ops_[2], t, kB));
    set_class_arith(t);
  }

  // The width and saturation forms PTX defines: .wide on 16/32-bit integers (never for
  // mul24/mad24, which take .lo/.hi), .sat on f32, and on the .hi.s32 forms of mad/mad24.
  void check_width_and_sat(DType t, bool is_mad) {
    const bool is24 = base_ == "mul24" || base_ == "mad24";
    if (is24 && !(t == DType::S32 || t == DType::U32)) malformed(fmt::format("{} takes .s32 or .u32", base_));
    if (is24 && in_.width == Width::Wide) malformed(fmt::format("{} takes .lo or .hi", base_));
    if (in_.width == Width::Wide && dtype_bytes(t) == 8)
      malformed(fmt::format("{}.wide takes 16- or 32-bit types", base_));
    if (in_.width != Width::None && is_float(t)) malformed(fmt::format("{}.{} is integer-only", base_,
                                                                        in_.width == Width::Hi ? "hi" : in_.width == Width::Lo ? "lo" : "wide"));
    if (in_.sat && !(t == DType::F32 || (is_mad && in_.width == Width::Hi && t == DType::S32)))
      malformed(fmt::format(".sat on {} applies to .f32{}", base_, is_mad ? " and .hi.s32" : ""));
  }

  void mul() {
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

  void mad() {
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

  void fma() {
    need(4);
    DType t = type1();
    if (!is_float(t)) malformed("fma takes .f32 or .f64");
    in_.op = Op::Fma;
    in_.type = t;
    in_.round = md_.round;
    in_.ftz = md_.ftz;
    in_.sat = md_.sat;
    set(kD0, dst(ops_[0]));
    set(kA, src(ops_[1], t, kA));
    set(kB, src(ops_[2], t, kB));
    set(kC, src(ops_[3], t, kC));
    set_class_arith(t);
  }

  void divrem() {
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

  void unary() {
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

  void shift() {
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

  void setp() {
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
    if (ops_.size() == 4) {
      if (in_.boolop == BoolOp::None) malformed("a third setp source needs .and, .or or .xor");
      set(kC, psrc(ops_[3]));
    } else if (in_.boolop != BoolOp::None) {
      malformed("setp with .and/.or/.xor needs a predicate source");
    }
    set_class_arith(t);
  }

  void selp() {
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

  void slct() {
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

  void cvt() {
    need(2);
    if (md_.types.size() != 2) malformed("cvt needs a destination and a source type");
    in_.op = Op::Cvt;
    in_.type = md_.types[0];
    in_.stype = md_.types[1];
    if (in_.type == DType::Pred || in_.stype == DType::Pred) malformed("cvt does not take .pred");
    in_.round = md_.round;
    in_.ftz = md_.ftz;
    in_.sat = md_.sat;
    set(kD0, dst(ops_[0]));
    set(kA, src(ops_[1], in_.stype, kA));
    in_.klass = (in_.type == DType::F64 || in_.stype == DType::F64) ? InstrClass::Fp64 : InstrClass::Conv;
  }

  void bra() {
    need(1);
    if (!md_.types.empty()) malformed("bra takes no type");
    in_.op = Op::Bra;
    in_.uni = md_.uni;
    in_.klass = InstrClass::Branch;
  }

  void ret() {
    need(0);
    in_.op = base_ == "ret" ? Op::Ret : Op::Exit;
    in_.klass = InstrClass::Exit;
  }

  void bar() {
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

  void membar() {
    in_.op = Op::Membar;
    in_.klass = InstrClass::Other;
    if (!ops_.empty()) unsupported("fence with operands");
  }

  void atom() {
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

  // The operation/type pairs PTX defines (the engine executes exactly these): 32- and
  // 64-bit only; bitwise ops, exch, cas, inc and dec on integers; inc and dec on .u32;
  // add on integers, .f32 and .f64; min and max on integers.
  void check_atom_type(bool is_red, DType t) {
    const AtomOp op = in_.atom;
    static const char* names[] = {"", "add", "min", "max", "exch", "cas", "inc", "dec", "and", "or", "xor"};
    auto reject = [&] {
      unsupported(fmt::format("{}.{} on .{}", base_, names[static_cast<int>(op)], dtype_name(t)));
    };
    if (t == DType::Pred || (dtype_bytes(t) != 4 && dtype_bytes(t) != 8)) reject();
    if (is_float(t) && op != AtomOp::Add) reject();
    if ((op == AtomOp::Inc || op == AtomOp::Dec) && t != DType::U32) reject();
  }

  void sfu() {
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
    set(kD0, dst(ops_[0]));
    set(kA, src(ops_[1], t, kA));
    if (t == DType::F64) in_.klass = InstrClass::Fp64;
    else if (md_.approx) in_.klass = InstrClass::Sfu;
    else in_.klass = InstrClass::FpDiv;  // IEEE-rounded: a short instruction sequence
  }

  void shfl() {
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

  void vote() {
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

  void bfe() {
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
  void shf() {
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
  void prmt() {
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

  void activemask() {
    need(1);
    if (type1() != DType::B32) malformed("activemask takes .b32");
    in_.op = Op::Activemask;
    in_.type = DType::B32;
    set(kD0, dst(ops_[0]));
    in_.klass = InstrClass::IntAlu;
  }

  // match.any.sync.{b32,b64} d, a, membermask;  match.all.sync.{b32,b64} d[|p], a, membermask.
  void match() {
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
  void bfind() {
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

  void bfi() {
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

  DecodeContext& ctx_;
  std::vector<RawOp>& ops_;
  Instr& in_;
  Token tok_;
  std::string_view base_;
  Mods md_;
};

}  // namespace

bool known_opcode(std::string_view base) {
  static constexpr std::string_view kKnown[] = {
      "mov",  "ld",    "ldu",   "st",    "cvta", "add",   "sub",   "min",   "max",   "and",  "or",    "xor",
      "copysign", "mul", "mul24", "mad", "mad24", "fma",  "div",   "rem",   "abs",   "neg",  "not",   "cnot",
      "popc", "clz",   "brev",  "shl",   "shr",  "setp",  "selp",  "slct",  "cvt",   "bra",  "ret",   "exit",
      "bar",  "barrier", "membar", "fence", "atom", "red", "rcp",   "sqrt",  "rsqrt", "ex2",  "lg2",   "sin",
      "cos",  "tanh",  "shfl",  "vote",  "bfe",  "bfi",  "bfind", "trap", "shf", "prmt", "activemask", "match"};
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
