// PTX module parser: module directives, kernel headers, declarations, operands and
// labels. Instruction semantics are decoded in ptx_decode.cpp; control-flow analysis
// (reconvergence points) in cfg.cpp; binding to executable semantics in semantics_bind.cpp.
#include "sim/isa/ptx_parser.hpp"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

#include "sim/foundation/error.hpp"
#include "sim/isa/cfg.hpp"
#include "sim/isa/ptx_module_vars.hpp"
#include "sim/isa/ptx_parser_internal.hpp"
#include "sim/isa/semantics.hpp"

namespace warpsim::isa {

namespace detail {
// Defined in ptx_decode.cpp: whether `base` (the opcode before its first '.') is an
// instruction of the subset. Checked before the operands are read, so that instructions
// outside the subset are reported as unsupported even when their operands use syntax the
// subset lacks.
bool known_opcode(std::string_view base);
}  // namespace detail

using detail::RawOp;

namespace {

struct VarDecl {
  std::string name;
  Space space = Space::Shared;
  uint32_t align = 0;
  uint32_t size = 0;       // bytes (0 for extern arrays)
  bool is_extern = false;
  uint32_t line = 0;
};

struct RegRef {
  bool pred = false;
  uint16_t index = 0;
};

struct SymbolFixup {
  uint32_t pc;
  int which;
  std::string name;
  int64_t addend;
  bool as_const;
  Space space;
  Token at;
};

const std::unordered_map<std::string_view, Special>& special_names() {
  static const std::unordered_map<std::string_view, Special> m = {
      {"%tid.x", Special::TidX},       {"%tid.y", Special::TidY},       {"%tid.z", Special::TidZ},
      {"%ntid.x", Special::NtidX},     {"%ntid.y", Special::NtidY},     {"%ntid.z", Special::NtidZ},
      {"%ctaid.x", Special::CtaidX},   {"%ctaid.y", Special::CtaidY},   {"%ctaid.z", Special::CtaidZ},
      {"%nctaid.x", Special::NctaidX}, {"%nctaid.y", Special::NctaidY}, {"%nctaid.z", Special::NctaidZ},
      {"%laneid", Special::LaneId},    {"%warpid", Special::WarpId},    {"%nwarpid", Special::NWarpId},
      {"%smid", Special::SmId},        {"%nsmid", Special::NSmId},      {"%gridid", Special::GridId},
      {"%lanemask_eq", Special::LanemaskEq}, {"%lanemask_lt", Special::LanemaskLt},
      {"%lanemask_le", Special::LanemaskLe}, {"%lanemask_gt", Special::LanemaskGt},
      {"%lanemask_ge", Special::LanemaskGe},
  };
  return m;
}

class ModuleParser final : public detail::DecodeContext {
 public:
  ModuleParser(std::string_view src, std::string file, const VarAllocator& allocate)
      : src_(src), file_(std::move(file)), allocate_(allocate) {
    toks_ = lex_ptx(src_, file_);
    mod_ = std::make_unique<Module>();
    mod_->path = file_;
  }

  std::unique_ptr<Module> run() {
    while (peek().kind != Tok::End) module_statement();
    if (mod_->version.empty()) fail_at(toks_.front(), "missing .version directive");
    if (mod_->target.empty()) fail_at(toks_.front(), "missing .target directive");
    for (auto& k : mod_->kernels) k->module = mod_.get();
    return std::move(mod_);
  }

