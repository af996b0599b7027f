// PTX declarations: .reg, .shared/.local variables, parameters, body directives, and the
// layout of a kernel's shared and local memory.
#include "sim/isa/ptx_module_parser.hpp"

#include <set>

#include "sim/isa/param_limits.hpp"

namespace warpsim::isa::detail {

// .shared/.local [.align N] .type name[dims]* [= {init}] ;
VarDecl ModuleParser::parse_var_decl(Space space, bool is_extern, const Token& at) {
  VarDecl v;
  v.space = space;
  v.is_extern = is_extern;
  v.line = at.line;
  DType type = DType::None;
  while (peek().kind == Tok::Directive) {
    const Token& m = next();
    if (m.text == ".align") {
      v.align = static_cast<uint32_t>(expect_uint("an alignment"));
      if (v.align == 0 || (v.align & (v.align - 1))) fail_at(m, "parse error: alignment must be a power of two");
    } else if (m.text == ".v2" || m.text == ".v4") {
      unsupported_at(m, "vector-typed variables");
    } else {
      DType t = parse_dtype(m.text.substr(1));
      if (t == DType::None || t == DType::Pred) unsupported_at(m, fmt::format("variable type {}", m.text));
      type = t;
    }
  }
  if (type == DType::None) fail_at(peek(), "parse error: expected a type for the variable");
  const Token& name = expect(Tok::Ident, "a variable name");
  v.name = std::string(name.text);
  uint64_t count = 1;
  bool unsized = false, overflow = false;
  while (accept(Tok::LBracket)) {
    if (peek().kind == Tok::RBracket) {
      unsized = true;
    } else {
      uint64_t n = expect_uint("an array size");
      overflow |= __builtin_mul_overflow(count, n, &count);
    }
    expect(Tok::RBracket, "']'");
  }
  if (accept(Tok::Eq)) unsupported_at(name, "initialised variables");
  expect(Tok::Semi, "';'");
  if (unsized && !is_extern) fail_at(name, "parse error: unsized array must be .extern");
  uint64_t bytes = 0;
  if (!unsized) overflow |= __builtin_mul_overflow(count, uint64_t(dtype_bytes(type)), &bytes);
  if (overflow || bytes > 0xFFFFFFFFull) fail_at(name, "parse error: variable too large");
  v.size = static_cast<uint32_t>(bytes);
  if (v.align == 0) v.align = std::max(1, dtype_bytes(type));
  return v;
}

void ModuleParser::declare_reg(const std::string& name, DType t, const Token& at) {
  auto& scope = scopes_.back();
  if (scope.count(name)) fail_at(at, fmt::format("parse error: duplicate register '{}'", name));
  RegRef r;
  if (t == DType::Pred) {
    r.pred = true;
    if (k_->preds.size() >= 0xFFFF) unsupported_at(at, "too many predicate registers");
    r.index = static_cast<uint16_t>(k_->preds.size());
    k_->preds.push_back({name, t});
  } else {
    if (k_->regs.size() >= 0xFFF0) unsupported_at(at, "too many registers");
    r.index = static_cast<uint16_t>(k_->regs.size());
    k_->regs.push_back({name, t});
  }
  scope.emplace(name, r);
}

uint16_t ModuleParser::special_slot(Special s, std::string_view name) {
  for (auto& sp : k_->specials)
    if (sp.which == s) return sp.slot;
  if (k_->regs.size() >= 0xFFF0) unsupported("too many registers");
  uint16_t slot = static_cast<uint16_t>(k_->regs.size());
  k_->regs.push_back({std::string(name), DType::U32});
  k_->specials.push_back({s, slot});
  return slot;
}

void ModuleParser::parse_reg_decl(const Token& at) {
  DType type = DType::None;
  while (peek().kind == Tok::Directive) {
    const Token& m = next();
    if (m.text == ".v2" || m.text == ".v4") unsupported_at(m, "vector registers");
    DType t = parse_dtype(m.text.substr(1));
    // The fp8 and 16-bit integer pairs are instruction types only; PTX holds them in .b16
    // and .b32 registers.
    if (is_fp8_pair(t) || is_int_pair(t) || (t == DType::None && (m.text.rfind(".bf16", 0) == 0 || m.text.rfind(".e4m3", 0) == 0 ||
                                                m.text.rfind(".e5m2", 0) == 0 || m.text == ".tf32")))
      unsupported_at(m, fmt::format("{} registers", m.text));
    if (t == DType::None) fail_at(m, fmt::format("parse error: unknown register type {}", m.text));
    type = t;
  }
  if (type == DType::None) fail_at(peek(), "parse error: expected a register type");
  while (true) {
    const Token& name = expect(Tok::Ident, "a register name");
    if (accept(Tok::Lt)) {
      uint64_t n = expect_uint("a register count");
      expect(Tok::Gt, "'>'");
      if (n > 60000) unsupported_at(name, "register range too large");
      for (uint64_t i = 0; i < n; ++i) declare_reg(fmt::format("{}{}", name.text, i), type, name);
    } else {
      declare_reg(std::string(name.text), type, name);
    }
    if (!accept(Tok::Comma)) break;
  }
  expect(Tok::Semi, "';'");
}

void ModuleParser::parse_param() {
  const Token& at = peek();
  if (!accept_dir(".param")) fail_at(at, fmt::format("parse error: expected .param, got {}", describe(at)));
  Param p;
  DType type = DType::None;
  while (peek().kind == Tok::Directive) {
    const Token& m = next();
    if (m.text == ".align") {
      p.align = static_cast<uint32_t>(expect_uint("an alignment"));
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
  }
  p.type = type;
  uint64_t size = count * dtype_bytes(type);
  // CUDA 12.1 raised the limit on a kernel's parameters from 4 KB to 32,764 bytes (on
  // Volta and later; the launch checks the device, launch_validation.cpp).
  if (size == 0 || size > kMaxKernelParamBytes) fail_at(name, "parse error: parameter size out of range");
  p.size = static_cast<uint32_t>(size);
  if (p.align == 0) p.align = static_cast<uint32_t>(dtype_bytes(type));
  k_->param_bytes = (k_->param_bytes + p.align - 1) / p.align * p.align;
  p.offset = k_->param_bytes;
  k_->param_bytes += p.size;
  if (k_->param_bytes > kMaxKernelParamBytes)
    fail_at(name, fmt::format("parse error: kernel '{}' has {} bytes of parameters, over the {} CUDA allows", k_->name,
                              k_->param_bytes, kMaxKernelParamBytes));
  if (params_.count(p.name)) fail_at(name, fmt::format("parse error: duplicate parameter '{}'", p.name));
  params_.emplace(p.name, k_->params.size());
  k_->params.push_back(p);
}

void ModuleParser::body_directive() {
  const Token& d = next();
  if (d.text == ".reg") return parse_reg_decl(d);
  if (d.text == ".shared" || d.text == ".local") {
    Space sp = d.text == ".shared" ? Space::Shared : Space::Local;
    VarDecl v = parse_var_decl(sp, false, d);
    if (kernel_vars_.count(v.name)) fail_at(d, fmt::format("parse error: duplicate declaration of '{}'", v.name));
    kernel_vars_.emplace(v.name, v);
    kernel_var_order_.push_back(v.name);
    return;
  }
  if (d.text == ".loc") {
    loc_file_ = static_cast<uint16_t>(expect_uint("a file index"));
    loc_line_ = static_cast<uint32_t>(expect_uint("a line"));
    loc_col_ = static_cast<uint16_t>(expect_uint("a column"));
    // CUDA 11.4+: ", function_name $L__info_stringN, inlined_at F L C"
    while (peek().kind == Tok::Comma) {
      next();
      const Token& key = expect(Tok::Ident, "function_name or inlined_at");
      if (key.text == "function_name") {
        expect(Tok::Ident, "a function name label");
      } else if (key.text == "inlined_at") {
        expect_uint("a file index");
        expect_uint("a line");
        expect_uint("a column");
      } else {
        fail_at(key, fmt::format("parse error: unexpected .loc attribute '{}'", key.text));
      }
    }
    return;
  }
  if (d.text == ".pragma") {
    if (expect(Tok::String, "a pragma string").text == "\"nounroll\"") nounroll_next_ = true;
    expect(Tok::Semi, "';'");
    return;
  }
  if (d.text == ".const" || d.text == ".global")
    unsupported_at(d, fmt::format("{} variables inside a kernel", d.text));
  if (d.text == ".param") {  // an argument or result of a call sequence
    ParamDecl p = parse_param_decl(d);
    expect(Tok::Semi, "';'");
    if (cparams_.back().count(p.name)) fail_at(p.at, fmt::format("parse error: duplicate declaration of '{}'", p.name));
    cparams_.back().emplace(p.name, place_call_param(p));
    return;
  }
  unsupported_at(d, "");
}

void ModuleParser::layout_memory() {
  shared_offsets_.clear();
  local_offsets_.clear();
  std::set<std::string> referenced;
  for (auto& f : fixups_) referenced.insert(f.name);
  // Sizes add up in 64 bits: shared variables beyond the 32-bit shared window and local
  // memory beyond the hardware's 512 KiB per thread (ptxas's limit too) are refused here,
  // rather than wrapping around or making the launch allocate that much per thread.
  uint64_t shared = 0;
  auto place_shared = [&](const VarDecl& v) {
    if (v.is_extern) return;
    shared = (shared + v.align - 1) / v.align * v.align;
    if (shared + v.size > 0xFFFFFFFFull) {
      cur_line_ = v.line;
      unsupported("shared variables of more than 4 GiB in total");
    }
    shared_offsets_[v.name] = static_cast<uint32_t>(shared);
    k_->shared_vars.push_back({v.name, static_cast<uint32_t>(shared), v.size, v.align, false});
    shared += v.size;
  };
  for (auto& name : module_var_order_)
    if (referenced.count(name)) place_shared(module_vars_.at(name));
  for (auto& name : kernel_var_order_) {
    const VarDecl& v = kernel_vars_.at(name);
    if (v.space == Space::Shared) place_shared(v);
  }
  k_->static_shared_bytes = static_cast<uint32_t>(shared);
  // Dynamic shared memory starts after the static variables, at the largest alignment
  // any .extern .shared declaration asks for; all extern arrays alias that start.
  uint32_t dyn_align = 0;
  for (auto& name : module_var_order_) {
    const VarDecl& v = module_vars_.at(name);
    if (v.is_extern && referenced.count(name)) dyn_align = std::max(dyn_align, v.align);
  }
  if (dyn_align) {
    uint32_t base = static_cast<uint32_t>((shared + dyn_align - 1) / dyn_align * dyn_align);
    k_->has_dynamic_shared = true;
    k_->dynamic_shared_align = dyn_align;
    for (auto& name : module_var_order_) {
      const VarDecl& v = module_vars_.at(name);
      if (v.is_extern && referenced.count(name)) {
        shared_offsets_[v.name] = base;
        k_->shared_vars.push_back({v.name, base, 0, v.align, true});
      }
    }
  }
  constexpr uint64_t kMaxLocal = 512 * 1024;
  uint64_t local = 0;
  for (auto& name : kernel_var_order_) {
    const VarDecl& v = kernel_vars_.at(name);
    if (v.space != Space::Local) continue;
    local = (local + v.align - 1) / v.align * v.align;
    if (local + v.size > kMaxLocal) {
      cur_line_ = v.line;
      unsupported("more than 512 KiB of local memory per thread");
    }
    local_offsets_[v.name] = static_cast<uint32_t>(local);
    local += v.size;
  }
  k_->local_bytes = static_cast<uint32_t>(local);
}

}  // namespace warpsim::isa::detail
