// PTX module parser: module directives, kernel headers, declarations, operands and
// labels. Instruction semantics are decoded in ptx_decode.cpp; control-flow analysis
// (reconvergence points) in cfg.cpp; binding to executable semantics in semantics_bind.cpp.
#include "sim/isa/ptx_parser.hpp"

#include <fstream>
#include <sstream>

#include "sim/isa/ptx_module_parser.hpp"
#include "sim/isa/ptx_module_vars.hpp"

namespace warpsim::isa {

namespace detail {

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
      {"%envreg0", Special::EnvReg},   {"%envreg1", Special::EnvReg1},  {"%envreg2", Special::EnvReg2},
      {"%envreg3", Special::EnvReg},   {"%envreg4", Special::EnvReg},   {"%envreg5", Special::EnvReg},
      {"%envreg6", Special::EnvReg},   {"%envreg7", Special::EnvReg},   {"%envreg8", Special::EnvReg},
      {"%envreg9", Special::EnvReg},   {"%envreg10", Special::EnvReg},  {"%envreg11", Special::EnvReg},
      {"%envreg12", Special::EnvReg},  {"%envreg13", Special::EnvReg},  {"%envreg14", Special::EnvReg},
      {"%envreg15", Special::EnvReg},  {"%envreg16", Special::EnvReg},  {"%envreg17", Special::EnvReg},
      {"%envreg18", Special::EnvReg},  {"%envreg19", Special::EnvReg},  {"%envreg20", Special::EnvReg},
      {"%envreg21", Special::EnvReg},  {"%envreg22", Special::EnvReg},  {"%envreg23", Special::EnvReg},
      {"%envreg24", Special::EnvReg},  {"%envreg25", Special::EnvReg},  {"%envreg26", Special::EnvReg},
      {"%envreg27", Special::EnvReg},  {"%envreg28", Special::EnvReg},  {"%envreg29", Special::EnvReg},
      {"%envreg30", Special::EnvReg},  {"%envreg31", Special::EnvReg},
      {"%cluster_ctaid.x", Special::ClusterCtaidX},   {"%cluster_ctaid.y", Special::ClusterCtaidY},
      {"%cluster_ctaid.z", Special::ClusterCtaidZ},   {"%cluster_nctaid.x", Special::ClusterNctaidX},
      {"%cluster_nctaid.y", Special::ClusterNctaidY}, {"%cluster_nctaid.z", Special::ClusterNctaidZ},
      {"%clusterid.x", Special::ClusterIdX},          {"%clusterid.y", Special::ClusterIdY},
      {"%clusterid.z", Special::ClusterIdZ},          {"%nclusterid.x", Special::NclusterIdX},
      {"%nclusterid.y", Special::NclusterIdY},        {"%nclusterid.z", Special::NclusterIdZ},
      {"%cluster_ctarank", Special::ClusterCtaRank},  {"%cluster_nctarank", Special::ClusterNctaRank},
      {"%is_explicit_cluster", Special::IsExplicitCluster},
      {"%reserved_smem_offset_begin", Special::ReservedSmemBegin}, {"%reserved_smem_offset_end", Special::ReservedSmemEnd},
      {"%reserved_smem_offset_cap", Special::ReservedSmemCap},     {"%reserved_smem_offset_0", Special::ReservedSmem0},
      {"%reserved_smem_offset_1", Special::ReservedSmem1},
  };
  return m;
}

void ModuleParser::module_statement() {
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
    if (expect(Tok::String, "a pragma string").text == "\"nounroll\"") module_nounroll_ = true;
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
    if (is_extern) {  // a kernel of another unit (-rdc=true): its prototype; link_ptx resolves it
      while (peek().kind != Tok::Semi && peek().kind != Tok::End) next();
      expect(Tok::Semi, "';' after an .extern .entry prototype");
      return;
    }
    parse_entry();
    return;
  }
  if (d.text == ".func") {
    // Found with its body by find_functions(); parsed into each kernel that calls it.
    next();
    parse_func_header(d);
    if (peek().kind == Tok::LBrace) skip_braces();
    else expect(Tok::Semi, "';' or a function body");
    return;
  }
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
void ModuleParser::module_global(const Token& d) {
  struct Syntax final : detail::ModuleVarSyntax {
    Syntax(ModuleParser& p) : ModuleVarSyntax(p.toks_, p.pos_), p_(p) {}
    [[noreturn]] void fail(const Token& at, const std::string& why) const override { p_.fail_at(at, why); }
    [[noreturn]] void unsupported(const Token& at, const std::string& why) const override {
      p_.unsupported_at(at, why);
    }
    std::optional<uint64_t> address_of(std::string_view name) const override {
      auto it = p_.global_index_.find(std::string(name));
      if (it == p_.global_index_.end()) {
        if (p_.func_ids_.count(std::string(name))) return p_.function_address(std::string(name));
        return std::nullopt;
      }
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

void ModuleParser::skip_braces() {
  expect(Tok::LBrace, "'{'");
  int depth = 1;
  while (depth > 0) {
    const Token& t = next();
    if (t.kind == Tok::End) fail_at(t, "parse error: unterminated '{' block");
    if (t.kind == Tok::LBrace) ++depth;
    if (t.kind == Tok::RBrace) --depth;
  }
}

std::string ModuleParser::line_text(uint32_t line) const {
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

}  // namespace detail

using detail::ModuleParser;

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