  // ---- DecodeContext -------------------------------------------------------------
  uint16_t data_reg(const RawOp& op) override {
    if (op.k != RawOp::K::Reg) malformed(op.tok, "expected a register");
    auto sp = special_names().find(op.name);
    if (sp != special_names().end()) return special_slot(sp->second, op.name);
    const RegRef* r = find_reg(op.name);
    if (!r) malformed(op.tok, fmt::format("undeclared register '{}'", op.name));
    if (r->pred) malformed(op.tok, fmt::format("'{}' is a predicate register; a data register is needed here", op.name));
    return r->index;
  }
  uint16_t pred_reg(const RawOp& op) override {
    if (op.k != RawOp::K::Reg) malformed(op.tok, "expected a predicate register");
    const RegRef* r = find_reg(op.name);
    if (!r) malformed(op.tok, fmt::format("undeclared register '{}'", op.name));
    if (!r->pred) malformed(op.tok, fmt::format("'{}' is not a predicate register", op.name));
    return r->index;
  }
  bool is_pred_name(std::string_view name) const override {
    const RegRef* r = find_reg(name);
    return r && r->pred;
  }
  bool is_special_name(std::string_view name) const override { return special_names().count(name) != 0; }
  bool is_clock_name(std::string_view name) const override { return name == "%clock" || name == "%clock64"; }
  bool is_symbol(std::string_view name) const override {
    std::string n(name);
    return kernel_vars_.count(n) || module_vars_.count(n) || params_.count(n) || global_index_.count(n);
  }
  uint16_t const_slot(uint64_t bits) override {
    auto it = const_index_.find(bits);
    if (it != const_index_.end()) return it->second;
    if (k_->consts.size() >= 0xFFFF) unsupported("more than 65535 distinct immediates in one kernel");
    uint16_t slot = static_cast<uint16_t>(k_->consts.size());
    k_->consts.push_back(bits);
    const_index_.emplace(bits, slot);
    return slot;
  }
  uint16_t sink_reg() override {
    if (sink_slot_ < 0) {
      if (k_->regs.size() >= 0xFFF0) unsupported("too many registers");
      sink_slot_ = static_cast<int>(k_->regs.size());
      k_->regs.push_back({"_", DType::B64});
    }
    return static_cast<uint16_t>(sink_slot_);
  }
  void symbol_ref(int which, std::string_view sym, int64_t addend, bool as_const, Space space,
                  const Token& at) override {
    fixups_.push_back({static_cast<uint32_t>(k_->code.size()), which, std::string(sym), addend, as_const, space, at});
  }
  [[noreturn]] void unsupported(const std::string& why) override {
    std::string text = line_text(cur_line_);
    throw PtxError(fmt::format("{}:{}: unsupported PTX: {}{}", file_, cur_line_, text,
                               why.empty() ? "" : fmt::format("  ({})", why)));
  }
  [[noreturn]] void malformed(const Token& at, const std::string& why) override { fail_at(at, why); }

