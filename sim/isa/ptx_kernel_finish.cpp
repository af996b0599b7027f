// PTX kernel headers and finishing a kernel: labels and symbols resolved, implicit ret,
// semantics bound, control flow analysed.
#include "sim/isa/ptx_module_parser.hpp"

#include "sim/isa/call_stack.hpp"
#include "sim/isa/cfg.hpp"
#include "sim/isa/contraction.hpp"
#include "sim/isa/semantics.hpp"

namespace warpsim::isa::detail {

void ModuleParser::parse_entry() {
  auto kernel = std::make_unique<Kernel>();
  k_ = kernel.get();
  const Token& name = expect(Tok::Ident, "a kernel name");
  name_tok_ = name;
  k_->name = std::string(name.text);
  k_->decl_line = name.line;
  k_->nounroll = module_nounroll_;
  nounroll_next_ = false;
  for (auto& other : mod_->kernels)
    if (other->name == k_->name) fail_at(name, fmt::format("parse error: duplicate kernel '{}'", k_->name));
  scopes_.clear();
  scopes_.emplace_back();
  cparams_.assign(1, {});
  fparams_.clear();
  param_refs_.clear();
  call_names_.clear();
  func_index_.clear();
  prototypes_.clear();
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
    } else if (d.text == ".reqnctapercluster") {  // __cluster_dims__(x, y, z)
      k_->cluster_dims[0] = static_cast<uint32_t>(expect_uint("a block count"));
      k_->cluster_dims[1] = k_->cluster_dims[2] = 1;
      for (int i = 1; i < 3 && accept(Tok::Comma); ++i)
        k_->cluster_dims[i] = static_cast<uint32_t>(expect_uint("a block count"));
      for (uint32_t v : k_->cluster_dims)
        if (v == 0) fail_at(d, "parse error: .reqnctapercluster of 0 blocks");
    } else if (d.text == ".explicitcluster") {
      k_->explicit_cluster = true;
    } else if (d.text == ".maxclusterrank") {
      k_->max_cluster_rank = static_cast<uint32_t>(expect_uint("a block count"));
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

void ModuleParser::finish_kernel() {
  if (k_->code.empty()) fail_at(name_tok_, fmt::format("parse error: kernel '{}' has no instructions", k_->name));
  for (auto& ref : label_refs_) {
    auto it = labels_.find(ref.name);
    if (it == labels_.end()) fail_at(ref.at, fmt::format("parse error: undefined label '{}'", ref.name));
    k_->code[ref.pc].a.kind = Operand::Kind::Label;
    k_->code[ref.pc].a.target = it->second;
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
  // The device functions it calls follow the kernel's own code (ptx_functions.cpp).
  link_functions();
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
  contract_multiply_adds(*k_);  // as ptxas does: the results are the GPU's
  for (auto& in : k_->code) {
    cur_line_ = in.ptx_line;
    bind_semantics(in, [&](const std::string& why) { unsupported(why); });
  }
  analyse_control_flow(*k_);
  broadcast_consts(*k_);
  k_->estimated_registers = estimate_registers(*k_);
  k_->static_stack_bytes = isa::static_stack_bytes(*k_);
}

int64_t ModuleParser::symbol_value(const SymbolFixup& f) {
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
  if (func_ids_.count(f.name)) {
    if (!f.as_const)
      fail_at(f.at, fmt::format("parse error: '{}' is a device function; only its address can be taken (mov.u64)",
                                f.name));
    if (dtype_bytes(k_->code[f.pc].type) != 8)
      unsupported_at(f.at, fmt::format("the address of function '{}' in a register narrower than 64 bits", f.name));
    return static_cast<int64_t>(function_address(f.name));
  }
  if (entry_ids_.count(f.name)) {
    if (!f.as_const)
      fail_at(f.at, fmt::format("parse error: '{}' is a kernel; only its address can be taken (mov.u64)", f.name));
    if (dtype_bytes(k_->code[f.pc].type) != 8)
      unsupported_at(f.at, fmt::format("the address of kernel '{}' in a register narrower than 64 bits", f.name));
    return static_cast<int64_t>(kernel_address(f.name));
  }
  if (extern_entries_.count(f.name))
    unsupported_at(f.at, fmt::format("kernel '{}' is defined in another translation unit (-rdc=true): this module "
                                     "alone does not have it (warpsim links a program's units when it runs)",
                                     f.name));
  if (module_vars_.count(f.name) == 0 && kernel_vars_.count(f.name) == 0)
    fail_at(f.at, fmt::format("parse error: undeclared symbol '{}'", f.name));
  fail_at(f.at, fmt::format("parse error: symbol '{}' cannot be used here", f.name));
}

}  // namespace warpsim::isa::detail
