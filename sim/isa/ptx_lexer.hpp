// Tokeniser for the PTX subset. Dotted names ("ld.global.f32", "%tid.x") are single
// tokens; directives keep their leading dot (".reg"). Positions are 1-based line:column.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::isa {

enum class Tok : uint8_t {
  End, Ident, Directive, Int, Float, String,
  Comma, Semi, Colon, LBracket, RBracket, LBrace, RBrace, LParen, RParen, Lt, Gt, Plus, Minus, Bar, Bang, At, Eq,
};

struct Token {
  Tok kind = Tok::End;
  std::string_view text;
  uint32_t line = 0, col = 0;
  uint64_t int_value = 0;  // Int: magnitude (two's complement bits for hex)
  double float_value = 0;  // Float: decimal literal value
  bool float_hex = false;  // Float: written 0f... / 0d... (bits in int_value)
  bool float_hex_double = false;
};

// Throws PtxError("file:line:col: parse error: ...") on characters that can't start a token or an
// unterminated comment/string.
std::vector<Token> lex_ptx(std::string_view source, const std::string& file);

std::string_view tok_name(Tok t);

}  // namespace warpsim::isa
