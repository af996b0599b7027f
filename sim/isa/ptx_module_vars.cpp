// Module-scope .global / .const variable declarations (__device__ / __constant__ data):
//   [.visible] .global|.const [.attribute(.managed)] [.align N] .type name[dims]* [= init] ;
// where init is a scalar or a (nested) brace list of integers, 0f/0d floats, decimal
// floats, or addresses of earlier module variables written `name`, `generic(name)`, with an
// optional `+offset` (nvcc's pointer tables), or of the module's device functions (function
// pointers, virtual tables). A list shorter than the array leaves the rest
// zero, as nvcc's trailing-zero elision expects.
#include "sim/isa/ptx_module_vars.hpp"

#include <fmt/format.h>

#include <cstring>

#include "sim/foundation/error.hpp"

namespace warpsim::isa::detail {

namespace {

class VarParser {
 public:
  VarParser(const ModuleVarSyntax& s) : s_(s) {}

  ModuleVar parse(Space space, const Token& at) {
    ModuleVar v;
    v.space = space;
    v.decl_line = at.line;
    DType type = DType::None;
    uint32_t align = 0;
    while (peek().kind == Tok::Directive) {
      const Token& m = next();
      if (m.text == ".align") {
        align = static_cast<uint32_t>(expect(Tok::Int, "an alignment").int_value);
        if (align == 0 || (align & (align - 1))) s_.fail(m, "parse error: alignment must be a power of two");
      } else if (m.text == ".attribute") {
        // .attribute(.managed): a __managed__ variable (host and device share it). Only
        // .global variables may be managed; other attributes (.unified) are not modelled.
        expect(Tok::LParen, "'(' after .attribute");
        const Token& a = expect(Tok::Directive, "a variable attribute");
        if (a.text != ".managed") s_.unsupported(a, fmt::format("variable attribute {}", a.text));
        if (space != Space::Global) s_.fail(a, "parse error: only .global variables can be .managed");
        expect(Tok::RParen, "')'");
        v.managed = true;
      } else if (m.text == ".v2" || m.text == ".v4") {
        s_.unsupported(m, "vector-typed module variables");
      } else {
        DType t = parse_dtype(m.text.substr(1));
        if (t == DType::None || t == DType::Pred) s_.unsupported(m, fmt::format("variable type {}", m.text));
        type = t;
      }
    }
    if (type == DType::None) s_.fail(peek(), "parse error: expected a type for the variable");
    type_ = type;
    const Token& name = expect(Tok::Ident, "a variable name");
    v.name = std::string(name.text);
    uint64_t count = 1;
    bool unsized = false, overflow = false;
    while (s_.pos < s_.toks.size() && peek().kind == Tok::LBracket) {
      next();
      if (peek().kind == Tok::RBracket) {
        unsized = true;
      } else {
        overflow |= __builtin_mul_overflow(count, expect(Tok::Int, "an array size").int_value, &count);
      }
      expect(Tok::RBracket, "']'");
    }
    const int eb = dtype_bytes(type);
    if (peek().kind == Tok::Eq) {
      next();
      if (peek().kind == Tok::LBrace) list(v.init, 0);
      else element(v.init);
    }
    expect(Tok::Semi, "';'");
    uint64_t bytes = 0;
    if (unsized) {
      if (v.init.empty()) s_.unsupported(name, "an unsized module variable without an initialiser (.extern linking)");
      bytes = v.init.size();
    } else {
      overflow |= __builtin_mul_overflow(count, uint64_t(eb), &bytes);
    }
    if (overflow || bytes > (uint64_t(1) << 34)) s_.fail(name, "parse error: variable too large");
    if (v.init.size() > bytes)
      s_.fail(name, fmt::format("parse error: initialiser of '{}' has {} bytes, the variable {}", v.name,
                                v.init.size(), bytes));
    v.size = bytes;
    v.align = align ? align : static_cast<uint32_t>(eb);
    return v;
  }

 private:
  const Token& peek() const { return s_.toks[std::min(s_.pos, s_.toks.size() - 1)]; }
  const Token& next() {
    const Token& t = s_.toks[s_.pos];
    if (t.kind != Tok::End) ++s_.pos;
    return t;
  }
  const Token& expect(Tok k, const char* what) {
    if (peek().kind != k)
      s_.fail(peek(), fmt::format("parse error: expected {}, got '{}'", what,
                                  peek().kind == Tok::End ? std::string_view("end of file") : peek().text));
    return next();
  }