 private:
  // ---- token helpers ---------------------------------------------------------------
  const Token& peek(size_t ahead = 0) const { return toks_[std::min(pos_ + ahead, toks_.size() - 1)]; }
  const Token& next() {
    const Token& t = toks_[pos_];
    if (t.kind != Tok::End) ++pos_;
    return t;
  }
  bool accept(Tok k) {
    if (peek().kind == k) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool accept_dir(std::string_view d) {
    if (peek().kind == Tok::Directive && peek().text == d) {
      ++pos_;
      return true;
    }
    return false;
  }
  const Token& expect(Tok k, const char* what) {
    if (peek().kind != k)
      fail_at(peek(), fmt::format("parse error: expected {}, got {}", what, describe(peek())));
    return next();
  }
  static std::string describe(const Token& t) {
    if (t.kind == Tok::End) return "end of file";
    return fmt::format("'{}'", t.text);
  }
  [[noreturn]] void fail_at(const Token& t, const std::string& why) const {
    std::string msg = why.rfind("parse error", 0) == 0 ? why : "parse error: " + why;
    throw PtxError(fmt::format("{}:{}:{}: {}", file_, t.line, t.col, msg));
  }
  [[noreturn]] void unsupported_at(const Token& t, const std::string& why) {
    cur_line_ = t.line;
    unsupported(why);
  }
  std::string line_text(uint32_t line) const {
    size_t start = 0;
    for (uint32_t l = 1; l < line && start < src_.size(); ++l) {
      size_t nl = src_.find('\n', start);
      if (nl == std::string_view::npos) return "";
      start = nl + 1;
    }
    size_t end = src_.find('\n', start);
    std::string s(src_.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    size_t a = s.find_first_not_of(" \t\r");
    size_t b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
  }
  uint64_t expect_uint(const char* what) {
    const Token& t = expect(Tok::Int, what);
    return t.int_value;
  }
  void skip_to_semicolon() {
    while (peek().kind != Tok::Semi && peek().kind != Tok::End) next();
    expect(Tok::Semi, "';'");
  }

  // ---- module level ------------------------------------------------------------------
  void module_statement() {
    const Token& t = peek();
    if (t.kind != Tok::Directive) fail_at(t, fmt::format("parse error: expected a directive, got {}", describe(t)));
    if (t.text == ".version") {
      next();
      const Token& v = next();
      if (v.kind != Tok::Float && v.kind != Tok::Int) fail_at(v, "parse error: expected a version number");
      mod_->version = std::string(v.text);
      return;
    }
    if (t.text == ".target") {
      next();
      mod_->target = std::string(expect(Tok::Ident, "a target name").text);
      while (accept(Tok::Comma)) expect(Tok::Ident, "a target option");
      return;
    }
    if (t.text == ".address_size") {
      next();
      uint64_t a = expect_uint("32 or 64");
      if (a != 64) unsupported_at(t, ".address_size 32 (only 64-bit addressing is supported)");
      mod_->address_size = 64;
      return;
    }
    if (t.text == ".file") {
      next();
      int idx = static_cast<int>(expect_uint("a file index"));
      const Token& name = expect(Tok::String, "a file name");
      mod_->files[idx] = std::string(name.text.substr(1, name.text.size() - 2));
      while (accept(Tok::Comma)) next();
      return;
    }
    if (t.text == ".section") {
      next();
      while (peek().kind != Tok::LBrace && peek().kind != Tok::End) next();
      skip_braces();
      return;
    }
    if (t.text == ".pragma") {
      next();
      expect(Tok::String, "a pragma string");
      expect(Tok::Semi, "';'");
      return;
    }
    bool is_extern = false;
    while (peek().kind == Tok::Directive &&
           (peek().text == ".visible" || peek().text == ".weak" || peek().text == ".extern")) {
      if (peek().text == ".extern") is_extern = true;
      next();
    }
    const Token& d = peek();
    if (d.kind != Tok::Directive) fail_at(d, fmt::format("parse error: expected a directive, got {}", describe(d)));
    if (d.text == ".entry") {
      next();
      parse_entry();
      return;
    }
    if (d.text == ".func")
      unsupported_at(d, "device functions (.func) and calls are not supported; mark them __forceinline__");
    if (d.text == ".shared") {
      next();
      VarDecl v = parse_var_decl(Space::Shared, is_extern, d);
      if (module_vars_.count(v.name)) fail_at(d, fmt::format("duplicate declaration of '{}'", v.name));
      module_vars_.emplace(v.name, v);
      module_var_order_.push_back(v.name);
      return;
    }
    if (d.text == ".global" || d.text == ".const") {
      next();
      if (is_extern) unsupported_at(d, fmt::format(".extern {} variables (separate compilation)", d.text));
      return module_global(d);
    }
    unsupported_at(d, "");
  }

  // A module-scope .global/.const variable: parsed (ptx_module_vars.cpp), then given its
  // address at once, so later initialisers and all kernels can refer to it.
  void module_global(const Token& d) {
    struct Syntax final : detail::ModuleVarSyntax {
      Syntax(ModuleParser& p) : ModuleVarSyntax(p.toks_, p.pos_), p_(p) {}
      [[noreturn]] void fail(const Token& at, const std::string& why) const override { p_.fail_at(at, why); }
      [[noreturn]] void unsupported(const Token& at, const std::string& why) const override {
        p_.unsupported_at(at, why);
      }
      std::optional<uint64_t> address_of(std::string_view name) const override {
        auto it = p_.global_index_.find(std::string(name));
        if (it == p_.global_index_.end()) return std::nullopt;
        return p_.mod_->global_addresses[it->second];
      }
      ModuleParser& p_;
    } syntax(*this);
    ModuleVar v = detail::parse_module_var(syntax, d.text == ".const" ? Space::Const : Space::Global, d);
    if (module_vars_.count(v.name) || global_index_.count(v.name))
      fail_at(d, fmt::format("duplicate declaration of '{}'", v.name));
    uint64_t address = 0;
    if (allocate_) {
      address = allocate_(v);
    } else {
      placeholder_ = (placeholder_ + v.align - 1) / v.align * v.align;
      address = placeholder_;
      placeholder_ += std::max<uint64_t>(v.size, 1);
    }
    global_index_.emplace(v.name, mod_->globals.size());
    mod_->globals.push_back(std::move(v));
    mod_->global_addresses.push_back(address);
  }

  void skip_braces() {
    expect(Tok::LBrace, "'{'");
    int depth = 1;
    while (depth > 0) {
      const Token& t = next();
      if (t.kind == Tok::End) fail_at(t, "parse error: unterminated '{' block");
      if (t.kind == Tok::LBrace) ++depth;
      if (t.kind == Tok::RBrace) --depth;
    }
  }

  // .shared/.local [.align N] .type name[dims]* [= {init}] ;
  VarDecl parse_var_decl(Space space, bool is_extern, const Token& at) {
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

  // ---- registers -------------------------------------------------------------------
  const RegRef* find_reg(std::string_view name) const {
    std::string n(name);
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      auto f = it->find(n);
      if (f != it->end()) return &f->second;
    }
    return nullptr;
  }

  void declare_reg(const std::string& name, DType t, const Token& at) {
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

  uint16_t special_slot(Special s, std::string_view name) {
    for (auto& sp : k_->specials)
      if (sp.which == s) return sp.slot;
    if (k_->regs.size() >= 0xFFF0) unsupported("too many registers");
    uint16_t slot = static_cast<uint16_t>(k_->regs.size());
    k_->regs.push_back({std::string(name), DType::U32});
    k_->specials.push_back({s, slot});
    return slot;
  }

  void parse_reg_decl(const Token& at) {
    DType type = DType::None;
    while (peek().kind == Tok::Directive) {
      const Token& m = next();
      if (m.text == ".v2" || m.text == ".v4") unsupported_at(m, "vector registers");
      DType t = parse_dtype(m.text.substr(1));
      if (t == DType::None) fail_at(m, fmt::format("parse error: unknown register type {}", m.text));
      if (t == DType::F16) unsupported_at(m, "half-precision registers");
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

  // ---- kernels ---------------------------------------------------------------------
  void parse_entry() {
    auto kernel = std::make_unique<Kernel>();
    k_ = kernel.get();
    const Token& name = expect(Tok::Ident, "a kernel name");
    name_tok_ = name;
    k_->name = std::string(name.text);
    k_->decl_line = name.line;
    for (auto& other : mod_->kernels)
      if (other->name == k_->name) fail_at(name, fmt::format("parse error: duplicate kernel '{}'", k_->name));
    scopes_.clear();
    scopes_.emplace_back();
    kernel_vars_.clear();
    kernel_var_order_.clear();
    params_.clear();
    labels_.clear();
    label_refs_.clear();
    fixups_.clear();
    const_index_.clear();
    sink_slot_ = -1;
    loc_file_ = 0;
    loc_line_ = 0;
    loc_col_ = 0;

    if (accept(Tok::LParen)) {
      if (!accept(Tok::RParen)) {
        do parse_param();
        while (accept(Tok::Comma));
        expect(Tok::RParen, "')'");
      }
    }
    // Performance-tuning directives.
    while (peek().kind == Tok::Directive) {
      const Token& d = next();
      if (d.text == ".maxntid" || d.text == ".reqntid") {
        uint32_t* dst = d.text == ".maxntid" ? k_->maxntid : k_->reqntid;
        dst[0] = static_cast<uint32_t>(expect_uint("a thread count"));
        dst[1] = dst[2] = 1;
        for (int i = 1; i < 3 && accept(Tok::Comma); ++i) dst[i] = static_cast<uint32_t>(expect_uint("a thread count"));
      } else if (d.text == ".minnctapersm" || d.text == ".maxnctapersm" || d.text == ".maxnreg") {
        expect_uint("a count");
      } else if (d.text == ".noreturn") {
      } else {
        unsupported_at(d, fmt::format("kernel directive {}", d.text));
      }
    }
    expect(Tok::LBrace, "'{'");
    parse_body();
    finish_kernel();
    mod_->kernels.push_back(std::move(kernel));
    k_ = nullptr;
  }

  void parse_param() {
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
        if (t == DType::F16) unsupported_at(m, "half-precision parameters");
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
    if (size == 0 || size > 4096) fail_at(name, "parse error: parameter size out of range");
    p.size = static_cast<uint32_t>(size);
    if (p.align == 0) p.align = static_cast<uint32_t>(dtype_bytes(type));
    k_->param_bytes = (k_->param_bytes + p.align - 1) / p.align * p.align;
    p.offset = k_->param_bytes;
    k_->param_bytes += p.size;
    if (params_.count(p.name)) fail_at(name, fmt::format("parse error: duplicate parameter '{}'", p.name));
    params_.emplace(p.name, k_->params.size());
    k_->params.push_back(p);
  }

  void parse_body() {
    while (true) {
      const Token& t = peek();
      if (t.kind == Tok::End) fail_at(t, fmt::format("parse error: kernel '{}' is missing its closing '}}'", k_->name));
      if (t.kind == Tok::RBrace) {
        next();
        if (scopes_.size() == 1) return;
        scopes_.pop_back();
        continue;
      }
      if (t.kind == Tok::LBrace) {
        next();
        scopes_.emplace_back();
        continue;
      }
      if (t.kind == Tok::Directive) {
        body_directive();
        continue;
      }
      if (t.kind == Tok::Ident && peek(1).kind == Tok::Colon) {
        next();
        next();
        std::string label(t.text);
        if (labels_.count(label)) fail_at(t, fmt::format("parse error: duplicate label '{}'", label));
        labels_.emplace(label, static_cast<int32_t>(k_->code.size()));
        continue;
      }
      parse_instruction();
    }
  }

  void body_directive() {
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
      expect(Tok::String, "a pragma string");
      expect(Tok::Semi, "';'");
      return;
    }
    if (d.text == ".const" || d.text == ".global")
      unsupported_at(d, fmt::format("{} variables inside a kernel", d.text));
    if (d.text == ".param") unsupported_at(d, ".param declarations inside a kernel (function calls)");
    unsupported_at(d, "");
  }

  // Vector elements are parsed with in_vector set: vectors do not nest, and '!' takes a
  // register, so the recursion is at most two deep whatever the input (no stack overflow on
  // "{{{{..." or "!!!!...").
  RawOp parse_operand(bool in_vector = false) {
    RawOp op;
    op.tok = peek();
    const Token& t = peek();
    if (t.kind == Tok::LBracket) {
      next();
      op.k = RawOp::K::Addr;
      if (peek().kind == Tok::Ident) {
        op.name = next().text;
      } else if (peek().kind == Tok::Int) {
        op.ival = next().int_value;
      } else {
        fail_at(peek(), fmt::format("parse error: expected a register, symbol or address in [], got {}",
                                    describe(peek())));
      }
      while (peek().kind == Tok::Plus || peek().kind == Tok::Minus) {
        bool neg = next().kind == Tok::Minus;
        if (accept(Tok::Minus)) neg = !neg;
        const Token& n = expect(Tok::Int, "an offset");
        int64_t v = static_cast<int64_t>(n.int_value);
        op.off += neg ? -v : v;
      }
      expect(Tok::RBracket, "']'");
      return op;
    }
    if (t.kind == Tok::LBrace) {
      if (in_vector) fail_at(t, "parse error: vector operands do not nest");
      next();
      op.k = RawOp::K::Vec;
      do op.elems.push_back(parse_operand(true));
      while (accept(Tok::Comma));
      expect(Tok::RBrace, "'}'");
      if (op.elems.size() != 2 && op.elems.size() != 4) fail_at(t, "parse error: vector operands have 2 or 4 elements");
      return op;
    }
    if (t.kind == Tok::Bang) {
      next();
      if (peek().kind != Tok::Ident) fail_at(t, "parse error: '!' applies to a predicate register");
      op = parse_operand(in_vector);
      if (op.k != RawOp::K::Reg) fail_at(t, "parse error: '!' applies to a predicate register");
      op.neg = true;
      return op;
    }
    if (t.kind == Tok::Minus) {
      next();
      const Token& n = next();
      if (n.kind == Tok::Int) {
        op.k = RawOp::K::Imm;
        op.ival = n.int_value;
        op.imm_neg = true;
      } else if (n.kind == Tok::Float && !n.float_hex) {
        op.k = RawOp::K::FloatImm;
        op.fval = -n.float_value;
      } else {
        fail_at(n, "parse error: expected a number after '-'");
      }
      return op;
    }
    if (t.kind == Tok::Int) {
      next();
      op.k = RawOp::K::Imm;
      op.ival = t.int_value;
      return op;
    }
    if (t.kind == Tok::Float) {
      next();
      op.k = RawOp::K::FloatImm;
      op.fval = t.float_value;
      op.fhex = t.float_hex;
      op.fhex_double = t.float_hex_double;
      op.ival = t.int_value;
      return op;
    }
    if (t.kind == Tok::Ident) {
      next();
      if (t.text == "_") {
        op.k = RawOp::K::Sink;
        if (accept(Tok::Bar)) op.pipe = expect(Tok::Ident, "a predicate register").text;  // "_|%p"
        return op;
      }
      op.name = t.text;
      bool known_reg = find_reg(t.text) || special_names().count(t.text) || is_clock_name(t.text);
      op.k = known_reg ? RawOp::K::Reg : RawOp::K::Sym;
      if (!known_reg && t.text[0] == '%') fail_at(t, fmt::format("parse error: undeclared register '{}'", t.text));
      if (accept(Tok::Bar)) op.pipe = expect(Tok::Ident, "a predicate register").text;
      return op;
    }
    fail_at(t, fmt::format("parse error: expected an operand, got {}", describe(t)));
  }

  void parse_instruction() {
    const Token& first = peek();
    cur_line_ = first.line;
    size_t text_start = static_cast<size_t>(first.text.data() - src_.data());
    Instr in;
    if (accept(Tok::At)) {
      RawOp g;
      g.neg = accept(Tok::Bang);
      const Token& pt = expect(Tok::Ident, "a guard predicate");
      g.k = RawOp::K::Reg;
      g.name = pt.text;
      g.tok = pt;
      in.has_guard = true;
      in.guard_neg = g.neg;
      in.guard = pred_reg(g);
    }
    const Token& op_tok = expect(Tok::Ident, "an instruction");
    const std::string_view base = op_tok.text.substr(0, op_tok.text.find('.'));
    if (base[0] == '%' || base[0] == '$')
      fail_at(op_tok, fmt::format("parse error: expected an instruction, got '{}'", op_tok.text));
    if (!detail::known_opcode(base))
      unsupported(base == "call" ? std::string("function calls") : fmt::format("instruction '{}'", base));
    std::vector<RawOp> ops;
    if (peek().kind != Tok::Semi) {
      do ops.push_back(parse_operand());
      while (accept(Tok::Comma));
    }
    const Token& semi = expect(Tok::Semi, "';'");
    size_t text_end = static_cast<size_t>(semi.text.data() - src_.data());
    in.ptx_line = op_tok.line;
    in.loc_file = loc_file_;
    in.loc_line = loc_line_;
    in.loc_col = loc_col_;
    detail::decode_instruction(*this, op_tok.text, op_tok, ops, in);
    if (in.op == Op::Bra) {
      const RawOp& target = ops.back();
      if (target.k != RawOp::K::Sym) fail_at(target.tok, "parse error: branch target must be a label");
      label_refs_.push_back({static_cast<uint32_t>(k_->code.size()), std::string(target.name), target.tok});
    }
    std::string text(src_.substr(text_start, text_end - text_start));
    // One line, single spaces: instruction text appears in traces and reports.
    std::string flat;
    for (char c : text) {
      if (c == '\t' || c == '\n' || c == '\r') c = ' ';
      if (c == ' ' && (flat.empty() || flat.back() == ' ')) continue;
      flat.push_back(c);
    }
    text = std::move(flat);
    k_->code.push_back(in);
    k_->text.push_back(std::move(text));
  }

  // ---- layout and fixups -------------------------------------------------------------
  void finish_kernel() {
    if (k_->code.empty()) fail_at(name_tok_, fmt::format("parse error: kernel '{}' has no instructions", k_->name));
    for (auto& ref : label_refs_) {
      auto it = labels_.find(ref.name);
      if (it == labels_.end()) fail_at(ref.at, fmt::format("parse error: undefined label '{}'", ref.name));
      k_->code[ref.pc].a.kind = Operand::Kind::Label;
      k_->code[ref.pc].a.target = it->second;
    }
    layout_memory();
    for (auto& f : fixups_) {
      int64_t value = symbol_value(f) + f.addend;
      Operand& o = detail::operand_slot(k_->code[f.pc], f.which);
      if (f.as_const) {
        o.kind = Operand::Kind::Const;
        o.reg = const_slot(static_cast<uint64_t>(value));
      } else {
        o.offset += value;
      }
    }
    // The last instruction must not fall off the end, and a branch to a label after it (to
    // the closing brace) needs an instruction to land on.
    const Instr& last = k_->code.back();
    bool label_at_end = false;
    for (auto& ref : label_refs_) label_at_end |= labels_.at(ref.name) == static_cast<int32_t>(k_->code.size());
    if (label_at_end || !(last.op == Op::Ret || last.op == Op::Exit || last.op == Op::Trap ||
                          (last.op == Op::Bra && !last.has_guard))) {
      Instr ret;
      ret.op = Op::Ret;
      ret.klass = InstrClass::Exit;
      ret.ptx_line = last.ptx_line;
      ret.loc_file = last.loc_file;
      ret.loc_line = last.loc_line;
      k_->code.push_back(ret);
      k_->text.push_back("ret;  // implicit at end of kernel");
    }
    for (auto& in : k_->code) {
      cur_line_ = in.ptx_line;
      bind_semantics(in, [&](const std::string& why) { unsupported(why); });
    }
    analyse_control_flow(*k_);
    k_->consts_bcast.resize(k_->consts.size() * kWarpLanes);
    for (size_t s = 0; s < k_->consts.size(); ++s)
      for (int l = 0; l < kWarpLanes; ++l) k_->consts_bcast[s * kWarpLanes + l] = k_->consts[s];
    k_->estimated_registers = estimate_registers(*k_);
  }

  int64_t symbol_value(const SymbolFixup& f) {
    auto sv = shared_offsets_.find(f.name);
    if (sv != shared_offsets_.end()) {
      if (f.space == Space::Generic && !f.as_const) return static_cast<int64_t>(kSharedWindow + sv->second);
      if (f.space != Space::Shared && f.space != Space::Generic && !f.as_const)
        fail_at(f.at, fmt::format("parse error: '{}' is a .shared variable, used with a {} access", f.name,
                                  space_name(f.space)));
      return sv->second;
    }
    auto lv = local_offsets_.find(f.name);
    if (lv != local_offsets_.end()) {
      if (f.space == Space::Generic && !f.as_const) return static_cast<int64_t>(kLocalWindow + lv->second);
      if (f.space != Space::Local && f.space != Space::Generic && !f.as_const)
        fail_at(f.at, fmt::format("parse error: '{}' is a .local variable, used with a {} access", f.name,
                                  space_name(f.space)));
      return lv->second;
    }
    auto gv = global_index_.find(f.name);
    if (gv != global_index_.end()) {
      // Generic addresses of global memory are global addresses, and .const variables live
      // in global memory too, so one address serves mov, ld.global/ld.const and generic use.
      if (f.space != Space::Global && f.space != Space::Const && f.space != Space::Generic && !f.as_const)
        fail_at(f.at, fmt::format("parse error: '{}' is a module {} variable, used with a {} access", f.name,
                                  space_name(mod_->globals[gv->second].space), space_name(f.space)));
      return static_cast<int64_t>(mod_->global_addresses[gv->second]);
    }
    auto pv = params_.find(f.name);
    if (pv != params_.end()) {
      if (f.space != Space::Param && !f.as_const)
        unsupported_at(f.at, fmt::format("access to kernel parameter '{}' outside the .param space", f.name));
      return k_->params[pv->second].offset;
    }
    if (module_vars_.count(f.name) == 0 && kernel_vars_.count(f.name) == 0)
      fail_at(f.at, fmt::format("parse error: undeclared symbol '{}'", f.name));
    fail_at(f.at, fmt::format("parse error: symbol '{}' cannot be used here", f.name));
  }

  void layout_memory() {
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

  struct LabelRef {
    uint32_t pc;
    std::string name;
    Token at;
  };

  std::string_view src_;
  std::string file_;
  const VarAllocator& allocate_;
  uint64_t placeholder_ = kPlaceholderVarBase;
  std::unordered_map<std::string, size_t> global_index_;  // module .global/.const variable -> index
  std::vector<Token> toks_;
  size_t pos_ = 0;
  std::unique_ptr<Module> mod_;
  Kernel* k_ = nullptr;
  Token name_tok_;  // the current kernel's name (for messages about the whole kernel)
  uint32_t cur_line_ = 0;

  std::unordered_map<std::string, VarDecl> module_vars_;
  std::vector<std::string> module_var_order_;
  std::unordered_map<std::string, VarDecl> kernel_vars_;
  std::vector<std::string> kernel_var_order_;
  std::unordered_map<std::string, size_t> params_;
  std::vector<std::unordered_map<std::string, RegRef>> scopes_;
  std::unordered_map<std::string, int32_t> labels_;
  std::vector<LabelRef> label_refs_;
  std::vector<SymbolFixup> fixups_;
  std::unordered_map<uint64_t, uint16_t> const_index_;
  std::unordered_map<std::string, uint32_t> shared_offsets_, local_offsets_;
  int sink_slot_ = -1;
  uint16_t loc_file_ = 0, loc_col_ = 0;
  uint32_t loc_line_ = 0;
};

}  // namespace

std::unique_ptr<Module> parse_ptx(std::string_view source, const std::string& file, const VarAllocator& allocate) {
  ModuleParser p(source, file, allocate);
  return p.run();
}

std::unique_ptr<Module> load_ptx_file(const std::string& path, const VarAllocator& allocate) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw PtxError(fmt::format("{}: cannot open PTX file", path));
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  return parse_ptx(text, path, allocate);
}

const Kernel& Module::kernel(const std::string& name) const {
  for (auto& k : kernels)
    if (k->name == name) return *k;
  // Plain C++ name: match Itanium-mangled "_Z<len><name>..." entries.
  const Kernel* found = nullptr;
  int matches = 0;
  std::string overloads;
  std::string prefix = "_Z" + std::to_string(name.size()) + name;
  for (auto& k : kernels) {
    if (k->name.rfind(prefix, 0) == 0) {
      found = k.get();
      ++matches;
      overloads += (overloads.empty() ? "" : ", ") + k->name;
    }
  }
  if (matches == 1) return *found;
  if (matches > 1)
    throw LaunchError(fmt::format("{}: kernel name '{}' is ambiguous (overloads: {}); use the mangled name", path,
                                  name, overloads));
  std::string list;
  for (auto& k : kernels) list += (list.empty() ? "" : ", ") + k->name;
  throw LaunchError(fmt::format("{}: no kernel named '{}' (kernels in this module: {})", path, name,
                                list.empty() ? "none" : list));
}

}  // namespace warpsim::isa
