#include "sim/launch/int_expr.hpp"

#include <fmt/format.h>

#include <cctype>
#include <vector>

#include "sim/foundation/error.hpp"

namespace warpsim {
namespace {

// Recursive-descent evaluator over the expression text; `pos_` is the next character.
class ExprParser {
 public:
  ExprParser(std::string_view text, const IntVars& vars, const std::string& where)
      : text_(text), vars_(vars), where_(where) {}

  int64_t parse_all() {
    skip_space();
    if (pos_ == text_.size()) fail("empty expression");
    int64_t v = parse_sum();
    skip_space();
    if (pos_ != text_.size()) fail(fmt::format("unexpected '{}' at column {}", text_[pos_], pos_ + 1));
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& msg) const {
    throw ConfigError(fmt::format("{}: {} in expression '{}'", where_, msg, text_));
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  void expect(char c) {
    if (!accept(c)) {
      if (pos_ >= text_.size()) fail(fmt::format("expected '{}' at the end", c));
      fail(fmt::format("expected '{}' at column {}, got '{}'", c, pos_ + 1, text_[pos_]));
    }
  }

  void overflow(const char* op) const { fail(fmt::format("integer overflow in '{}'", op)); }

  int64_t add(int64_t a, int64_t b) const {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) overflow("+");
    return r;
  }
  int64_t sub(int64_t a, int64_t b) const {
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) overflow("-");
    return r;
  }
  int64_t mul(int64_t a, int64_t b) const {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) overflow("*");
    return r;
  }

  int64_t div(int64_t a, int64_t b, const char* op) const {
    if (b == 0) fail(fmt::format("division by zero ('{}')", op));
    if (a == INT64_MIN && b == -1) fail(fmt::format("integer overflow in '{}'", op));
    return op[0] == '%' ? a % b : a / b;
  }

  int64_t ceil_div(int64_t a, int64_t b) const {
    int64_t q = div(a, b, "ceil_div");
    if (a % b != 0 && ((a < 0) == (b < 0))) ++q;
    return q;
  }

  int64_t parse_sum() {
    int64_t v = parse_product();
    for (;;) {
      if (accept('+')) v = add(v, parse_product());
      else if (accept('-')) v = sub(v, parse_product());
      else return v;
    }
  }

  int64_t parse_product() {
    int64_t v = parse_unary();
    for (;;) {
      if (accept('*')) v = mul(v, parse_unary());
      else if (accept('/')) v = div(v, parse_unary(), "/");
      else if (accept('%')) v = div(v, parse_unary(), "%");
      else return v;
    }
  }

  int64_t parse_unary() {
    if (accept('-')) return sub(0, parse_unary());
    if (accept('+')) return parse_unary();
    return parse_primary();
  }

  int64_t parse_primary() {
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end");
    char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      int64_t v = parse_sum();
      expect(')');
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return parse_number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return parse_name();
    fail(fmt::format("unexpected '{}' at column {}", c, pos_ + 1));
  }

  int64_t parse_number() {
    size_t start = pos_;
    int64_t v = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, text_[pos_] - '0', &v))
        fail(fmt::format("number at column {} is too large", start + 1));
      ++pos_;
    }
    if (pos_ < text_.size() && (std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.'))
      fail(fmt::format("bad number at column {} (integers only)", start + 1));
    return v;
  }

  int64_t parse_name() {
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    std::string name(text_.substr(start, pos_ - start));
    if (accept('(')) return parse_call(name, start);
    auto it = vars_.find(name);
    if (it == vars_.end()) fail(fmt::format("unknown variable '{}' ({})", name, known_names()));
    return it->second;
  }

  int64_t parse_call(const std::string& name, size_t start) {
    if (name != "ceil_div" && name != "min" && name != "max")
      fail(fmt::format("unknown function '{}' at column {} (functions: ceil_div, min, max)", name, start + 1));
    std::vector<int64_t> args{parse_sum()};
    while (accept(',')) args.push_back(parse_sum());
    expect(')');
    if (args.size() != 2) fail(fmt::format("{}() takes 2 arguments, got {}", name, args.size()));
    if (name == "min") return std::min(args[0], args[1]);
    if (name == "max") return std::max(args[0], args[1]);
    return ceil_div(args[0], args[1]);
  }

  std::string known_names() const {
    if (vars_.empty()) return "no variables are defined";
    std::string s = "variables: ";
    bool first = true;
    for (const auto& [k, v] : vars_) {
      if (!first) s += ", ";
      s += k;
      first = false;
    }
    return s;
  }

  std::string_view text_;
  const IntVars& vars_;
  const std::string& where_;
  size_t pos_ = 0;
};

}  // namespace

int64_t eval_int_expr(std::string_view text, const IntVars& vars, const std::string& where) {
  return ExprParser(text, vars, where).parse_all();
}

}  // namespace warpsim