  // { e, e, {e, e}, ... } flattened; depth is bounded so hostile input cannot recurse deeply.
  void list(std::vector<uint8_t>& out, int depth) {
    const Token& open = expect(Tok::LBrace, "'{'");
    if (depth > 8) s_.fail(open, "parse error: initialiser nested too deeply");
    if (peek().kind != Tok::RBrace) {
      do {
        if (peek().kind == Tok::LBrace) list(out, depth + 1);
        else element(out);
      } while (peek().kind == Tok::Comma && (next(), true));
    }
    expect(Tok::RBrace, "'}'");
  }

  void put(std::vector<uint8_t>& out, uint64_t bits) {
    const int eb = dtype_bytes(type_);
    for (int i = 0; i < eb; ++i) out.push_back(static_cast<uint8_t>(bits >> (8 * i)));
  }

  void element(std::vector<uint8_t>& out) {
    const Token& t = peek();
    bool neg = false;
    if (t.kind == Tok::Minus) {
      next();
      neg = true;
    }
    const Token& n = next();
    if (n.kind == Tok::Int) {
      uint64_t v = neg ? uint64_t(0) - n.int_value : n.int_value;
      if (type_ == DType::F32) {
        float f = neg ? -float(n.int_value) : float(n.int_value);
        uint32_t b;
        std::memcpy(&b, &f, 4);
        v = b;
      } else if (type_ == DType::F64) {
        double f = neg ? -double(n.int_value) : double(n.int_value);
        std::memcpy(&v, &f, 8);
      } else if (is_half(type_)) {
        s_.unsupported(n, "half-precision initialisers");
      }
      return put(out, v);
    }
    if (n.kind == Tok::Float) {
      if (type_ != DType::F32 && type_ != DType::F64)
        s_.fail(n, fmt::format("parse error: floating-point initialiser for a .{} variable", dtype_name(type_)));
      uint64_t v = 0;
      if (n.float_hex) {
        if (n.float_hex_double != (type_ == DType::F64))
          s_.fail(n, "parse error: 0f literals initialise .f32, 0d literals .f64");
        v = n.int_value;
        if (neg) v ^= type_ == DType::F64 ? (uint64_t(1) << 63) : (uint64_t(1) << 31);
      } else if (type_ == DType::F32) {
        float f = static_cast<float>(neg ? -n.float_value : n.float_value);
        uint32_t b;
        std::memcpy(&b, &f, 4);
        v = b;
      } else {
        double f = neg ? -n.float_value : n.float_value;
        std::memcpy(&v, &f, 8);
      }
      return put(out, v);
    }
    if (n.kind == Tok::Ident && !neg) {
      // generic(sym) or sym, then +/- offsets: an address (generic == global in warpsim).
      const Token* sym = &n;
      if (n.text == "generic" && peek().kind == Tok::LParen) {
        next();
        sym = &expect(Tok::Ident, "a variable name");
        expect(Tok::RParen, "')'");
      }
      if (dtype_bytes(type_) != 8) s_.unsupported(*sym, "an address initialiser in a variable narrower than 64 bits");
      std::optional<uint64_t> base = s_.address_of(sym->text);
      if (!base)
        s_.unsupported(*sym, fmt::format("initialiser takes the address of '{}', which is not an earlier "
                                         ".global/.const variable or a function of this module",
                                         sym->text));
      int64_t off = 0;
      while (peek().kind == Tok::Plus || peek().kind == Tok::Minus) {
        bool m = next().kind == Tok::Minus;
        int64_t k = static_cast<int64_t>(expect(Tok::Int, "an offset").int_value);
        off += m ? -k : k;
      }
      return put(out, *base + static_cast<uint64_t>(off));
    }
    s_.fail(n, fmt::format("parse error: expected an initialiser value, got '{}'", n.text));
  }

  const ModuleVarSyntax& s_;
  DType type_ = DType::None;
};

}  // namespace

ModuleVar parse_module_var(const ModuleVarSyntax& syntax, Space space, const Token& at) {
  return VarParser(syntax).parse(space, at);
}

}  // namespace warpsim::isa::detail
