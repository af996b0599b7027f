// Module-scope .global/.const variable declarations (ptx_module_vars.cpp). Internal to the
// PTX loader.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/isa/ir.hpp"
#include "sim/isa/ptx_lexer.hpp"

namespace warpsim::isa::detail {

// What the variable parser needs from the module parser: its token stream and position,
// error reporting, and the addresses of the variables declared so far.
class ModuleVarSyntax {
 public:
  ModuleVarSyntax(const std::vector<Token>& t, size_t& p) : toks(t), pos(p) {}
  virtual ~ModuleVarSyntax() = default;
  [[noreturn]] virtual void fail(const Token& at, const std::string& why) const = 0;
  [[noreturn]] virtual void unsupported(const Token& at, const std::string& why) const = 0;
  virtual std::optional<uint64_t> address_of(std::string_view name) const = 0;

  const std::vector<Token>& toks;
  size_t& pos;
};

// Parses what follows the .global/.const directive token `at`, up to and including ';'.
ModuleVar parse_module_var(const ModuleVarSyntax& syntax, Space space, const Token& at);

}  // namespace warpsim::isa::detail
