// The PTX tokeniser: token kinds and positions, literals, and its errors.
#include <catch2/catch.hpp>

#include "200_engine/ptx_fixture.hpp"
#include "sim/isa/ptx_lexer.hpp"

using namespace warpsim::isa;

namespace {

std::string lex_error(const std::string& text) {
  auto t = ptxtest::catch_error([&] { lex_ptx(text, "t.ptx"); });
  REQUIRE(t.type == "PtxError");
  return t.what;
}

}  // namespace

TEST_CASE("tokens: dotted names, directives, registers, punctuation, positions", "[isa][lexer]") {
  auto toks = lex_ptx("@!%p1 ld.global.v4.f32 {%f1,_}, [%rd1+-8]; // c\n$L__BB0_2: .reg .b32 %r<5>;", "t.ptx");
  std::vector<std::pair<Tok, std::string>> want = {
      {Tok::At, "@"},         {Tok::Bang, "!"},           {Tok::Ident, "%p1"},     {Tok::Ident, "ld.global.v4.f32"},
      {Tok::LBrace, "{"},     {Tok::Ident, "%f1"},        {Tok::Comma, ","},        {Tok::Ident, "_"},
      {Tok::RBrace, "}"},     {Tok::Comma, ","},          {Tok::LBracket, "["},     {Tok::Ident, "%rd1"},
      {Tok::Plus, "+"},       {Tok::Minus, "-"},          {Tok::Int, "8"},          {Tok::RBracket, "]"},
      {Tok::Semi, ";"},       {Tok::Ident, "$L__BB0_2"},  {Tok::Colon, ":"},        {Tok::Directive, ".reg"},
      {Tok::Directive, ".b32"}, {Tok::Ident, "%r"},       {Tok::Lt, "<"},           {Tok::Int, "5"},
      {Tok::Gt, ">"},         {Tok::Semi, ";"},           {Tok::End, ""},
  };
  REQUIRE(toks.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO(i);
    CHECK(toks[i].kind == want[i].first);
    CHECK(std::string(toks[i].text) == want[i].second);
  }
  CHECK(toks[3].line == 1);
  CHECK(toks[3].col == 7);
  CHECK(toks[17].line == 2);
  CHECK(toks[17].col == 1);
  CHECK(toks.back().line == 2);
  CHECK(toks.back().col == 28);
  // Special registers keep their dotted suffix.
  auto sp = lex_ptx("%tid.x %ctaid.y", "t.ptx");
  CHECK(std::string(sp[0].text) == "%tid.x");
  CHECK(std::string(sp[1].text) == "%ctaid.y");
}

TEST_CASE("literals: decimal, hex, octal, binary, U suffix, 0f/0d floats, decimal floats", "[isa][lexer]") {
  auto toks = lex_ptx("42 0x7fffffff 0XFFFFFFFFFFFFFFFF 017 0b101 7U 0f3F800000 0dBFF0000000000000 1.5 2e3 3.25e-1",
                      "t.ptx");
  CHECK(toks[0].kind == Tok::Int);
  CHECK(toks[0].int_value == 42);
  CHECK(toks[1].int_value == 0x7fffffffu);
  CHECK(toks[2].int_value == 0xFFFFFFFFFFFFFFFFull);
  CHECK(toks[3].int_value == 15);  // octal
  CHECK(toks[4].int_value == 5);
  CHECK(toks[5].kind == Tok::Int);
  CHECK(toks[5].int_value == 7);
  CHECK(std::string(toks[5].text) == "7U");
  CHECK(toks[6].kind == Tok::Float);
  CHECK(toks[6].float_hex);
  CHECK_FALSE(toks[6].float_hex_double);
  CHECK(toks[6].int_value == 0x3F800000u);
  CHECK(toks[7].float_hex_double);
  CHECK(toks[7].int_value == 0xBFF0000000000000ull);
  CHECK(toks[8].kind == Tok::Float);
  CHECK(toks[8].float_value == 1.5);
  CHECK(toks[9].kind == Tok::Float);
  CHECK(toks[9].float_value == 2000.0);
  CHECK(toks[10].float_value == 0.325);
  CHECK(toks[11].kind == Tok::End);
}

TEST_CASE("comments and strings", "[isa][lexer]") {
  auto toks = lex_ptx("/* a\n b */ x // y\n\"s t\" /**/ z", "t.ptx");
  REQUIRE(toks.size() == 4);
  CHECK(std::string(toks[0].text) == "x");
  CHECK(toks[0].line == 2);
  CHECK(toks[0].col == 7);
  CHECK(toks[1].kind == Tok::String);
  CHECK(std::string(toks[1].text) == "\"s t\"");
  CHECK(toks[1].line == 3);
  CHECK(std::string(toks[2].text) == "z");
}

TEST_CASE("lexer errors are parse errors at the offending position", "[isa][lexer]") {
  CHECK(lex_error("x $y\n  #") == "t.ptx:2:3: parse error: unexpected character '#'");
  CHECK(lex_error("\x7f") == "t.ptx:1:1: parse error: unexpected character '\\x7f'");
  CHECK(lex_error("a 0f12") == "t.ptx:1:3: parse error: malformed 0f literal: expected 8 hex digits");
  CHECK(lex_error("0d123456789") == "t.ptx:1:1: parse error: malformed 0d literal: expected 16 hex digits");
  CHECK(lex_error("0x") == "t.ptx:1:1: parse error: malformed hexadecimal literal");
  CHECK(lex_error("0x12345678901234567") == "t.ptx:1:1: parse error: malformed hexadecimal literal");
  CHECK(lex_error("0b") == "t.ptx:1:1: parse error: malformed binary literal");
  CHECK(lex_error("18446744073709551616") == "t.ptx:1:1: parse error: integer literal out of range");
  CHECK(lex_error("1x") == "t.ptx:1:1: parse error: malformed number '1x'");
  CHECK(lex_error("\n \"abc\ndef\"") == "t.ptx:2:2: parse error: unterminated string");
}

TEST_CASE("an unterminated comment is reported where it starts", "[isa][lexer]") {
  // Before: the line where the file ended and a column computed from the wrong line start
  // (t.ptx:4:18446744073709551600).
  CHECK(lex_error("a\n  /* open\nstill\n") == "t.ptx:2:3: parse error: unterminated /* comment");
  CHECK(lex_error("/*") == "t.ptx:1:1: parse error: unterminated /* comment");
  CHECK(lex_error("x /* a */ y /* b\n*") == "t.ptx:1:13: parse error: unterminated /* comment");
}
