// Device functions (.func) and the PTX call ABI: signatures, call sequences (.param
// declarations, st.param / call / ld.param), and linking each called function's body into
// the kernel after the kernel's own code, with registers of its own, one return point and
// its .local variables in a per-activation stack frame (docs/ptx-programs.md).
#include <algorithm>

#include "sim/isa/ptx_module_parser.hpp"

namespace warpsim::isa::detail {

namespace {

uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// The external functions warpsim implements itself, with their parameter and return sizes
// as CUDA 12/13 declare them (cuda_device_runtime_api.h for the __cudaCDP2* calls, which
// nvcc -rdc=true emits for the device runtime API). vprintf and __assertfail are checked
// where they are executed.
struct BuiltinSignature {
  std::string_view name;
  Builtin builtin;
  std::vector<uint32_t> args, rets;  // bytes; empty args of vprintf/__assertfail: not checked
  bool checked = true;
};

const std::vector<BuiltinSignature>& builtin_signatures() {
  static const auto* table = new std::vector<BuiltinSignature>{
      {"vprintf", Builtin::Vprintf, {}, {}, false},
      {"__assertfail", Builtin::AssertFail, {}, {}, false},
      {"malloc", Builtin::Malloc, {8}, {8}},
      {"free", Builtin::Free, {8}, {}},
      {"cudaGraphSetConditional", Builtin::GraphSetConditional, {8, 4}, {}},
      {"__cudaCDP2GetParameterBufferV2", Builtin::CdpGetParameterBuffer, {8, 12, 12, 4}, {8}},
      {"__cudaCDP2LaunchDeviceV2", Builtin::CdpLaunchDevice, {8, 8}, {4}},
      {"__cudaCDP2GetLastError", Builtin::CdpGetLastError, {}, {4}},
      {"__cudaCDP2PeekAtLastError", Builtin::CdpPeekAtLastError, {}, {4}},
      {"__cudaCDP2GetErrorString", Builtin::CdpGetErrorString, {4}, {8}},
      {"__cudaCDP2GetErrorName", Builtin::CdpGetErrorName, {4}, {8}},
      {"__cudaCDP2StreamCreateWithFlags", Builtin::CdpStreamCreate, {8, 4}, {4}},
      {"__cudaCDP2StreamDestroy", Builtin::CdpStreamDestroy, {8}, {4}},
      {"__cudaCDP2StreamWaitEvent", Builtin::CdpStreamWaitEvent, {8, 8, 4}, {4}},
      {"__cudaCDP2EventCreateWithFlags", Builtin::CdpEventCreate, {8, 4}, {4}},
      {"__cudaCDP2EventRecord", Builtin::CdpEventRecord, {8, 8}, {4}},
      {"__cudaCDP2EventDestroy", Builtin::CdpEventDestroy, {8}, {4}},
      {"__cudaCDP2MemcpyAsync", Builtin::CdpMemcpyAsync, {8, 8, 8, 4, 8}, {4}},
      {"__cudaCDP2MemsetAsync", Builtin::CdpMemsetAsync, {8, 4, 8, 8}, {4}},
      {"__cudaCDP2Memcpy2DAsync", Builtin::CdpMemcpy2DAsync, {8, 8, 8, 8, 8, 8, 4, 8}, {4}},
      {"__cudaCDP2Memset2DAsync", Builtin::CdpMemset2DAsync, {8, 8, 4, 8, 8, 8}, {4}},
      {"__cudaCDP2Memcpy3DAsync", Builtin::CdpMemcpy3DAsync, {8, 8}, {4}},
      {"__cudaCDP2Memset3DAsync", Builtin::CdpMemset3DAsync, {32, 4, 24, 8}, {4}},
      {"__cudaCDP2Malloc", Builtin::CdpMalloc, {8, 8}, {4}},
      {"__cudaCDP2Free", Builtin::CdpFree, {8}, {4}},
      {"__cudaCDP2GetDevice", Builtin::CdpGetDevice, {8}, {4}},
      {"__cudaCDP2RuntimeGetVersion", Builtin::CdpRuntimeGetVersion, {8}, {4}},
      {"__cudaCDP2GetDeviceCount", Builtin::CdpGetDeviceCount, {8}, {4}},
      {"__cudaCDP2DeviceGetAttribute", Builtin::CdpDeviceGetAttribute, {8, 4, 4}, {4}},
      {"__cudaCDP2DeviceGetLimit", Builtin::CdpDeviceGetLimit, {8, 4}, {4}},
      {"__cudaCDP2DeviceGetCacheConfig", Builtin::CdpDeviceGetCacheConfig, {8}, {4}},
      {"__cudaCDP2DeviceGetSharedMemConfig", Builtin::CdpDeviceGetSharedMemConfig, {8}, {4}},
      {"__cudaCDP2FuncGetAttributes", Builtin::CdpFuncGetAttributes, {8, 8}, {4}},
      {"__cudaCDP2OccupancyMaxActiveBlocksPerMultiprocessor", Builtin::CdpOccupancy, {8, 8, 4, 8}, {4}},
      {"__cudaCDP2OccupancyMaxActiveBlocksPerMultiprocessorWithFlags", Builtin::CdpOccupancyWithFlags,
       {8, 8, 4, 8, 4}, {4}},
  };
  return *table;
}

const BuiltinSignature* builtin_of(std::string_view name) {
  // A device-runtime call's per-thread default stream form (--default-stream per-thread:
  // __cudaCDP2MemcpyAsync_ptsz, ...) is the call itself here: a block's work runs in the order
  // it was made, one of the orders per-thread streams allow.
  constexpr std::string_view kPtsz = "_ptsz";
  if (name.starts_with("__cudaCDP2") && name.ends_with(kPtsz)) name.remove_suffix(kPtsz.size());
  for (const BuiltinSignature& b : builtin_signatures())
    if (b.name == name) return &b;
  return nullptr;
}

}  // namespace

// Every .func of the module with where its body starts, before anything is parsed: a
// kernel may call a function that the module defines after it.
void ModuleParser::find_functions() {
  const size_t saved = pos_;
  int depth = 0;
  for (size_t i = 0; i < toks_.size() && toks_[i].kind != Tok::End; ++i) {
    const Token& t = toks_[i];
    if (t.kind == Tok::LBrace) ++depth;
    if (t.kind == Tok::RBrace) --depth;
    if (depth != 0 || t.kind != Tok::Directive || t.text != ".func") continue;
    bool is_extern = i > 0 && toks_[i - 1].kind == Tok::Directive && toks_[i - 1].text == ".extern";
    pos_ = i + 1;
    FuncDecl d = parse_func_header(t);
    d.is_extern = is_extern;
    if (peek().kind == Tok::LBrace) d.body_pos = pos_;
    auto it = funcs_.find(d.name);
    if (it == funcs_.end()) {
      func_ids_.emplace(d.name, static_cast<uint32_t>(func_ids_.size()));
      funcs_.emplace(d.name, std::move(d));
    } else {
      if (d.body_pos && it->second.body_pos)
        fail_at(d.at, fmt::format("parse error: device function '{}' is defined twice", d.name));
      if (d.body_pos) it->second = std::move(d);
    }
    i = pos_ - 1;
  }
  pos_ = saved;
}

void ModuleParser::find_entries() {
  int depth = 0;
  for (size_t i = 0; i + 1 < toks_.size() && toks_[i].kind != Tok::End; ++i) {
    const Token& t = toks_[i];
    if (t.kind == Tok::LBrace) ++depth;
    if (t.kind == Tok::RBrace) --depth;
    if (depth != 0 || t.kind != Tok::Directive || t.text != ".entry" || toks_[i + 1].kind != Tok::Ident) continue;
    if (i > 0 && toks_[i - 1].kind == Tok::Directive && toks_[i - 1].text == ".extern") {
      extern_entries_.insert(std::string(toks_[i + 1].text));  // another unit's kernel
      continue;
    }
    entry_ids_.emplace(std::string(toks_[i + 1].text), static_cast<uint32_t>(entry_ids_.size()));
  }
}

// The functions whose address the module takes: every mention of a function's name other
// than in its own header and as the callee of a direct call (mov.u64 %rd, f; initialisers).
// Kernels with indirect calls link exactly these.
void ModuleParser::find_address_taken() {
  std::vector<bool> taken(func_ids_.size(), false);
  bool in_call = false, callee_seen = false, in_header = false;
  int parens = 0;
  for (size_t i = 0; i < toks_.size() && toks_[i].kind != Tok::End; ++i) {
    const Token& t = toks_[i];
    if (t.kind == Tok::Semi || t.kind == Tok::LBrace || t.kind == Tok::RBrace) {
      in_call = callee_seen = in_header = false;
      parens = 0;
      continue;
    }
    if (t.kind == Tok::LParen) ++parens;
    if (t.kind == Tok::RParen) --parens;
    if (t.kind == Tok::Directive && t.text == ".func") in_header = true;
    if (t.kind != Tok::Ident) continue;
    if (t.text == "call" || t.text.rfind("call.", 0) == 0) {
      in_call = true;
      continue;
    }
    auto id = func_ids_.find(std::string(t.text));
    if (id == func_ids_.end()) continue;
    if (in_header && parens == 0) {
      in_header = false;  // the function's own name
      continue;
    }
    if (in_call && !callee_seen && parens == 0) {
      callee_seen = true;  // a direct call's callee
      continue;
    }
    taken[id->second] = true;
  }
  std::vector<std::string> names(func_ids_.size());
  for (const auto& [name, index] : func_ids_) names[index] = name;
  for (size_t i = 0; i < names.size(); ++i)
    if (taken[i]) address_taken_.push_back(names[i]);
}

// label: .callprototype [(.param ...)] _ [(.param ...)] [.noreturn];  The signature of the
// indirect calls that name the label.
void ModuleParser::parse_prototype(const Token& label) {
  cur_line_ = label.line;
  next();
  next();
  const Token& d = next();
  if (d.text == ".calltargets") unsupported_at(d, "indirect calls with a .calltargets list");
  FuncDecl p;
  p.at = label;
  p.name = std::string(label.text);
  auto param_list = [&](std::vector<ParamDecl>& out) {
    if (accept(Tok::RParen)) return;
    do {
      const Token& t = peek();
      if (!accept_dir(".param")) fail_at(t, fmt::format("parse error: expected .param, got {}", describe(t)));
      out.push_back(parse_param_decl(t));
    } while (accept(Tok::Comma));
    expect(Tok::RParen, "')'");
  };
  if (accept(Tok::LParen)) param_list(p.rets);
  const Token& blank = expect(Tok::Ident, "'_'");
  if (blank.text != "_") fail_at(blank, fmt::format("parse error: expected '_' in a .callprototype, got '{}'", blank.text));
  if (accept(Tok::LParen)) param_list(p.args);
  while (peek().kind == Tok::Directive) {
    const Token& m = next();
    if (m.text != ".noreturn") unsupported_at(m, fmt::format("prototype attribute {}", m.text));
  }
  expect(Tok::Semi, "';'");
  if (prototypes_.count(p.name) || labels_.count(p.name))
    fail_at(label, fmt::format("parse error: duplicate label '{}'", p.name));
  prototypes_.emplace(p.name, std::move(p));
}

// After ".func": [(results)] name [(parameters)] [.noreturn]. Leaves the body or ';'.
FuncDecl ModuleParser::parse_func_header(const Token& at) {
  FuncDecl d;
  d.at = at;
  auto param_list = [&](std::vector<ParamDecl>& out) {
    if (accept(Tok::RParen)) return;
    do {
      const Token& p = peek();
      if (p.kind == Tok::Directive && p.text == ".reg") unsupported_at(p, "register parameters of device functions");
      if (!accept_dir(".param")) fail_at(p, fmt::format("parse error: expected .param, got {}", describe(p)));
      out.push_back(parse_param_decl(p));
    } while (accept(Tok::Comma));
    expect(Tok::RParen, "')'");
  };
  if (accept(Tok::LParen)) param_list(d.rets);
  d.name = std::string(expect(Tok::Ident, "a function name").text);
  if (accept(Tok::LParen)) param_list(d.args);
  while (peek().kind == Tok::Directive) {
    const Token& m = next();
    if (m.text != ".noreturn") unsupported_at(m, fmt::format("function attribute {}", m.text));
  }
  return d;
}

// After ".param": [.align N] .type name[N]... (in a signature or a call sequence).
ParamDecl ModuleParser::parse_param_decl(const Token& at) {
  ParamDecl p;
  p.at = at;
  DType type = DType::None;
  while (peek().kind == Tok::Directive) {
    const Token& m = next();
    if (m.text == ".align") {
      p.align = static_cast<uint32_t>(expect_uint("an alignment"));
      if (p.align == 0 || (p.align & (p.align - 1)) || p.align > 256)
        fail_at(m, "parse error: alignment must be a power of two up to 256");
    } else if (m.text == ".ptr" || m.text == ".global" || m.text == ".shared" || m.text == ".const" ||
               m.text == ".local") {
      // pointer attributes: informational
    } else {
      DType t = parse_dtype(m.text.substr(1));
      if (t == DType::None || t == DType::Pred) unsupported_at(m, fmt::format("parameter type {}", m.text));
      if (is_half(t)) unsupported_at(m, "half-precision parameters");
      type = t;
    }
  }
  if (type == DType::None) fail_at(peek(), "parse error: expected a parameter type");
  const Token& name = expect(Tok::Ident, "a parameter name");
  p.name = std::string(name.text);
  uint64_t count = 1;
  while (accept(Tok::LBracket)) {
    count *= expect_uint("an array size");
    expect(Tok::RBracket, "']'");
    if (count > 65536) break;
  }
  uint64_t size = count * dtype_bytes(type);
  if (size == 0 || size > 65536) fail_at(name, "parse error: parameter size out of range");
  p.size = static_cast<uint32_t>(size);
  if (p.align == 0) p.align = static_cast<uint32_t>(dtype_bytes(type));
  return p;
}

CallParam ModuleParser::place_call_param(const ParamDecl& p) {
  uint32_t off = align_up(k_->call_param_bytes, p.align);
  if (uint64_t(off) + p.size > (1u << 20)) unsupported_at(p.at, "more than 1 MiB of call parameters in one kernel");
  k_->call_param_bytes = off + p.size;
  return {off, p.size};
}

const CallParam* ModuleParser::find_call_param(std::string_view name) const {
  std::string n(name);
  for (auto it = cparams_.rbegin(); it != cparams_.rend(); ++it) {
    auto f = it->find(n);
    if (f != it->end()) return &f->second;
  }
  auto f = fparams_.find(n);
  return f == fparams_.end() ? nullptr : &f->second;
}

// call[.uni] [(results),] name[, (arguments)]   (the ';' is left to the caller). Arguments
// and results are .params of the enclosing call sequence.
void ModuleParser::parse_call(Instr& in, const Token& op_tok) {
  std::string_view mods = op_tok.text.substr(4);
  if (mods == ".uni") in.uni = true;
  else if (!mods.empty()) unsupported(fmt::format("modifier {} on call", mods));
  auto names = [&](std::vector<Token>& out) {
    if (accept(Tok::RParen)) return;
    do {
      const Token& t = peek();
      if (t.kind != Tok::Ident) fail_at(t, fmt::format("parse error: expected a .param name, got {}", describe(t)));
      out.push_back(next());
    } while (accept(Tok::Comma));
    expect(Tok::RParen, "')'");
  };
  std::vector<Token> rets, args;
  if (accept(Tok::LParen)) {
    names(rets);
    expect(Tok::Comma, "','");
  }
  const Token& callee = expect(Tok::Ident, "a function name");
  const bool indirect = callee.text[0] == '%' || find_reg(callee.text);
  const Token* proto = nullptr;
  if (accept(Tok::Comma)) {
    const bool has_args = !indirect || peek().kind == Tok::LParen;
    if (has_args) {
      expect(Tok::LParen, "'('");
      names(args);
    }
    if (indirect) {
      if (!has_args || accept(Tok::Comma)) proto = &expect(Tok::Ident, "a .callprototype label");
    } else if (accept(Tok::Comma)) {
      unsupported("a direct call with a prototype or a target list");
    }
  }
  if (indirect && !proto)
    unsupported("an indirect call without a .callprototype (a .calltargets list or none)");
  CallSite cs;
  if (indirect) {
    auto p = prototypes_.find(std::string(proto->text));
    if (p == prototypes_.end())
      fail_at(*proto, fmt::format("parse error: '{}' is not a .callprototype label of this body", proto->text));
    RawOp r;
    r.k = RawOp::K::Reg;
    r.name = callee.text;
    r.tok = callee;
    in.b.kind = Operand::Kind::Reg;
    in.b.reg = data_reg(r);
    if (dtype_bytes(k_->regs[in.b.reg].type) != 8)
      fail_at(callee, fmt::format("parse error: '{}' holds a function's address: a 64-bit register is needed",
                                  callee.text));
    cs.indirect = true;
  }
  const FuncDecl* fd = nullptr;
  if (indirect) {
    fd = &prototypes_.at(std::string(proto->text));
  } else {
    auto it = funcs_.find(std::string(callee.text));
    if (it == funcs_.end()) fail_at(callee, fmt::format("parse error: call of undeclared function '{}'", callee.text));
    fd = &it->second;
  }
  const FuncDecl& f = *fd;
  if (!indirect && !f.body_pos) {
    const BuiltinSignature* sig = f.is_extern ? builtin_of(f.name) : nullptr;
    if (!sig) {
      if (f.is_extern && f.name.rfind("__cudaCDP", 0) == 0)
        unsupported(fmt::format("the device runtime call '{}' (dynamic parallelism) is not implemented by warpsim",
                                f.name));
      unsupported(f.is_extern ? fmt::format("call of external function '{}' (separate compilation)", f.name)
                              : fmt::format("device function '{}' is declared but not defined", f.name));
    }
    cs.builtin = sig->builtin;
    auto sizes_are = [](const std::vector<ParamDecl>& ps, const std::vector<uint32_t>& want) {
      if (ps.size() != want.size()) return false;
      for (size_t i = 0; i < ps.size(); ++i)
        if (ps[i].size != want[i]) return false;
      return true;
    };
    if (sig->checked && !(sizes_are(f.args, sig->args) && sizes_are(f.rets, sig->rets)))
      unsupported(fmt::format("'{}' declared with a signature other than CUDA's", f.name));
  }
  auto bind = [&](const std::vector<Token>& given, const std::vector<ParamDecl>& formal, const char* what,
                  std::vector<uint32_t>& offs, std::vector<uint32_t>& sizes) {
    if (given.size() != formal.size())
      fail_at(callee, fmt::format("parse error: '{}' takes {} {}(s), the call gives {}", f.name, formal.size(), what,
                                  given.size()));
    for (size_t i = 0; i < given.size(); ++i) {
      const CallParam* p = find_call_param(given[i].text);
      if (!p) {
        if (find_reg(given[i].text)) unsupported("call arguments in registers (only .param variables are supported)");
        fail_at(given[i], fmt::format("parse error: undeclared .param '{}'", given[i].text));
      }
      if (p->size != formal[i].size)
        fail_at(given[i], fmt::format("parse error: {} {} of '{}' is {} bytes; '{}' has {}", what, i, f.name,
                                      formal[i].size, given[i].text, p->size));
      offs.push_back(p->offset);
      sizes.push_back(p->size);
    }
  };
  bind(rets, f.rets, "result", cs.ret_offsets, cs.ret_sizes);
  bind(args, f.args, "argument", cs.arg_offsets, cs.arg_sizes);
  in.op = Op::Call;
  in.klass = InstrClass::Branch;
  in.a.target = static_cast<int32_t>(k_->calls.size());
  k_->calls.push_back(std::move(cs));
  call_names_.push_back(indirect ? std::string() : f.name);
}

// ld.param/st.param of a call sequence's or the function's own .params: offsets in the
// per-thread call-parameter area.
void ModuleParser::apply_param_refs(Instr& in) {
  for (const SymbolFixup& r : param_refs_) {
    if (r.as_const || in.space != Space::Param || (in.op != Op::Ld && in.op != Op::St))
      unsupported_at(r.at, fmt::format("use of the call parameter '{}' other than by ld.param/st.param", r.name));
    operand_slot(in, r.which).offset += r.addend;
    in.call_param = true;
    if (in.op == Op::St) in.klass = InstrClass::Move;  // argument passing: registers in the ABI
  }
  param_refs_.clear();
}

// Appends the body of every function the kernel calls (and they call) after its code.
void ModuleParser::link_functions() {
  auto link = [&](const std::string& name) {
    auto idx = func_index_.find(name);
    if (idx == func_index_.end()) {
      const FuncDecl& d = funcs_.at(name);
      idx = func_index_.emplace(d.name, static_cast<int32_t>(k_->functions.size())).first;
      k_->functions.emplace_back();
      link_function(d, k_->functions.size() - 1);
    }
    return idx->second;
  };
  bool indirect = false;
  for (size_t i = 0; i < k_->calls.size(); ++i) {  // grows as bodies are linked
    if (k_->calls[i].builtin != Builtin::None) continue;
    if (k_->calls[i].indirect) {
      // Any function whose address the module takes may be called: link them all.
      if (!indirect)
        for (const std::string& name : address_taken_)
          if (funcs_.at(name).body_pos) link(name);
      indirect = true;
      continue;
    }
    const int32_t callee = link(call_names_[i]);
    k_->calls[i].callee = callee;
  }
  if (indirect)
    for (const std::string& name : address_taken_)
      if (auto idx = func_index_.find(name); idx != func_index_.end())
        k_->function_addresses.push_back({function_address(name), idx->second});
}

void ModuleParser::link_function(const FuncDecl& d, size_t index) {
  // The kernel body's parse state, set aside: the function has its own registers, labels,
  // .local variables and parameters.
  const size_t saved_pos = pos_;
  auto saved_scopes = std::move(scopes_);
  auto saved_cparams = std::move(cparams_);
  auto saved_labels = std::move(labels_);
  auto saved_label_refs = std::move(label_refs_);
  auto saved_vars = std::move(kernel_vars_);
  auto saved_var_order = std::move(kernel_var_order_);
  auto saved_params = std::move(params_);
  auto saved_prototypes = std::move(prototypes_);
  const uint16_t saved_loc_file = loc_file_, saved_loc_col = loc_col_;
  const uint32_t saved_loc_line = loc_line_;
  scopes_.assign(1, {});
  cparams_.assign(1, {});
  labels_.clear();
  label_refs_.clear();
  kernel_vars_.clear();
  kernel_var_order_.clear();
  params_.clear();
  prototypes_.clear();
  fparams_.clear();

  Function f;
  f.name = d.name;
  f.decl_line = d.at.line;
  f.first_slot = k_->num_slots();
  f.first_pred = static_cast<uint32_t>(k_->preds.size());
  f.param_base = k_->call_param_bytes;
  declare_reg("%__frame", DType::U64, d.at);
  f.frame_slot = static_cast<uint16_t>(k_->num_slots() - 1);
  for (auto* list : {&d.rets, &d.args})
    for (const ParamDecl& p : *list) {
      if (fparams_.count(p.name)) fail_at(p.at, fmt::format("parse error: duplicate parameter '{}'", p.name));
      CallParam cp = place_call_param(p);
      fparams_.emplace(p.name, cp);
      (list == &d.rets ? f.ret_offsets : f.arg_offsets).push_back(cp.offset);
      (list == &d.rets ? f.ret_sizes : f.arg_sizes).push_back(cp.size);
    }
  const size_t first_fixup = fixups_.size();
  f.entry = static_cast<int32_t>(k_->code.size());
  pos_ = d.body_pos;
  expect(Tok::LBrace, "'{'");
  parse_body();

  // One return point: the final FuncRet; every ret of the body branches to it.
  Instr ret;
  ret.op = Op::FuncRet;
  ret.klass = InstrClass::Branch;
  ret.ptx_line = k_->code.size() > size_t(f.entry) ? k_->code.back().ptx_line : d.at.line;
  ret.loc_file = loc_file_;
  ret.loc_line = loc_line_;
  f.ret_pc = static_cast<int32_t>(k_->code.size());
  k_->code.push_back(ret);
  k_->text.push_back(fmt::format("ret;  // return from {}", d.name));
  for (auto& ref : label_refs_) {
    auto it = labels_.find(ref.name);
    if (it == labels_.end()) fail_at(ref.at, fmt::format("parse error: undefined label '{}'", ref.name));
    k_->code[ref.pc].a.kind = Operand::Kind::Label;
    k_->code[ref.pc].a.target = it->second;
  }
  for (int32_t pc = f.entry; pc < f.ret_pc; ++pc) {
    Instr& in = k_->code[pc];
    if (in.op != Op::Ret) continue;
    in.op = Op::Bra;
    in.klass = InstrClass::Branch;
    in.a.kind = Operand::Kind::Label;
    in.a.target = f.ret_pc;
  }
  place_function_locals(f, first_fixup);
  f.end_slot = k_->num_slots();
  f.end_pred = static_cast<uint32_t>(k_->preds.size());
  f.param_bytes = k_->call_param_bytes - f.param_base;
  uint32_t save = 0;
  for (uint32_t s = f.first_slot; s < f.end_slot; ++s) save += dtype_bytes(k_->regs[s].type) == 8 ? 8 : 4;
  f.save_bytes = save + (f.end_pred - f.first_pred) + f.param_bytes;
  f.frame_bytes = align_up(f.depot_bytes, 16) + align_up(f.save_bytes, 16);
  k_->functions[index] = std::move(f);

  pos_ = saved_pos;
  scopes_ = std::move(saved_scopes);
  cparams_ = std::move(saved_cparams);
  labels_ = std::move(saved_labels);
  label_refs_ = std::move(saved_label_refs);
  kernel_vars_ = std::move(saved_vars);
  kernel_var_order_ = std::move(saved_var_order);
  params_ = std::move(saved_params);
  prototypes_ = std::move(saved_prototypes);
  fparams_.clear();
  loc_file_ = saved_loc_file;
  loc_col_ = saved_loc_col;
  loc_line_ = saved_loc_line;
}

// The function's .local variables live in each activation's frame: references to them
// become addresses relative to the frame register (set by the call).
void ModuleParser::place_function_locals(Function& f, size_t first_fixup) {
  std::unordered_map<std::string, uint32_t> offset;
  uint32_t depot = 0;
  for (auto& name : kernel_var_order_) {
    const VarDecl& v = kernel_vars_.at(name);
    if (v.space != Space::Local) {
      cur_line_ = v.line;
      unsupported("shared variables declared inside a device function");
    }
    depot = align_up(depot, std::min<uint32_t>(v.align, 16));
    if (uint64_t(depot) + v.size > 512 * 1024) {
      cur_line_ = v.line;
      unsupported("more than 512 KiB of local memory per thread");
    }
    offset[name] = depot;
    depot += v.size;
  }
  f.depot_bytes = depot;
  std::vector<SymbolFixup> keep(fixups_.begin(), fixups_.begin() + first_fixup);
  for (size_t i = first_fixup; i < fixups_.size(); ++i) {
    const SymbolFixup& fx = fixups_[i];
    auto it = offset.find(fx.name);
    if (it == offset.end()) {
      keep.push_back(fx);
      continue;
    }
    Instr& in = k_->code[fx.pc];
    cur_line_ = in.ptx_line;
    const int64_t off = int64_t(it->second) + fx.addend;
    Operand& o = operand_slot(in, fx.which);
    if (fx.as_const) {
      // mov.u64 %SPL, __local_depot;  ->  add.u64 %SPL, %__frame, offset
      if (in.op != Op::Mov || fx.which != 2 || dtype_bytes(in.type) != 8)
        unsupported(fmt::format("use of the function's .local variable '{}' other than mov.u64, ld or st", fx.name));
      in.op = Op::Add;
      in.type = DType::U64;
      in.klass = InstrClass::IntAlu;
      in.a = Operand{};
      in.a.kind = Operand::Kind::Reg;
      in.a.reg = f.frame_slot;
      in.b = Operand{};
      in.b.kind = Operand::Kind::Const;
      in.b.reg = const_slot(static_cast<uint64_t>(off));
      continue;
    }
    if (fx.space != Space::Local && fx.space != Space::Generic)
      fail_at(fx.at, fmt::format("parse error: '{}' is a .local variable, used with a {} access", fx.name,
                                 space_name(fx.space)));
    o.has_base = true;
    o.base = f.frame_slot;
    o.offset += off + (fx.space == Space::Generic ? int64_t(kLocalWindow) : 0);
  }
  fixups_ = std::move(keep);
}

}  // namespace warpsim::isa::detail
