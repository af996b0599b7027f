// The PTX module parser, shared by its files: module directives (ptx_parser.cpp),
// declarations and memory layout (ptx_declarations.cpp), instructions and operands
// (ptx_instructions.cpp), kernel headers and finishing (ptx_kernel_finish.cpp). Not part
// of the public interface.
#pragma once
#include <fmt/format.h>

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/foundation/error.hpp"
#include "sim/isa/ptx_parser.hpp"
#include "sim/isa/ptx_parser_internal.hpp"

namespace warpsim::isa::detail {

// Defined in ptx_decode.cpp: whether `base` (the opcode before its first '.') is an
// instruction of the subset. Checked before the operands are read, so that instructions
// outside the subset are reported as unsupported even when their operands use syntax the
// subset lacks.
bool known_opcode(std::string_view base);

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

// A .param in a function signature or a call sequence.
struct ParamDecl {
  std::string name;
  uint32_t size = 0;
  uint32_t align = 0;  // 0 until parsed: the type's size unless .align says otherwise
  Token at;
};

// A .func seen anywhere in the module (found before any kernel is parsed, so that kernels
// can call functions defined after them).
struct FuncDecl {
  std::string name;
  std::vector<ParamDecl> rets, args;
  size_t body_pos = 0;  // token index of its '{' (0: a declaration without a body)
  bool is_extern = false;
  Token at;
};

// Where a call's or a function's .param lives in the per-thread call-parameter area.
struct CallParam {
  uint32_t offset = 0;
  uint32_t size = 0;
};

// The special registers (%tid.x, %laneid, ...) by name.
const std::unordered_map<std::string_view, Special>& special_names();

class ModuleParser final : public DecodeContext {
 public:
  ModuleParser(std::string_view src, std::string file, const VarAllocator& allocate)
      : src_(src), file_(std::move(file)), allocate_(allocate) {
    toks_ = lex_ptx(src_, file_);
    mod_ = std::make_unique<Module>();
    mod_->path = file_;
  }

  std::unique_ptr<Module> run() {
    find_functions();
    find_entries();
    find_address_taken();
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
  bool is_clock_name(std::string_view name) const override {
    return name == "%clock" || name == "%clock64" || name == "%globaltimer" || name == "%globaltimer_lo" ||
           name == "%globaltimer_hi";
  }
  bool is_symbol(std::string_view name) const override {
    std::string n(name);
    return kernel_vars_.count(n) || module_vars_.count(n) || params_.count(n) || global_index_.count(n) ||
           find_call_param(name) || func_ids_.count(n) || entry_ids_.count(n) || extern_entries_.count(n);
  }
  bool is_call_param(std::string_view name) const override { return find_call_param(name) != nullptr; }
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
  uint16_t carry_reg() override {
    auto& outer = scopes_.front();  // one flag per kernel or function, whatever the scope
    auto it = outer.find("%__cc");
    if (it != outer.end()) return it->second.index;
    if (k_->regs.size() >= 0xFFF0) unsupported("too many registers");
    RegRef r;
    r.index = static_cast<uint16_t>(k_->regs.size());
    k_->regs.push_back({"%__cc", DType::U32});
    outer.emplace("%__cc", r);
    return r.index;
  }
  void symbol_ref(int which, std::string_view sym, int64_t addend, bool as_const, Space space,
                  const Token& at) override {
    if (const CallParam* cp = find_call_param(sym)) {
      param_refs_.push_back({0, which, std::string(sym), addend + cp->offset, as_const, space, at});
      return;
    }
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
  std::string line_text(uint32_t line) const;
  uint64_t expect_uint(const char* what) {
    const Token& t = expect(Tok::Int, what);
    return t.int_value;
  }
  void skip_to_semicolon() {
    while (peek().kind != Tok::Semi && peek().kind != Tok::End) next();
    expect(Tok::Semi, "';'");
  }

  // ---- module level ------------------------------------------------------------------
  void module_statement();

  void module_global(const Token& d);

  void skip_braces();

  VarDecl parse_var_decl(Space space, bool is_extern, const Token& at);

  // ---- registers -------------------------------------------------------------------
  const RegRef* find_reg(std::string_view name) const {
    std::string n(name);
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      auto f = it->find(n);
      if (f != it->end()) return &f->second;
    }
    return nullptr;
  }

  void declare_reg(const std::string& name, DType t, const Token& at);

  uint16_t special_slot(Special s, std::string_view name);

  void parse_reg_decl(const Token& at);

  // ---- kernels ---------------------------------------------------------------------
  void parse_entry();

  void parse_param();

  void parse_body();

  void body_directive();

  RawOp parse_operand(bool in_vector = false);

  void parse_instruction();

  // ---- device functions and calls (ptx_functions.cpp) ------------------------------------
  void find_functions();
  FuncDecl parse_func_header(const Token& at);
  ParamDecl parse_param_decl(const Token& at);
  CallParam place_call_param(const ParamDecl& p);
  const CallParam* find_call_param(std::string_view name) const;
  void parse_call(Instr& in, const Token& op_tok);
  void parse_prototype(const Token& label);
  void find_address_taken();
  uint64_t function_address(const std::string& name) const {
    return kFunctionAddressBase + 16 * uint64_t(func_ids_.at(name));
  }
  // Every .entry name in order of appearance (its index: its address, kKernelAddressBase).
  void find_entries();
  uint64_t kernel_address(const std::string& name) const {
    return kKernelAddressBase + 16 * uint64_t(entry_ids_.at(name));
  }
  void apply_param_refs(Instr& in);
  void link_functions();
  void link_function(const FuncDecl& d, size_t index);
  void place_function_locals(Function& f, size_t first_fixup);

  // ---- layout and fixups -------------------------------------------------------------
  void finish_kernel();

  int64_t symbol_value(const SymbolFixup& f);

  void layout_memory();

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
  std::unordered_map<std::string, FuncDecl> funcs_;              // every .func of the module
  std::vector<std::unordered_map<std::string, CallParam>> cparams_;  // call-sequence .params, by scope
  std::unordered_map<std::string, CallParam> fparams_;            // the function being parsed: formals, results
  std::vector<SymbolFixup> param_refs_;                           // the current instruction's call-parameter refs
  std::vector<std::string> call_names_;                           // per Kernel::calls entry: the callee
  std::unordered_map<std::string, int32_t> func_index_;           // linked functions of the kernel
  std::unordered_map<std::string, uint32_t> entry_ids_;           // every .entry name: its index (its address)
  std::set<std::string> extern_entries_;                          // .extern .entry: another unit's kernels
  std::unordered_map<std::string, uint32_t> func_ids_;            // every .func name: its index (its address)
  std::vector<std::string> address_taken_;                        // functions whose address the module takes, by index
  std::unordered_map<std::string, FuncDecl> prototypes_;          // .callprototype labels of the body being parsed
  uint16_t loc_file_ = 0, loc_col_ = 0;
  uint32_t loc_line_ = 0;
  // `.pragma "nounroll"` (PTX ISA, "Descriptions of .pragma Strings"): in a body it marks
  // the next instruction, the head of the loop it names; at module scope, every kernel after it.
  bool nounroll_next_ = false, module_nounroll_ = false;
};

}  // namespace warpsim::isa::detail
