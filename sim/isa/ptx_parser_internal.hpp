// Shared between the PTX module parser (ptx_parser.cpp) and the instruction decoder
// (ptx_decode.cpp). Not part of the public interface.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/isa/ir.hpp"
#include "sim/isa/ptx_lexer.hpp"

namespace warpsim::isa::detail {

// An operand as written, before it is typed and bound to register slots.
struct RawOp {
  enum class K { Reg, Imm, FloatImm, Sym, Addr, Vec, Sink };
  K k = K::Reg;
  std::string_view name;       // Reg / Sym: name; Addr: base name (empty when absolute)
  std::string_view pipe;       // "%r|%p": the predicate after the bar
  bool neg = false;            // "!%p"
  bool imm_neg = false;        // Imm: written with a leading '-'
  uint64_t ival = 0;           // Imm magnitude / Addr absolute base
  double fval = 0;             // FloatImm decimal value
  bool fhex = false, fhex_double = false;  // FloatImm written as 0f/0d (bits in ival)
  int64_t off = 0;             // Addr: immediate offset
  std::vector<RawOp> elems;    // Vec
  Token tok;                   // first token (for messages)
};

// What the decoder needs from the parser: register lookup, const pool, symbol fixups
// and error reporting with the current instruction's line.
class DecodeContext {
 public:
  virtual ~DecodeContext() = default;
  // A data register (or special register) slot; errors if unknown or a predicate.
  virtual uint16_t data_reg(const RawOp& op) = 0;
  virtual uint16_t pred_reg(const RawOp& op) = 0;
  virtual bool is_pred_name(std::string_view name) const = 0;
  virtual bool is_special_name(std::string_view name) const = 0;
  virtual bool is_clock_name(std::string_view name) const = 0;
  virtual bool is_symbol(std::string_view name) const = 0;
  // A .param of a call sequence or of the device function being parsed (st.param targets).
  virtual bool is_call_param(std::string_view name) const = 0;
  virtual uint16_t const_slot(uint64_t bits) = 0;
  // A scratch register that absorbs writes to the sink operand "_".
  virtual uint16_t sink_reg() = 0;
  // The hidden per-thread carry-flag register (CC.CF) of the kernel or device function
  // being parsed, declared at its first use.
  virtual uint16_t carry_reg() = 0;
  // Operand which (0..5 = d0 d1 a b c e) of the current instruction refers to a symbol;
  // the value is patched in when the kernel's memory layout is known.
  virtual void symbol_ref(int which, std::string_view sym, int64_t addend, bool as_const, Space space,
                          const Token& at) = 0;
  [[noreturn]] virtual void unsupported(const std::string& why) = 0;
  [[noreturn]] virtual void malformed(const Token& at, const std::string& why) = 0;
};

// Decodes one instruction (opcode text split at dots, operands) into `in`.
void decode_instruction(DecodeContext& ctx, std::string_view opcode, const Token& op_tok,
                        std::vector<RawOp>& ops, Instr& in);

Operand& operand_slot(Instr& in, int which);

}  // namespace warpsim::isa::detail
