#include <catch2/catch.hpp>

#include "sim/foundation/error.hpp"
#include "sim/launch/int_expr.hpp"

using warpsim::ConfigError;
using warpsim::eval_int_expr;
using warpsim::IntVars;

namespace {
int64_t ev(const std::string& text, const IntVars& vars = {}) { return eval_int_expr(text, vars, "spec.json: grid[0]"); }

std::string error_of(const std::string& text, const IntVars& vars = {}) {
  try {
    ev(text, vars);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("integer expressions: literals, precedence and associativity", "[int_expr]") {
  CHECK(ev("42") == 42);
  CHECK(ev("1 + 2 * 3") == 7);
  CHECK(ev("(1 + 2) * 3") == 9);
  CHECK(ev("20 - 5 - 3") == 12);
  CHECK(ev("100 / 10 / 5") == 2);
  CHECK(ev("17 % 5 * 2") == 4);
  CHECK(ev("-3 + 10") == 7);
  CHECK(ev("- -4") == 4);
  CHECK(ev("+5") == 5);
  CHECK(ev("  7*  ( 2+1 ) ") == 21);
}

TEST_CASE("integer expressions: C division truncates toward zero", "[int_expr]") {
  CHECK(ev("7 / 2") == 3);
  CHECK(ev("-7 / 2") == -3);
  CHECK(ev("-7 % 2") == -1);
  CHECK(ev("7 % -2") == 1);
}

TEST_CASE("integer expressions: variables and functions", "[int_expr]") {
  IntVars vars{{"width", 512}, {"n", 1003}, {"tile_2", 16}};
  CHECK(ev("width/16", vars) == 32);
  CHECK(ev("width/tile_2 * width/tile_2", vars) == 1024);
  CHECK(ev("ceil_div(n, 64)", vars) == 16);
  CHECK(ev("ceil_div(1024, 64)") == 16);
  CHECK(ev("ceil_div(1, 64)") == 1);
  CHECK(ev("ceil_div(0, 64)") == 0);
  CHECK(ev("ceil_div(-5, 2)") == -2);
  CHECK(ev("min(n, 256)", vars) == 256);
  CHECK(ev("max(n, 256)", vars) == 1003);
  CHECK(ev("min(max(1, 2), ceil_div(n, 2)) + 1", vars) == 3);
}

TEST_CASE("integer expressions: errors name the key path and the problem", "[int_expr]") {
  IntVars vars{{"width", 512}};
  std::string e = error_of("widht/16", vars);
  CHECK_THAT(e, Catch::Contains("spec.json: grid[0]"));
  CHECK_THAT(e, Catch::Contains("unknown variable 'widht'"));
  CHECK_THAT(e, Catch::Contains("variables: width"));

  CHECK_THAT(error_of("width / (width - 512)", vars), Catch::Contains("division by zero"));
  CHECK_THAT(error_of("5 % 0"), Catch::Contains("division by zero"));
  CHECK_THAT(error_of("ceil_div(5, 0)"), Catch::Contains("division by zero"));
  CHECK_THAT(error_of("1 +"), Catch::Contains("unexpected end"));
  CHECK_THAT(error_of("(1 + 2"), Catch::Contains("expected ')'"));
  CHECK_THAT(error_of("1 2"), Catch::Contains("unexpected '2' at column 3"));
  CHECK_THAT(error_of("2 ** 3"), Catch::Contains("unexpected '*'"));
  CHECK_THAT(error_of("1.5 * 2"), Catch::Contains("integers only"));
  CHECK_THAT(error_of(""), Catch::Contains("empty expression"));
  CHECK_THAT(error_of("pow(2, 3)"), Catch::Contains("unknown function 'pow'"));
  CHECK_THAT(error_of("min(1)"), Catch::Contains("min() takes 2 arguments, got 1"));
  CHECK_THAT(error_of("9223372036854775807 + 1"), Catch::Contains("overflow"));
  CHECK_THAT(error_of("99999999999999999999"), Catch::Contains("too large"));
  CHECK_THAT(error_of("x", {}), Catch::Contains("no variables are defined"));
}
