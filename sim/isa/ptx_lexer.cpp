#include "sim/isa/ptx_lexer.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdlib>

#include "sim/foundation/error.hpp"

namespace warpsim::isa {

std::string_view tok_name(Tok t) {
  switch (t) {
    case Tok::End: return "end of file";
    case Tok::Ident: return "identifier";
    case Tok::Directive: return "directive";
    case Tok::Int: return "integer";
    case Tok::Float: return "floating-point literal";
    case Tok::String: return "string";
    case Tok::Comma: return "','";
    case Tok::Semi: return "';'";
    case Tok::Colon: return "':'";
    case Tok::LBracket: return "'['";
    case Tok::RBracket: return "']'";
    case Tok::LBrace: return "'{'";
    case Tok::RBrace: return "'}'";
    case Tok::LParen: return "'('";
    case Tok::RParen: return "')'";
    case Tok::Lt: return "'<'";
    case Tok::Gt: return "'>'";
    case Tok::Plus: return "'+'";
    case Tok::Minus: return "'-'";
    case Tok::Bar: return "'|'";
    case Tok::Bang: return "'!'";
    case Tok::At: return "'@'";
    case Tok::Eq: return "'='";
  }
  return "?";
}

namespace {

bool ident_start(char c) { return std::isalpha((unsigned char)c) || c == '_' || c == '$' || c == '%'; }
bool ident_char(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '$'; }

}  // namespace

std::vector<Token> lex_ptx(std::string_view s, const std::string& file) {
  std::vector<Token> out;
  out.reserve(s.size() / 4);
  uint32_t line = 1;
  size_t line_start = 0;
  size_t i = 0;
  // Errors are reported at `at`, which lies on the current line (line_start <= at).
  auto err = [&](size_t at, const std::string& msg) -> void {
    throw PtxError(fmt::format("{}:{}:{}: parse error: {}", file, line, at - line_start + 1, msg));
  };
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n') {
      ++line;
      line_start = ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      size_t start = i;
      const uint32_t start_line = line;
      const size_t start_line_start = line_start;
      i += 2;
      while (i + 1 < s.size() && !(s[i] == '*' && s[i + 1] == '/')) {
        if (s[i] == '\n') {
          ++line;
          line_start = i + 1;
        }
        ++i;
      }
      if (i + 1 >= s.size()) {
        // Report where the comment starts, not where the file ends.
        line = start_line;
        line_start = start_line_start;
        err(start, "unterminated /* comment");
      }
      i += 2;
      continue;
    }
    Token t;
    t.line = line;
    t.col = static_cast<uint32_t>(i - line_start + 1);
    size_t start = i;
    if (c == '.' && i + 1 < s.size() && (std::isalpha((unsigned char)s[i + 1]) || s[i + 1] == '_')) {
      ++i;
      while (i < s.size() && ident_char(s[i])) ++i;
      t.kind = Tok::Directive;
    } else if (ident_start(c)) {
      ++i;
      bool dotted = false;
      while (i < s.size()) {
        if (ident_char(s[i])) {
          ++i;
        } else if (s[i] == '.' && i + 1 < s.size() && ident_char(s[i + 1])) {
          dotted = true;
          ++i;
        } else if (dotted && s[i] == ':' && i + 2 < s.size() && s[i + 1] == ':' && ident_char(s[i + 2])) {
          i += 2;  // a qualified modifier of sm_80+ opcodes: .shared::cta, .mbarrier::complete_tx::bytes
        } else {
          break;
        }
      }
      t.kind = Tok::Ident;
    } else if (std::isdigit((unsigned char)c)) {
      // 0f........ / 0d................ hex floats; 0x hex; 0b binary; decimal int or float.
      if (c == '0' && i + 1 < s.size() && (s[i + 1] == 'f' || s[i + 1] == 'F' || s[i + 1] == 'd' || s[i + 1] == 'D')) {
        bool dbl = s[i + 1] == 'd' || s[i + 1] == 'D';
        i += 2;
        size_t h = i;
        while (i < s.size() && std::isxdigit((unsigned char)s[i])) ++i;
        size_t digits = i - h;
        if (digits != (dbl ? 16u : 8u))
          err(start, fmt::format("malformed {} literal: expected {} hex digits", dbl ? "0d" : "0f", dbl ? 16 : 8));
        t.kind = Tok::Float;
        t.float_hex = true;
        t.float_hex_double = dbl;
        t.int_value = std::strtoull(std::string(s.substr(h, digits)).c_str(), nullptr, 16);
      } else if (c == '0' && i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        i += 2;
        size_t h = i;
        while (i < s.size() && std::isxdigit((unsigned char)s[i])) ++i;
        if (i == h || i - h > 16) err(start, "malformed hexadecimal literal");
        t.kind = Tok::Int;
        t.int_value = std::strtoull(std::string(s.substr(h, i - h)).c_str(), nullptr, 16);
        if (i < s.size() && (s[i] == 'U' || s[i] == 'u')) ++i;
      } else if (c == '0' && i + 1 < s.size() && (s[i + 1] == 'b' || s[i + 1] == 'B')) {
        i += 2;
        size_t h = i;
        while (i < s.size() && (s[i] == '0' || s[i] == '1')) ++i;
        if (i == h || i - h > 64) err(start, "malformed binary literal");
        t.kind = Tok::Int;
        t.int_value = std::strtoull(std::string(s.substr(h, i - h)).c_str(), nullptr, 2);
        if (i < s.size() && (s[i] == 'U' || s[i] == 'u')) ++i;
      } else {
        while (i < s.size() && std::isdigit((unsigned char)s[i])) ++i;
        bool is_float = false;
        if (i < s.size() && s[i] == '.' && i + 1 < s.size() && std::isdigit((unsigned char)s[i + 1])) {
          is_float = true;
          ++i;
          while (i < s.size() && std::isdigit((unsigned char)s[i])) ++i;
        }
        if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
          size_t save = i;
          ++i;
          if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
          if (i < s.size() && std::isdigit((unsigned char)s[i])) {
            is_float = true;
            while (i < s.size() && std::isdigit((unsigned char)s[i])) ++i;
          } else {
            i = save;
          }
        }
        std::string txt(s.substr(start, i - start));
        if (is_float) {
          t.kind = Tok::Float;
          t.float_value = std::strtod(txt.c_str(), nullptr);
        } else {
          t.kind = Tok::Int;
          errno = 0;
          bool octal = txt.size() > 1 && txt[0] == '0';
          t.int_value = std::strtoull(txt.c_str(), nullptr, octal ? 8 : 10);
          if (errno == ERANGE) err(start, "integer literal out of range");
        }
        if (i < s.size() && (s[i] == 'U' || s[i] == 'u')) ++i;
      }
      if (i < s.size() && (ident_char(s[i]) && !std::isdigit((unsigned char)s[i])))
        err(start, fmt::format("malformed number '{}'", std::string(s.substr(start, i - start + 1))));
    } else if (c == '"') {
      ++i;
      while (i < s.size() && s[i] != '"' && s[i] != '\n') ++i;
      if (i >= s.size() || s[i] != '"') err(start, "unterminated string");
      ++i;
      t.kind = Tok::String;
    } else {
      switch (c) {
        case ',': t.kind = Tok::Comma; break;
        case ';': t.kind = Tok::Semi; break;
        case ':': t.kind = Tok::Colon; break;
        case '[': t.kind = Tok::LBracket; break;
        case ']': t.kind = Tok::RBracket; break;
        case '{': t.kind = Tok::LBrace; break;
        case '}': t.kind = Tok::RBrace; break;
        case '(': t.kind = Tok::LParen; break;
        case ')': t.kind = Tok::RParen; break;
        case '<': t.kind = Tok::Lt; break;
        case '>': t.kind = Tok::Gt; break;
        case '+': t.kind = Tok::Plus; break;
        case '-': t.kind = Tok::Minus; break;
        case '|': t.kind = Tok::Bar; break;
        case '!': t.kind = Tok::Bang; break;
        case '@': t.kind = Tok::At; break;
        case '=': t.kind = Tok::Eq; break;
        default:
          err(start, fmt::format("unexpected character '{}'", std::isprint((unsigned char)c) ? std::string(1, c)
                                                                                                : fmt::format("\\x{:02x}", (unsigned char)c)));
      }
      ++i;
    }
    t.text = s.substr(start, i - start);
    out.push_back(t);
  }
  Token end;
  end.kind = Tok::End;
  end.line = line;
  end.col = static_cast<uint32_t>(i - line_start + 1);
  out.push_back(end);
  return out;
}

}  // namespace warpsim::isa
