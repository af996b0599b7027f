// PTX kernel bodies: labels, scopes, operands and instructions (decoded in ptx_decode*.cpp).
#include "sim/isa/ptx_module_parser.hpp"

namespace warpsim::isa::detail {

void ModuleParser::parse_body() {
  while (true) {
    const Token& t = peek();
    if (t.kind == Tok::End) fail_at(t, fmt::format("parse error: kernel '{}' is missing its closing '}}'", k_->name));
    if (t.kind == Tok::RBrace) {
      next();
      if (scopes_.size() == 1) return;
      scopes_.pop_back();
      cparams_.pop_back();
      continue;
    }
    if (t.kind == Tok::LBrace) {
      next();
      scopes_.emplace_back();
      cparams_.emplace_back();
      continue;
    }
    if (t.kind == Tok::Directive) {
      body_directive();
      continue;
    }
    if (t.kind == Tok::Ident && peek(1).kind == Tok::Colon) {
      if (peek(2).kind == Tok::Directive && (peek(2).text == ".callprototype" || peek(2).text == ".calltargets")) {
        parse_prototype(t);  // ptx_functions.cpp
        continue;
      }
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

// Vector elements are parsed with in_vector set: vectors do not nest, and '!' takes a
// register, so the recursion is at most two deep whatever the input (no stack overflow on
// "{{{{..." or "!!!!...").
RawOp ModuleParser::parse_operand(bool in_vector) {
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
    // Texture and surface operands: "[object, {coordinates}]" (the coordinates in elems).
    if (!in_vector && accept(Tok::Comma)) {
      if (peek().kind != Tok::LBrace) fail_at(peek(), "parse error: expected '{' (texture/surface coordinates)");
      op.elems = parse_operand(false).elems;
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
    // One element: surface loads/stores and 1D texture coordinates ("{%r1}"); eight: wmma
    // fragments (each instruction checks the count it takes).
    if (op.elems.size() != 1 && op.elems.size() != 2 && op.elems.size() != 4 && op.elems.size() != 8)
      fail_at(t, "parse error: vector operands have 1, 2, 4 or 8 elements");
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

void ModuleParser::parse_instruction() {
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
  in.ptx_line = op_tok.line;
  in.loc_file = loc_file_;
  in.loc_line = loc_line_;
  in.loc_col = loc_col_;
  std::vector<RawOp> ops;
  if (base == "call") {
    parse_call(in, op_tok);  // ptx_functions.cpp; its own operand syntax
  } else {
    if (!detail::known_opcode(base)) unsupported(fmt::format("instruction '{}'", base));
    if (peek().kind != Tok::Semi) {
      do ops.push_back(parse_operand());
      while (accept(Tok::Comma));
    }
  }
  const Token& semi = expect(Tok::Semi, "';'");
  size_t text_end = static_cast<size_t>(semi.text.data() - src_.data());
  if (in.op != Op::Call) detail::decode_instruction(*this, op_tok.text, op_tok, ops, in);
  apply_param_refs(in);
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
  in.nounroll = nounroll_next_;
  nounroll_next_ = false;
  k_->code.push_back(in);
  k_->text.push_back(std::move(text));
}

}  // namespace warpsim::isa::detail
